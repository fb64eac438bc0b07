// "wgrad_coopmat": the weight gradient as an implicit GEMM per group on the matrix units
// (shaders/wgrad_coopmat.comp): dw tiles of filters x taps, reduced over the N x P x Q output
// pixels in 16-bit fragments with fp32 accumulation, the reduction split over workgroups (fp32
// partials in the workspace, then shaders/wgrad_reduce.comp adds them in a fixed order); the bias
// gradient fused into the first column of tiles.  With one split the kernel writes dw and db
// itself.  fp16 and bf16 (where the device has bf16 cooperative matrices); fp32, depthwise layers
// and GEMMs smaller than one fragment per group are the scalar kernels'.
#include <algorithm>
#include <cmath>

#include "conv/coopmat_support.hpp"
#include "conv/dispatch.hpp"
#include "conv/gradient.hpp"
#include "conv/split_k.hpp"
#include "conv/tile_score.hpp"
#include "conv/tile_syntax.hpp"
#include "conv/wgrad_split.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/shader_registry.hpp"
#include "util/test_hooks.hpp"
#include "vkconv/error.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kSliceK = 32;  // output pixels per slice

struct WcTile {
    const char* name;
    uint32_t bm, bn, bk, warpsM, warpsN;  // filters x taps x pixels per slice; subgroups
    uint32_t warps() const { return warpsM * warpsN; }
    // Two buffers of [bk][bm / 8 + 1] and [bk][bn / 8 + 1] 16-byte words (the shader's smem).
    uint32_t sharedBytes() const { return 2 * bk * (bm / 8 + 1 + bn / 8 + 1) * 16; }
};

// Name: BMxBNxBK/WARPS_MxWARPS_N.  128x128x32/2x4: 8 subgroups of 64x32 (4x2 accumulators of
// 16x16), 34 KiB of shared memory.  128x256x16/2x4: 64x64 per subgroup (4x4 accumulators), a
// quarter fewer staged bytes per product than 128x128 at the same products per barrier, in
// 25 KiB (a 32-deep slice would not fit 48 KiB double-buffered).  The narrower tiles for 64
// filters or taps and fewer per group (a 128-wide side would be half padding) and for devices
// with less shared memory.
constexpr WcTile kTiles[] = {
    {"128x256x16/2x4", 128, 256, kSliceK / 2, 2, 4}, {"128x128x32/2x4", 128, 128, kSliceK, 2, 4},
    {"64x128x32/2x4", 64, 128, kSliceK, 2, 4},       {"128x64x32/2x4", 128, 64, kSliceK, 2, 4},
    {"64x64x32/2x2", 64, 64, kSliceK, 2, 2},
};

enum SpecWgradCoopmat : uint32_t {
    kSpecBM = 101,
    kSpecBN = 102,
    kSpecBK = 103,
    kSpecWarpsM = 104,
    kSpecWarpsN = 105,
    kSpecCmM = 106,
    kSpecCmN = 107,
    kSpecCmK = 108,
    kSpecEmuLanes = 109,
    kSpecVecA = 110,
    kSpecVecB = 111,
    kSpecPointwise = 112,
    kSpecSplitOut = 113,
    kSpecAhead2 = 114,
};

// Each split keeps at least this many slices (256 pixels): its prologue and epilogue amortised.
constexpr uint64_t kMinSlicesPerSplit = 8;
constexpr uint64_t kMaxSplit = 64;

std::string shaderName(DType t) {
    return std::string("wgrad_coopmat_") + (coopmatEmulated(t) ? "emu_" : "") + dtypeSuffix(t);
}

// A subgroup-scope fragment with 16-bit operands of the storage type and fp32 accumulation that
// tiles the 32-wide subgroup blocks and the 32-pixel slice in 8-value words: 16x16x16 preferred,
// then the driver's order.
const CoopMatConfig* pickConfig(const DeviceCaps& caps, DType t) {
    if (coopmatEmulated(t)) return &coopmatEmulatedConfig(t);
    const CoopMatConfig* best = nullptr;
    for (const auto& c : caps.coopMatConfigs) {
        if (!coopmatOperandsMatch(c, t)) continue;
        if (c.m == 0 || c.n == 0 || c.k == 0 || c.m % 8 || c.n % 8 || 32 % c.m || 16 % c.n || 16 % c.k) continue;
        if (c.m == 16 && c.n == 16 && c.k == 16) return &c;
        if (!best) best = &c;
    }
    return best;
}

