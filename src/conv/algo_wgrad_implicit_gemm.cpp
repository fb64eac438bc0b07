// "wgrad_implicit_gemm": the weight gradient as an implicit GEMM per group
// (shaders/wgrad_implicit_gemm.comp): dw tiles of filters x taps, the reduction over the
// N x P x Q output pixels split over workgroups (fp32 partials in the workspace, then
// shaders/wgrad_reduce.comp adds them in a fixed order); the bias gradient fused into the first
// column of tiles.  With one split (small reductions, many tiles, or no workspace allowed) the
// kernel writes dw and db itself.
#include <algorithm>
#include <cmath>

#include "conv/dispatch.hpp"
#include "conv/gradient.hpp"
#include "conv/tile_syntax.hpp"
#include "conv/split_k.hpp"
#include "conv/wgrad_split.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

struct WgradTile {
    const char* name;
    uint32_t bm, bn, bk, tm, tn;  // filters x taps x pixels per slice / register tile
    double speed;                 // relative per-workgroup efficiency (arithmetic intensity)
    constexpr uint32_t threads() const { return (bm / tm) * (bn / tn); }
    constexpr uint32_t sharedBytes() const { return 2 * bk * (bm + 4 + bn + 4) * 4; }
};

constexpr WgradTile kTiles[] = {
    {"128x128x8/8x8", 128, 128, 8, 8, 8, 1.0},
    {"64x64x16/4x4", 64, 64, 16, 4, 4, 0.7},
    {"32x32x16/4x4", 32, 32, 16, 4, 4, 0.4},
};

// wgrad_implicit_gemm.comp's staging: every invocation stages whole pixels or whole rows.
constexpr bool tilesDivide() {
    for (auto& t : kTiles) {
        uint32_t nt = t.threads();
        if (nt % t.bk || nt % t.bm || nt % t.bn || (t.bk * t.bm) % nt || (t.bk * t.bn) % nt ||
            (t.tm != 4 && t.tm != 8) || (t.tn != 4 && t.tn != 8))
            return false;
    }
    return true;
}
static_assert(tilesDivide(), "wgrad_implicit_gemm.comp: NT a multiple of BK, BM and BN; TM, TN 4 or 8");

enum SpecWgradGemm : uint32_t {
    kSpecBM = 101,
    kSpecBN = 102,
    kSpecBK = 103,
    kSpecTM = 104,
    kSpecTN = 105,
    kSpecPointwise = 108,
    kSpecSplitOut = 109,
};

// The split keeps at least this many slices (64-256 pixels) per workgroup, and at most this many
// splits: beyond that the partials' traffic outgrows what the extra workgroups gain.
constexpr uint64_t kMinSlicesPerSplit = 4;
constexpr uint64_t kMaxSplit = 64;

uint64_t taps(const ConvDesc& d) { return uint64_t(d.channelsPerGroup()) * uint64_t(d.r) * uint64_t(d.s); }
uint64_t pixels(const ConvDesc& d) { return uint64_t(d.n) * uint64_t(d.outH()) * uint64_t(d.outW()); }
uint64_t colTiles(const ConvDesc& d, const WgradTile& t) { return (taps(d) + t.bn - 1) / t.bn; }
uint64_t rowTiles(const ConvDesc& d, const WgradTile& t) {
    return uint64_t(d.groups) * ((uint64_t(d.filtersPerGroup()) + t.bm - 1) / t.bm);
}
uint64_t slicesOf(const ConvDesc& d, const WgradTile& t) { return (pixels(d) + t.bk - 1) / t.bk; }

std::string tileWhyNot(const ContextImpl& ctx, const ConvDesc& d, const WgradTile& t, uint32_t sg) {
    if (t.sharedBytes() > ctx.caps.maxSharedMemory)
        return "tile " + std::string(t.name) + " needs " + std::to_string(t.sharedBytes()) +
               " bytes of shared memory; the device has " + std::to_string(ctx.caps.maxSharedMemory);
    if (std::string why = workgroupWhyNot(ctx, t.threads(), sg); !why.empty())
        return "tile " + std::string(t.name) + ": " + why;
    return gridWhyNot(ctx, colTiles(d, t), rowTiles(d, t), "tap tiles", "groups x filter tiles");
}

