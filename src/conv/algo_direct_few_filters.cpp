// "direct_few_filters" (shaders/direct_few_filters.comp): layers with at most 8 filters per group,
// where a GEMM tile's 16+ filter columns would be mostly padding.  CL invocations share a pixel
// (NHWC with 16-byte loads: up to 8, so that a pixel's channels are one contiguous run) and
// accumulate PX pixels x all filters; the filters of CC channels at a time are staged in shared
// memory.  The workgroups (four per compute unit) stride over the pixel tiles.  The filter
// geometry is a spec constant (the taps unroll), the problem size is not.
// Tile choice, no timing: 256 invocations, PX = 4 pixels each, halved while the layer has fewer
// than two pixel tiles per compute unit or the unrolled block exceeds 128 multiply-adds per tap; CC: the fewest equal
// channel chunks whose filters fit 16 KiB of shared memory.
#include <algorithm>
#include <cstdio>

#include "conv/algorithm.hpp"
#include "conv/tile_syntax.hpp"
#include "conv/dispatch.hpp"
#include "conv/tile_score.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kMaxFilters = 8;        // per group: the register block (KP <= 8)
constexpr uint32_t kMaxTaps = 32;          // R x S: one 32-bit validity mask per pixel
constexpr uint32_t kFilterBudget = 16384;  // shared bytes for the staged filters

constexpr uint32_t kMaxLanes = 8;  // invocations per pixel (16-byte NHWC loads: 128 bytes of 16-bit channels)
// PX x KP x CV, the multiply-adds per tap of the unrolled channel block: NVIDIA's compiler (580)
// did not finish a 256 one (4 pixels x 8 filters x 8 fp16 channels) within 40 s, even at batch 1;
// 128 builds in seconds.
constexpr uint32_t kMaxUnrolled = 128;

enum SpecFewFilters : uint32_t {
    kSpecPX = 101,
    kSpecKP = 102,
    kSpecCC = 103,
    kSpecFR = 104,
    kSpecFS = 105,
    kSpecVec = 106,
    kSpecCL = 107,
};

struct Tile {
    uint32_t wg = 0, px = 0;  // invocations per workgroup, pixels per invocation
    uint32_t groups = 0;      // forced workgroups along x ("g<N>"; 0: a few per compute unit)
    std::string name() const {
        return std::to_string(wg) + "x" + std::to_string(px) +
               (groups ? std::string("g").append(std::to_string(groups)) : "");
    }
};

// PlanOptions::tile INVOCATIONSxPIXELS[gWORKGROUPS], e.g. 256x4 or 128x2g3.
bool matchTile(const std::string& text, Tile& t) {
    const TileSpec s = parseTile(text);
    if (!s.shape({2}, "g")) return false;
    const uint32_t wg = s.dim(0, 0), px = s.dim(0, 1);
    const std::optional<uint32_t> groups = s.tag(0, 'g');
    t = {wg, px, groups.value_or(0)};
    return (wg == 64 || wg == 128 || wg == 256) && (px == 1 || px == 2 || px == 4) &&
           (!groups || (*groups >= 1 && *groups <= 65535));
}

uint32_t filtersPadded(const ConvDesc& d) { return d.filtersPerGroup() <= 4 ? 4 : 8; }

// 16-byte NHWC channel loads: 4 fp32 or 8 16-bit channels, C/groups a multiple of that.
uint32_t vectorChannels(const ConvDesc& d) { return d.dtype == DType::F32 ? 4 : 8; }
bool vectorizable(const ConvDesc& d) {
    return d.inputLayout == TensorLayout::NHWC && d.channelsPerGroup() % vectorChannels(d) == 0;
}

// Invocations per pixel: with 16-byte loads, the most (a power of two up to 8, at most the
// workgroup) whose loads of CV channels each tile C/groups exactly, so that a pixel's loads are
// one contiguous run (one or two cache lines per subgroup load instead of one per invocation).
uint32_t lanesPerPixel(const ConvDesc& d, uint32_t wg) {
    if (!vectorizable(d)) return 1;
    const uint64_t vectors = uint64_t(d.channelsPerGroup()) / vectorChannels(d);
    uint32_t cl = 1;
    while (cl * 2 <= std::min(kMaxLanes, wg) && vectors % (cl * 2) == 0) cl *= 2;
    return cl;
}

