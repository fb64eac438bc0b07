// The algorithm registry and the router.
#include "conv/algorithm.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

std::string directWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> directInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> directVariants(const ContextImpl&);
std::string directBlockedWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> directBlockedInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> directBlockedVariants(const ContextImpl&);
std::string directTiledWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> directTiledInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> directTiledVariants(const ContextImpl&);
std::string directFewFiltersWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> directFewFiltersInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> directFewFiltersVariants(const ContextImpl&);
std::string directFewChannelsWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> directFewChannelsInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> directFewChannelsVariants(const ContextImpl&);
std::string fewChannelsCoopmatWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> fewChannelsCoopmatInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> fewChannelsCoopmatVariants(const ContextImpl&);
std::string groupedCoopmatWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> groupedCoopmatInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> groupedCoopmatVariants(const ContextImpl&);
bool groupedCoopmatPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool groupedCoopmatNchwPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::string implicitGemmWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> implicitGemmInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> implicitGemmAnalyticInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> implicitGemmVariants(const ContextImpl&);
std::string implicitGemmSplitKWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> implicitGemmSplitKInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> implicitGemmSplitKVariants(const ContextImpl&);
bool implicitGemmSplitKPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::string depthwiseWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> depthwiseInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> depthwiseVariants(const ContextImpl&);
std::string depthwiseTiledWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> depthwiseTiledInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> depthwiseTiledVariants(const ContextImpl&);
bool depthwiseTiledPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::string coopmatWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> coopmatInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> coopmatVariants(const ContextImpl&);
std::string haloCoopmatWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> haloCoopmatInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> haloCoopmatVariants(const ContextImpl&);
std::string pointwiseCoopmatWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> pointwiseCoopmatInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> pointwiseCoopmatVariants(const ContextImpl&);
bool pointwiseCoopmatPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool pointwiseCoopmatNchwPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::string slicedKCoopmatWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> slicedKCoopmatInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> slicedKCoopmatVariants(const ContextImpl&);
bool slicedKCoopmatPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool slicedKCoopmatNchwPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::string winogradWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> winogradInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> winogradVariants(const ContextImpl&);
bool winogradPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool haloCoopmatPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool haloCoopmatTakesFewFilters(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool winogradMatrixUnits(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::string nhwcTransformWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> nhwcTransformInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> nhwcTransformVariants(const ContextImpl&);
bool nhwcTransformPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::string coopmatNhwcWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> coopmatNhwcInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::string> implicitGemmTileNames();
std::vector<std::string> coopmatTileNames();
std::vector<std::string> haloCoopmatTileNames();

const std::vector<Algorithm>& algorithms() {
    static const std::vector<Algorithm> registry = {
        {"direct", "one invocation per output element; every problem (reference)", directWhyNot, directInstantiate,
         directVariants},
        {"direct_blocked",
         "direct with 256-invocation workgroups and 4 filters x 4 columns per invocation in registers; every problem",
         directBlockedWhyNot, directBlockedInstantiate, directBlockedVariants},
        {"direct_tiled",
         "shared-memory tiled direct: input halo + filter chunk staged per channel chunk, 4x4 outputs per invocation",
         directTiledWhyNot, directTiledInstantiate, directTiledVariants},
        {"direct_few_channels",
         "first layers (C/groups <= 8): the whole input halo and reduction of 8-64 filters staged once, "
         "8 rows x 8 filters per invocation",
         directFewChannelsWhyNot, directFewChannelsInstantiate, directFewChannelsVariants},
        {"direct_few_filters",
         "at most 8 filters per group (e.g. an RGB output layer): PX pixels x every filter per invocation, "
         "channel groups outer, taps inner, filters staged in shared memory",
         directFewFiltersWhyNot, directFewFiltersInstantiate, directFewFiltersVariants},
        {"implicit_gemm", "tiled implicit GEMM, double-buffered shared memory, register tiles, padding masks",
         implicitGemmWhyNot, implicitGemmInstantiate, implicitGemmVariants,
         [](bool exhaustive) { return exhaustive ? implicitGemmTileNames() : std::vector<std::string>{}; }},
        {"implicit_gemm_analytic", "implicit_gemm with per-load bounds arithmetic instead of precomputed masks",
         implicitGemmWhyNot, implicitGemmAnalyticInstantiate, nullptr},
        {"implicit_gemm_splitk",
         "implicit_gemm with the reduction split over workgroups (fp32 partials in the workspace), then a sum + "
         "epilogue pass",
         implicitGemmSplitKWhyNot, implicitGemmSplitKInstantiate, implicitGemmSplitKVariants},
        {"depthwise",
         "groups == C (channel multiplier K/C): output blocks per invocation, taps and input rows in registers",
         depthwiseWhyNot, depthwiseInstantiate, depthwiseVariants},
        {"depthwise_tiled",
         "groups == C == K, NHWC: a workgroup's input halo loaded in 16-byte words at once into shared "
         "memory (fp32), then output blocks of 4 channels per invocation from it",
         depthwiseTiledWhyNot, depthwiseTiledInstantiate, depthwiseTiledVariants},
        {"implicit_gemm_coopmat",
         "implicit_gemm on the matrix units (VK_KHR_cooperative_matrix): 16-bit operands, fp32 accumulation",
         coopmatWhyNot, coopmatInstantiate, coopmatVariants,
         [](bool exhaustive) { return exhaustive ? coopmatTileNames() : std::vector<std::string>{}; }},
        {"few_channels_coopmat",
         "first layers (C/groups <= 8) on the matrix units: a column-expanded halo makes each pixel's "
         "reduction one contiguous window that A fragments load directly; fp16/bf16",
         fewChannelsCoopmatWhyNot, fewChannelsCoopmatInstantiate, fewChannelsCoopmatVariants},
        {"grouped_coopmat",
         "grouped layers of few channels or filters per group on the matrix units: consecutive groups as one "
         "block-diagonal GEMM over their contiguous channels (zero filters across groups), an input halo "
         "staged once for every tap; fp16/bf16",
         groupedCoopmatWhyNot, groupedCoopmatInstantiate, groupedCoopmatVariants},
        {"halo_coopmat",
         "stride-1 layers on the matrix units: one staged channel slice of the input halo serves every "
         "filter tap (A fragments at tap-shifted offsets of a flattened strip); fp16/bf16, NHWC input",
         haloCoopmatWhyNot, haloCoopmatInstantiate, haloCoopmatVariants,
         [](bool exhaustive) { return exhaustive ? haloCoopmatTileNames() : std::vector<std::string>{}; }},
        {"pointwise_coopmat",
         "1x1 stride-1 layers of at most 64 channels (NHWC, KRSC) on the matrix units: filters staged "
         "once, each subgroup streams its pixel blocks with the next block's loads in flight during "
         "the stores; fp16/bf16",
         pointwiseCoopmatWhyNot, pointwiseCoopmatInstantiate, pointwiseCoopmatVariants},
        {"slicedk_coopmat",
         "few output pixels over deep reductions (NHWC input with KRSC filters, NCHW input with KCRS or "
         "KRSC; any filter; routed for 1x1 layers) on the matrix units: the subgroups of a workgroup split "
         "the reduction and add their partial tiles in shared memory; fp16/bf16",
         slicedKCoopmatWhyNot, slicedKCoopmatInstantiate, slicedKCoopmatVariants},
        {"winograd",
         "F(4x4,3x3) or F(2x2,3x3) for 3x3 stride-1 filters: input/filter/output transforms around a batched "
         "GEMM (36/144 or 16/36 of the multiplies; transformed tensors in the workspace: fp32, or 16-bit operands "
         "with the GEMM on the matrix units)",
         winogradWhyNot, winogradInstantiate, winogradVariants,
         [](bool) {
             return std::vector<std::string>{"2x2", "4x4"};
         }},
        {"implicit_gemm_nhwc",
         "NCHW activations (and KCRS filters) transposed into the workspace as NHWC (KRSC), then implicit_gemm "
         "with 4-wide channel loads, output in the caller's layout",
         nhwcTransformWhyNot, nhwcTransformInstantiate, nhwcTransformVariants},
        // Its own pipelines are implicit_gemm_nhwc's transposes and the inner kernels': no variants.
        {"coopmat_nhwc",
         "16-bit NCHW activations (and KCRS filters) transposed into the workspace as NHWC (KRSC), then the "
         "matrix-unit kernel the router picks for the NHWC problem, output in the caller's layout",
         coopmatNhwcWhyNot, coopmatNhwcInstantiate, nullptr,
         // Each matrix-unit kernel behind the transposes (the NHWC router's pick is the "" candidate).
         [](bool) {
             return std::vector<std::string>{"implicit_gemm_coopmat", "halo_coopmat",    "pointwise_coopmat",
                                             "slicedk_coopmat",       "grouped_coopmat", "winograd:2x2",
                                             "winograd:4x4"};
         }},
    };
    return registry;
}

std::vector<uint32_t> variantSubgroupSizes(const ContextImpl& ctx) {
    std::vector<uint32_t> sgs = {0};
    if (ctx.caps.subgroupSizeControl)
        for (uint32_t sg : {32u, 64u})
            if (sg >= ctx.caps.minSubgroupSize && sg <= ctx.caps.maxSubgroupSize) sgs.push_back(sg);
    return sgs;
}

void makeNhwc(ConvDesc& d) {
    d.inputLayout = d.outputLayout = TensorLayout::NHWC;
    d.filterLayout = FilterLayout::KRSC;
}

const Algorithm* findAlgorithm(const std::string& name) {
    for (auto& a : algorithms())
        if (name == a.name) return &a;
    return nullptr;
}

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

}  // namespace

const Algorithm& chooseAlgorithm(const ContextImpl& ctx, const ConvDesc& desc, const PlanOptions& opts) {
    // 16-bit NCHW 1x1 layers of few pixels and outputs: the sliced-K kernel in the caller's layout.
    if (slicedKCoopmatNchwPays(ctx, desc, opts)) return *findAlgorithm("slicedk_coopmat");
    // 16-bit NCHW 1x1 layers of short reductions: the streaming pointwise kernel in the caller's
    // layout (channel-major staging), ahead of the scalar GEMM and the transposes.
    if (pointwiseCoopmatNchwPays(ctx, desc, opts)) return *findAlgorithm("pointwise_coopmat");
    // 16-bit NCHW activations whose NHWC problem runs on the matrix units: behind transposes, as
    // NHWC (the NCHW staging loads one 16-bit value at a time; docs/performance.md, "NCHW layers").
    // Small ones whose NHWC problem is a direct kernel's: plain winograd where that kernel's
    // transposes cost more than winograd's own NCHW reads.
    if (smallPointwiseStaysScalar(ctx, desc, opts)) return *findAlgorithm("implicit_gemm_analytic");
    // Grouped layers whose NHWC problem grouped_coopmat takes: behind the transposes whatever the
    // reduction's length (direct_few_filters took 13x its time on ResNeXt's 4 x 4 groups in NHWC).
    if (groupedCoopmatNchwPays(ctx, desc, opts)) return *findAlgorithm("coopmat_nhwc");
    if (!nchwTailStaysScalar(desc)) {
        const NchwRoute route = nchwMatrixRoute(ctx, desc, opts);
        if (route == NchwRoute::PlainWinograd) return *findAlgorithm("winograd");
        if (route == NchwRoute::Transposes) return *findAlgorithm("coopmat_nhwc");
        if (route == NchwRoute::SlicedK) return *findAlgorithm("slicedk_coopmat");
    }
    return chooseInLayout(ctx, desc, opts);
}

const Algorithm& chooseInLayout(const ContextImpl& ctx, const ConvDesc& desc, const PlanOptions& opts) {
    // Fast algorithms first (as they are added); direct accepts everything.
    // Depthwise (and channel-multiplier) problems: the dedicated kernel.
    if (desc.groups == desc.c && desc.c > 1 && desc.k % desc.c == 0) {
        if (depthwiseTiledPays(ctx, desc, opts)) return *findAlgorithm("depthwise_tiled");
        const Algorithm* a = findAlgorithm("depthwise");
        if (a && a->whyNot(ctx, desc, opts).empty()) return *a;
    }
    // Grouped NHWC layers whose groups would leave implicit_gemm_coopmat's tiles mostly padding
    // (K/groups < 16 or C/groups % 16 != 0): consecutive groups as one block-diagonal GEMM.
    if (groupedCoopmatPays(ctx, desc, opts)) return *findAlgorithm("grouped_coopmat");
    // First layers (C/groups <= 8, 16+ filters), 16-bit storage on a device with matrix units:
    // each pixel's whole reduction as one window of a column-expanded halo.  At C/groups <= 4
    // direct_few_channels stays faster on short reductions below 2^21 output values, except
    // with NHWC activations and 64+ filters per group, and on long reductions (ResNet-50's 7x7
    // stem: about twice as fast), measured on the H100 at b1 (docs/performance.md,
    // "few_channels_coopmat").
    constexpr uint64_t kFewCoopmatMinOutputs = uint64_t(1) << 21;
    constexpr int64_t kFewCoopmatLongReduction = 64;
    constexpr int64_t kFewCoopmatNhwcFilters = 64;
    if (desc.channelsPerGroup() <= 8 && desc.filtersPerGroup() >= 16 &&
        (desc.channelsPerGroup() > 4 || uint64_t(desc.outputElements()) >= kFewCoopmatMinOutputs ||
         desc.reductionLength() >= kFewCoopmatLongReduction ||
         (desc.inputLayout == TensorLayout::NHWC && desc.filtersPerGroup() >= kFewCoopmatNhwcFilters))) {
        const Algorithm* a = findAlgorithm("few_channels_coopmat");
        if (a && a->whyNot(ctx, desc, opts).empty()) return *a;
    }
    // First layers (C/groups <= 4, 16+ filters): their 27-196-long reductions waste GEMM slices.
    if (desc.channelsPerGroup() <= 4 && desc.filtersPerGroup() >= 16) {
        const Algorithm* a = findAlgorithm("direct_few_channels");
        if (a && a->whyNot(ctx, desc, opts).empty()) return *a;
    }
    // Few filters per group, stride 1, several taps, on the matrix units: halo_coopmat's
    // one-column tiles stage each input pixel once for all taps and pad the filters to 16, not 64
    // (SD-VAE l7, 128 -> 3 channels at 512x512, fp16 b1 on the H200: 2.4x faster than
    // direct_few_filters; docs/performance.md, "halo_coopmat").
    if (haloCoopmatTakesFewFilters(ctx, desc, opts)) return *findAlgorithm("halo_coopmat");
    // Few filters per group: a GEMM tile's 16+ filter columns would be mostly padding.  Where
    // the matrix units take the layer (16-bit), up to 4 filters: 8 filters of 64 channels ran
    // slower here than on implicit_gemm_coopmat, 3 filters of 128 channels faster (H200, fp16 NHWC).  On the scalar
    // path up to 8 filters of at most 128 channels per group: at 256 channels Winograd and split-K ran 2.5-3x faster,
    // at 128 this kernel 1.7x (docs/performance.md, "direct_few_channels and direct_few_filters").
    if (desc.filtersPerGroup() <= 8) {
        const Algorithm* cm = findAlgorithm("implicit_gemm_coopmat");
        const bool matrixUnits = cm && cm->whyNot(ctx, desc, opts).empty();
        const Algorithm* a = findAlgorithm("direct_few_filters");
        if ((matrixUnits ? desc.filtersPerGroup() <= 4 : desc.channelsPerGroup() <= 128) && a &&
            a->whyNot(ctx, desc, opts).empty())
            return *a;
    }
    // Tiny-channel grouped problems waste a GEMM tile; direct serves them better.
    bool gemmShaped = desc.filtersPerGroup() >= 8 || desc.reductionLength() >= 32;
    // Matrix units where the device has them (fp16/bf16, C/groups % 16 == 0); RDNA1/2 and
    // devices without VK_KHR_cooperative_matrix keep the scalar path, down to 9-16 filters per
    // group, which the 32-wide matrix tile runs faster than the scalar kernel
    // (docs/performance.md, "implicit_gemm_coopmat").
    if (gemmShaped && !nchwTailStaysScalar(desc)) {
        const Algorithm* a = findAlgorithm("implicit_gemm_coopmat");
        if (a && a->whyNot(ctx, desc, opts).empty()) {
            // 1x1 stride-1 layers of few channels: the streaming kernel (their time is the output's
            // bytes; docs/performance.md, "pointwise_coopmat").
            if (pointwiseCoopmatPays(ctx, desc, opts)) return *findAlgorithm("pointwise_coopmat");
            // 1x1 stride-1 layers of few pixels and deep reductions: the reduction split over
            // the subgroups of each workgroup.
            if (slicedKCoopmatPays(ctx, desc, opts)) return *findAlgorithm("slicedk_coopmat");
            // 3x3 stride-1 layers: winograd with its batched GEMM on the matrix units, where the
            // model puts it clearly below the direct GEMM (36/144 of the products for F(4x4,3x3),
            // against the transforms' workspace traffic).
            if (winogradMatrixUnits(ctx, desc, opts) && winogradPays(ctx, desc, opts))
                return *findAlgorithm("winograd");
            // Stride-1 layers with several taps: one staged halo slice for every tap, where its
            // model beats the channel-slice GEMM's.
            if (haloCoopmatPays(ctx, desc, opts)) return *findAlgorithm("halo_coopmat");
            return *a;
        }
    }
    // Winograd (F(4x4,3x3) or F(2x2,3x3)) for 3x3 stride-1 layers the matrix units do not take,
    // where the model says it pays (its GEMM does 36/144 or 16/36 of the multiplies; the
    // transforms are streaming passes through the workspace).
    if (gemmShaped && winogradPays(ctx, desc, opts)) return *findAlgorithm("winograd");
    // NCHW layers whose implicit_gemm staging would be scalar (stride 2; 1x1 at H*W % 4 != 0): the
    // NHWC kernel behind a transpose, where the model says it pays (big enough layers).
    if (gemmShaped && nhwcTransformPays(ctx, desc, opts)) return *findAlgorithm("implicit_gemm_nhwc");
    // Split-K where implicit_gemm would run but its output tiles underfill the GPU on a deep
    // reduction, and the workspace fits PlanOptions::workspaceLimit (docs/design.md).
    if (gemmShaped && implicitGemmSplitKPays(ctx, desc, opts)) {
        const Algorithm* ig = findAlgorithm("implicit_gemm");
        const Algorithm* sk = findAlgorithm("implicit_gemm_splitk");
        if (ig && sk && ig->whyNot(ctx, desc, opts).empty() && sk->whyNot(ctx, desc, opts).empty()) return *sk;
    }
    for (const char* name : {gemmShaped ? "implicit_gemm" : "direct", "direct"}) {
        const Algorithm* a = findAlgorithm(name);
        if (a && a->whyNot(ctx, desc, opts).empty()) return *a;
    }
    return *findAlgorithm("direct");
}

}  // namespace vkconv
