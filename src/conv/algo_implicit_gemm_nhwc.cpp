// NCHW activations (and KCRS filters with more than one tap) transposed into the workspace as NHWC
// (KRSC) by shaders/layout_transpose.comp, then an NHWC kernel writing the output straight in the
// caller's layout (every epilogue handles any output layout).  Two algorithms share it:
//  * "implicit_gemm_nhwc": the scalar implicit GEMM with 4-wide channel loads, for the NCHW layers
//    whose own staging is scalar -- stride 2, or 1x1 at an H*W that is not a multiple of 4: ~0.7x
//    the NCHW time, more than the transposes cost on the larger layers (docs/performance.md,
//    "NCHW layers");
//  * "coopmat_nhwc": 16-bit activations on the matrix units, behind the kernel the router picks
//    for the NHWC problem (implicit_gemm_coopmat, halo_coopmat, few_channels_coopmat,
//    grouped_coopmat or winograd; a direct kernel charged the filter's transpose, which winograd
//    does not need: innerPlan).
//    Their NCHW staging moves one 16-bit value per load (pixels of one channel), their NHWC
//    staging eight channels in one 16-byte load: 1.5-5.9x the NHWC time on the H100 (winograd's
//    transforms 1.2-1.9x), against transposes that stream the input once.  cuDNN does the same for
//    its NHWC kernels.
//    The router takes it for such layers but first layers, thin layers on large inputs, winograd
//    on small ones, and small ones whose direct kernel plain winograd beats (nchwMatrixRoute).
// The input's transpose copies only the pixels a strided or padded 1x1 layer reads (the kernel
// behind runs a stride-1 1x1 layer on P x Q: gathersPixels), and 16-bit activations in 32-bit
// words of two elements where C and H*W are even.
// Winograd reads KCRS filters in its own filter transform, so behind it the filters stay as given.
// With PlanOptions::packedFilter the KRSC transpose is the packed filter (written once by
// recordPackFilter), or behind winograd its transformed filters.
#include <algorithm>
#include <limits>
#include <utility>

#include "conv/algorithm.hpp"
#include "conv/router.hpp"
#include "conv/registry.hpp"
#include "conv/dispatch.hpp"
#include "conv/split_k.hpp"
#include "conv/tile_syntax.hpp"
#include "runtime/context_impl.hpp"
#include "vkconv/error.hpp"