uint64_t taps(const ConvDesc& d) { return uint64_t(d.channelsPerGroup()) * uint64_t(d.r) * uint64_t(d.s); }
uint64_t pixels(const ConvDesc& d) { return uint64_t(d.n) * uint64_t(d.outH()) * uint64_t(d.outW()); }
uint64_t colTiles(const ConvDesc& d, const WcTile& t) { return (taps(d) + t.bn - 1) / t.bn; }
uint64_t rowTiles(const ConvDesc& d, const WcTile& t) {
    return uint64_t(d.groups) * ((uint64_t(d.filtersPerGroup()) + t.bm - 1) / t.bm);
}
uint64_t slicesOf(const ConvDesc& d, const WcTile& t) { return (pixels(d) + t.bk - 1) / t.bk; }

std::string tileWhyNot(const ContextImpl& ctx, const ConvDesc& d, const WcTile& t, const CoopMatConfig& cm,
                       uint32_t sg) {
    const uint32_t nt = t.warps() * sg;
    if (nt > ctx.caps.maxWorkgroupSize[0])
        return "tile " + std::string(t.name) + ": " + std::to_string(nt) + " invocations exceed maxWorkgroupSize[0]";
    if (std::string why = workgroupWhyNot(ctx, nt, coopmatSubgroup(ctx.caps).required); !why.empty())
        return "tile " + std::string(t.name) + ": " + why;
    if (nt % (t.bm / 8) || nt % (t.bn / 8) || (t.bk * t.bm / 8) % nt || (t.bk * t.bn / 8) % nt)
        return "tile " + std::string(t.name) + ": staging does not divide among " + std::to_string(nt) + " invocations";
    if ((t.bm / t.warpsM) % cm.m || (t.bn / t.warpsN) % cm.n || t.bk % cm.k)
        return "tile " + std::string(t.name) + ": the " + std::to_string(cm.m) + "x" + std::to_string(cm.n) + "x" +
               std::to_string(cm.k) + " fragment does not tile it";
    if (t.sharedBytes() > ctx.caps.maxSharedMemory)
        return "tile " + std::string(t.name) + " needs " + std::to_string(t.sharedBytes()) +
               " bytes of shared memory; the device has " + std::to_string(ctx.caps.maxSharedMemory);
    if (t.warps() * cm.m * cm.n * 4 > t.sharedBytes()) return "the epilogue scratch exceeds the staging memory";
    return gridWhyNot(ctx, colTiles(d, t), rowTiles(d, t), "tap tiles", "groups x filter tiles");
}

const WcTile* findTile(const TileSpec& spec) {
    for (auto& t : kTiles)
        if (spec.is({{t.bm, t.bn, t.bk}, {t.warpsM, t.warpsN}})) return &t;
    return nullptr;
}

struct Choice {
    const WcTile* tile = nullptr;
    const CoopMatConfig* cm = nullptr;
    uint32_t split = 1;
    std::string why;  // why nothing fits (tile null)
};

// The tile: 64 filters (taps) per tile where the group has at most 64, a 128-wide side would be
// half padding; 256 taps where there are 256 or more beside 128+ filters, the fewest staged bytes
// per product; otherwise 128.  Where that one does not fit the device, the next in the table that does.
const WcTile* modelTile(const ContextImpl& ctx, const ConvDesc& d, const CoopMatConfig& cm, uint32_t sg) {
    const uint32_t bm = d.filtersPerGroup() <= 64 ? 64 : 128;
    const uint32_t bn = taps(d) <= 64 ? 64 : bm == 128 && taps(d) >= 256 ? 256 : 128;
    std::vector<const WcTile*> order;
    for (auto& t : kTiles)
        if (t.bm == bm && t.bn == bn) order.push_back(&t);
    for (auto& t : kTiles)
        if (std::find(order.begin(), order.end(), &t) == order.end()) order.push_back(&t);
    for (const WcTile* t : order)
        if (tileWhyNot(ctx, d, *t, cm, sg).empty()) return t;
    return nullptr;
}

