// The router: "auto"'s choice, read top to bottom.  Each rule names the algorithm it picks, why,
// and the condition under which it applies; the first rule that applies and whose algorithm
// accepts the problem (whyNot) wins.  The conditions that price a kernel against another live
// beside the kernel whose tiles they price (registry.hpp lists them); the thresholds that are
// not a model's are here, each with the measurement behind it in docs/performance.md.
#include "conv/router.hpp"

#include "conv/registry.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

// 16-bit NCHW activations whose C/groups takes a zero-filled slice tail (% 16 == 8) and whose
// reduction is short stay on the scalar GEMM: there the matrix kernels' NCHW output (behind
// coopmat_nhwc's transposes or from their own NCHW staging) outweighs the products.  fp16 on the
// H100 (docs/performance.md, "NCHW layers"): MobileNetV3-Large's and EfficientNet-B0's 24-72-value
// pointwise layers ran 1.2-3x slower than implicit_gemm at b1 and b32, with one exception; from
// 120 values (120-200-channel pointwise layers, 3x3 windows of 24 and 40 channels) 1.1-2.2x faster.
constexpr int64_t kNchwTailMinReduction = 96;
bool nchwTailStaysScalar(const ConvDesc& d) {
    return d.inputLayout == TensorLayout::NCHW && d.dtype != DType::F32 && d.channelsPerGroup() % 16 != 0 &&
           d.reductionLength() < kNchwTailMinReduction;
}

// 16-bit NCHW 1x1 stride-1 layers of at most 64 channels per group and few products, on a device
// with matrix units: the scalar GEMM in the caller's layout, with per-load bounds arithmetic (no
// mask prologue, which a 1x1 unpadded layer never needs).  One dispatch against coopmat_nhwc's
// transposes around its kernel (three): on the H200 at b1 every such layer of the suites up to
// 38.5 MFLOP ran faster on it, and the next one (103 MFLOP) slower (docs/performance.md, "NCHW
// layers").
constexpr int64_t kSmallPointwiseChannels = 64;
constexpr double kSmallPointwiseFlops = 64e6;
bool smallPointwiseStaysScalar(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (d.inputLayout != TensorLayout::NCHW || d.outputLayout != TensorLayout::NCHW || d.dtype == DType::F32 ||
        d.r != 1 || d.s != 1 || d.strideH != 1 || d.strideW != 1 || d.padTop || d.padBottom || d.padLeft ||
        d.padRight || d.channelsPerGroup() > kSmallPointwiseChannels || d.flops() > kSmallPointwiseFlops)
        return false;
    const Algorithm* cm = findAlgorithm("implicit_gemm_coopmat");
    return cm && cm->whyNot(ctx, d, o).empty() && findAlgorithm("implicit_gemm_analytic")->whyNot(ctx, d, o).empty();
}

// First layers (C/groups <= 8, 16+ filters), 16-bit storage on a device with matrix units: each
// pixel's whole reduction as one window of a column-expanded halo.  At C/groups <= 4
// direct_few_channels stays faster on short reductions below 2^21 output values, except with NHWC
// activations and 64+ filters per group, and on long reductions (ResNet-50's 7x7 stem: about
// twice as fast), measured on the H100 at b1 (docs/performance.md, "few_channels_coopmat").
bool fewChannelsCoopmatApplies(const ConvDesc& d) {
    constexpr uint64_t kMinOutputs = uint64_t(1) << 21;
    constexpr int64_t kLongReduction = 64;
    constexpr int64_t kNhwcFilters = 64;
    return d.channelsPerGroup() <= 8 && d.filtersPerGroup() >= 16 &&
           (d.channelsPerGroup() > 4 || uint64_t(d.outputElements()) >= kMinOutputs ||
            d.reductionLength() >= kLongReduction ||
            (d.inputLayout == TensorLayout::NHWC && d.filtersPerGroup() >= kNhwcFilters));
}

// Grouped 16-bit layers of few channels or filters per group (groupedCoopmatPays) on
// grouped_coopmat, where implicit_gemm_coopmat declines them (its alternatives are scalar:
// direct_few_filters ran ResNeXt-50's 4 x 4 groups 13x slower) or, at stride 1, where the output is
// at least as wide as the kernel's narrowest column tile: 2-4.6x faster there on the H100 (ResNeXt
// 8 x 8 groups at 28x28, RegNetY at 14x14 and 28x28); at stride 2 it tied implicit_gemm_coopmat
// (0.9-1.1x) and its row-step tiles waste columns on 7x7 outputs (docs/performance.md,
// "grouped_coopmat").
constexpr int64_t kGroupedMinStride1Width = 14;
bool groupedCoopmatApplies(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, bool matrixUnits) {
    return groupedCoopmatPays(ctx, d, o) &&
           (!matrixUnits || (d.strideH == 1 && d.strideW == 1 && d.outW() >= kGroupedMinStride1Width));
}