namespace vkconv {

bool winogradBeatsTransposedDirect(const ContextImpl& ctx, const ConvDesc& nhwc, const PlanOptions& o,
                                   double dispatches, double bytes);

namespace {

constexpr uint32_t kTransposeWorkgroup = 256;         // layout_transpose.comp: 32-wide rows (a multiple of 32)
constexpr uint64_t kTransposeTile = 32;               // layout_transpose.comp's TILE: a block is 32 x 32
constexpr uint64_t kNarrowCols = 16;                  // layout_transpose.comp's NARROW path up to this many columns
constexpr int64_t kMaxGatheredElements = 0x7fffffff;  // each tensor's 32-bit index limit (conv_desc.cpp)
constexpr uint32_t kSpecNarrow = 101;
// The router's model, in implicitGemmModelCost's FLOP-equivalents (DeviceModel::scalarFlopsPerUs):
// the NHWC kernel at nhwcSpeed of the NCHW scalar kernel's time, the transposes as streaming
// passes (streamBytesPerUs, as winograd's transforms) plus streamPassUs per extra dispatch behind a
// barrier; transform only where that is at most nhwcMargin of the NCHW kernel's.

constexpr uint32_t kSpecSubsample = 102;
constexpr uint64_t kPairsRows = 32, kPairsCols = 64;  // layout_transpose.comp's PR x PT: a PAIRS block

// A 1x1 layer with a stride or padding reads one input pixel per output pixel: the transpose
// gathers just those (zero where padding), so the copy is P*Q pixels, not H*W (a quarter at stride
// 2), and the kernel behind runs a 1x1 stride-1 unpadded layer on P x Q.
bool gathersPixels(const ConvDesc& d) {
    return d.r == 1 && d.s == 1 &&
           (d.strideH > 1 || d.strideW > 1 || d.padTop || d.padBottom || d.padLeft || d.padRight);
}

// The problem the inner kernel sees: NHWC activations (only the pixels a 1x1 layer reads, where
// gathersPixels), and KRSC filters unless `keepFilters` (winograd, which reads either).
ConvDesc nhwcDesc(const ConvDesc& d, bool keepFilters = false) {
    ConvDesc g = d;
    g.inputLayout = TensorLayout::NHWC;
    if (!keepFilters) g.filterLayout = FilterLayout::KRSC;
    if (gathersPixels(d)) {
        g.h = d.outH(), g.w = d.outW();
        g.pad(0, 0);
        g.strideH = g.strideW = g.dilationH = g.dilationW = 1;
    }
    return g;
}

// The input transpose's traffic: a read and a write of the input, or, gathering a 1x1 layer's
// pixels, their write and a read of the sectors they lie in (a stride-2 row reads every sector).
double inputTransposeBytes(const ConvDesc& d) {
    if (!gathersPixels(d)) return 2.0 * double(d.inputBytes());
    const double gathered = double(nhwcDesc(d).inputBytes());
    return gathered + std::min(double(d.inputBytes()), gathered * double(std::min<int64_t>(d.strideW, 8)));
}

// KCRS filters with one tap are KRSC already.
bool filterNeedsTranspose(const ConvDesc& d) { return d.filterLayout == FilterLayout::KCRS && d.r * d.s > 1; }

struct TransformLayout {
    uint64_t inputBytes = 0, filterOff = 0, filterBytes = 0, innerOff = 0;
    VkDeviceSize innerLimit = 0;
    std::string why;
};

TransformLayout transformLayout(const ContextImpl& ctx, const ConvDesc& d, VkDeviceSize workspaceLimit,
                                bool transposeFilters = true) {
    TransformLayout l;
    // Every view of the workspace must stay within one binding's range.
    workspaceLimit = std::min<VkDeviceSize>(workspaceLimit, ctx.caps.maxStorageBufferRange);
    const uint64_t align = workspaceRegionAlignment(ctx);
    l.inputBytes = alignUp(uint64_t(nhwcDesc(d).inputBytes()), align);
    l.filterOff = l.inputBytes;
    l.filterBytes = transposeFilters && filterNeedsTranspose(d) ? alignUp(uint64_t(d.filterBytes()), align) : 0;
    l.innerOff = l.filterOff + l.filterBytes;
    if (l.innerOff > workspaceLimit) {
        l.why = "the NHWC copies need " + std::to_string(l.innerOff) +
                " workspace bytes and the limit (PlanOptions::workspaceLimit, "
                "maxStorageBufferRange) is " +
                std::to_string(workspaceLimit);
        return l;
    }
    l.innerLimit = workspaceLimit - l.innerOff;
    return l;
}

// `d` is the caller's problem, `g` the NHWC one.  pointwise_coopmat (NHWC output only) reads a
// stride-1 layer's NCHW input itself, so it runs behind the transposes only where they gather.
bool matrixUnitAlgorithm(const ContextImpl& ctx, const ConvDesc& d, const ConvDesc& g, const PlanOptions& o,
                         const std::string& name) {
    return name == "implicit_gemm_coopmat" || name == "halo_coopmat" || name == "few_channels_coopmat" ||
           name == "slicedk_coopmat" || name == "grouped_coopmat" ||
           (name == "pointwise_coopmat" && gathersPixels(d)) || (name == "winograd" && winogradMatrixUnits(ctx, g, o));
}

// What runs behind the transposes: the problem it sees, its options and the workspace layout.
struct InnerPlan {
    ConvDesc desc;
    PlanOptions opts;
    TransformLayout layout;
    std::string why;  // "" unless it cannot run
};

// Scalar: implicit_gemm, or implicit_gemm_splitk where a forced tile names a split
// ("<tile>/s<splits>", "s<splits>") or, unforced, where the router would split.
// Matrix units: unforced, the router's pick for the NHWC problem, which must be one of the
// matrix-unit kernels; PlanOptions::tile "ALGO" or "ALGO:TILE" forces one of them (e.g.
// "winograd:2x2", "halo_coopmat:256x32/4x1"), any other tile is implicit_gemm_coopmat's.  Either way
// with the caller's subgroup size and what the workspace has left.
InnerPlan innerPlan(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, bool matrix) {
    // A packed filter is transposed (or transformed) once, outside the workspace.
    InnerPlan p{nhwcDesc(d), {}, transformLayout(ctx, d, o.workspaceLimit, !o.packedFilter), ""};
    if (!p.layout.why.empty()) {
        p.why = p.layout.why;
        return p;
    }
    p.opts.subgroupSize = o.subgroupSize;
    p.opts.workspaceLimit = p.layout.innerLimit;
    p.opts.allowWinograd = o.allowWinograd;
    p.opts.packedFilter = o.packedFilter;  // for the router's pricing; reset below where the transpose packs
    p.opts.tile = o.tile;
    if (!matrix) {
        const bool split =
            o.tile.empty() ? implicitGemmSplitKPays(ctx, p.desc, p.opts) : parseSplitRequest(o.tile).split != 0;
        p.opts.algorithm = split ? "implicit_gemm_splitk" : "implicit_gemm";
        if (filterNeedsTranspose(d)) p.opts.packedFilter = false;  // it reads the transposed (packed) filter as given
        return p;
    }
    if (o.tile.empty()) {
        p.opts.algorithm = chooseInLayout(ctx, p.desc, p.opts).name;
        // The NHWC router does not see the filter's transpose, which a direct kernel needs and
        // winograd (reading KCRS) does not: it is charged here.
        if ((p.opts.algorithm == "implicit_gemm_coopmat" || p.opts.algorithm == "halo_coopmat") &&
            filterNeedsTranspose(d) && !o.packedFilter) {
            const ConvDesc kcrs = nhwcDesc(d, true);
            PlanOptions w = p.opts;
            w.workspaceLimit = transformLayout(ctx, d, o.workspaceLimit, false).innerLimit;
            if (winogradBeatsTransposedDirect(ctx, kcrs, w, 0.0, 2.0 * double(d.filterBytes())) &&
                findAlgorithm("winograd")->whyNot(ctx, kcrs, w).empty())
                p.opts.algorithm = "winograd";
        }
    } else {
        const InnerTile inner = parseInnerTile(o.tile);  // "ALGO", "ALGO:TILE" or a tile
        const bool named = inner.error.empty() && findAlgorithm(inner.algorithm) != nullptr;
        if (inner.error.empty() && !inner.algorithm.empty() && !named) {
            p.why = "PlanOptions::tile '" + o.tile +
                    "' names no algorithm (it takes ALGO, ALGO:TILE or an implicit_gemm_coopmat tile)";
            return p;
        }
        p.opts.algorithm = named ? inner.algorithm : "implicit_gemm_coopmat";
        if (named) p.opts.tile = inner.tile;
    }
    if (!matrixUnitAlgorithm(ctx, d, p.desc, p.opts, p.opts.algorithm)) {
        p.why = "the NHWC problem does not run on the matrix units (" +
                std::string(o.tile.empty() ? "the router picks " : "forced: ") + p.opts.algorithm + ")";
        return p;
    }
    if (p.opts.algorithm == "winograd" && filterNeedsTranspose(d)) {  // its filter transform reads KCRS
        p.desc = nhwcDesc(d, true);
        p.layout = transformLayout(ctx, d, o.workspaceLimit, false);
        p.opts.workspaceLimit = p.layout.innerLimit;
    } else if (filterNeedsTranspose(d)) {
        p.opts.packedFilter = false;  // it reads the transposed (packed) filter as given
    }
    return p;
}

// Workgroup size: 256, or what a required subgroup size allows, in whole 32-element rows.
uint32_t transposeWorkgroup(const ContextImpl& ctx, uint32_t sg) {
    uint32_t wg = std::min(kTransposeWorkgroup, ctx.caps.maxWorkgroupInvocations);
    if (sg && ctx.caps.maxComputeWorkgroupSubgroups) wg = std::min(wg, sg * ctx.caps.maxComputeWorkgroupSubgroups);
    return std::max(uint32_t(kTransposeTile), wg / uint32_t(kTransposeTile) * uint32_t(kTransposeTile));
}

class NhwcTransformInstance final : public AlgorithmInstance {
public:
    NhwcTransformInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, bool matrix)
        : ctx_(ctx), desc_(d), matrix_(matrix), wg_(transposeWorkgroup(ctx, o.subgroupSize)) {
        InnerPlan p = innerPlan(ctx, d, o, matrix);
        if (!p.why.empty()) throw Error(ErrorCode::Unsupported, std::string(name()) + ": " + p.why);
        layout_ = p.layout;
        nhwcInputBytes_ = uint64_t(p.desc.inputBytes());
        packedTranspose_ = o.packedFilter && filterNeedsTranspose(d) && !p.opts.packedFilter;
        inner_ = findAlgorithm(p.opts.algorithm)->instantiate(ctx, p.desc, p.opts);
        PipelineKey key =
            convPipelineKey(std::string("layout_transpose_") + dtypeSuffix(d.dtype), d, wg_, o.subgroupSize);
        if (gathersPixels(d)) {
            PipelineKey g = key;
            g.spec.push_back({kSpecSubsample, 1u});
            gather_ = &ctx.pipelines->get(g);
        }
        pipeline_ = &ctx.pipelines->get(key);
        // 16-bit activations in 32-bit words of two elements where C and H*W are even.
        if (!gather_ && dtypeSize(d.dtype) == 2 && d.c % 2 == 0 && (d.h * d.w) % 2 == 0)
            pairs_ = &ctx.pipelines->get(
                convPipelineKey(std::string("layout_transpose_pairs_") + dtypeSuffix(d.dtype), d, wg_, o.subgroupSize));
        if (filterNeedsTranspose(d) && uint64_t(d.r * d.s) <= kNarrowCols) {
            key.spec.push_back({kSpecNarrow, 1u});
            narrow_ = &ctx.pipelines->get(key);
        }
    }

