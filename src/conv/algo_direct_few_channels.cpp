// "direct_few_channels" (shaders/direct_few_channels.comp): first layers (C/groups <= 8).  A
// workgroup stages its whole input halo and BK filters of the whole reduction once, then each
// invocation accumulates TP rows x KT = 8 filters of one output column from shared memory.  The
// filter geometry and the channel count are spec constants (one pipeline per first-layer shape).
// Tile choice, no timing: the widest columns per row group (32, 16, 8) that pad Q by at most a
// quarter, then rows per invocation (8 down to 2), filters per workgroup (64 down to 8) and
// narrower columns until the workgroup fits the shared memory, then fewer rows until the grid
// fills the GPU.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "conv/algorithm.hpp"
#include "conv/tile_syntax.hpp"
#include "conv/dispatch.hpp"
#include "conv/tile_score.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kKT = 8;              // filters per invocation
constexpr uint32_t kPixelLanes = 32;     // invocations across the pixels of a tile: TQ * RG
constexpr uint32_t kMaxChannels = 8;     // C/groups staged at once
constexpr uint32_t kMaxFilterSide = 11;  // R, S (the halo and the unrolled tap loop grow with them)

enum SpecFew : uint32_t {
    kSpecTP = 101,
    kSpecTQ = 102,
    kSpecRG = 103,
    kSpecBK = 104,
    kSpecKT = 105,
    kSpecCG = 106,
    kSpecFR = 107,
    kSpecFS = 108,
    kSpecSH = 109,
    kSpecSW = 110,
    kSpecDH = 111,
    kSpecDW = 112,
};

struct Tile {
    uint32_t tp = 0, tq = 0, bk = 0;  // rows per invocation, columns per row group, filters
    uint32_t rg() const { return kPixelLanes / tq; }
    uint32_t rows() const { return rg() * tp; }
    uint32_t workgroup() const { return kPixelLanes * (bk / kKT); }
    std::string name() const { return std::to_string(tp) + "x" + std::to_string(tq) + "x" + std::to_string(bk); }
};

// Shared bytes: the halo (per row group, rows split into stride phases, the row-group stride
// padded as the shader pads it; NHWC outputs reuse it, at least one output row) and the
// filters; mirrors the shader's constants.
uint64_t sharedBytes(const ConvDesc& d, const Tile& t) {
    uint64_t cg = d.channelsPerGroup();
    uint64_t htr = (t.tp - 1) * uint64_t(d.strideH) + (d.r - 1) * uint64_t(d.dilationH) + 1;
    uint64_t wt = (t.tq - 1) * uint64_t(d.strideW) + (d.s - 1) * uint64_t(d.dilationW) + 1;
    uint64_t wps = (wt + d.strideW - 1) / d.strideW;
    uint64_t raw = cg * htr * d.strideW * wps;
    uint64_t stride = t.rg() == 1 ? raw : raw + (t.tq + 32 - raw % 32) % 32;
    uint64_t out =
        d.outputLayout == TensorLayout::NHWC ? uint64_t(kPixelLanes) * (t.bk + 4) : 0;  // NHWC output staging
    return 4 * (std::max(t.rg() * stride, out) + cg * uint64_t(d.r) * d.s * t.bk);
}

uint64_t gridX(const ConvDesc& d, const Tile& t) {
    return uint64_t(d.n) * ((uint64_t(d.outH()) + t.rows() - 1) / t.rows()) * ((uint64_t(d.outW()) + t.tq - 1) / t.tq);
}
uint64_t gridY(const ConvDesc& d, const Tile& t) {
    return uint64_t(d.groups) * ((uint64_t(d.filtersPerGroup()) + t.bk - 1) / t.bk);
}

// PlanOptions::tile ROWSxCOLUMNSxFILTERS, e.g. 8x32x32.
bool matchTile(const std::string& text, Tile& t) {
    const TileSpec s = parseTile(text);
    if (!s.shape({3})) return false;
    const uint32_t tp = s.dim(0, 0), tq = s.dim(0, 1), bk = s.dim(0, 2);
    t = {tp, tq, bk};
    return (tp == 2 || tp == 4 || tp == 8) && (tq == 8 || tq == 16 || tq == 32) &&
           (bk == 8 || bk == 16 || bk == 32 || bk == 64);
}

// The forced tile, else: TQ with the least column padding (ties: the wider), the most filters
// (up to 64, not past the group's) whose shared memory fits, and TP = 8 halved while the grid
// covers fewer than two workgroups per compute unit.  bk == 0: nothing fits.
Tile chooseTile(const ContextImpl& ctx, const ConvDesc& d, const std::string& forced) {
    Tile t;
    if (!forced.empty()) return matchTile(forced, t) && sharedBytes(d, t) <= ctx.caps.maxSharedMemory ? t : Tile{};
    // The widest columns that pad Q by at most a quarter (the fewest filter and halo stagings per
    // output), else 8.
    const uint64_t Q = d.outW();
    for (t.tq = 32; t.tq > 8; t.tq /= 2)
        if (4 * ((Q + t.tq - 1) / t.tq * t.tq - Q) <= (Q + t.tq - 1) / t.tq * t.tq) break;
    uint32_t most = 64;
    while (most > 8 && most / 2 >= uint32_t(std::min<uint64_t>(d.filtersPerGroup(), 64))) most /= 2;
    // Fewer rows first (each filter staging serves more pixels than with fewer filters: the 7x7
    // stem ran 0.83x the time at 4x32x64 as at 8x16x32), then fewer filters, then
    // narrower columns, until the tile fits.
    auto fits = [&](Tile& c) {
        for (c.bk = most; c.bk >= 8; c.bk /= 2)
            for (c.tp = 8; c.tp >= 2; c.tp /= 2)
                if (sharedBytes(d, c) <= ctx.caps.maxSharedMemory) return true;
        return false;
    };
    if (!fits(t)) {
        bool any = false;
        for (t.tq = t.tq / 2; t.tq >= 8 && !(any = fits(t)); t.tq /= 2) {}
        if (!any) return Tile{};
    }
    const double units = ctx.model.computeUnits;
    while (t.tp > 2 && double(gridX(d, t) * gridY(d, t)) < ctx.model.fewChannelsFill * units) t.tp /= 2;
    return t;
}

