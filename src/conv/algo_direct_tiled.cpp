// Level 2 "direct_tiled" (shaders/direct_tiled.comp): shared-memory tiled direct convolution.
// A 256-invocation workgroup stages the input halo of a TP x TQ output tile and the filters of BK
// output filters, CC input channels at a time, and each invocation accumulates 4 filters x 4
// pixels from shared memory.  The filter shape, strides and dilations are spec constants (one
// pipeline per filter geometry, as depthwise).  Declines problems whose halo and filter chunk do
// not fit the device's shared memory even at one channel per chunk.
#include <algorithm>
#include <cmath>

#include "conv/algorithm.hpp"
#include "conv/dispatch.hpp"
#include "conv/tile_syntax.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kWorkgroup = 256, kKT = 4, kQT = 4, kMaxChunk = 8;
// Shared memory a chunk should stay under when it can (half of RDNA's 64 KiB per CU, all of
// lavapipe's): two workgroups per CU hide each other's barriers.  Beyond it, fewer channels per
// chunk; the device limit decides only when one channel does not fit this budget.
constexpr uint32_t kSharedBudget = 32768;

// Output tile: TP rows x TQ columns x BK filters; (TP*TQ/4) x (BK/4) == 256 invocations.
struct Tile {
    const char* name;
    uint32_t tp, tq, bk;
};
constexpr Tile kTiles[] = {
    {"8x16x32", 8, 16, 32},    // the default shape
    {"16x16x16", 16, 16, 16},  // few filters per group: more pixels, a larger halo reuse
    {"8x8x64", 8, 8, 64},      // small late-layer maps (7x7 in one tile), many filters
};

enum SpecTiled : uint32_t {
    kSpecTP = 101,
    kSpecTQ = 102,
    kSpecBK = 103,
    kSpecCC = 104,
    kSpecKT = 105,
    kSpecQT = 106,
    kSpecFR = 107,
    kSpecFS = 108,
    kSpecSH = 109,
    kSpecSW = 110,
    kSpecDH = 111,
    kSpecDW = 112,
};

uint64_t haloRows(const ConvDesc& d, const Tile& t) {
    return (t.tp - 1) * uint64_t(d.strideH) + (d.r - 1) * uint64_t(d.dilationH) + 1;
}
uint64_t haloCols(const ConvDesc& d, const Tile& t) {
    return (t.tq - 1) * uint64_t(d.strideW) + (d.s - 1) * uint64_t(d.dilationW) + 1;
}

uint64_t sharedBytes(const ConvDesc& d, const Tile& t, uint64_t cc) {
    return 4 * cc * (haloRows(d, t) * haloCols(d, t) + uint64_t(d.r) * uint64_t(d.s) * t.bk);
}

// PlanOptions::tile TPxTQxBK names t.
bool names(const TileSpec& s, const Tile& t) { return s.is({{t.tp, t.tq, t.bk}}); }

struct Config {
    const Tile* tile = nullptr;
    uint32_t cc = 0;
};

// Channels per chunk: at most 8, split evenly (C/groups = 12 -> 2 chunks of 6), fewer until the
// chunk fits the budget, then the device limit; 0 when one channel does not fit.
uint32_t chooseChunk(const ContextImpl& ctx, const ConvDesc& d, const Tile& t) {
    uint64_t cg = uint64_t(d.channelsPerGroup());
    for (uint64_t limit :
         {std::min<uint64_t>(kSharedBudget, ctx.caps.maxSharedMemory), uint64_t(ctx.caps.maxSharedMemory)})
        for (uint64_t most = kMaxChunk; most >= 1; most /= 2) {
            uint64_t chunks = (cg + most - 1) / most, cc = (cg + chunks - 1) / chunks;
            if (sharedBytes(d, t, cc) <= limit) return uint32_t(cc);
        }
    return 0;
}

// (useful work / padded work) x grid fill, as the implicit GEMM's tile score (256 workgroups
// stand for a full GPU; no timing).  Ties keep the earlier tile.
double score(const ConvDesc& d, const Tile& t) {
    double P = double(d.outH()), Q = double(d.outW()), Kg = double(d.filtersPerGroup());
    double tp = std::ceil(P / t.tp), tq = std::ceil(Q / t.tq), tk = std::ceil(Kg / t.bk);
    double useful = (P * Q * Kg) / (tp * t.tp * tq * t.tq * tk * t.bk);
    return useful * std::min(1.0, double(d.n) * tp * tq * tk * double(d.groups) / 256.0);
}

// The tile (forced or best-scoring) and its chunk; tile == nullptr when nothing fits.
Config chooseConfig(const ContextImpl& ctx, const ConvDesc& d, const std::string& forced) {
    Config best;
    double bestScore = -1;
    const TileSpec spec = parseTile(forced);
    for (auto& t : kTiles) {
        if (!forced.empty() && !names(spec, t)) continue;
        uint32_t cc = chooseChunk(ctx, d, t);
        if (cc == 0) continue;
        double s = score(d, t);
        if (s > bestScore) {
            bestScore = s;
            best = {&t, cc};
        }
    }
    return best;
}

