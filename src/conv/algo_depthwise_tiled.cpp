// "depthwise_tiled" (shaders/depthwise_tiled.comp): depthwise layers (groups == C == K) with NHWC
// activations, through a shared-memory halo per workgroup: a TP x TQ output tile of CB = 4*CL
// channels, its input halo loaded in 16-byte words all at once, then PT x QT outputs of 4
// channels per invocation from shared memory.  Views that are not 16-byte aligned run on the
// register kernel ("depthwise"), which this instance keeps for them.
#include <algorithm>
#include <cstdio>
#include <mutex>

#include "conv/algorithm.hpp"
#include "conv/tile_syntax.hpp"
#include "conv/registry.hpp"
#include "conv/dispatch.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

enum SpecDepthwiseTiled : uint32_t {
    kSpecFR = 101,
    kSpecFS = 102,
    kSpecSH = 103,
    kSpecSW = 104,
    kSpecDH = 105,
    kSpecDW = 106,
    kSpecQT = 107,
    kSpecPT = 108,
    kSpecCL = 109,
    kSpecBQ = 110,
};

// Register budget of the unrolled kernel: taps (4 per entry), the window an invocation walks,
// the 16-byte words each invocation holds between the halo's loads and its stores.
constexpr int64_t kMaxTaps = 25, kMaxWindow = 16;
constexpr uint64_t kMaxLoadsPerInvocation = 16;
// Shared memory a workgroup's halo stays under (several workgroups per SM / CU keep each
// other's loads in flight), and the device limit when that is smaller.
constexpr uint64_t kHaloBudget = 24 * 1024;
uint64_t haloBudget(const ContextImpl& ctx) { return std::min<uint64_t>(kHaloBudget, ctx.caps.maxSharedMemory); }

struct Tile {
    uint32_t cl = 0, pt = 1, qt = 1, bp = 1, bq = 1;
    uint32_t wg() const { return cl * bp * bq; }
    uint32_t tp() const { return bp * pt; }
    uint32_t tq() const { return bq * qt; }
    std::string name() const {  // channels x rows x columns / rows x columns per invocation
        return std::to_string(4 * cl) + "x" + std::to_string(tp()) + "x" + std::to_string(tq()) + "/" +
               std::to_string(pt) + "x" + std::to_string(qt);
    }
};

uint64_t wordChannels(const ConvDesc& d) { return d.dtype == DType::F32 ? 4 : 8; }
uint64_t haloRows(const ConvDesc& d, const Tile& t) {
    return (t.tp() - 1) * uint64_t(d.strideH) + (d.r - 1) * uint64_t(d.dilationH) + 1;
}
uint64_t haloCols(const ConvDesc& d, const Tile& t) {
    return (t.tq() - 1) * uint64_t(d.strideW) + (d.s - 1) * uint64_t(d.dilationW) + 1;
}
uint64_t haloBytes(const ConvDesc& d, const Tile& t) {
    return haloRows(d, t) * haloCols(d, t) * (t.cl >= 8 ? t.cl : t.cl + 1) * 16;
}
uint64_t loadsPerInvocation(const ConvDesc& d, const Tile& t) {
    uint64_t words = haloRows(d, t) * haloCols(d, t) * (4 * t.cl / wordChannels(d));
    return (words + t.wg() - 1) / t.wg();
}
uint64_t tileCount(const ConvDesc& d, const Tile& t) {
    return uint64_t(d.n) * ((uint64_t(d.outH()) + t.tp() - 1) / t.tp()) * ((uint64_t(d.outW()) + t.tq() - 1) / t.tq()) *
           (uint64_t(d.c) / (4 * t.cl));
}

// Why this tile cannot run the problem on this device ("" when it can).
std::string tileWhyNot(const ContextImpl& ctx, const ConvDesc& d, const Tile& t) {
    if (d.c % (4 * t.cl) != 0)
        return "C " + std::to_string(d.c) + " is not a multiple of its " + std::to_string(4 * t.cl) + " channels";
    if (4 * t.cl % wordChannels(d) != 0) return "its channel block is not whole 16-byte words";
    if ((t.qt - 1) * d.strideW + (d.s - 1) * d.dilationW + 1 > kMaxWindow ||
        (t.pt - 1) * d.strideH + (d.r - 1) * d.dilationH + 1 > kMaxWindow)
        return "an invocation's input window exceeds the register budget";
    const uint64_t budget = haloBudget(ctx);
    if (haloBytes(d, t) > budget)
        return "its halo needs " + std::to_string(haloBytes(d, t)) + " bytes of shared memory (budget " +
               std::to_string(budget) + ")";
    if (loadsPerInvocation(d, t) > kMaxLoadsPerInvocation) return "its halo needs more than 16 loads per invocation";
    return "";
}

