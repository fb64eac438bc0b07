// "winograd": F(m x m, 3x3), m = 2 or 4, for 3x3 stride-1 convolutions, non-fused
// (docs/design.md "Winograd").  Each m x m output block comes from an (m+2) x (m+2) input patch
// through (m+2)^2 products instead of 9 m^2: 16/36 of the direct multiplies for F(2x2,3x3), 36/144
// for F(4x4,3x3).  Per call:
//   filter transform  U[xi][k][c] = (G g G^T)[xi]                 (shaders/winograd_filter.comp)
//   per chunk of output tiles:
//     input transform V[t][xi][c] = (B^T d B)[xi]                  (shaders/winograd_input.comp)
//     batched GEMM    M[t][xi][k] = sum_c V[t][xi][c] U[xi][k][c]   a grouped 1x1 convolution with
//                     (m+2)^2 x groups groups, planned through the router like any other problem
//     output transform y = epilogue(A^T M A)                        (shaders/winograd_output.comp)
// V, U and M live in the workspace in fp32 whatever the storage dtype (16-bit tensors then round
// only where the direct kernels do: on load and on the final store); chunks keep the workspace
// within PlanOptions::workspaceLimit.
#include <algorithm>
#include <limits>

#include "conv/algorithm.hpp"
#include "conv/dispatch.hpp"
#include "conv/winograd.hpp"
#include "runtime/context_impl.hpp"
#include "vkconv/error.hpp"

namespace vkconv {

double implicitGemmModelCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o);

namespace {

constexpr uint32_t kTransformWorkgroup = 256;  // at most; see transformWorkgroup
// NCHW transforms work on blocks of (workgroup / 8) tiles x 8 channels or filters
// (winograd_input.comp / winograd_output.comp's CC and CK: one 32-byte sector of a V or M row).
constexpr uint32_t kNchwBlockChannels = 8;
constexpr uint32_t kWinogradBindings = kBindWorkspace + 1;  // the five tensors + the fp32 region
constexpr uint64_t kChunkAlign = 128;  // chunk tiles rounded to the GEMM's tallest tile


// The batched GEMM of a chunk of `tiles` output tiles as a grouped 1x1 NHWC convolution: one
// "pixel" per tile, taps x C input channels (group xi * groups + g holds the channels of tap xi
// and group g), taps x K filters.
ConvDesc gemmDesc(const ConvDesc& d, uint32_t taps, uint64_t tiles) {
    ConvDesc g;
    g.n = 1, g.h = 1, g.w = int64_t(tiles);
    g.c = taps * d.c, g.k = taps * d.k, g.r = g.s = 1, g.groups = taps * d.groups;
    g.dtype = DType::F32;
    makeNhwc(g);
    return g;
}

std::string variantName(uint32_t m) { return m == 2 ? "2x2" : "4x4"; }

// The transforms' workgroup: 256 invocations, capped by the device and, at a required subgroup
// size, by subgroup size x maxComputeWorkgroupSubgroups (lavapipe at size 4: 128), and kept a
// multiple of that subgroup size (full subgroups).
uint32_t transformWorkgroup(const ContextImpl& ctx, uint32_t sg) {
    uint32_t wg = std::min({kTransformWorkgroup, ctx.caps.maxWorkgroupInvocations, ctx.caps.maxWorkgroupSize[0]});
    if (sg && ctx.caps.maxComputeWorkgroupSubgroups) wg = std::min(wg, sg * ctx.caps.maxComputeWorkgroupSubgroups);
    if (sg) wg = std::max(sg, wg / sg * sg);
    return wg;
}

// The batched GEMM's own plan options: the caller's subgroup size, what the workspace has left.
PlanOptions gemmOptions(const PlanOptions& o, const WinogradLayout& l) {
    PlanOptions inner;
    inner.subgroupSize = o.subgroupSize;
    inner.workspaceLimit = l.gemmLimit;
    return inner;
}

// Streaming passes (the transforms) in the GEMM model's FLOP-equivalents: ~28 TFLOP/s for the
// scalar GEMM's best tile against ~3 TB/s for a copy-like pass on the H200 (bench --peak: 4.2).
constexpr double kTransformFlopsPerByte = 10.0;
constexpr double kPassFlops = 1e8;  // one more dispatch after a barrier, ~3 us
constexpr double kWinogradMargin = 0.85;

// Modelled time of F(m x m) (FLOP-equivalents of implicitGemmModelCost), < 0 when it declines.
double modelCost(const ContextImpl& ctx, const ConvDesc& d, uint32_t m, const PlanOptions& o) {
    WinogradLayout l = winogradLayout(ctx, d, m, o.workspaceLimit);
    if (!l.why.empty()) return -1;
    const double gemm = double(l.chunks) * implicitGemmModelCost(ctx, gemmDesc(d, l.taps, l.chunk), gemmOptions(o, l));
    const double T = double(l.tiles);  // V and M in fp32, each written once and read once
    const double bytes = 2.0 * double(d.inputBytes()) + 2.0 * l.taps * T * double(d.c + d.k) * 4.0 + double(d.outputBytes()) +
                         double(l.uBytes) + double(d.filterBytes());
    return gemm + bytes * kTransformFlopsPerByte + double(3 * l.chunks + 1) * kPassFlops;
}

// PlanOptions::tile "2x2" / "4x4", else the cheaper of the two by the model.
uint32_t chooseM(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (o.tile == "2x2") return 2;
    if (o.tile == "4x4") return 4;
    double c2 = modelCost(ctx, d, 2, o), c4 = modelCost(ctx, d, 4, o);
    return c4 >= 0 && (c2 < 0 || c4 < c2) ? 4 : 2;
}

}  // namespace

