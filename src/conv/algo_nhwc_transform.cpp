// "implicit_gemm_nhwc": NCHW activations (and KCRS filters with more than one tap) transposed into
// the workspace as NHWC (KRSC) by shaders/layout_transpose.comp, then the NHWC implicit GEMM with
// 4-wide channel loads, writing the output straight in the caller's layout (its epilogue handles
// any output layout).  For the NCHW layers whose own staging is scalar -- stride 2, or 1x1 at an
// H*W that is not a multiple of 4 -- the 4-wide staging is ~0.7x the time on the H200
// (docs/perf-notes.md item 33), more than the transposes cost on the larger layers; cuDNN does the
// same for its NHWC kernels.
#include <algorithm>
#include <limits>

#include "conv/algorithm.hpp"
#include "conv/dispatch.hpp"
#include "conv/split_k.hpp"
#include "runtime/context_impl.hpp"
#include "vkconv/error.hpp"

namespace vkconv {

double implicitGemmModelCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o);
bool implicitGemmSplitKPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o);
bool implicitGemmFourPixelLoads(const ConvDesc& d);

namespace {

constexpr uint32_t kTransposeWorkgroup = 256;  // layout_transpose.comp: 32-wide rows (a multiple of 32)
constexpr uint64_t kTransposeTile = 32;        // layout_transpose.comp's TILE: a block is 32 x 32
// The router's model, in implicitGemmModelCost's FLOP-equivalents (~28 TFLOP/s on the H200):
// the NHWC kernel at kNhwcSpeed of the NCHW scalar kernel's time (measured 0.62-0.82 on ResNet-50
// b32's stride-2 and 7x7 1x1 layers, h200_s8), the transposes as streaming passes (~3 TB/s:
// 10 FLOP-equivalents per byte, as Winograd's) plus ~3 us per extra dispatch behind a barrier.
constexpr double kNhwcSpeed = 0.75;
constexpr double kTransformFlopsPerByte = 10.0;
constexpr double kPassFlops = 1e8;
constexpr double kMargin = 0.9;  // transform only where the model says >= 10 % faster


// The problem the inner implicit GEMM sees.
ConvDesc nhwcDesc(const ConvDesc& d) {
    ConvDesc g = d;
    g.inputLayout = TensorLayout::NHWC;
    g.filterLayout = FilterLayout::KRSC;
    return g;
}

// KCRS filters with one tap are KRSC already.
bool filterNeedsTranspose(const ConvDesc& d) { return d.filterLayout == FilterLayout::KCRS && d.r * d.s > 1; }

struct TransformLayout {
    uint64_t inputBytes = 0, filterOff = 0, filterBytes = 0, innerOff = 0;
    VkDeviceSize innerLimit = 0;
    std::string why;
};

TransformLayout transformLayout(const ContextImpl& ctx, const ConvDesc& d, VkDeviceSize workspaceLimit) {
    TransformLayout l;
    // Every view of the workspace must stay within one binding's range.
    workspaceLimit = std::min<VkDeviceSize>(workspaceLimit, ctx.caps.maxStorageBufferRange);
    const uint64_t align = workspaceRegionAlignment(ctx);
    l.inputBytes = alignUp(uint64_t(d.inputBytes()), align);
    l.filterOff = l.inputBytes;
    l.filterBytes = filterNeedsTranspose(d) ? alignUp(uint64_t(d.filterBytes()), align) : 0;
    l.innerOff = l.filterOff + l.filterBytes;
    if (l.innerOff > workspaceLimit) {
        l.why = "the NHWC copies need " + std::to_string(l.innerOff) + " workspace bytes and the limit (PlanOptions::workspaceLimit, "
                "maxStorageBufferRange) is " + std::to_string(workspaceLimit);
        return l;
    }
    l.innerLimit = workspaceLimit - l.innerOff;
    return l;
}

// The inner GEMM: implicit_gemm, or implicit_gemm_splitk where a forced tile names a split
// ("<tile>/s<splits>", "s<splits>") or, unforced, where the router would split; with the caller's
// subgroup size and what the workspace has left.
PlanOptions innerOptions(const ContextImpl& ctx, const ConvDesc& g, const PlanOptions& o, const TransformLayout& l) {
    PlanOptions inner;
    inner.subgroupSize = o.subgroupSize;
    inner.workspaceLimit = l.innerLimit;
    inner.tile = o.tile;
    bool split = o.tile.empty() ? implicitGemmSplitKPays(ctx, g, inner) : parseSplitRequest(o.tile).split != 0;
    inner.algorithm = split ? "implicit_gemm_splitk" : "implicit_gemm";
    return inner;
}

// Workgroup size: 256, or what a required subgroup size allows, in whole 32-element rows.
uint32_t transposeWorkgroup(const ContextImpl& ctx, uint32_t sg) {
    uint32_t wg = std::min(kTransposeWorkgroup, ctx.caps.maxWorkgroupInvocations);
    if (sg && ctx.caps.maxComputeWorkgroupSubgroups) wg = std::min(wg, sg * ctx.caps.maxComputeWorkgroupSubgroups);
    return std::max(uint32_t(kTransposeTile), wg / uint32_t(kTransposeTile) * uint32_t(kTransposeTile));
}

class NhwcTransformInstance final : public AlgorithmInstance {
public:
    NhwcTransformInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o)
        : ctx_(ctx), desc_(d), layout_(transformLayout(ctx, d, o.workspaceLimit)), wg_(transposeWorkgroup(ctx, o.subgroupSize)) {
        const ConvDesc g = nhwcDesc(d);
        const PlanOptions inner = innerOptions(ctx, g, o, layout_);
        inner_ = findAlgorithm(inner.algorithm)->instantiate(ctx, g, inner);
        pipeline_ = &ctx.pipelines->get(convPipelineKey(std::string("layout_transpose_") + dtypeSuffix(d.dtype), d, wg_, o.subgroupSize));
    }