    void record(VkCommandBuffer cmd, const ConvTensors& t) const override {
        const BufferView& ws = t.workspace;
        const BufferView x{ws.buffer, ws.offset, nhwcInputBytes_};
        const BufferView w = layout_.filterBytes
                                 ? BufferView{ws.buffer, ws.offset + layout_.filterOff, uint64_t(desc_.filterBytes())}
                                 : t.filter;
        const uint64_t innerWs = inner_->workspaceSize();
        const BufferView iw = innerWs ? BufferView{ws.buffer, ws.offset + layout_.innerOff, innerWs} : BufferView{};
        // [n][c][h*w] -> [n][h*w][c], or [n][p*q][c] where a 1x1 layer's pixels are gathered
        if (gather_)
            transpose(cmd, t.input, x, uint64_t(desc_.n), uint64_t(desc_.c), uint64_t(desc_.outH() * desc_.outW()),
                      gather_);
        else if (pairs_ && t.input.offset % 4 == 0)
            transpose(cmd, t.input, x, uint64_t(desc_.n), uint64_t(desc_.c), uint64_t(desc_.h * desc_.w), pairs_,
                      kPairsRows, kPairsCols);
        else
            transpose(cmd, t.input, x, uint64_t(desc_.n), uint64_t(desc_.c), uint64_t(desc_.h * desc_.w));
        // [k][c/groups][r*s] -> [k][r*s][c/groups]
        if (layout_.filterBytes) transposeFilter(cmd, t.filter, w);
        computeBarrier(ctx_, cmd);
        inner_->record(cmd, ConvTensors{x, w, t.bias, t.residual, t.output, iw});
    }
    VkDeviceSize workspaceSize() const override { return layout_.innerOff + inner_->workspaceSize(); }
    // The KRSC transpose, or the inner kernel's own packed filter (winograd's), or none (a copy).
    VkDeviceSize packedFilterSize() const override {
        return packedTranspose_ ? VkDeviceSize(desc_.filterBytes()) : inner_->packedFilterSize();
    }
    void recordPackFilter(VkCommandBuffer cmd, const BufferView& filter, const BufferView& packed) const override {
        if (packedTranspose_)
            transposeFilter(cmd, filter, packed);
        else
            inner_->recordPackFilter(cmd, filter, packed);
    }
    std::string name() const override { return matrix_ ? "coopmat_nhwc" : "implicit_gemm_nhwc"; }
    double roundingAmplification() const override { return inner_->roundingAmplification(); }
    double operandRounding() const override { return inner_->operandRounding(); }
    std::string config() const override {
        return std::string(gather_ ? "NCHW->NHWC gathered " + std::to_string(desc_.outH()) + "x" +
                                         std::to_string(desc_.outW())
                                   : "NCHW->NHWC") +
               (layout_.filterBytes ? ", KCRS->KRSC"
                : packedTranspose_  ? ", KCRS->KRSC packed"
                                    : "") +
               "; " + inner_->name() + " [" + inner_->config() + "]";
    }

private:
    // [k][c/groups][r*s] -> [k][r*s][c/groups]: the narrow path for 3x3 and smaller taps.
    void transposeFilter(VkCommandBuffer cmd, const BufferView& src, const BufferView& dst) const {
        const uint64_t k = uint64_t(desc_.k), cg = uint64_t(desc_.channelsPerGroup()), rs = uint64_t(desc_.r * desc_.s);
        if (!narrow_) return transpose(cmd, src, dst, k, cg, rs);
        ConvPushConstants pc{};
        pc.N = uint32_t(k);
        pc.aux0 = uint32_t(cg);
        pc.aux1 = uint32_t(rs);
        bindConvTensors(ctx_, cmd, *narrow_, ConvTensors{src, src, {}, {}, dst, {}});
        pushConstants(ctx_, cmd, *narrow_, pc);
        dispatch1D(ctx_, cmd, k * cg, wg_);
    }
    // `variant`: gather_ (cols are the layer's output pixels, read from its input planes) or
    // pairs_ (blocks of `blockRows` x `blockCols`); the plain pipeline otherwise.
    void transpose(VkCommandBuffer cmd, const BufferView& src, const BufferView& dst, uint64_t batches, uint64_t rows,
                   uint64_t cols, const ComputePipeline* variant = nullptr, uint64_t blockRows = kTransposeTile,
                   uint64_t blockCols = kTransposeTile) const {
        ConvPushConstants pc{};
        pc.N = uint32_t(batches);
        pc.aux0 = uint32_t(rows);
        pc.aux1 = uint32_t(cols);
        if (variant && variant == gather_) {
            pc.H = uint32_t(desc_.h), pc.W = uint32_t(desc_.w), pc.Q = uint32_t(desc_.outW());
            pc.padT = uint32_t(desc_.padTop), pc.padL = uint32_t(desc_.padLeft);
            pc.strideH = uint32_t(desc_.strideH), pc.strideW = uint32_t(desc_.strideW);
        }
        const ComputePipeline& pipe = variant ? *variant : *pipeline_;
        bindConvTensors(ctx_, cmd, pipe, ConvTensors{src, src, {}, {}, dst, {}});
        pushConstants(ctx_, cmd, pipe, pc);
        const auto& lim = ctx_.caps.maxWorkgroupCount;
        const uint32_t z = uint32_t(std::min<uint64_t>(batches, lim[2]));  // the shader walks the rest
        cmdDispatch(ctx_, cmd, uint32_t((cols + blockCols - 1) / blockCols),
                    uint32_t((rows + blockRows - 1) / blockRows), z);
    }