// Every tile the kernel ships: 2, 4 or 8 channel lanes (8-32 channels), 1-2 rows x 1-4 columns
// per invocation, workgroups of 64-256.
std::vector<Tile> allTiles() {
    std::vector<Tile> v;
    for (uint32_t wg : {64u, 128u, 256u})
        for (uint32_t cl : {8u, 4u, 2u})
            for (uint32_t pt : {1u, 2u})
                for (uint32_t qt : {1u, 2u, 4u})
                    for (uint32_t bq = 1; bq <= wg / cl; bq *= 2) {
                        Tile t{cl, pt, qt, wg / (cl * bq), bq};
                        if (t.wg() == wg) v.push_back(t);
                    }
    return v;
}

// Bytes a tile moves per useful output value: its halo (loaded words, padding and overlap
// included; a pixel's run of channels shorter than a 32-byte sector counts as a whole sector)
// and its outputs (the tail tiles' dead outputs included), plus each invocation's filter taps
// (read through the cache, weighted at DeviceModel::depthwiseFilterWeight), times a fill penalty
// when the grid has fewer workgroups than depthwiseFillPerUnit per SM / CU (each SM needs several
// resident to keep enough loads in flight).
double tileCost(const ContextImpl& ctx, const ConvDesc& d, const Tile& t) {
    const double tiles = double(tileCount(d, t));
    const double run = 4.0 * t.cl * double(dtypeSize(d.dtype));
    const double staged = double(haloRows(d, t) * haloCols(d, t)) * std::max(1.0, 32.0 / run),
                 outs = double(t.tp() * t.tq());
    const double useful = double(d.n) * double(d.outH()) * double(d.outW()) * double(d.c) / (4.0 * t.cl);
    const DeviceModel& m = ctx.model;
    double cost = tiles * (staged + outs) / useful + m.depthwiseFilterWeight * double(d.r * d.s) / double(t.pt * t.qt);
    const double fill = m.depthwiseFillPerUnit * m.depthwiseFillUnits;
    if (tiles < fill) cost *= fill / tiles;
    return cost;
}

// PlanOptions::tile CHANNELSxROWSxCOLS/ROWSxCOLS (the second per invocation), one of allTiles().
bool matchTile(const std::string& text, Tile* t) {
    const TileSpec s = parseTile(text);
    for (const Tile& c : allTiles())
        if (s.is({{4 * c.cl, c.tp(), c.tq()}, {c.pt, c.qt}})) {
            *t = c;
            return true;
        }
    return false;
}

// The forced tile, or the cheapest that runs (ties keep the earlier: smaller workgroups, more
// channels); cl == 0 when none does.
Tile chooseTile(const ContextImpl& ctx, const ConvDesc& d, const std::string& forced) {
    Tile best;
    if (!forced.empty()) {
        if (matchTile(forced, &best) && tileWhyNot(ctx, d, best).empty()) return best;
        return Tile{};
    }
    double bestCost = 0;
    for (const Tile& t : allTiles()) {
        if (!tileWhyNot(ctx, d, t).empty() || !workgroupWhyNot(ctx, t.wg(), 0).empty()) continue;
        double c = tileCost(ctx, d, t);
        if (best.cl == 0 || c < bestCost * 0.999) best = t, bestCost = c;
    }
    return best;
}

class DepthwiseTiledInstance final : public AlgorithmInstance {
public:
    DepthwiseTiledInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o)
        : ctx_(ctx),
          desc_(d),
          opts_(o),
          pc_(makePushConstants(d)),
          tile_(chooseTile(ctx, d, o.tile)),
          sg_(o.subgroupSize) {
        PipelineKey key = convPipelineKey(std::string("depthwise_tiled_") + dtypeSuffix(d.dtype), d, tile_.wg(), sg_);
        key.spec.insert(key.spec.end(), {{kSpecFR, uint32_t(d.r)},
                                         {kSpecFS, uint32_t(d.s)},
                                         {kSpecSH, uint32_t(d.strideH)},
                                         {kSpecSW, uint32_t(d.strideW)},
                                         {kSpecDH, uint32_t(d.dilationH)},
                                         {kSpecDW, uint32_t(d.dilationW)},
                                         {kSpecQT, tile_.qt},
                                         {kSpecPT, tile_.pt},
                                         {kSpecCL, tile_.cl},
                                         {kSpecBQ, tile_.bq}});
        pipeline_ = &ctx.pipelines->get(key);
        gx_ = uint32_t(((uint64_t(d.outH()) + tile_.tp() - 1) / tile_.tp()) *
                       ((uint64_t(d.outW()) + tile_.tq() - 1) / tile_.tq()));
        gy_ = uint32_t(uint64_t(d.n) * (uint64_t(d.c) / (4 * tile_.cl)));
    }
    void record(VkCommandBuffer cmd, const ConvTensors& t) const override {
        // 16-byte input words, 4-element filter runs and output / residual vectors.
        const uint64_t e = dtypeSize(desc_.dtype);
        if (t.input.offset % 16 != 0 || t.filter.offset % (4 * e) != 0 || t.output.offset % (4 * e) != 0 ||
            (desc_.hasResidual && t.residual.offset % (4 * e) != 0)) {
            std::call_once(fallbackOnce_, [&] {  // record() may run on several threads at once
                PlanOptions o = opts_;
                o.algorithm = "depthwise";
                o.tile.clear();
                fallback_ = depthwiseInstantiate(ctx_, desc_, o);
            });
            fallback_->record(cmd, t);
            return;
        }
        bindConvTensors(ctx_, cmd, *pipeline_, t);
        pushConstants(ctx_, cmd, *pipeline_, pc_);
        cmdDispatch(ctx_, cmd, gx_, gy_, 1);
    }
    std::string name() const override { return "depthwise_tiled"; }
    std::string config() const override {
        return "tile " + tile_.name() + " wg" + std::to_string(tile_.wg()) +
               (sg_ ? " sg" + std::to_string(sg_) : std::string());
    }

