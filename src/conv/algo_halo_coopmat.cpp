// "halo_coopmat" (shaders/halo_coopmat.comp): stride-1 layers with filter taps on the matrix
// units, fp16 / bf16 storage, NHWC activations.  Per 16-channel slice a workgroup stages the input
// halo its outputs read once and every filter tap multiplies from it at a shifted offset (the
// shader's flattened strip), instead of staging each tap's im2col rows as implicit_gemm_coopmat
// does: FR*FS*16-deep work per barrier pair and a ninth of the staging traffic on 3x3 layers.
// Tile choice, no timing: each tile takes the widest output strip whose halo fits beside the
// filter taps in shared memory; on NVIDIA the measured tile with the smaller modelled time
// (chooseConfig), elsewhere the first that fits; the router compares that time with
// implicit_gemm_coopmat's model.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "conv/algorithm.hpp"
#include "conv/registry.hpp"
#include "conv/coopmat_support.hpp"
#include "conv/dispatch.hpp"
#include "conv/tile_syntax.hpp"
#include "conv/tile_score.hpp"
#include "runtime/context_impl.hpp"
#include "vkconv/error.hpp"
#include "util/test_hooks.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kFrag = 16;   // the 16x16x16 configuration the kernel is written for
constexpr uint32_t kSlice = 16;  // channels per staged slice (one fragment deep)
constexpr uint32_t kLd = 3;      // 16-byte words per staged pixel / filter row (2 + 1 padding)

struct HaloTile {
    const char* name;
    uint32_t warpsM, warpsN, fm, fn;
    // Its time per 16-channel 3x3 slice per workgroup, alone on its SM or beside a second:
    // DeviceModel::haloTiles, in this order (0: not measured, not a heuristic candidate on NVIDIA).
    uint32_t bm() const { return warpsM * fm * kFrag; }
    uint32_t bn() const { return warpsN * fn * kFrag; }
    uint32_t warps() const { return warpsM * warpsN; }
};

// BMxBN/WARPS_MxWARPS_N; a subgroup owns 64 flat positions x 64 filters (4 x 4 accumulators: 8
// fragment loads per 16 products) or x 32 (4 x 2: 6 per 8).  On NVIDIA the heuristic takes the
// measured tile with the smaller modelled time: 256x64/4x1 on big grids, 128x64/2x2 on grids of a
// wave or two (half the rows at about 70 % of the slice time).  Elsewhere the first that fits from
// 256x64/4x2 (the 16-accumulator tile is measured only on NVIDIA; /4x2 does not spill on RDNA3
// under RADV: docs/amd.md).
// The one-column tiles (16 filters) serve layers with at most 16 filters per group, an RGB output
// layer, where a 64-wide tile multiplies 61 zero columns of 64: their time goes to staging the halo,
// so they take many subgroups and narrow strips (chooseStrip); their sliceUs were fitted on the
// SD-VAE decoder's 128 -> 3 layer at 16-column strips.
// 256x48/4x1 (4 x 3 accumulators: 7 fragment loads per 12 products) is for 33-48 filters per
// group, where a 64-wide tile multiplies up to 31 zero columns: faster than 256x64/4x1 on the
// RetinaNet head's 36-filter box layers, slower where both tile K without waste or 48 does not save
// a tile (docs/performance.md, "halo_coopmat").
constexpr HaloTile kHaloTiles[] = {
    {"256x64/4x1", 4, 1, 4, 4}, {"256x64/4x2", 4, 2, 4, 2},   {"128x64/2x2", 2, 2, 4, 2}, {"256x32/4x1", 4, 1, 4, 2},
    {"64x64/1x2", 1, 2, 4, 2},  {"768x16/12x1", 12, 1, 4, 1}, {"256x16/4x1", 4, 1, 4, 1}, {"256x48/4x1", 4, 1, 4, 3},
};
static_assert(std::size(kHaloTiles) == DeviceModel::kHaloTiles, "DeviceModel::haloTiles times these tiles");
// A tile's measured slice time in this card's model (0: unmeasured).
double sliceUs(const ContextImpl& ctx, const HaloTile& t) { return ctx.model.haloTiles[&t - kHaloTiles].sliceUs; }
constexpr uint32_t kOneColumn = 16;  // BN of the one-column tiles; the most filters per group they take by choice