    ContextImpl& ctx_;
    ConvDesc desc_;
    bool matrix_;
    bool packedTranspose_ = false;  // the packed filter is the KRSC transpose
    TransformLayout layout_;
    uint32_t wg_;
    std::unique_ptr<AlgorithmInstance> inner_;
    const ComputePipeline* pipeline_ = nullptr;
    const ComputePipeline* narrow_ = nullptr;  // the filter's narrow transpose (3x3 and smaller taps)
    const ComputePipeline* gather_ = nullptr;  // the input's transpose of a 1x1 layer's pixels (gathersPixels)
    const ComputePipeline* pairs_ = nullptr;   // the input's transpose in 32-bit words (16-bit, C and H*W even)
    uint64_t nhwcInputBytes_ = 0;              // the NHWC copy (only the gathered pixels where gather_)
};

// "" or why the transposes and their inner kernel cannot run; `inner` (optional) receives the
// inner plan.
std::string transformWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, bool matrix,
                            InnerPlan* inner = nullptr) {
    if (d.inputLayout != TensorLayout::NCHW)
        return std::string("the input is NHWC already (use ") + (matrix ? "the matrix-unit kernels" : "implicit_gemm") +
               ")";
    if (o.workspaceLimit == 0) return "it needs a workspace and PlanOptions::workspaceLimit is 0";
    if (matrix && d.dtype == DType::F32) return "the matrix units take 16-bit storage (fp16, bf16), not fp32";
    const auto& lim = ctx.caps.maxWorkgroupCount;
    auto blocks = [](uint64_t n) { return (n + kTransposeTile - 1) / kTransposeTile; };
    const ConvDesc g = nhwcDesc(d);
    if (blocks(uint64_t(g.h) * uint64_t(g.w)) > lim[0] || blocks(uint64_t(d.c)) > lim[1])
        return "the input's H*W or C exceeds the transpose's grid";
    if (g.inputElements() > kMaxGatheredElements)  // P x Q can exceed H x W where a 1x1 layer is padded
        return "the gathered NHWC input has " + std::to_string(g.inputElements()) +
               " elements; 32-bit indexing allows 2^31-1";
    if (filterNeedsTranspose(d) &&
        (blocks(uint64_t(d.r * d.s)) > lim[0] || blocks(uint64_t(d.channelsPerGroup())) > lim[1]))
        return "the filter's R*S or C/groups exceeds the transpose's grid";
    InnerPlan p = innerPlan(ctx, d, o, matrix);
    if (!p.why.empty()) return p.why;
    std::string why = findAlgorithm(p.opts.algorithm)->whyNot(ctx, p.desc, p.opts);
    if (!why.empty()) return "its NHWC " + p.opts.algorithm + " declines: " + why;
    if (inner) *inner = std::move(p);
    return "";
}

}  // namespace