private:
    ContextImpl& ctx_;
    ConvDesc desc_;
    PlanOptions opts_;
    ConvPushConstants pc_;
    Tile tile_;
    uint32_t sg_;
    const ComputePipeline* pipeline_ = nullptr;
    uint32_t gx_ = 0, gy_ = 0;
    mutable std::once_flag fallbackOnce_;
    mutable std::unique_ptr<AlgorithmInstance> fallback_;  // unaligned views, made on first use
};

}  // namespace

std::string depthwiseTiledWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (d.groups != d.c || d.k != d.c) return "not depthwise with one filter per channel (groups == C == K)";
    if (d.inputLayout != TensorLayout::NHWC || d.outputLayout != TensorLayout::NHWC)
        return "needs NHWC input and output";
    if (d.c % int64_t(wordChannels(d)) != 0)
        return "C " + std::to_string(d.c) + " is not a multiple of " + std::to_string(wordChannels(d)) +
               " (16-byte words)";
    if (d.r * d.s > kMaxTaps) return "its " + std::to_string(d.r * d.s) + " taps exceed the register budget of 25";
    if (!o.tile.empty()) {
        Tile t;
        if (!matchTile(o.tile, &t))
            return noTileError(parseTile(o.tile), "<channels>x<rows>x<cols>/<rows>x<cols>, e.g. 32x8x16/2x4");
        if (std::string w = tileWhyNot(ctx, d, t); !w.empty()) return "tile " + o.tile + ": " + w;
    }
    Tile t = chooseTile(ctx, d, o.tile);
    if (t.cl == 0)
        return "no tile fits: an 8-channel halo of this filter needs more shared memory or registers than the budget";
    if (std::string w = workgroupWhyNot(ctx, t.wg(), o.subgroupSize); !w.empty()) return w;
    uint64_t gx = ((uint64_t(d.outH()) + t.tp() - 1) / t.tp()) * ((uint64_t(d.outW()) + t.tq() - 1) / t.tq());
    return gridWhyNot(ctx, gx, uint64_t(d.n) * (uint64_t(d.c) / (4 * t.cl)), "output tiles", "images x channel blocks");
}

std::unique_ptr<AlgorithmInstance> depthwiseTiledInstantiate(ContextImpl& ctx, const ConvDesc& d,
                                                             const PlanOptions& o) {
    return std::make_unique<DepthwiseTiledInstance>(ctx, d, o);
}

// Small layers only (docs/performance.md, "depthwise"): on the H200 (fp16 NHWC) it beat the
// register kernel on all ten of MobileNetV2's depthwise layers at b1 (47K-451K outputs; the
// halo's and the taps' loads go out together, one round trip before the products), and lost or
// tied on every one at b32 (0.9-12.8M outputs; the stride-2 layers 1.5-2.5x slower with 4x the
// outputs' pixels in fp32 shared memory).
constexpr uint64_t kTiledMaxOutputs = uint64_t(1) << 19;
bool depthwiseTiledPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (uint64_t(d.outputElements()) > kTiledMaxOutputs) return false;
    return depthwiseTiledWhyNot(ctx, d, o).empty();
}

// Each dtype on MobileNetV2's geometries (3x3 stride 1 and 2, 32-960 channels, 7-112 pixels)
// and a 5x5 with a bias, residual and ReLU6: the tiles the chooser takes for them.
std::vector<std::pair<ConvDesc, PlanOptions>> depthwiseTiledVariants(const ContextImpl&) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    auto add = [&](DType t, int64_t c, int64_t hw, int64_t rs, int64_t stride, int64_t n) {
        ConvDesc d;
        d.n = n;
        d.c = d.k = d.groups = c;
        d.h = d.w = hw;
        d.r = d.s = rs;
        d.pad(rs / 2, rs / 2);
        d.strideH = d.strideW = stride;
        d.dtype = t;
        d.hasBias = true;
        d.activation = Activation::Relu6;
        makeNhwc(d);
        v.push_back({d, PlanOptions{"depthwise_tiled"}});
    };
    for (DType t : {DType::F32, DType::F16, DType::BF16}) {
        add(t, 32, 112, 3, 1, 32);
        add(t, 96, 112, 3, 2, 32);
        add(t, 144, 56, 3, 1, 32);
        add(t, 576, 14, 3, 1, 32);
        add(t, 960, 7, 3, 1, 1);
        add(t, 144, 56, 5, 1, 1);
    }
    return v;
}

}  // namespace vkconv