enum SpecHalo : uint32_t {
    kSpecWarpsM = 101,
    kSpecWarpsN = 102,
    kSpecFM = 103,
    kSpecFN = 104,
    kSpecFR = 105,
    kSpecFS = 106,
    kSpecDH = 107,
    kSpecDW = 108,
    kSpecTQ = 109,
    kSpecVecIn = 110,
    kSpecVecW = 111,
    kSpecVecOut = 112,
    kSpecEmuLanes = 113,
    kSpecPrefetch = 114,
    kSpecNchwRuns = 115,
    kSpecXPad = 116,
    kSpecEpi16 = 117,
    kSpecOutWord = 118,
};

std::string shaderName(DType t) {
    return std::string("halo_coopmat_") + (coopmatEmulated(t) ? "emu_" : "") + dtypeSuffix(t);
}

// fp16 NCHW outputs of an even width go out in runs of up to 8 pixels (epilogue_runs.glsl); the
// others one element at a time: with bf16 the runs made the 16-accumulator tiles slower on the
// H100 and the H200 (the suspect, unmeasured, is bf16's integer rounding beside those
// accumulators), and an odd width leaves 2-byte pieces in every other row (docs/performance.md,
// "halo_coopmat").
bool nchwRuns(const ConvDesc& d) {
    return d.outputLayout == TensorLayout::NCHW && d.outW() % 2 == 0 && d.dtype == DType::F16;
}
// fp16 NCHW outputs go out in runs of 8 flat positions (epilogue_runs.glsl).  Where Q % 8 == 0,
// strips of a multiple of 8 columns with X padded to a multiple of 8 make every run one aligned
// 16-byte store; unpadded, the runs start at every alignment and go out in 2- and 4-byte pieces.
// The price is up to 7 flat columns per strip row that compute nothing: a gain for the wide tiles,
// a loss for the one-column tiles' 16-column strips, which keep theirs (docs/performance.md,
// "halo_coopmat").  Measured on wide tiles with 64-128 channels per group; deeper reductions spend
// less of their time in the epilogue, so the extra columns may cost more than the stores save
// there (unmeasured): they keep the unpadded strips.
bool alignedRuns(const ConvDesc& d, const HaloTile& t) {
    return nchwRuns(d) && d.dtype == DType::F16 && d.outW() % 8 == 0 && t.bn() > kOneColumn &&
           d.channelsPerGroup() <= 128;
}
// Flat columns that pad a strip's input width to a multiple of 8 (the shader's XPAD).
uint64_t padTo8(const ConvDesc& d, uint64_t tq) { return (8 - (tq + uint64_t(d.s - 1) * d.dilationW) % 8) % 8; }
// Strip input width and halo pixels, mirroring the shader's X and HP.
uint64_t stripWidth(const ConvDesc& d, uint64_t tq, uint64_t xpad = 0) {
    return tq + uint64_t(d.s - 1) * d.dilationW + xpad;
}
uint64_t haloPixels(const ConvDesc& d, const HaloTile& t, uint64_t tq, uint64_t xpad = 0) {
    return t.bm() + uint64_t(d.r - 1) * d.dilationH * stripWidth(d, tq, xpad) + uint64_t(d.s - 1) * d.dilationW;
}
uint64_t sharedBytes(const ConvDesc& d, const HaloTile& t, uint64_t tq, uint64_t xpad = 0) {
    uint64_t stage = (haloPixels(d, t, tq, xpad) + uint64_t(d.r) * d.s * t.bn()) * kLd;
    return 16 * std::max<uint64_t>(stage, uint64_t(t.warps()) * 64);
}

struct HaloChoice {
    const HaloTile* tile = nullptr;
    uint32_t tq = 0;    // output columns per strip
    double micros = 0;  // modelled time (modelMicros), of the unpadded strip
    std::string why;    // why nothing fits (tile null)
    uint32_t xpad = 0;  // flat columns padding the strip (paddedStrip)
};