    void record(VkCommandBuffer cmd, const ConvTensors& t) const override {
        const BufferView& ws = t.workspace;
        const BufferView x{ws.buffer, ws.offset, uint64_t(desc_.inputBytes())};
        const BufferView w = layout_.filterBytes ? BufferView{ws.buffer, ws.offset + layout_.filterOff, uint64_t(desc_.filterBytes())}
                                                 : t.filter;
        const uint64_t innerWs = inner_->workspaceSize();
        const BufferView iw = innerWs ? BufferView{ws.buffer, ws.offset + layout_.innerOff, innerWs} : BufferView{};
        // [n][c][h*w] -> [n][h*w][c]
        transpose(cmd, t.input, x, uint64_t(desc_.n), uint64_t(desc_.c), uint64_t(desc_.h * desc_.w));
        // [k][c/groups][r*s] -> [k][r*s][c/groups]
        if (layout_.filterBytes)
            transpose(cmd, t.filter, w, uint64_t(desc_.k), uint64_t(desc_.channelsPerGroup()), uint64_t(desc_.r * desc_.s));
        computeBarrier(ctx_, cmd);
        inner_->record(cmd, ConvTensors{x, w, t.bias, t.residual, t.output, iw});
    }
    VkDeviceSize workspaceSize() const override { return layout_.innerOff + inner_->workspaceSize(); }
    std::string name() const override { return "implicit_gemm_nhwc"; }
    double roundingAmplification() const override { return inner_->roundingAmplification(); }
    double operandRounding() const override { return inner_->operandRounding(); }
    std::string config() const override {
        return std::string("NCHW->NHWC") + (layout_.filterBytes ? ", KCRS->KRSC" : "") + "; " + inner_->name() + " [" + inner_->config() + "]";
    }

private:
    void transpose(VkCommandBuffer cmd, const BufferView& src, const BufferView& dst, uint64_t batches, uint64_t rows,
                   uint64_t cols) const {
        ConvPushConstants pc{};
        pc.N = uint32_t(batches);
        pc.aux0 = uint32_t(rows);
        pc.aux1 = uint32_t(cols);
        bindConvTensors(ctx_, cmd, *pipeline_, ConvTensors{src, src, {}, {}, dst, {}});
        pushConstants(ctx_, cmd, *pipeline_, pc);
        const auto& lim = ctx_.caps.maxWorkgroupCount;
        const uint32_t z = uint32_t(std::min<uint64_t>(batches, lim[2]));  // the shader walks the rest
        ctx_.dt.vkCmdDispatch(cmd, uint32_t((cols + kTransposeTile - 1) / kTransposeTile), uint32_t((rows + kTransposeTile - 1) / kTransposeTile), z);
    }