class DirectTiledInstance final : public SingleDispatchInstance {
public:
    DirectTiledInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o)
        : SingleDispatchInstance(ctx, d), cfg_(chooseConfig(ctx, d, o.tile)), sg_(o.subgroupSize) {
        const Tile& t = *cfg_.tile;  // whyNot has checked that one fits
        PipelineKey key = convPipelineKey(std::string("direct_tiled_") + dtypeSuffix(d.dtype), d, kWorkgroup, sg_);
        key.spec.insert(key.spec.end(), {{kSpecTP, t.tp},
                                         {kSpecTQ, t.tq},
                                         {kSpecBK, t.bk},
                                         {kSpecCC, cfg_.cc},
                                         {kSpecKT, kKT},
                                         {kSpecQT, kQT},
                                         {kSpecFR, uint32_t(d.r)},
                                         {kSpecFS, uint32_t(d.s)},
                                         {kSpecSH, uint32_t(d.strideH)},
                                         {kSpecSW, uint32_t(d.strideW)},
                                         {kSpecDH, uint32_t(d.dilationH)},
                                         {kSpecDW, uint32_t(d.dilationW)}});
        pipeline_ = &ctx.pipelines->get(key);
        gx_ = uint32_t(uint64_t(d.n) * ((uint64_t(d.outH()) + t.tp - 1) / t.tp) *
                       ((uint64_t(d.outW()) + t.tq - 1) / t.tq));
        gy_ = uint32_t(uint64_t(d.groups) * ((uint64_t(d.filtersPerGroup()) + t.bk - 1) / t.bk));
    }
    std::string name() const override { return "direct_tiled"; }
    std::string config() const override {
        return std::string("tile ") + cfg_.tile->name + " chunk " + std::to_string(cfg_.cc) + "ch" +
               (sg_ ? " sg" + std::to_string(sg_) : std::string());
    }

private:
    const ComputePipeline& pipelineFor(const ConvTensors&) const override { return *pipeline_; }

    Config cfg_;
    uint32_t sg_;
    const ComputePipeline* pipeline_;
};

}  // namespace

std::string directTiledWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    const TileSpec spec = parseTile(o.tile);
    if (!o.tile.empty() &&
        std::none_of(std::begin(kTiles), std::end(kTiles), [&](const Tile& t) { return names(spec, t); }))
        return noTileError(spec,
                           tileNames(kTiles, [](const Tile& t) { return t.name; }) + ", rows x columns x filters");
    if (std::string w = workgroupWhyNot(ctx, kWorkgroup, o.subgroupSize); !w.empty()) return w;
    Config c = chooseConfig(ctx, d, o.tile);
    if (!c.tile) {
        const Tile* t = nullptr;  // the forced tile, else the one needing the least
        for (auto& x : kTiles)
            if (o.tile.empty() ? !t || sharedBytes(d, x, 1) < sharedBytes(d, *t, 1) : names(spec, x)) t = &x;
        return "the input halo (" + std::to_string(haloRows(d, *t)) + "x" + std::to_string(haloCols(d, *t)) +
               ") and filters of tile " + t->name + " need " + std::to_string(sharedBytes(d, *t, 1)) +
               " bytes of shared memory at one channel per chunk; the device has " +
               std::to_string(ctx.caps.maxSharedMemory);
    }
    const Tile& t = *c.tile;
    uint64_t gx = uint64_t(d.n) * ((uint64_t(d.outH()) + t.tp - 1) / t.tp) * ((uint64_t(d.outW()) + t.tq - 1) / t.tq);
    uint64_t gy = uint64_t(d.groups) * ((uint64_t(d.filtersPerGroup()) + t.bk - 1) / t.bk);
    return gridWhyNot(ctx, gx, gy, "output tiles", "groups x filter tiles");
}

std::unique_ptr<AlgorithmInstance> directTiledInstantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return std::make_unique<DirectTiledInstance>(ctx, d, o);
}

// Every tile x dtype x {NCHW/KCRS, NHWC/KRSC} on a 3x3 layer (x wave32/wave64 where the device
// can require them), then the other geometries the suites have: the 7x7 stride-2 stem (chunk of
// 3 channels), 1x1 stride 2, a dilated 3x3.  Pipelines are per filter geometry, so these stand
// for the rest.
std::vector<std::pair<ConvDesc, PlanOptions>> directTiledVariants(const ContextImpl& ctx) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    const std::vector<uint32_t> sgs = variantSubgroupSizes(ctx);
    for (auto& t : kTiles)
        for (DType dt : {DType::F32, DType::F16, DType::BF16})
            for (bool nh : {false, true})
                for (uint32_t sg : sgs) {
                    ConvDesc d;
                    d.c = 64;
                    d.h = d.w = 56;
                    d.k = 128;
                    d.r = d.s = 3;
                    d.pad(1, 1);
                    d.dtype = dt;
                    d.hasBias = true;
                    d.activation = Activation::Relu;
                    if (nh) makeNhwc(d);
                    v.push_back({d, PlanOptions{"direct_tiled", sg, t.name}});
                }
    ConvDesc stem;
    stem.c = 3;
    stem.h = stem.w = 224;
    stem.k = 64;
    stem.r = stem.s = 7;
    stem.pad(3, 3);
    stem.strideH = stem.strideW = 2;
    v.push_back({stem, PlanOptions{"direct_tiled"}});
    ConvDesc down;
    down.c = 256;
    down.h = down.w = 56;
    down.k = 512;
    down.r = down.s = 1;
    down.strideH = down.strideW = 2;
    down.dtype = DType::F16;
    makeNhwc(down);
    v.push_back({down, PlanOptions{"direct_tiled"}});
    ConvDesc dil;
    dil.c = 256;
    dil.h = dil.w = 32;
    dil.k = 256;
    dil.r = dil.s = 3;
    dil.pad(2, 2);
    dil.dilationH = dil.dilationW = 2;
    v.push_back({dil, PlanOptions{"direct_tiled"}});
    return v;
}

}  // namespace vkconv