Choice choose(const ContextImpl& ctx, const WeightGradProblem& p, const PlanOptions& o) {
    const ConvDesc& d = p.conv;
    if (std::string why = coopmatDeviceWhyNot(ctx, d.dtype, shaderName(d.dtype)); !why.empty()) return {.why = why};
    if (d.groups > 1 && d.groups == d.c)
        return {.why =
                    "depthwise layers (groups == C) are wgrad_depthwise's: one tap per filter and group leaves "
                    "no GEMM for the matrix units"};
    Choice c;
    c.cm = pickConfig(ctx.caps, d.dtype);
    if (!c.cm)
        return {.why = std::string("no subgroup-scope ") + dtypeSuffix(d.dtype) + " x " + dtypeSuffix(d.dtype) +
                       " + f32 -> f32 cooperative-matrix size that tiles 32x16 blocks (device reports: " +
                       coopmatConfigList(ctx.caps) + ")"};
    if (uint32_t(d.filtersPerGroup()) < c.cm->m)
        return {.why = "K/groups = " + std::to_string(d.filtersPerGroup()) + " filters per group fill less than one " +
                       std::to_string(c.cm->m) + "-row fragment"};
    if (taps(d) < c.cm->n)
        return {.why = "C/groups x R x S = " + std::to_string(taps(d)) + " taps per group fill less than one " +
                       std::to_string(c.cm->n) + "-column fragment"};
    if (std::string why =
            coopmatFixedSubgroupWhyNot(ctx.caps, o.subgroupSize, "the tiles' subgroup blocks are laid out");
        !why.empty())
        return {.why = why};
    const uint32_t sg = coopmatSubgroup(ctx.caps).size;
    SplitRequest req = parseSplitRequest(o.tile);
    if (!req.error.empty()) return {.why = req.error};
    if (!req.tile.empty()) {
        c.tile = findTile(req.spec);
        if (!c.tile)
            return {.why = noTileError(req.spec, tileNames(kTiles, [](const WcTile& t) { return t.name; }) +
                                                     "; each optionally followed by /s<splits>, or s<splits> alone")};
        if (std::string why = tileWhyNot(ctx, d, *c.tile, *c.cm, sg); !why.empty()) return {.why = why};
    } else if (!(c.tile = modelTile(ctx, d, *c.cm, sg))) {
        return {.why = "no tile fits (" + tileWhyNot(ctx, d, kTiles[std::size(kTiles) - 1], *c.cm, sg) + ")"};
    }
    const uint64_t slices = slicesOf(d, *c.tile);
    WgradSplitLimit lim = wgradSplitLimit(ctx, d, o.workspaceLimit, ctx.caps.maxWorkgroupCount[2]);
    if (req.split) {
        uint64_t s = std::min(req.split, slices);  // more splits than slices would leave some empty
        if (s > 1 && s > lim.most)
            return {.why = std::to_string(s) + " splits exceed " + lim.what +
                           (lim.most ? "; at most " + std::to_string(lim.most) : "")};
        c.split = uint32_t(s);
    } else {
        // wgrad_split's rule (4 workgroups per compute unit, here >= 8 slices each), and the
        // partials' traffic (written, then read by the reduce pass) at most the products' time.
        const double flops = 2.0 * double(d.k) * double(taps(d)) * double(pixels(d));
        const uint64_t traffic =
            uint64_t(flops / ctx.model.wgradMatrixFlopsPerByte / (8.0 * double(wgradSplitElements(d))));
        c.split = uint32_t(wgradSplitRule(ctx, colTiles(d, *c.tile) * rowTiles(d, *c.tile), slices, kMinSlicesPerSplit,
                                          std::min({kMaxSplit, lim.most, traffic})));
    }
    return c;
}