// The strip.  Wide tiles (their products bound them): all of Q where it fits, else the fewest
// equal strips that fit (narrower forced strips were no faster on most layers measured).
// One-column tiles (their staging bounds them): strips of about kOneColumnStrip columns, the
// narrowest measured and the fastest for both tiles on the SD-VAE's RGB layer, or narrower where
// those do not fit (docs/performance.md, "halo_coopmat").  0: none fits.
constexpr uint64_t kOneColumnStrip = 16;
uint32_t chooseStrip(const ContextImpl& ctx, const ConvDesc& d, const HaloTile& t) {
    const uint64_t Q = uint64_t(d.outW());
    const uint64_t first = t.bn() > kOneColumn ? 1 : std::max<uint64_t>(1, Q / kOneColumnStrip);
    for (uint64_t strips = first; strips <= Q; ++strips) {
        uint64_t tq = (Q + strips - 1) / strips;
        if (sharedBytes(d, t, tq) <= ctx.caps.maxSharedMemory) return uint32_t(tq);
        if (tq == 1) break;
    }
    return 0;
}

uint64_t gridX(const ConvDesc& d, const HaloTile& t, uint32_t tq, uint32_t xpad = 0) {
    uint64_t strips = (uint64_t(d.outW()) + tq - 1) / tq, flat = uint64_t(d.outH()) * stripWidth(d, tq, xpad);
    return uint64_t(d.n) * strips * ((flat + t.bm() - 1) / t.bm());
}
uint64_t gridY(const ConvDesc& d, const HaloTile& t) {
    return uint64_t(d.groups) * ((uint64_t(d.filtersPerGroup()) + t.bn() - 1) / t.bn());
}

// Modelled time in microseconds (fitted on the H200: 256x64/4x1 on the 40 stride-1 3x3 suite
// layers at b32 and b1 within 20 %; 128x64/2x2 likewise): a workgroup
// takes the tile's slice time per 16-channel slice of 3x3 taps (whether alone on its SM or beside
// a second: two resident share it) plus DeviceModel::haloWorkgroupUs for its prologue and
// epilogue, and the grid runs in waves of one workgroup per compute unit; haloDispatchUs for the
// dispatch.  A slice's time scales with the taps it multiplies.  Tiles without a measurement are
// charged 4x1's rate per row.
double modelMicros(const ContextImpl& ctx, const ConvDesc& d, const HaloTile& t, uint32_t tq) {
    const DeviceModel& m = ctx.model;
    const double units = m.computeUnits;
    double tiles = double(gridX(d, t, tq)) * double(gridY(d, t));
    double slices = double(d.channelsPerGroup() / kSlice);
    double measured = sliceUs(ctx, t);
    double slice = measured > 0 ? measured : sliceUs(ctx, kHaloTiles[0]) * (double(t.bm()) * t.bn() / (256.0 * 64.0));
    double perTile = slices * slice * double(d.r * d.s) / 9.0 + m.haloWorkgroupUs;
    return std::ceil(tiles / units) * perTile + m.haloDispatchUs;
}

// Half a wave of workgroups or more: below it implicit_gemm_coopmat splits the reduction, which
// this kernel cannot, and its model predicts such grids slower than they run, so the router does
// not compare there.
bool fillsHalfWave(const ContextImpl& ctx, const ConvDesc& d, const HaloTile& t, uint32_t tq) {
    return 2.0 * double(gridX(d, t, tq)) * double(gridY(d, t)) >= ctx.model.computeUnits;
}

// PlanOptions::tile: BMxBN/WARPS_MxWARPS_N (a kHaloTiles entry), then optionally q<strip columns>,
// attached or as a group of its own ("256x64/4x1q32", "256x64/4x1/q32"), or "q<columns>" alone.
bool matchTile(const std::string& text, const HaloTile*& tile, uint32_t& tq) {
    TileSpec s = parseTile(text);
    tile = nullptr;
    tq = 0;
    if (!s.ok()) return false;
    if (std::optional<uint32_t> q = s.takeTrailing('q', false)) {
        if (*q == 0) return false;
        tq = *q;
    }
    for (const auto& t : kHaloTiles)
        if (s.is({{t.bm(), t.bn()}, {t.warpsM, t.warpsN}})) tile = &t;
    return tile != nullptr || (s.groups.empty() && tq);
}