const WgradTile* findTile(const TileSpec& spec) {
    for (auto& t : kTiles)
        if (spec.is({{t.bm, t.bn, t.bk}, {t.tm, t.tn}})) return &t;
    return nullptr;
}

// The tile with the best (useful / padded output area) x speed among those that fit: the split
// fills the GPU whatever the tile count, so only the padding and the tile's efficiency count.
const WgradTile* modelTile(const ContextImpl& ctx, const ConvDesc& d, uint32_t sg) {
    const WgradTile* best = nullptr;
    double bestScore = -1;
    for (auto& t : kTiles) {
        if (!tileWhyNot(ctx, d, t, sg).empty()) continue;
        double useful = double(d.filtersPerGroup()) * double(taps(d)) /
                        (double((d.filtersPerGroup() + t.bm - 1) / t.bm * t.bm) * double(colTiles(d, t) * t.bn));
        if (useful * t.speed > bestScore) bestScore = useful * t.speed, best = &t;
    }
    return best;
}

struct Choice {
    const WgradTile* tile = nullptr;
    uint32_t split = 1;
    std::string why;  // why nothing fits (tile null)
};

Choice choose(const ContextImpl& ctx, const WeightGradProblem& p, const PlanOptions& o) {
    const ConvDesc& d = p.conv;
    SplitRequest req = parseSplitRequest(o.tile);
    if (!req.error.empty()) return {nullptr, 0, req.error};
    Choice c;
    if (!req.tile.empty()) {
        c.tile = findTile(req.spec);
        if (!c.tile) {
            std::string names;
            for (auto& t : kTiles) names += std::string(names.empty() ? "" : ", ") + t.name;
            return {nullptr, 0, noTileError(req.spec, names + "; each optionally followed by /s<splits>")};
        }
        if (std::string why = tileWhyNot(ctx, d, *c.tile, o.subgroupSize); !why.empty()) return {nullptr, 0, why};
    } else if (!(c.tile = modelTile(ctx, d, o.subgroupSize))) {
        return {nullptr, 0, tileWhyNot(ctx, d, kTiles[std::size(kTiles) - 1], o.subgroupSize)};
    }
    const uint64_t slices = slicesOf(d, *c.tile);
    WgradSplitLimit lim = wgradSplitLimit(ctx, d, o.workspaceLimit, ctx.caps.maxWorkgroupCount[2]);
    if (req.split) {
        uint64_t s = std::min(req.split, slices);  // more splits than slices would leave some empty
        if (s > 1 && s > lim.most)
            return {nullptr, 0,
                    std::to_string(s) + " splits exceed " + lim.what +
                        (lim.most ? "; at most " + std::to_string(lim.most) : "")};
        c.split = uint32_t(s);
    } else {
        c.split = uint32_t(wgradSplitRule(ctx, colTiles(d, *c.tile) * rowTiles(d, *c.tile), slices, kMinSlicesPerSplit,
                                          std::min(kMaxSplit, lim.most)));
    }
    return c;
}