class WgradCoopmatInstance final : public AlgorithmInstance {
public:
    WgradCoopmatInstance(ContextImpl& ctx, const WeightGradProblem& p, const Choice& c)
        : ctx_(ctx),
          problem_(p),
          pc_(makePushConstants(p.conv)),
          tile_(*c.tile),
          cm_(*c.cm),
          split_(c.split),
          sg_(coopmatSubgroup(ctx.caps)) {
        const ConvDesc& d = p.conv;
        pointwise_ = d.r == 1 && d.s == 1 && d.strideH == 1 && d.strideW == 1 && d.padTop == 0 && d.padBottom == 0 &&
                     d.padLeft == 0 && d.padRight == 0;
        // 16-byte words of 8 filters (channels) of one pixel: NHWC with K/groups (C/groups) % 8 == 0.
        vecA_ = d.outputLayout == TensorLayout::NHWC && d.filtersPerGroup() % 8 == 0;
        vecB_ = d.inputLayout == TensorLayout::NHWC && d.channelsPerGroup() % 8 == 0;
        ahead2_ = wantAhead2(ctx, vecA_ && vecB_);
        pc_.splitK = split_;
        if (split_ > 1) reduce_ = std::make_unique<WgradReduce>(ctx, p);
        gx_ = uint32_t(colTiles(d, tile_));
        gy_ = uint32_t(rowTiles(d, tile_));
        vectorPipeline_ = &pipeline(true);
    }
    void recordWeightGrad(VkCommandBuffer cmd, const WeightGradTensors& t) const override {
        // 16-byte loads need 16-byte aligned views; otherwise the element-wise pipeline.
        const bool aligned = t.input.offset % 16 == 0 && t.gradOutput.offset % 16 == 0;
        const ComputePipeline& pl = aligned ? *vectorPipeline_ : pipeline(false);
        bindWeightGradTensors(ctx_, cmd, pl, t);
        pushConstants(ctx_, cmd, pl, pc_);
        cmdDispatch(ctx_, cmd, gx_, gy_, split_);
        if (reduce_) reduce_->record(cmd, t, pc_);
    }
    VkDeviceSize workspaceSize() const override {
        return split_ > 1 ? VkDeviceSize(split_) * wgradSplitElements(problem_.conv) * 4 : 0;
    }
    std::string name() const override { return "wgrad_coopmat"; }
    std::string config() const override {
        std::string c = std::string("tile ") + tile_.name + " cm " + std::to_string(cm_.m) + "x" +
                        std::to_string(cm_.n) + "x" + std::to_string(cm_.k);
        if (vecA_ || vecB_) c += std::string(" vec8") + (vecA_ ? "A" : "") + (vecB_ ? "B" : "");
        c += split_ > 1 ? " split " + std::to_string(split_) : std::string(" one pass");
        if (ahead2_) c += " ahead2";
        if (pointwise_) c += " pointwise";
        c += " sg" + std::to_string(sg_.size);
        if (coopmatEmulated(problem_.conv.dtype)) c += " EMULATED";
        return c;
    }

private:
    // Loads two slices ahead on NVIDIA, as implicit_gemm_coopmat does there: one 16- or 32-deep
    // slice of products is shorter than a load's latency (docs/performance.md, "backward-weight on
    // the matrix units").  Elsewhere unmeasured.  Only the 16-byte paths: the element path's loads
    // are rolled loops.  The test hook coopmat_ahead2=0|1 takes either path on any device.
    static bool wantAhead2(const ContextImpl& ctx, bool vec) {
        return vec && testHookOr("coopmat_ahead2", ctx.caps.vendorId == 0x10DE);
    }
    const ComputePipeline& pipeline(bool vec) const {
        const ConvDesc& d = problem_.conv;
        PipelineKey key =
            gradPipelineKey(shaderName(d.dtype), d, problem_.accumulate, tile_.warps() * sg_.size, sg_.required);
        key.spec.push_back({kSpecBM, tile_.bm});
        key.spec.push_back({kSpecBN, tile_.bn});
        key.spec.push_back({kSpecBK, tile_.bk});
        key.spec.push_back({kSpecWarpsM, tile_.warpsM});
        key.spec.push_back({kSpecWarpsN, tile_.warpsN});
        key.spec.push_back({kSpecCmM, cm_.m});
        key.spec.push_back({kSpecCmN, cm_.n});
        key.spec.push_back({kSpecCmK, cm_.k});
        key.spec.push_back({kSpecVecA, vec && vecA_ ? 1u : 0u});
        key.spec.push_back({kSpecVecB, vec && vecB_ ? 1u : 0u});
        key.spec.push_back({kSpecPointwise, pointwise_ ? 1u : 0u});
        key.spec.push_back({kSpecSplitOut, split_ > 1 ? 1u : 0u});
        key.spec.push_back({kSpecAhead2, vec && ahead2_ ? 1u : 0u});
        if (coopmatEmulated(d.dtype)) key.spec.push_back({kSpecEmuLanes, sg_.size});
        key.fullSubgroups = true;  // the subgroup index must name a whole block
        return ctx_.pipelines->get(key);
    }