// The forced tile / strip, else among the one-column tiles where the group's filters fit one
// column and the wide ones otherwise: (NVIDIA) the measured tile that fills half a wave with the
// smaller modelled time, or (elsewhere) the first from 256x64/4x2 whose strip fits.
HaloChoice chooseConfig(const ContextImpl& ctx, const ConvDesc& d, uint32_t sg, const PlanOptions& o) {
    const HaloTile* forced = nullptr;
    uint32_t forcedTq = 0;
    if (!o.tile.empty() && !matchTile(o.tile, forced, forcedTq)) return {nullptr, 0, 0, "no tile '" + o.tile + "'"};
    const bool nvidia = ctx.caps.vendorId == 0x10DE;
    // By choice, one-column tiles exactly where the filters of a group fit one column.
    const bool oneColumn = d.filtersPerGroup() <= int64_t(kOneColumn);
    HaloChoice best;
    std::string why;
    for (const auto& t : kHaloTiles) {
        if (forced && forced != &t) continue;
        if (!forced && (t.bn() <= kOneColumn) != oneColumn) continue;
        if (!forced && nvidia && sliceUs(ctx, t) <= 0) continue;
        if (!forced && !nvidia && &t == &kHaloTiles[0]) continue;
        uint32_t tq = forcedTq ? std::min<uint32_t>(forcedTq, uint32_t(d.outW())) : chooseStrip(ctx, d, t);
        std::string w;
        if (tq == 0 || sharedBytes(d, t, tq) > ctx.caps.maxSharedMemory)
            w = "the halo of one strip column and the filter taps need " +
                std::to_string(sharedBytes(d, t, std::max<uint32_t>(tq, 1))) +
                " bytes of shared memory; the device has " + std::to_string(ctx.caps.maxSharedMemory);
        else if (std::string wg = workgroupWhyNot(ctx, uint64_t(t.warps()) * sg, coopmatSubgroup(ctx.caps).required);
                 !wg.empty())
            w = wg;
        else if (std::string gw = gridWhyNot(ctx, gridX(d, t, tq), gridY(d, t), "strip tiles", "groups x filter tiles");
                 !gw.empty())
            w = gw;
        if (!w.empty()) {
            if (why.empty()) why = std::string(t.name) + ": " + w;
            continue;
        }
        HaloChoice c{&t, tq, modelMicros(ctx, d, t, tq), ""};
        if (forced || !nvidia) return c;
        // Filling half a wave first, then the modelled time.
        const bool fills = fillsHalfWave(ctx, d, t, tq);
        const bool bestFills = best.tile && fillsHalfWave(ctx, d, *best.tile, best.tq);
        if (!best.tile || (fills && !bestFills) || (fills == bestFills && c.micros < best.micros)) best = c;
    }
    if (best.tile) return best;
    return {nullptr, 0, 0, why.empty() ? "no tile fits" : why};
}

// The choice on padded strips where alignedRuns: the chosen width rounded up to a multiple of 8
// where that keeps the number of strips (a forced width only where it is one already), X padded
// to a multiple of 8, if that fits shared memory.  The tile and the strip count stay the
// unpadded choice's, and so does the modelled time the router compares (the padding computes up
// to 13 % more flat positions, which the model would charge, to store faster, which it does not
// see; it measured faster on every layer it took) -- but where its extra tiles cost more waves
// than the faster stores save (DeviceModel::haloPaddedTileGain a tile, the least gain measured; a
// layer pushed from one wave to two ran slower: docs/performance.md, "halo_coopmat").
HaloChoice paddedStrip(const ContextImpl& ctx, const ConvDesc& d, HaloChoice c, bool forcedTq) {
    if (!c.tile || !alignedRuns(d, *c.tile)) return c;
    const uint64_t Q = uint64_t(d.outW());
    const uint64_t tq = forcedTq ? c.tq : (uint64_t(c.tq) + 7) / 8 * 8;
    if (tq % 8 != 0 || (Q + tq - 1) / tq != (Q + c.tq - 1) / c.tq) return c;
    const uint64_t xpad = padTo8(d, tq);
    if (sharedBytes(d, *c.tile, tq, xpad) > ctx.caps.maxSharedMemory) return c;
    if (!forcedTq) {
        const double units = ctx.model.computeUnits, y = double(gridY(d, *c.tile));
        const double waves = std::ceil(double(gridX(d, *c.tile, c.tq)) * y / units);
        const double padded = std::ceil(double(gridX(d, *c.tile, uint32_t(tq), uint32_t(xpad))) * y / units);
        if (padded * (1.0 - ctx.model.haloPaddedTileGain) > waves) return c;
    }
    c.tq = uint32_t(tq);
    c.xpad = uint32_t(xpad);
    return c;
}