std::string nhwcTransformWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return transformWhyNot(ctx, d, o, false);
}
std::string coopmatNhwcWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return transformWhyNot(ctx, d, o, true);
}

std::unique_ptr<AlgorithmInstance> nhwcTransformInstantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return std::make_unique<NhwcTransformInstance>(ctx, d, o, false);
}
std::unique_ptr<AlgorithmInstance> coopmatNhwcInstantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return std::make_unique<NhwcTransformInstance>(ctx, d, o, true);
}

// Inputs the transpose streams in ~2 us or more (6 MiB: ~2.2 TB/s each way, H100).
constexpr uint64_t kLargeInputBytes = uint64_t(6) << 20;
// Multiply-adds per input element (K/groups * R * S / stride^2) up to which the transpose of a
// large input costs more than the NCHW staging loses.
constexpr double kThinWork = 64;
// Winograd reads NCHW in its own input transform (1.2-1.9x its NHWC time); on inputs up to 1 MiB
// the transpose's extra dispatch costs more than that.
constexpr uint64_t kSmallWinogradInputBytes = uint64_t(1) << 20;

// The router's question for 16-bit NCHW activations: does the NHWC problem run on the matrix
// units, behind transposes that fit the workspace, and do the transposes cost less than the NCHW
// staging?  Measured over the suites (docs/performance.md, "NCHW layers"): the NCHW staging of
// implicit_gemm_coopmat and halo_coopmat costs 1.5-5.9x their NHWC time, winograd's NCHW
// transforms 1.2-1.9x, and the transposes a read and write of the input.  So every such layer but
// three kinds, which measured slower behind the transposes:
//  * first layers: few_channels_coopmat stages its halo once either way, and a 3-channel plane is
//    the transpose's worst shape (3 of each block's 32 rows): 1.4x slower forced;
//  * thin layers on large inputs for implicit_gemm_coopmat (1x1 projections with 16-64 products
//    per input element): 1.05-1.45x slower;
//  * winograd on inputs up to 1 MiB, where the transpose's dispatch costs more than it saves.
// And one route besides: inputs of up to 1 MiB whose NHWC problem goes to a direct matrix kernel
// take plain winograd (its input transform reads NCHW: no transposes, no NCHW staging) where its
// model beats that kernel charged the transposes' dispatch and bytes
// (winogradBeatsTransposedDirect).
NchwRoute nchwMatrixRoute(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    InnerPlan p;
    if (d.inputLayout != TensorLayout::NCHW || d.dtype == DType::F32 || !transformWhyNot(ctx, d, o, true, &p).empty())
        return NchwRoute::InLayout;
    const uint64_t input = uint64_t(d.inputBytes());
    const std::string& inner = p.opts.algorithm;
    if ((inner == "implicit_gemm_coopmat" || inner == "halo_coopmat") && input <= kSmallWinogradInputBytes) {
        const bool filterPass = filterNeedsTranspose(d) && !o.packedFilter;
        const double bytes = 2.0 * double(input) + (filterPass ? 2.0 * double(d.filterBytes()) : 0.0);
        if (winogradBeatsTransposedDirect(ctx, p.desc, p.opts, 1.0, bytes) &&
            findAlgorithm("winograd")->whyNot(ctx, d, o).empty())
            return NchwRoute::PlainWinograd;
    }
    // slicedk_coopmat reads NCHW 1x1 layers itself (channel-major staging) without the input
    // transpose's dispatch, where its 4-pixel loads apply (H*W % 4 == 0, or one image); with
    // 16-bit loads it lost to the transposes (docs/performance.md, "slicedk_coopmat").
    if (slicedKCoopmatBeatsTransposes(d, inner) && findAlgorithm("slicedk_coopmat")->whyNot(ctx, d, o).empty())
        return NchwRoute::SlicedK;
    const double work = double(d.filtersPerGroup()) * double(d.r * d.s) / double(d.strideH * d.strideW);
    bool transposes;
    // (pointwise_coopmat, taken only with an NHWC output, moves the same bytes per product.)
    // 1x1 layers whose NCHW staging loads words (coopmatNchwWordLoads) stay in layout up to 128
    // filters per group whatever the input's size: up to there they ran faster in layout than
    // behind the transposes, from 256 filters the transposes won (docs/performance.md, "NCHW
    // layers").
    constexpr int64_t kWordsInLayoutMaxFilters = 128;
    const bool wordsInLayout = coopmatNchwWordLoads(d) && d.filtersPerGroup() <= kWordsInLayoutMaxFilters;
    if (inner == "implicit_gemm_coopmat" || inner == "pointwise_coopmat")
        transposes = (work > kThinWork || input < kLargeInputBytes) && !wordsInLayout;
    else if (inner == "winograd" && input <= kSmallWinogradInputBytes)  // its own NCHW transforms
        return findAlgorithm("winograd")->whyNot(ctx, d, o).empty() ? NchwRoute::PlainWinograd : NchwRoute::Transposes;
    else
        transposes = inner != "few_channels_coopmat";
    return transposes ? NchwRoute::Transposes : NchwRoute::InLayout;
}