class WgradImplicitGemmInstance final : public AlgorithmInstance {
public:
    WgradImplicitGemmInstance(ContextImpl& ctx, const WeightGradProblem& p, const PlanOptions& o, const Choice& c)
        : ctx_(ctx), problem_(p), pc_(makePushConstants(p.conv)), tile_(*c.tile), split_(c.split), sg_(o.subgroupSize) {
        const ConvDesc& d = p.conv;
        pointwise_ = d.r == 1 && d.s == 1 && d.strideH == 1 && d.strideW == 1 && d.padTop == 0 && d.padBottom == 0 &&
                     d.padLeft == 0 && d.padRight == 0;
        pc_.splitK = split_;
        PipelineKey key = gradPipelineKey(std::string("wgrad_implicit_gemm_") + dtypeSuffix(d.dtype), d, p.accumulate,
                                          tile_.threads(), sg_);
        key.spec.push_back({kSpecBM, tile_.bm});
        key.spec.push_back({kSpecBN, tile_.bn});
        key.spec.push_back({kSpecBK, tile_.bk});
        key.spec.push_back({kSpecTM, tile_.tm});
        key.spec.push_back({kSpecTN, tile_.tn});
        key.spec.push_back({kSpecPointwise, pointwise_ ? 1u : 0u});
        key.spec.push_back({kSpecSplitOut, split_ > 1 ? 1u : 0u});
        pipeline_ = &ctx.pipelines->get(key);
        if (split_ > 1) reduce_ = std::make_unique<WgradReduce>(ctx, p);
        gx_ = uint32_t(colTiles(d, tile_));
        gy_ = uint32_t(rowTiles(d, tile_));
    }
    void recordWeightGrad(VkCommandBuffer cmd, const WeightGradTensors& t) const override {
        bindWeightGradTensors(ctx_, cmd, *pipeline_, t);
        pushConstants(ctx_, cmd, *pipeline_, pc_);
        cmdDispatch(ctx_, cmd, gx_, gy_, split_);
        if (reduce_) reduce_->record(cmd, t, pc_);
    }
    VkDeviceSize workspaceSize() const override {
        return split_ > 1 ? VkDeviceSize(split_) * wgradSplitElements(problem_.conv) * 4 : 0;
    }
    std::string name() const override { return "wgrad_implicit_gemm"; }
    std::string config() const override {
        return std::string("tile ") + tile_.name + (split_ > 1 ? " split " + std::to_string(split_) : " one pass") +
               (pointwise_ ? " pointwise" : "") + (sg_ ? " sg" + std::to_string(sg_) : std::string());
    }

private:
    ContextImpl& ctx_;
    WeightGradProblem problem_;
    ConvPushConstants pc_;
    const WgradTile& tile_;
    uint32_t split_, sg_;
    bool pointwise_ = false;
    const ComputePipeline* pipeline_;
    std::unique_ptr<WgradReduce> reduce_;
    uint32_t gx_ = 0, gy_ = 0;
};

}  // namespace

std::string wgradImplicitGemmWhyNot(const ContextImpl& ctx, const WeightGradProblem& p, const PlanOptions& o) {
    return choose(ctx, p, o).why;
}

std::unique_ptr<AlgorithmInstance> wgradImplicitGemmInstantiate(ContextImpl& ctx, const WeightGradProblem& p,
                                                                const PlanOptions& o) {
    return std::make_unique<WgradImplicitGemmInstance>(ctx, p, o, choose(ctx, p, o));
}

// Every tile x dtype x layouts (NCHW/KCRS, NHWC/KRSC, NHWC input with NCHW dy) x subgroup size:
// a 3x3 layer in one pass and split, and the pointwise build on a split 1x1 layer; with bias and
// accumulate (the reduce pass's variants too).
std::vector<std::pair<WeightGradProblem, PlanOptions>> wgradImplicitGemmVariants(const ContextImpl& ctx) {
    std::vector<std::pair<WeightGradProblem, PlanOptions>> v;
    for (auto& tile : kTiles)
        for (DType t : {DType::F32, DType::F16, DType::BF16})
            for (int layouts : {0, 3, 1})
                for (int shape = 0; shape < 3; ++shape)
                    for (uint32_t sg : variantSubgroupSizes(ctx)) {
                        const bool pointwise = shape == 2;
                        const char* split = shape == 0 ? "/s1" : "/s2";
                        WeightGradProblem p;
                        p.conv.n = 2;
                        p.conv.c = p.conv.k = 64;
                        p.conv.h = p.conv.w = 14;
                        p.conv.r = p.conv.s = pointwise ? 1 : 3;
                        if (!pointwise) p.conv.pad(1, 1);
                        p.conv.dtype = t;
                        p.conv.hasBias = true;
                        p.accumulate = true;
                        if (layouts & 1) p.conv.inputLayout = TensorLayout::NHWC;
                        if (layouts & 2) p.conv.outputLayout = TensorLayout::NHWC;
                        if (layouts == 3) p.conv.filterLayout = FilterLayout::KRSC;
                        PlanOptions o{"wgrad_implicit_gemm", sg, tile.name + std::string(split)};
                        o.pass = ConvPass::BackwardWeight;
                        o.accumulate = true;
                        v.push_back({p, o});
                    }
    return v;
}

}  // namespace vkconv