class DirectFewChannelsInstance final : public SingleDispatchInstance {
public:
    DirectFewChannelsInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o)
        : SingleDispatchInstance(ctx, d), tile_(chooseTile(ctx, d, o.tile)), sg_(o.subgroupSize) {
        const Tile& t = tile_;  // whyNot has checked that it fits
        PipelineKey key =
            convPipelineKey(std::string("direct_few_channels_") + dtypeSuffix(d.dtype), d, t.workgroup(), sg_);
        key.spec.insert(key.spec.end(), {{kSpecTP, t.tp},
                                         {kSpecTQ, t.tq},
                                         {kSpecRG, t.rg()},
                                         {kSpecBK, t.bk},
                                         {kSpecKT, kKT},
                                         {kSpecCG, uint32_t(d.channelsPerGroup())},
                                         {kSpecFR, uint32_t(d.r)},
                                         {kSpecFS, uint32_t(d.s)},
                                         {kSpecSH, uint32_t(d.strideH)},
                                         {kSpecSW, uint32_t(d.strideW)},
                                         {kSpecDH, uint32_t(d.dilationH)},
                                         {kSpecDW, uint32_t(d.dilationW)}});
        pipeline_ = &ctx.pipelines->get(key);
        gx_ = uint32_t(gridX(d, t));
        gy_ = uint32_t(gridY(d, t));
    }
    std::string name() const override { return "direct_few_channels"; }
    std::string config() const override {
        return "tile " + tile_.name() + (sg_ ? " sg" + std::to_string(sg_) : std::string());
    }

private:
    const ComputePipeline& pipelineFor(const ConvTensors&) const override { return *pipeline_; }

    Tile tile_;
    uint32_t sg_;
    const ComputePipeline* pipeline_;
};

}  // namespace

std::string directFewChannelsWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    Tile forced;
    if (!o.tile.empty() && !matchTile(o.tile, forced))
        return noTileError(parseTile(o.tile),
                           "rows per invocation 2/4/8 x columns 8/16/32 x filters 8/16/32/64, e.g. 8x32x32");
    if (d.channelsPerGroup() > kMaxChannels)
        return "C/groups = " + std::to_string(d.channelsPerGroup()) + " is not a few channels (at most " +
               std::to_string(kMaxChannels) + ")";
    if (d.r > kMaxFilterSide || d.s > kMaxFilterSide)
        return "filters larger than " + std::to_string(kMaxFilterSide) + "x" + std::to_string(kMaxFilterSide);
    Tile t = chooseTile(ctx, d, o.tile);
    if (t.bk == 0) {
        Tile least = o.tile.empty() ? Tile{2, 8, 8} : forced;
        return "the input halo and filters of tile " + least.name() + " need " + std::to_string(sharedBytes(d, least)) +
               " bytes of shared memory; the device has " + std::to_string(ctx.caps.maxSharedMemory);
    }
    if (std::string w = workgroupWhyNot(ctx, t.workgroup(), o.subgroupSize); !w.empty())
        return "tile " + t.name() + ": " + w;
    return gridWhyNot(ctx, gridX(d, t), gridY(d, t), "output tiles", "groups x filter tiles");
}

std::unique_ptr<AlgorithmInstance> directFewChannelsInstantiate(ContextImpl& ctx, const ConvDesc& d,
                                                                const PlanOptions& o) {
    return std::make_unique<DirectFewChannelsInstance>(ctx, d, o);
}

// The first layers the suites have, each in both layouts and every dtype (x wave32/wave64 where
// the device can require them): VGG-16's 3x3 (C = 3, 64 filters, 32-wide rows), ResNet-50's 7x7
// stride-2 stem (16-wide rows), MobileNetV2's 3x3 stride 2 (32 filters) and the SD-VAE's C = 4.
std::vector<std::pair<ConvDesc, PlanOptions>> directFewChannelsVariants(const ContextImpl& ctx) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    const std::vector<uint32_t> sgs = variantSubgroupSizes(ctx);
    for (int shape = 0; shape < 4; ++shape)
        for (DType dt : {DType::F32, DType::F16, DType::BF16})
            for (bool nh : {false, true})
                for (uint32_t sg : sgs) {
                    if (shape > 0 && sg) continue;  // the subgroup sizes on the first shape only
                    ConvDesc d;
                    d.c = 3;
                    d.h = d.w = 224;
                    d.k = 64;
                    d.r = d.s = 3;
                    d.pad(1, 1);
                    d.dtype = dt;
                    d.hasBias = true;
                    d.activation = Activation::Relu;
                    if (shape == 1) {
                        d.r = d.s = 7;
                        d.pad(3, 3);
                        d.strideH = d.strideW = 2;
                    }
                    if (shape == 2) {
                        d.k = 32;
                        d.strideH = d.strideW = 2;
                        d.activation = Activation::Relu6;
                    }
                    if (shape == 3) {
                        d.c = 4;
                        d.h = d.w = 64;
                        d.k = 512;
                        d.hasBias = true;
                        d.activation = Activation::None;
                    }
                    if (nh) makeNhwc(d);
                    v.push_back({d, PlanOptions{"direct_few_channels", sg}});
                }
    return v;
}

}  // namespace vkconv