WinogradLayout winogradLayout(const ContextImpl& ctx, const ConvDesc& d, uint32_t m, VkDeviceSize workspaceLimit) {
    WinogradLayout l;
    // The whole workspace is one binding-sized view (Plan::record checks it).
    workspaceLimit = std::min<VkDeviceSize>(workspaceLimit, ctx.caps.maxStorageBufferRange);
    l.m = m;
    l.taps = (m + 2) * (m + 2);
    const uint64_t es = 4;  // fp32 V, U, M
    const uint64_t align = workspaceRegionAlignment(ctx);
    l.tiles = uint64_t(d.n) * uint64_t((d.outH() + m - 1) / m) * uint64_t((d.outW() + m - 1) / m);
    l.uBytes = alignUp(l.taps * uint64_t(d.k) * uint64_t(d.channelsPerGroup()) * es, align);
    const uint64_t perTile = l.taps * uint64_t(std::max(d.c, d.k));  // elements of V or M per tile (the larger)
    // Chunk limits: 32-bit indexing of V and M, maxStorageBufferRange per view, the workspace.
    uint64_t most = uint64_t(std::numeric_limits<int32_t>::max()) / perTile;
    most = std::min(most, uint64_t(ctx.caps.maxStorageBufferRange) / (perTile * es));
    const uint64_t perTileBytes = l.taps * uint64_t(d.c + d.k) * es;
    const uint64_t fixed = l.uBytes + 2 * align;
    if (workspaceLimit <= fixed || (workspaceLimit - fixed) / perTileBytes == 0) {
        l.why = "F(" + variantName(m) + ",3x3) needs at least " + std::to_string(fixed + perTileBytes) +
                " workspace bytes (the transformed filters and one tile) and PlanOptions::workspaceLimit is " +
                std::to_string(workspaceLimit);
        return l;
    }
    most = std::min(most, (workspaceLimit - fixed) / perTileBytes);
    if (most == 0) {
        l.why = "one tile's transformed channels exceed 32-bit indexing or maxStorageBufferRange";
        return l;
    }
    // Balanced chunks (rounded up to the GEMM's tallest tile where that still fits), so the last
    // one is not a sliver that underfills the GPU.
    l.chunks = (l.tiles + most - 1) / most;
    l.chunk = (l.tiles + l.chunks - 1) / l.chunks;
    if (l.chunks > 1 && alignUp(l.chunk, kChunkAlign) <= most) l.chunk = alignUp(l.chunk, kChunkAlign);
    l.chunks = (l.tiles + l.chunk - 1) / l.chunk;
    l.vOff = l.uBytes;
    l.vBytes = alignUp(l.chunk * l.taps * uint64_t(d.c) * es, align);
    l.mOff = l.vOff + l.vBytes;
    l.mBytes = alignUp(l.chunk * l.taps * uint64_t(d.k) * es, align);
    l.gemmOff = l.mOff + l.mBytes;
    l.gemmLimit = workspaceLimit - l.gemmOff;
    if (l.tiles > std::numeric_limits<uint32_t>::max()) l.why = "more than 2^32 output tiles";
    return l;
}

namespace {

class WinogradInstance final : public AlgorithmInstance {
public:
    WinogradInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o)
        : ctx_(ctx), desc_(d), pc_(makePushConstants(d)), sg_(o.subgroupSize),
          layout_(winogradLayout(ctx, d, chooseM(ctx, d, o), o.workspaceLimit)), wg_(transformWorkgroup(ctx, o.subgroupSize)) {
        const PlanOptions inner = gemmOptions(o, layout_);
        auto plan = [&](uint64_t tiles) {
            ConvDesc g = gemmDesc(d, layout_.taps, tiles);
            return chooseAlgorithm(ctx, g, inner).instantiate(ctx, g, inner);
        };
        gemm_ = plan(layout_.chunk);
        const uint64_t last = layout_.tiles - (layout_.chunks - 1) * layout_.chunk;
        if (last != layout_.chunk) gemmLast_ = plan(last);
        auto pipe = [&](const char* pass) {
            return &ctx.pipelines->get(convPipelineKey("winograd" + std::to_string(layout_.m) + "_" + pass + "_" + dtypeSuffix(d.dtype), d,
                                                       wg_, sg_, kWinogradBindings));
        };
        input_ = pipe("input");
        filter_ = pipe("filter");
        output_ = pipe("output");
    }