class HaloCoopmatInstance final : public SingleDispatchInstance {
public:
    HaloCoopmatInstance(ContextImpl& ctx, const ConvDesc& d, const HaloChoice& c)
        : SingleDispatchInstance(ctx, d),
          desc_(d),
          tile_(*c.tile),
          tq_(c.tq),
          xpad_(c.xpad),
          sg_(coopmatSubgroup(ctx.caps)) {
        vecW_ = d.filterLayout == FilterLayout::KRSC;
        // NHWC: 8, 4 or 2 filters per 16-, 8- or 4-byte store; NCHW: runs of up to 8 pixels in
        // 16-, 8- or 4-byte stores where nchwRuns allows them.
        runs_ = nchwRuns(d);
        outWord_ = d.outputLayout == TensorLayout::NHWC ? coopmatNhwcOutWord(d) : 8;
        vecOut_ = d.outputLayout == TensorLayout::NHWC ? outWord_ != 0 : runs_;
        prefetch_ = prefetch(ctx);
        epi16_ = coopmatHalfScratch(ctx.caps, d, vecOut_);
        vectorPipeline_ = &pipeline(true);
        gx_ = uint32_t(gridX(d, tile_, tq_, xpad_));
        gy_ = uint32_t(gridY(d, tile_));
    }
    std::string name() const override { return "halo_coopmat"; }
    std::string config() const override {
        return std::string("tile ") + tile_.name + " q" + std::to_string(tq_) +
               (xpad_ ? " x" + std::to_string(stripWidth(desc_, tq_, xpad_)) : "") + " vec8I" + (vecW_ ? "W" : "") +
               coopmatOutputTag(vecOut_, outWord_) + (prefetch_ ? " pre" : "") + (epi16_ ? " epi16" : "") + " sg" +
               std::to_string(sg_.size) + (coopmatEmulated(desc_.dtype) ? " EMULATED" : "");
    }

private:
    // 16-byte loads and stores need 16-byte aligned views; otherwise the element-wise pipeline.
    const ComputePipeline& pipelineFor(const ConvTensors& t) const override {
        bool aligned = t.input.offset % 16 == 0 && t.filter.offset % 16 == 0 && t.output.offset % 16 == 0;
        return aligned ? *vectorPipeline_ : pipeline(false);
    }
    const ComputePipeline& pipeline(bool vec) const {
        const ConvDesc& d = desc_;
        PipelineKey key = convPipelineKey(shaderName(d.dtype), d, tile_.warps() * sg_.size, sg_.required);
        key.spec.insert(key.spec.end(), {{kSpecWarpsM, tile_.warpsM},
                                         {kSpecWarpsN, tile_.warpsN},
                                         {kSpecFM, tile_.fm},
                                         {kSpecFN, tile_.fn},
                                         {kSpecFR, uint32_t(d.r)},
                                         {kSpecFS, uint32_t(d.s)},
                                         {kSpecDH, uint32_t(d.dilationH)},
                                         {kSpecDW, uint32_t(d.dilationW)},
                                         {kSpecTQ, tq_},
                                         {kSpecVecIn, vec ? 1u : 0u},
                                         {kSpecVecW, vec && vecW_ ? 1u : 0u},
                                         {kSpecVecOut, vec && vecOut_ ? 1u : 0u},
                                         {kSpecPrefetch, prefetch_ ? 1u : 0u},
                                         {kSpecNchwRuns, runs_ ? 1u : 0u},
                                         {kSpecXPad, xpad_},
                                         {kSpecEpi16, vec && epi16_ ? 1u : 0u}});
        if (vec && vecOut_ && outWord_ != 8) key.spec.push_back({kSpecOutWord, outWord_});
        if (coopmatEmulated(d.dtype)) key.spec.push_back({kSpecEmuLanes, sg_.size});
        key.fullSubgroups = true;  // gl_SubgroupID names a whole subgroup's block
        return ctx_.pipelines->get(key);
    }