    ContextImpl& ctx_;
    ConvDesc desc_;
    TransformLayout layout_;
    uint32_t wg_;
    std::unique_ptr<AlgorithmInstance> inner_;
    const ComputePipeline* pipeline_ = nullptr;
};

}  // namespace

std::string nhwcTransformWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (d.inputLayout != TensorLayout::NCHW) return "the input is NHWC already (use implicit_gemm)";
    if (o.workspaceLimit == 0) return "it needs a workspace and PlanOptions::workspaceLimit is 0";
    TransformLayout l = transformLayout(ctx, d, o.workspaceLimit);
    if (!l.why.empty()) return l.why;
    const auto& lim = ctx.caps.maxWorkgroupCount;
    auto blocks = [](uint64_t n) { return (n + kTransposeTile - 1) / kTransposeTile; };
    if (blocks(uint64_t(d.h) * uint64_t(d.w)) > lim[0] || blocks(uint64_t(d.c)) > lim[1])
        return "the input's H*W or C exceeds the transpose's grid";
    if (filterNeedsTranspose(d) && (blocks(uint64_t(d.r * d.s)) > lim[0] || blocks(uint64_t(d.channelsPerGroup())) > lim[1]))
        return "the filter's R*S or C/groups exceeds the transpose's grid";
    const ConvDesc g = nhwcDesc(d);
    const PlanOptions inner = innerOptions(ctx, g, o, l);
    std::string why = findAlgorithm(inner.algorithm)->whyNot(ctx, g, inner);
    return why.empty() ? "" : "its NHWC " + inner.algorithm + " declines: " + why;
}

std::unique_ptr<AlgorithmInstance> nhwcTransformInstantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return std::make_unique<NhwcTransformInstance>(ctx, d, o);
}

// The router's question, asked where implicit_gemm would run an NCHW layer with scalar staging:
// C/groups a multiple of 8 (channel slices; with 4-aligned channels NHWC loads 4 at a time) and
// not an unpadded 1x1 stride-1 layer with H*W % 4 == 0 (4-pixel NCHW loads already).
bool nhwcTransformPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (d.channelsPerGroup() % 8 != 0 || d.c % 4 != 0) return false;
    if (implicitGemmFourPixelLoads(d)) return false;
    if (!nhwcTransformWhyNot(ctx, d, o).empty()) return false;
    const double nchw = implicitGemmModelCost(ctx, d, o);
    TransformLayout l = transformLayout(ctx, d, o.workspaceLimit);
    PlanOptions inner = o;
    inner.workspaceLimit = l.innerLimit;
    const double nhwc = kNhwcSpeed * implicitGemmModelCost(ctx, nhwcDesc(d), inner);
    const double bytes = 2.0 * double(d.inputBytes()) + (filterNeedsTranspose(d) ? 2.0 * double(d.filterBytes()) : 0.0);
    const double passes = filterNeedsTranspose(d) ? 2.0 : 1.0;
    return nchw > 0 && nhwc > 0 && nhwc + bytes * kTransformFlopsPerByte + passes * kPassFlops < kMargin * nchw;
}

// The transpose per dtype x (driver default, wave32, wave64); the GEMM's pipelines are
// implicit_gemm's (NHWC activations, KRSC filters, either output layout).
std::vector<std::pair<ConvDesc, PlanOptions>> nhwcTransformVariants(const ContextImpl& ctx) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    for (DType t : {DType::F32, DType::F16, DType::BF16})
        for (uint32_t sg : variantSubgroupSizes(ctx)) {
            ConvDesc d;
            d.c = 64; d.h = d.w = 28; d.k = 128; d.r = d.s = 3; d.pad(1, 1); d.strideH = d.strideW = 2; d.dtype = t;
            v.push_back({d, PlanOptions{"implicit_gemm_nhwc", sg, ""}});
        }
    return v;
}

}  // namespace vkconv