// The router's question, asked where implicit_gemm would run an NCHW layer with scalar staging:
// C/groups a multiple of 8 (channel slices; with 4-aligned channels NHWC loads 4 at a time) and
// not an unpadded 1x1 stride-1 layer with H*W % 4 == 0 (4-pixel NCHW loads already).
namespace {
// The NHWC kernel's modelled cost with the transposes' (its FLOP-equivalents), <= 0 where it has none.
double transformedCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    const DeviceModel& m = ctx.model;
    TransformLayout l = transformLayout(ctx, d, o.workspaceLimit, !o.packedFilter);
    PlanOptions inner = o;
    inner.workspaceLimit = l.innerLimit;
    const double nhwc = m.nhwcSpeed * implicitGemmModelCost(ctx, nhwcDesc(d), inner);
    const bool filterPass = filterNeedsTranspose(d) && !o.packedFilter;  // a packed filter is transposed once
    const double bytes = inputTransposeBytes(d) + (filterPass ? 2.0 * double(d.filterBytes()) : 0.0);
    const double passes = filterPass ? 2.0 : 1.0;
    if (nhwc <= 0) return nhwc;
    return nhwc + bytes * m.scalarFlopsPerByte(m.streamBytesPerUs) + passes * (m.streamPassUs * m.scalarFlopsPerUs);
}
}  // namespace