    // The next slice in flight: measured 1.2x faster on NVIDIA; elsewhere unmeasured, and on RDNA3
    // (RADV) its register arrays made 256x64/4x1 and 64x64/1x2 spill, so each word is stored as it
    // arrives there.  The tests reach either path through the halo_prefetch hook.
    static bool prefetch(const ContextImpl& ctx) { return testHookOr("halo_prefetch", ctx.caps.vendorId == 0x10DE); }

    ConvDesc desc_;
    const HaloTile& tile_;
    uint32_t tq_, xpad_;
    SubgroupChoice sg_;
    bool vecW_ = false, vecOut_ = false, runs_ = false, prefetch_ = true, epi16_ = false;
    uint32_t outWord_ = 8;  // NHWC: filters per wide store, 8, 4 or 2 (coopmatNhwcOutWord; 0: element stores)
    const ComputePipeline* vectorPipeline_ = nullptr;
};

}  // namespace

// Every tile name PlanOptions::tile takes (findAlgorithms' exhaustive candidates).
std::vector<std::string> haloCoopmatTileNames() {
    std::vector<std::string> v;
    for (const auto& t : kHaloTiles) v.emplace_back(t.name);
    return v;
}

namespace {

// Everything haloCoopmatWhyNot checks before the tile choice (the device, the layout, the
// options), so that the router's question runs chooseConfig once.
std::string preconditionsWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (!o.tile.empty()) {
        const HaloTile* t = nullptr;
        uint32_t tq = 0;
        if (!matchTile(o.tile, t, tq))
            return noTileError(parseTile(o.tile),
                               tileNames(kHaloTiles, [](const HaloTile& h) { return h.name; }) +
                                   "; optionally followed by /q<strip columns>, or q<columns> alone");
    }
    if (std::string w = coopmatDeviceWhyNot(ctx, d.dtype, shaderName(d.dtype)); !w.empty()) return w;
    if (std::string w = coopmatFragment16WhyNot(ctx.caps, d.dtype); !w.empty()) return w;
    if (d.inputLayout != TensorLayout::NHWC)
        return "NCHW input (the halo stages 8 channels of a pixel per 16-byte word)";
    if (d.strideH != 1 || d.strideW != 1)
        return "stride " + std::to_string(d.strideH) + "x" + std::to_string(d.strideW) +
               " (the taps' shifted fragments need stride 1)";
    if (d.channelsPerGroup() % kSlice != 0)
        return "C/groups = " + std::to_string(d.channelsPerGroup()) + " is not a multiple of " + std::to_string(kSlice);
    SubgroupChoice sg = coopmatSubgroup(ctx.caps);
    if (o.subgroupSize && o.subgroupSize != sg.size)
        return "the tiles are laid out for subgroups of " + std::to_string(sg.size) + ", not " +
               std::to_string(o.subgroupSize);
    return "";
}

}  // namespace

std::string haloCoopmatWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (std::string w = preconditionsWhyNot(ctx, d, o); !w.empty()) return w;
    return chooseConfig(ctx, d, coopmatSubgroup(ctx.caps).size, o).why;
}

std::unique_ptr<AlgorithmInstance> haloCoopmatInstantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    HaloChoice c = chooseConfig(ctx, d, coopmatSubgroup(ctx.caps).size, o);
    if (!c.tile)
        throw Error(ErrorCode::Unsupported, "halo_coopmat: no configuration for " + d.toString() + ": " + c.why);
    const HaloTile* forced = nullptr;
    uint32_t forcedTq = 0;
    if (!o.tile.empty()) matchTile(o.tile, forced, forcedTq);
    return std::make_unique<HaloCoopmatInstance>(ctx, d, paddedStrip(ctx, d, c, forcedTq != 0));
}