    void record(VkCommandBuffer cmd, const ConvTensors& t) const override {
        const BufferView& ws = t.workspace;
        auto view = [&](uint64_t off, uint64_t bytes) { return BufferView{ws.buffer, ws.offset + off, bytes}; };
        const BufferView U = view(0, layout_.uBytes), V = view(layout_.vOff, layout_.vBytes), M = view(layout_.mOff, layout_.mBytes);
        const uint64_t gemmWs = std::max(gemm_->workspaceSize(), gemmLast_ ? gemmLast_->workspaceSize() : 0);
        const BufferView G = gemmWs ? view(layout_.gemmOff, gemmWs) : BufferView{};

        // Transforms bind their fp32 region at binding 5 (shaders/include/winograd.glsl); binding 4
        // (unused by the input and filter transforms) gets the same region.
        ConvTensors ft{t.input, t.filter, {}, {}, U, U};
        bindConvTensors(ctx_, cmd, *filter_, ft, kWinogradBindings);
        pushConstants(ctx_, cmd, *filter_, pc_);
        dispatch1D(ctx_, cmd, uint64_t(desc_.k) * uint64_t(desc_.channelsPerGroup()), wg_);

        ConvPushConstants pc = pc_;
        for (uint64_t c = 0; c < layout_.chunks; ++c) {
            const uint64_t first = c * layout_.chunk, tiles = std::min(layout_.chunk, layout_.tiles - first);
            pc.aux0 = uint32_t(first), pc.aux1 = uint32_t(tiles);
            // The previous chunk's GEMM has finished reading V: a barrier separates it from its
            // output transform, recorded before this.
            ConvTensors it{t.input, t.filter, {}, {}, V, V};
            bindConvTensors(ctx_, cmd, *input_, it, kWinogradBindings);
            pushConstants(ctx_, cmd, *input_, pc);
            dispatch1D(ctx_, cmd, transformItems(tiles, desc_.c, desc_.inputLayout), wg_);
            computeBarrier(ctx_, cmd);  // V (and, the first time, U) written

            const AlgorithmInstance& g = tiles == layout_.chunk ? *gemm_ : *gemmLast_;
            g.record(cmd, ConvTensors{V, U, {}, {}, M, G});
            computeBarrier(ctx_, cmd);  // M written

            ConvTensors ot{t.input, t.filter, t.bias, t.residual, t.output, M};
            bindConvTensors(ctx_, cmd, *output_, ot, kWinogradBindings);
            pushConstants(ctx_, cmd, *output_, pc);
            dispatch1D(ctx_, cmd, transformItems(tiles, desc_.k, desc_.outputLayout), wg_);
        }
    }
    // Invocations of a transform over `tiles` tiles x `channels`: one per pair (NHWC), or whole
    // workgroups of wg_ / 8 tiles x 8 channels (NCHW).
    uint64_t transformItems(uint64_t tiles, int64_t channels, TensorLayout layout) const {
        if (layout != TensorLayout::NCHW) return tiles * uint64_t(channels);
        const uint64_t tt = wg_ / kNchwBlockChannels;
        return (tiles + tt - 1) / tt * ((uint64_t(channels) + kNchwBlockChannels - 1) / kNchwBlockChannels) * wg_;
    }
    VkDeviceSize workspaceSize() const override {
        return layout_.gemmOff + std::max(gemm_->workspaceSize(), gemmLast_ ? gemmLast_->workspaceSize() : 0);
    }
    std::string name() const override { return "winograd"; }
    // The largest sum of |A^T| x |G| x |B^T| coefficients over one input-filter pair, squared for
    // 2-D: 2^2 for F(2x2,3x3), (32/3)^2 for F(4x4,3x3); F(2x2)'s exact transforms round like direct.
    double roundingAmplification() const override { return layout_.m == 4 ? 1024.0 / 9.0 : 1.0; }
    std::string config() const override {
        std::string c = "F(" + variantName(layout_.m) + ",3x3) " + std::to_string(layout_.tiles) + " tiles";
        if (layout_.chunks > 1) c += " in " + std::to_string(layout_.chunks) + " chunks of " + std::to_string(layout_.chunk);
        c += "; gemm " + gemm_->name() + " [" + gemm_->config() + "]";
        if (sg_) c += " sg" + std::to_string(sg_);
        return c;
    }

private:
    ContextImpl& ctx_;
    ConvDesc desc_;
    ConvPushConstants pc_;
    uint32_t sg_;
    WinogradLayout layout_;
    uint32_t wg_;  // the transforms' workgroup size
    std::unique_ptr<AlgorithmInstance> gemm_, gemmLast_;  // full chunks, and a shorter last one
    const ComputePipeline *input_ = nullptr, *filter_ = nullptr, *output_ = nullptr;
};

}  // namespace