// The same question for 16-bit NCHW activations, asked of their NHWC problem (what coopmat_nhwc's
// transposes would run; take() asks coopmat_nhwc whether its transposes fit).  Short reductions
// too: the in-layout alternatives have no matrix units.
bool groupedCoopmatNchwApplies(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (d.inputLayout != TensorLayout::NCHW || d.groups < 2 || d.dtype == DType::F32) return false;
    ConvDesc g = d;
    g.inputLayout = TensorLayout::NHWC;
    g.filterLayout = FilterLayout::KRSC;
    const Algorithm* cm = findAlgorithm("implicit_gemm_coopmat");
    return groupedCoopmatApplies(ctx, g, o, cm && cm->whyNot(ctx, g, o).empty());
}

// The rule chain: take() records every rule it is asked, so a Route says what chose and what
// did not.
class Chain {
public:
    Chain(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, Route& r) : ctx_(ctx), d_(d), o_(o), r_(r) {}

    bool accepts(const char* name) const {
        const Algorithm* a = findAlgorithm(name);
        return a && a->whyNot(ctx_, d_, o_).empty();
    }

    // `name` where `applies` and it accepts the problem.
    bool take(const char* name, const char* why, bool applies) {
        RouteStep s{name, why, "does not apply"};
        const Algorithm* a = findAlgorithm(name);
        if (applies && a) {
            const std::string no = a->whyNot(ctx_, d_, o_);
            s.outcome = no.empty() ? "chosen" : "applies, but " + std::string(name) + " declines: " + no;
            if (no.empty()) r_.algorithm = a;
        }
        r_.steps.push_back(std::move(s));
        return r_.algorithm != nullptr;
    }

private:
    const ContextImpl& ctx_;
    const ConvDesc& d_;
    const PlanOptions& o_;
    Route& r_;
};

void routeInLayoutInto(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, Route& r) {
    Chain c(ctx, d, o, r);
    const bool depthwise = d.groups == d.c && d.c > 1 && d.k % d.c == 0;
    const bool matrixUnits = c.accepts("implicit_gemm_coopmat");
    // Tiny-channel grouped problems waste a GEMM tile; direct serves them better.
    const bool gemmShaped = d.filtersPerGroup() >= 8 || d.reductionLength() >= 32;
    const bool matrixGemm = gemmShaped && matrixUnits && !nchwTailStaysScalar(d);
    // clang-format off
    if (c.take("depthwise_tiled", "depthwise (groups == C == K): its staged halo, where its tile model beats the "
               "register kernel", depthwise && depthwiseTiledPays(ctx, d, o))) return;
    if (c.take("depthwise", "depthwise and channel-multiplier layers: the dedicated kernel", depthwise)) return;
    if (c.take("gemv", "layers of a few output pixels: the filter's read", gemvPays(ctx, d, o))) return;
    if (c.take("grouped_coopmat", "grouped layers of few channels or filters per group on the matrix units: "
               "consecutive groups as one block-diagonal GEMM", groupedCoopmatApplies(ctx, d, o, matrixUnits))) return;
    if (c.take("few_channels_coopmat", "first layers (C/groups <= 8, 16+ filters) on the matrix units: one window "
               "of a column-expanded halo per pixel", fewChannelsCoopmatApplies(d))) return;
    if (c.take("direct_few_channels", "first layers (C/groups <= 4, 16+ filters): their 27-196-long reductions "
               "waste GEMM slices", d.channelsPerGroup() <= 4 && d.filtersPerGroup() >= 16)) return;
    // SD-VAE l7 (128 -> 3 channels at 512x512, fp16 b1 on the H200): 2.4x faster than
    // direct_few_filters (docs/performance.md, "halo_coopmat").
    if (c.take("halo_coopmat", "few filters per group, stride 1, several taps: one-column tiles stage each input "
               "pixel once for all taps and pad the filters to 16", haloCoopmatTakesFewFilters(ctx, d, o))) return;
    // Where the matrix units take the layer, up to 4 filters (8 filters of 64 channels ran slower
    // than implicit_gemm_coopmat, 3 of 128 faster, H200 fp16 NHWC); on the scalar path up to 8
    // filters of at most 128 channels per group (at 256 winograd and split-K ran 2.5-3x faster, at
    // 128 this kernel 1.7x; docs/performance.md, "direct_few_channels and direct_few_filters").
    if (c.take("direct_few_filters", "few filters per group: a GEMM tile's 16+ filter columns would be mostly "
               "padding", d.filtersPerGroup() <= 8 && (matrixUnits ? d.filtersPerGroup() <= 4
                                                                   : d.channelsPerGroup() <= 128))) return;
    // The matrix units (fp16/bf16, C/groups % 8 == 0) down to 9-16 filters per group, which the
    // 32-wide matrix tile runs faster than the scalar kernel; RDNA1/2 and devices without
    // VK_KHR_cooperative_matrix keep the scalar path (docs/performance.md, "implicit_gemm_coopmat").
    if (c.take("pointwise_coopmat", "1x1 stride-1 layers of few channels on the matrix units: their time is the "
               "output's bytes, which the streaming kernel writes at full rate",
               matrixGemm && pointwiseCoopmatPays(ctx, d, o))) return;
    if (c.take("slicedk_coopmat", "1x1 stride-1 layers of few pixels and deep reductions on the matrix units: the "
               "reduction split over each workgroup's subgroups", matrixGemm && slicedKCoopmatPays(ctx, d, o))) return;
    if (c.take("winograd", "3x3 stride-1 layers with the batched GEMM on the matrix units, where the model puts it "
               "clearly below the direct GEMM", matrixGemm && winogradMatrixUnits(ctx, d, o) &&
               winogradPays(ctx, d, o))) return;
    if (c.take("halo_coopmat", "stride-1 layers with several taps: one staged halo slice for every tap, where its "
               "model beats the channel-slice GEMM's", matrixGemm && haloCoopmatPays(ctx, d, o))) return;
    if (c.take("implicit_gemm_coopmat", "the matrix units' GEMM for every other layer they take", matrixGemm)) return;
    if (c.take("winograd", "3x3 stride-1 layers off the matrix units, where the model says the transforms pay for "
               "the 36/144 or 16/36 of the multiplies", gemmShaped && winogradPays(ctx, d, o))) return;
    if (c.take("implicit_gemm_nhwc", "NCHW layers whose staging would be scalar (stride 2; 1x1 at H*W % 4 != 0): "
               "the NHWC kernel behind a transpose, where the model says it pays",
               gemmShaped && nhwcTransformPays(ctx, d, o))) return;
    if (c.take("implicit_gemm_splitk", "deep reductions whose output tiles underfill the GPU, within "
               "PlanOptions::workspaceLimit", gemmShaped && implicitGemmSplitKPays(ctx, d, o) &&
               c.accepts("implicit_gemm"))) return;
    if (c.take("implicit_gemm", "the scalar GEMM for every other layer with 8+ filters per group or a 32+ long "
               "reduction", gemmShaped)) return;
    if (c.take("direct", "every problem", true)) return;
    // clang-format on
    r.algorithm = findAlgorithm("direct");  // direct accepts every problem Plan validated
}

}  // namespace