    ContextImpl& ctx_;
    WeightGradProblem problem_;
    ConvPushConstants pc_;
    const WcTile& tile_;
    CoopMatConfig cm_;
    uint32_t split_;
    SubgroupChoice sg_;
    bool pointwise_ = false, vecA_ = false, vecB_ = false, ahead2_ = false;
    const ComputePipeline* vectorPipeline_ = nullptr;
    std::unique_ptr<WgradReduce> reduce_;
    uint32_t gx_ = 0, gy_ = 0;
};

}  // namespace

std::string wgradCoopmatWhyNot(const ContextImpl& ctx, const WeightGradProblem& p, const PlanOptions& o) {
    return choose(ctx, p, o).why;
}

std::unique_ptr<AlgorithmInstance> wgradCoopmatInstantiate(ContextImpl& ctx, const WeightGradProblem& p,
                                                           const PlanOptions& o) {
    const Choice c = choose(ctx, p, o);
    if (!c.tile) throw Error(ErrorCode::Unsupported, "wgrad_coopmat: " + c.why);
    return std::make_unique<WgradCoopmatInstance>(ctx, p, c);
}

// Every tile x 16-bit dtype x (NHWC/KRSC: the 16-byte paths; NCHW/KCRS: the element paths) x
// (one pass, split), with the bias and accumulate (the reduce pass's variants too); and the
// pointwise build, split.
std::vector<std::pair<WeightGradProblem, PlanOptions>> wgradCoopmatVariants(const ContextImpl&) {
    std::vector<std::pair<WeightGradProblem, PlanOptions>> v;
    for (DType t : {DType::F16, DType::BF16})
        for (bool nhwc : {true, false})
            for (const auto& tile : kTiles)
                for (int shape = 0; shape < (nhwc ? 3 : 2); ++shape) {
                    const bool pointwise = shape == 2;
                    WeightGradProblem p;
                    p.conv.n = 8;
                    p.conv.c = p.conv.k = 128;
                    p.conv.h = p.conv.w = 28;
                    p.conv.r = p.conv.s = pointwise ? 1 : 3;
                    if (!pointwise) p.conv.pad(1, 1);
                    p.conv.dtype = t;
                    p.conv.hasBias = true;
                    p.accumulate = true;
                    if (nhwc) {
                        p.conv.inputLayout = p.conv.outputLayout = TensorLayout::NHWC;
                        p.conv.filterLayout = FilterLayout::KRSC;
                    }
                    PlanOptions o;
                    o.algorithm = "wgrad_coopmat";
                    o.tile = tile.name + std::string(shape == 0 ? "/s1" : "/s2");
                    o.pass = ConvPass::BackwardWeight;
                    o.accumulate = true;
                    v.push_back({p, o});
                }
    return v;
}

}  // namespace vkconv