bool nhwcTransformPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (d.channelsPerGroup() % 8 != 0 || d.c % 4 != 0) return false;
    if (implicitGemmFourPixelLoads(d)) return false;
    if (!nhwcTransformWhyNot(ctx, d, o).empty()) return false;
    const double nchw = implicitGemmModelCost(ctx, d, o);
    const double transformed = transformedCost(ctx, d, o);
    return nchw > 0 && transformed > 0 && transformed < ctx.model.nhwcMargin * nchw;
}

// For Plan::explain (device_model.cpp): its modelled cost, < 0 where it declines.
double nhwcTransformModelCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (!nhwcTransformWhyNot(ctx, d, o).empty()) return -1;
    const double c = transformedCost(ctx, d, o);
    return c > 0 ? c : -1;
}

// The transposes (plain, paired, gathering) per dtype x (driver default, wave32, wave64); the
// GEMM's pipelines are implicit_gemm's (NHWC activations, KRSC filters, either output layout).
std::vector<std::pair<ConvDesc, PlanOptions>> nhwcTransformVariants(const ContextImpl& ctx) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    for (DType t : {DType::F32, DType::F16, DType::BF16})
        for (uint32_t sg : variantSubgroupSizes(ctx)) {
            ConvDesc d;
            d.c = 64;
            d.h = d.w = 28;
            d.k = 128;
            d.r = d.s = 3;
            d.pad(1, 1);
            d.strideH = d.strideW = 2;
            d.dtype = t;
            v.push_back({d, PlanOptions{"implicit_gemm_nhwc", sg, ""}});
            d.r = d.s = 1, d.pad(0, 0);  // a strided 1x1 layer: the gathering transpose
            v.push_back({d, PlanOptions{"implicit_gemm_nhwc", sg, ""}});
        }
    return v;
}

}  // namespace vkconv