Route routeInLayout(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    Route r;
    routeInLayoutInto(ctx, d, o, r);
    return r;
}

Route route(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    Route r;
    Chain c(ctx, d, o, r);
    // clang-format off
    if (c.take("gemv", "layers of a few output pixels (squeeze-excitation, classifiers): their time is the "
               "filter's bytes, which gemv reads once in 16-byte words, in the caller's layout",
               gemvPays(ctx, d, o))) return r;
    if (c.take("slicedk_coopmat", "16-bit NCHW 1x1 layers of few pixels and outputs: the sliced-K kernel in the "
               "caller's layout", slicedKCoopmatNchwPays(ctx, d, o))) return r;
    if (c.take("pointwise_coopmat", "16-bit NCHW 1x1 layers of short reductions: the streaming kernel with "
               "channel-major staging, ahead of the scalar GEMM and the transposes",
               pointwiseCoopmatNchwPays(ctx, d, o))) return r;
    if (c.take("implicit_gemm_analytic", "16-bit NCHW 1x1 layers of few channels and products: one scalar dispatch "
               "beats three behind transposes", smallPointwiseStaysScalar(ctx, d, o))) return r;
    if (c.take("coopmat_nhwc", "16-bit NCHW grouped layers whose NHWC problem grouped_coopmat takes: behind the "
               "transposes whatever the reduction's length (the in-layout kernels have no matrix units)",
               groupedCoopmatNchwApplies(ctx, d, o))) return r;
    // 16-bit NCHW activations whose NHWC problem runs on the matrix units: behind transposes (the
    // NCHW staging loads one 16-bit value at a time; docs/performance.md, "NCHW layers"), or on
    // plain winograd where its own NCHW reads cost less than a direct kernel's transposes.
    const NchwRoute nchw = nchwTailStaysScalar(d) ? NchwRoute::InLayout : nchwMatrixRoute(ctx, d, o);
    if (c.take("winograd", "small 16-bit NCHW 3x3 layers: winograd's input transform reads NCHW, cheaper than "
               "transposes around a direct matrix kernel", nchw == NchwRoute::PlainWinograd)) return r;
    if (c.take("coopmat_nhwc", "16-bit NCHW layers whose NHWC problem runs on the matrix units: NHWC behind "
               "transposes", nchw == NchwRoute::Transposes)) return r;
    if (c.take("slicedk_coopmat", "16-bit NCHW 1x1 layers the sliced-K kernel reads in layout with 4-pixel loads",
               nchw == NchwRoute::SlicedK)) return r;
    // clang-format on
    routeInLayoutInto(ctx, d, o, r);
    return r;
}

}  // namespace vkconv