// Channels per filter chunk: the fewest equal chunks (rounded up to CL x the load width, which
// divides C/groups) that fit.
uint32_t channelChunk(const ConvDesc& d, uint32_t sharedLimit, uint32_t lanes) {
    const uint64_t perChannel = uint64_t(d.r) * d.s * filtersPadded(d) * 4;
    const uint64_t cb = uint64_t(lanes) * (vectorizable(d) ? vectorChannels(d) : 1);
    const uint64_t budget = std::min<uint64_t>(kFilterBudget, sharedLimit);
    const uint64_t most = std::max<uint64_t>(budget / perChannel / cb, 1) * cb;
    const uint64_t cg = uint64_t(d.channelsPerGroup());
    const uint64_t chunks = (cg + most - 1) / most;
    const uint64_t cc = (cg + chunks - 1) / chunks;
    return uint32_t((cc + cb - 1) / cb * cb);
}

uint64_t pixelTiles(const ConvDesc& d, const Tile& t) {
    const uint64_t m = uint64_t(d.n) * d.outH() * d.outW();
    const uint64_t perTile = uint64_t(t.wg / lanesPerPixel(d, t.wg)) * t.px;
    return (m + perTile - 1) / perTile;
}

// Workgroups along x: the shader strides over the pixel tiles, so at most a few per compute unit
// (each stages a one-chunk layer's filters once).
uint64_t gridX(const ContextImpl& ctx, const ConvDesc& d, const Tile& t) {
    const uint64_t most =
        t.groups ? t.groups : std::max<uint64_t>(1, uint64_t(ctx.model.fewFiltersPersistent * ctx.model.computeUnits));
    return std::min(pixelTiles(d, t), most);
}

// Shared bytes: the staged filters and (CL > 1) one pixel's partial sums per slot.
uint64_t sharedBytes(const ConvDesc& d, const Tile& t, uint32_t sharedLimit) {
    const uint32_t cl = lanesPerPixel(d, t.wg);
    const uint64_t filters = uint64_t(channelChunk(d, sharedLimit, cl)) * d.r * d.s * filtersPadded(d) * 4;
    return filters + (cl > 1 ? uint64_t(t.wg) * filtersPadded(d) * 4 : 16);
}

uint32_t unrolled(const ConvDesc& d, const Tile& t) {
    return t.px * filtersPadded(d) * (vectorizable(d) ? vectorChannels(d) : 1);
}

Tile chooseTile(const ContextImpl& ctx, const ConvDesc& d, const std::string& forced, uint32_t subgroup) {
    Tile t;
    if (!forced.empty()) return matchTile(forced, t) ? t : Tile{};
    t = {std::max<uint32_t>(256, subgroup), 4};
    const double units = ctx.model.computeUnits;
    while (t.px > 1 && (unrolled(d, t) > kMaxUnrolled ||
                        double(pixelTiles(d, t) * uint64_t(d.groups)) < ctx.model.fewFiltersFill * units))
        t.px /= 2;
    return t;
}

class DirectFewFiltersInstance final : public SingleDispatchInstance {
public:
    DirectFewFiltersInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o)
        : SingleDispatchInstance(ctx, d),
          desc_(d),
          tile_(chooseTile(ctx, d, o.tile, o.subgroupSize)),
          sg_(o.subgroupSize),
          cl_(lanesPerPixel(d, tile_.wg)),
          cc_(channelChunk(d, ctx.caps.maxSharedMemory, cl_)),
          vec_(vectorizable(d)) {
        vectorPipeline_ = &pipeline(vec_);
        gx_ = uint32_t(gridX(ctx, d, tile_));
        gy_ = uint32_t(d.groups);
    }
    std::string name() const override { return "direct_few_filters"; }
    std::string config() const override {
        return "tile " + tile_.name() + " kp" + std::to_string(filtersPadded(desc_)) + " cc" + std::to_string(cc_) +
               (vec_ ? " vec16 cl" + std::to_string(cl_) : "") + (sg_ ? " sg" + std::to_string(sg_) : std::string());
    }