// halo_coopmat's modelled time in implicit_gemm_coopmat's units (a FLOP at its best tile's
// full-wave rate, DeviceModel::matrixFitFlopsPerUs: the scale algo_winograd.cpp's fit found), < 0
// where it declines, the layer has one tap (a plain GEMM) or, with `halfWave`, the tile fills less
// than half a wave (fillsHalfWave).
namespace {
double haloCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, bool halfWave) {
    if (d.r * d.s < 2 || !preconditionsWhyNot(ctx, d, o).empty()) return -1;
    HaloChoice c = chooseConfig(ctx, d, coopmatSubgroup(ctx.caps).size, o);  // unpadded: paddedStrip
    if (!c.tile || (halfWave && !fillsHalfWave(ctx, d, *c.tile, c.tq))) return -1;
    const DeviceModel& m = ctx.model;
    double halo = c.micros * m.matrixFitFlopsPerUs;
    // Its fitted time is NHWC's; element-wise NCHW stores (nchwRuns) cost it what
    // implicit_gemm_coopmat's runs do not.  haloNchwElementUsPerMiB is the charge per MiB of output
    // that separates the two kernels on VGG-16's bf16 NCHW layers as they measured on the H200
    // (docs/performance.md, "halo_coopmat").
    if (d.outputLayout == TensorLayout::NCHW && !nchwRuns(d))
        halo += m.haloNchwElementUsPerMiB * double(d.outputBytes()) / double(1 << 20) * m.matrixFitFlopsPerUs;
    return halo;
}
}  // namespace

double haloCoopmatModelCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return haloCost(ctx, d, o, false);
}

// The router's question, answered once per problem: halo_coopmat's modelled time (haloCost, on
// half a wave or more) where it beats implicit_gemm_coopmat's model (its best tile and split,
// charged one dispatch as the winograd comparison does), else < 0.
double haloCoopmatPaysCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    const double halo = haloCost(ctx, d, o, true);
    if (halo < 0) return -1;
    const double direct = coopmatModelCost(ctx, d, o, false);
    return direct < 0 || halo < direct + ctx.model.haloDispatchUs * ctx.model.matrixFitFlopsPerUs ? halo : -1;
}

bool haloCoopmatPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return haloCoopmatPaysCost(ctx, d, o) >= 0;
}

// The router's question for layers with at most 16 filters per group: whether a measured
// one-column tile takes the layer (NVIDIA; elsewhere unmeasured, so no) on a grid of half a wave
// or more.
bool haloCoopmatTakesFewFilters(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (ctx.caps.vendorId != 0x10DE || d.filtersPerGroup() > int64_t(kOneColumn) || d.r * d.s < 2) return false;
    if (!preconditionsWhyNot(ctx, d, o).empty()) return false;
    HaloChoice c = chooseConfig(ctx, d, coopmatSubgroup(ctx.caps).size, o);
    return c.tile && sliceUs(ctx, *c.tile) > 0 && fillsHalfWave(ctx, d, *c.tile, c.tq);
}

// Every tile x 16-bit dtype, 3x3 (VGG-16's 64-channel layer: the widest strip) and 3x3 dilated 2;
// KRSC filters and NHWC output (the 16-byte paths) and KCRS / NCHW (element-wise); and VGG-16's
// layer with an NCHW output (fp16: runs in strips padded to 8 columns).
std::vector<std::pair<ConvDesc, PlanOptions>> haloCoopmatVariants(const ContextImpl&) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    for (DType t : {DType::F16, DType::BF16})
        for (int shape = 0; shape < 5; ++shape)
            for (const auto& tile : kHaloTiles) {
                if (shape == 3 && t != DType::F16) continue;
                ConvDesc d;
                d.c = 64;
                d.h = d.w = 224;
                d.k = 64;
                d.r = d.s = 3;
                d.pad(1, 1);
                d.dtype = t;
                d.hasBias = true;
                d.activation = Activation::Relu;
                makeNhwc(d);
                if (shape == 3) d.hasBias = false, d.activation = Activation::None;  // the fp16 scratch (EPI16)
                if (shape == 1) {
                    d.h = d.w = 28;
                    d.dilationH = d.dilationW = 2;
                    d.pad(2, 2);
                    d.outputLayout = TensorLayout::NCHW;
                    d.filterLayout = FilterLayout::KCRS;
                }
                if (shape == 2) d.outputLayout = TensorLayout::NCHW;
                // Narrow output words (OUT_WORD): fp16 36 filters, nothing fused, 8-byte stores of
                // 4 from the fp16 scratch; bf16 42 filters with the bias and ReLU, 4-byte stores of
                // 2 from the fp32 one
                if (shape == 4) {
                    d.k = t == DType::BF16 ? 42 : 36;
                    if (t == DType::F16) d.hasBias = false, d.activation = Activation::None;
                }
                v.push_back({d, PlanOptions{"halo_coopmat", 0, tile.name}});
            }
    return v;
}

}  // namespace vkconv