std::string winogradWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (!o.tile.empty() && o.tile != "2x2" && o.tile != "4x4")
        return "no tile '" + o.tile + "' (have: 2x2, 4x4: the output tile of F(m x m,3x3); its batched GEMM is planned by the router)";
    if (d.r != 3 || d.s != 3) return "F(m x m,3x3) needs a 3x3 filter";
    if (d.strideH != 1 || d.strideW != 1 || d.dilationH != 1 || d.dilationW != 1) return "F(m x m,3x3) needs stride 1 and dilation 1";
    if (o.workspaceLimit == 0) return "it needs a workspace and PlanOptions::workspaceLimit is 0";
    if (o.subgroupSize && (!ctx.caps.subgroupSizeControl || o.subgroupSize < ctx.caps.minSubgroupSize ||
                           o.subgroupSize > ctx.caps.maxSubgroupSize))
        return "subgroup size " + std::to_string(o.subgroupSize) + " cannot be required on this device";
    const uint32_t wg = transformWorkgroup(ctx, o.subgroupSize);
    if ((d.inputLayout == TensorLayout::NCHW || d.outputLayout == TensorLayout::NCHW) && wg % kNchwBlockChannels != 0)
        return "the NCHW transforms need a workgroup of a multiple of 8 invocations and this device allows " + std::to_string(wg);
    // A forced tile must fit; the heuristic needs one of the two to.
    std::string why;
    for (uint32_t m : {2u, 4u}) {
        if (!o.tile.empty() && o.tile != variantName(m)) continue;
        WinogradLayout l = winogradLayout(ctx, d, m, o.workspaceLimit);
        if (l.why.empty() && uint64_t(l.taps) * uint64_t(d.k) * uint64_t(d.channelsPerGroup()) > std::numeric_limits<int32_t>::max())
            l.why = std::to_string(l.taps) + " x K x C/groups transformed filter values exceed 32-bit indexing";
        if (l.why.empty()) {
            try {
                gemmDesc(d, l.taps, l.chunk).validate();
            } catch (const Error& e) {
                l.why = std::string("its batched GEMM is invalid: ") + e.what();
            }
        }
        if (l.why.empty()) return "";
        if (why.empty()) why = l.why;
    }
    return why;
}

std::unique_ptr<AlgorithmInstance> winogradInstantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (o.tile.empty()) {  // the heuristic's pick, or the one that fits
        PlanOptions f = o;
        f.tile = variantName(chooseM(ctx, d, o));
        if (!winogradWhyNot(ctx, d, f).empty()) f.tile = f.tile == "2x2" ? "4x4" : "2x2";
        return std::make_unique<WinogradInstance>(ctx, d, f);
    }
    return std::make_unique<WinogradInstance>(ctx, d, o);
}

// The router's question: is F(m x m,3x3) modelled clearly cheaper than the direct implicit GEMM?
bool winogradPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (!winogradWhyNot(ctx, d, o).empty()) return false;
    double best = -1;
    for (uint32_t m : {2u, 4u}) {
        double c = modelCost(ctx, d, m, o);
        if (c >= 0 && (best < 0 || c < best)) best = c;
    }
    return best >= 0 && best < kWinogradMargin * implicitGemmModelCost(ctx, d, o);
}

// Every dtype x layout pairing of the three transforms of both variants x (driver default, wave32,
// wave64 where the device can require them); the GEMM's pipelines are other algorithms'.
std::vector<std::pair<ConvDesc, PlanOptions>> winogradVariants(const ContextImpl& ctx) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    const std::vector<uint32_t> sgs = variantSubgroupSizes(ctx);
    for (const char* m : {"2x2", "4x4"})
        for (DType t : {DType::F32, DType::F16, DType::BF16})
            for (bool nhwc : {false, true})
                for (uint32_t sg : sgs) {
                    ConvDesc d;
                    d.c = 64; d.h = d.w = 28; d.k = 64; d.r = d.s = 3; d.pad(1, 1); d.dtype = t;
                    d.hasBias = true;
                    if (nhwc) makeNhwc(d);
                    v.push_back({d, PlanOptions{"winograd", sg, m}});
                }
    return v;
}

}  // namespace vkconv