private:
    const ComputePipeline& pipelineFor(const ConvTensors& t) const override {
        // 16-byte loads need a 16-byte aligned input view; otherwise element loads (CL stays: a
        // pixel's CL invocations then load one channel each, still one contiguous run).
        return !vec_ || t.input.offset % 16 == 0 ? *vectorPipeline_ : pipeline(false);
    }
    const ComputePipeline& pipeline(bool vec) const {
        const ConvDesc& d = desc_;
        PipelineKey key = convPipelineKey(std::string("direct_few_filters_") + dtypeSuffix(d.dtype), d, tile_.wg, sg_);
        key.spec.insert(key.spec.end(), {{kSpecPX, tile_.px},
                                         {kSpecKP, filtersPadded(d)},
                                         {kSpecCC, cc_},
                                         {kSpecFR, uint32_t(d.r)},
                                         {kSpecFS, uint32_t(d.s)},
                                         {kSpecVec, vec ? 1u : 0u},
                                         {kSpecCL, cl_}});
        return ctx_.pipelines->get(key);
    }

    ConvDesc desc_;
    Tile tile_;
    uint32_t sg_, cl_, cc_;
    bool vec_;
    const ComputePipeline* vectorPipeline_ = nullptr;
};

}  // namespace

std::string directFewFiltersWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    Tile t;
    if (!o.tile.empty() && !matchTile(o.tile, t))
        return noTileError(
            parseTile(o.tile),
            "invocations 64/128/256 x pixels per invocation 1/2/4 [g<workgroups>], e.g. 256x4 or 128x2g3");
    if (d.filtersPerGroup() > kMaxFilters)
        return "K/groups = " + std::to_string(d.filtersPerGroup()) + " is not a few filters (at most " +
               std::to_string(kMaxFilters) + ")";
    if (uint64_t(d.r) * d.s > kMaxTaps)
        return "R x S = " + std::to_string(uint64_t(d.r) * d.s) + " taps (at most " + std::to_string(kMaxTaps) +
               ": one mask word per pixel)";
    t = chooseTile(ctx, d, o.tile, o.subgroupSize);
    if (unrolled(d, t) > kMaxUnrolled)
        return "tile " + t.name() + " unrolls " + std::to_string(unrolled(d, t)) +
               " multiply-adds per tap (pixels x filters x channels per load; at most " + std::to_string(kMaxUnrolled) +
               ")";
    if (std::string w = workgroupWhyNot(ctx, t.wg, o.subgroupSize); !w.empty()) return "tile " + t.name() + ": " + w;
    if (uint64_t b = sharedBytes(d, t, ctx.caps.maxSharedMemory); b > ctx.caps.maxSharedMemory)
        return "tile " + t.name() + " needs " + std::to_string(b) + " bytes of shared memory; the device has " +
               std::to_string(ctx.caps.maxSharedMemory);
    return gridWhyNot(ctx, gridX(ctx, d, t), uint64_t(d.groups), "pixel tiles", "groups");
}

std::unique_ptr<AlgorithmInstance> directFewFiltersInstantiate(ContextImpl& ctx, const ConvDesc& d,
                                                               const PlanOptions& o) {
    return std::make_unique<DirectFewFiltersInstance>(ctx, d, o);
}

// The shapes this kernel serves, every dtype, NCHW (element loads) and NHWC (16-byte loads), x
// wave32/wave64 on the first: an image decoder's RGB output layer (C = 128, K = 3, 3x3) and a
// 1x1 layer with 8 filters per group (KP = 8).
std::vector<std::pair<ConvDesc, PlanOptions>> directFewFiltersVariants(const ContextImpl& ctx) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    const std::vector<uint32_t> sgs = variantSubgroupSizes(ctx);
    for (int shape = 0; shape < 2; ++shape)
        for (DType dt : {DType::F32, DType::F16, DType::BF16})
            for (bool nh : {false, true})
                for (uint32_t sg : sgs) {
                    if (shape > 0 && sg) continue;
                    ConvDesc d;
                    d.c = 128;
                    d.h = d.w = 512;
                    d.k = 3;
                    d.r = d.s = 3;
                    d.pad(1, 1);
                    d.dtype = dt;
                    d.hasBias = true;
                    if (shape == 1) {
                        d.c = 64;
                        d.h = d.w = 56;
                        d.k = 8;
                        d.r = d.s = 1;
                        d.pad(0, 0);
                        d.activation = Activation::Relu;
                    }
                    if (nh) makeNhwc(d);
                    v.push_back({d, PlanOptions{"direct_few_filters", sg}});
                }
    return v;
}

}  // namespace vkconv
