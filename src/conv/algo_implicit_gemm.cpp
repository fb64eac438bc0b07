// Level 4 "implicit_gemm" (shaders/implicit_gemm.comp): tiled implicit GEMM, double-buffered
// shared memory, register tiles, precomputed padding masks.  "implicit_gemm_analytic" is the
// same kernel with per-load bounds arithmetic instead of masks (kept to measure the masks).
// "implicit_gemm_splitk" is the same kernel with the reduction split over workgroup z (fp32
// partial sums in the workspace), then shaders/splitk_reduce.comp (sum in order + epilogue).
#include <algorithm>
#include <cmath>

#include "conv/algorithm.hpp"
#include "conv/dispatch.hpp"
#include "conv/split_k.hpp"
#include "conv/tile_score.hpp"
#include "conv/tile_syntax.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

PlanOptions withDefaultSubgroup(const ContextImpl& ctx, PlanOptions o);

namespace {

struct TileConfig {
    const char* name;
    uint32_t bm, bn, bk, tm, tn;  // its efficiency and residency: DeviceModel::scalarTiles, in this order
    constexpr uint32_t threads() const { return (bm / tm) * (bn / tn); }
    uint32_t sharedBytes() const { return 2 * bk * (bm + bn) * 4; }  // the double-buffered A/B slices
    // The staged epilogue's output chunk of RB x CB values (lines padded by 4; implicit_gemm.comp),
    // which reuses the slices' memory and may need more of it.
    constexpr uint32_t chunkRows() const { return bm * 4 / tm; }
    constexpr uint32_t chunkCols() const { return bn * 4 / tn; }
    uint32_t stagedSharedBytes() const {
        uint32_t chunk = std::max(chunkRows() * (chunkCols() + 4), chunkCols() * (chunkRows() + 4));
        return std::max(sharedBytes(), chunk * 4);
    }
};

constexpr TileConfig kTiles[] = {
    {"128x128x8/8x8", 128, 128, 8, 8, 8}, {"128x64x16/8x4", 128, 64, 16, 8, 4}, {"128x64x8/8x4", 128, 64, 8, 8, 4},
    {"64x64x8/4x4", 64, 64, 8, 4, 4},     {"128x32x8/4x4", 128, 32, 8, 4, 4},   {"64x16x8/4x4", 64, 16, 8, 4, 4},
};
static_assert(std::size(kTiles) == DeviceModel::kScalarTiles, "DeviceModel::scalarTiles rates these tiles");
// A tile's rating in this card's model (the same row of DeviceModel::scalarTiles).
const ScalarTileRate& rate(const ContextImpl& ctx, const TileConfig& t) { return ctx.model.scalarTiles[&t - kTiles]; }
// Tried and dropped: 32-deep slices for latency-bound small grids
// (128x64x32/8x4, 64x32x32/4x4) were 1.1-8x slower at batch 1 than the 8-deep tiles.

// The epilogue gives every invocation a fixed column (NHWC) or row (NCHW) of each output chunk,
// and spells out its chunks for register tiles of 4 or 8 rows and columns.
constexpr bool chunksDivide() {
    for (auto& t : kTiles)
        if (t.threads() % t.chunkRows() || t.threads() % t.chunkCols() || (t.tm != 4 && t.tm != 8) ||
            (t.tn != 4 && t.tn != 8))
            return false;
    return true;
}
static_assert(
    chunksDivide(),
    "implicit_gemm.comp's epilogue: invocations a multiple of the chunk's rows and columns, TM and TN 4 or 8");

enum SpecIgemm : uint32_t {
    kSpecBM = 101,
    kSpecBN = 102,
    kSpecBK = 103,
    kSpecTM = 104,
    kSpecTN = 105,
    kSpecMaskMode = 110,
    kSpecChannelSlices = 111,
    kSpecVecA = 112,
    kSpecVecB = 113,
    kSpecStageOut = 114,
    kSpecVecAM = 115,
    kSpecTapEntries = 116,
    kSpecVecAMStride2 = 117,
    kSpecVecOut = 118,
};

// The per-element tap table (implicit_gemm.comp's TAP_TABLE build, where C/groups is not a multiple
// of BK): 8 bytes per reduction index, entries rounded up to a power of two (few pipelines).  Deeper
// reductions, or a table that does not fit next to the tile, keep the build that decodes each tap;
// so do the 4x4 register tiles, which measured slower with it (H200: MobileNetV2 features.0.0 b32
// on 128x32x8/4x4 1.66x the time, 75 registers against 64; the 8x4 tiles 0.86x on ResNet-50
// conv1; docs/performance.md, "implicit_gemm").
// NHWC items of an invocation share one reduction index, so the scalar build decodes one tap per
// slice there and the table pays only where it is filled for a long reduction: from 64 deep
// (ResNet-50 conv1, 147: 0.86x the time in fp16 NHWC; VGG-16 features.0, 27: 1.12x).
constexpr uint32_t kTapTableMaxEntries = 1024;
constexpr uint32_t kTapTableMinNhwc = 64;
bool usesTapTable(const ConvDesc& d, const TileConfig& t) {
    const uint64_t red = uint64_t(d.reductionLength());
    return d.channelsPerGroup() % t.bk != 0 && t.tm == 8 && red <= kTapTableMaxEntries &&
           (d.inputLayout == TensorLayout::NCHW || red >= kTapTableMinNhwc);
}
uint32_t tapTableEntries(uint64_t reduction) {
    uint32_t n = 32;
    while (n < reduction) n *= 2;
    return n;
}

}  // namespace

// NCHW, unpadded 1x1 stride 1: output pixel m reads input pixel m, so 4 neighbouring pixels of a
// channel are one aligned 4-wide load when H*W % 4 == 0 (no group of 4 straddles two images).
// Stride 2 (both): 4 neighbouring output pixels read every other input pixel of 8 in one row,
// two aligned 4-wide loads when W % 8 == 0 (then Q = W / 2 is a multiple of 4 and H*W of 8).
static bool implicitGemmFourPixelStride2(const ConvDesc& d) { return d.strideH == 2 && d.strideW == 2 && d.w % 8 == 0; }
bool implicitGemmFourPixelLoads(const ConvDesc& d) {
    bool unpadded1x1 = d.r == 1 && d.s == 1 && d.padTop == 0 && d.padBottom == 0 && d.padLeft == 0 && d.padRight == 0;
    bool stride1 = d.strideH == 1 && d.strideW == 1 && (uint64_t(d.h) * uint64_t(d.w)) % 4 == 0;
    return d.inputLayout == TensorLayout::NCHW && unpadded1x1 && (stride1 || implicitGemmFourPixelStride2(d));
}

namespace {

// Whether the epilogue goes through shared memory (implicit_gemm.comp's STAGE_OUT): coalesced
// stores, paid for in registers.  Measured on the H200 (ResNet-50 and MobileNetV2 b32;
// docs/performance.md, "implicit_gemm"): for NCHW outputs (a warp's direct stores hit 32 sectors) 8x4 tiles gain at
// every depth (0.56-0.97x the time) and split-K partials gain too, while 8x8 tiles (128 -> 183
// registers, one workgroup per SM fewer) gain only up to 128-deep reductions; NHWC outputs (direct
// stores already half-coalesced) gain only on 8x8 tiles up to 128 deep; 4x4 tiles (64 -> 97
// registers) lose or break even.  `depth`: the reduction one workgroup runs (per split).  Never
// where the chunk would not fit the device's shared memory (128x128 needs 17 KiB; Vulkan
// guarantees 16), so staging does not decide whether a tile fits.
bool stagedEpilogue(const ContextImpl& ctx, const TileConfig& t, const ConvDesc& d, uint64_t depth, bool split) {
    if (t.stagedSharedBytes() > ctx.caps.maxSharedMemory) return false;
    bool nchw = d.outputLayout == TensorLayout::NCHW;
    if (t.tm == 8 && t.tn == 4) return nchw;
    if (t.tm == 8 && t.tn == 8) return depth <= 128 || (nchw && split);
    return false;
}

constexpr uint64_t kVecOutOverStagedMaxDepth8x4 = 64;

// The table's tile a parsed PlanOptions::tile names: BMxBNxBK/TMxTN.
const TileConfig* findTile(const TileSpec& s) {
    for (auto& t : kTiles)
        if (s.is({{t.bm, t.bn, t.bk}, {t.tm, t.tn}})) return &t;
    return nullptr;
}
const TileConfig* findTile(const std::string& name) { return findTile(parseTile(name)); }
std::string allTileNames() {
    return tileNames(kTiles, [](const TileConfig& t) { return t.name; });
}

// sg: the subgroup size the pipeline will require (0: none), which caps a workgroup at
// sg x maxComputeWorkgroupSubgroups invocations (lavapipe at size 4: 128).
bool tileFitsWorkgroup(const ContextImpl& ctx, const TileConfig& t, uint32_t sg) {
    const auto& c = ctx.caps;
    bool subgroups = !sg || !c.maxComputeWorkgroupSubgroups || t.threads() <= sg * c.maxComputeWorkgroupSubgroups;
    return t.threads() <= c.maxWorkgroupInvocations && t.sharedBytes() <= c.maxSharedMemory && subgroups;
}
// The grid of tile t, (pixel tiles) x (groups x filter tiles), against maxWorkgroupCount: on
// devices that allow 65535 groups in x (lavapipe, Intel) a 64-row tile stops at ~4.2M output pixels.
std::string tileGridWhyNot(const ContextImpl& ctx, const ConvDesc& d, const TileConfig& t) {
    const uint64_t M = uint64_t(d.n) * uint64_t(d.outH()) * uint64_t(d.outW());
    return gridWhyNot(ctx, (M + t.bm - 1) / t.bm,
                      uint64_t(d.groups) * ((uint64_t(d.filtersPerGroup()) + t.bn - 1) / t.bn), "output pixel tiles",
                      "groups x filter tiles");
}
// Both: what every tile choice below asks.
bool tileFits(const ContextImpl& ctx, const ConvDesc& d, const TileConfig& t, uint32_t sg) {
    return tileFitsWorkgroup(ctx, t, sg) && tileGridWhyNot(ctx, d, t).empty();
}
uint32_t requiredSubgroup(const ContextImpl& ctx, const PlanOptions& o) {
    return withDefaultSubgroup(ctx, o).subgroupSize;
}

// Split-K cost terms for splitTileCost (conv/tile_score.hpp), in FLOPs at the best tile's
// full-wave rate (DeviceModel::scalarFlopsPerUs), fitted to a forced-split sweep of the fp32
// batch-1 suites (docs/performance.md, "implicit_gemm"): the second pass (barrier, launch,
// reduce), and the workspace traffic (scattered fp32 partials, well below the copy rate).
double splitFlopsPerByte(const ContextImpl& ctx) {
    return ctx.model.scalarFlopsPerByte(ctx.model.scalarSplitBytesPerUs);
}
double splitPassFlops(const ContextImpl& ctx) { return ctx.model.scalarSplitPassUs * ctx.model.scalarFlopsPerUs; }

double slots(const ContextImpl& ctx, const TileConfig& t) { return ctx.model.computeUnits * rate(ctx, t).resident; }

bool smallGridPick(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o);
constexpr const char* kSmallGridTile = "64x16x8/4x4";

// Picks the tile with the best (useful work / padded work) x (wave fill) x (tile efficiency):
// conv/tile_score.hpp, the grid counted in waves of compute units x residency.  No timing.
const TileConfig& modelTile(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    const uint32_t sg = requiredSubgroup(ctx, o);

    const TileConfig* best = &kTiles[std::size(kTiles) - 1];
    double bestScore = -1;
    for (auto& t : kTiles) {
        if (!tileFits(ctx, d, t, sg)) continue;
        double score = waveTileScore(d, t.bm, t.bn, rate(ctx, t).efficiency, slots(ctx, t));
        if (score > bestScore) {
            bestScore = score;
            best = &t;
        }
    }
    return *best;
}
const TileConfig& chooseTile(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (!o.tile.empty()) return *findTile(o.tile);  // checked by whyNot
    return smallGridPick(ctx, d, o) ? *findTile(kSmallGridTile) : modelTile(ctx, d, o);
}

// ---- split-K (docs/design.md "Split-K") ----
// The same sweep: splitting paid on grids of fewer tiles than units from reductions of 256 up,
// and down to 128 reduction values per split (docs/performance.md, "implicit_gemm").
constexpr uint64_t kSplitMinReduction = 128;  // split only reductions (C/groups*R*S) this deep
constexpr uint64_t kSplitMinPerSplit = 128;   // the heuristic keeps this much reduction per split
constexpr uint64_t kSplitMax = 16;            // the heuristic's most splits
// Small outputs (at most this many elements) split down to 32 reduction values per split: their
// partial sums are a few hundred KB at most, and on MobileNetV2's batch-1 1x1 layers (7x7 to 28x28,
// 49-25088 outputs, 192-960 deep) 8-16 splits measured 0.55-0.85x the time of the model's 2-4.
constexpr uint64_t kSplitSmallOutput = 65536;
constexpr uint64_t kSplitMinPerSplitSmall = 32;
uint64_t minPerSplit(const ConvDesc& d) {
    return uint64_t(d.outputElements()) <= kSplitSmallOutput ? kSplitMinPerSplitSmall : kSplitMinPerSplit;
}
// The router splits when the model says it is at least DeviceModel::scalarSplitMargin of one pass.

uint64_t reductionSlices(const ConvDesc& d, const TileConfig& t) {
    return (uint64_t(d.reductionLength()) + t.bk - 1) / t.bk;
}

// The split count (>= 2) with the smallest modelled cost for tile t (splitTileCost), up to `most`,
// kSplitMax, the reduction's slices and one split per minPerSplit(d) reduction values; 0 when
// the reduction has a single slice.
struct SplitCost {
    uint64_t split;
    double cost;
};
SplitCost bestSplit(const ContextImpl& ctx, const ConvDesc& d, const TileConfig& t, uint64_t most) {
    uint64_t red = uint64_t(d.reductionLength());
    uint64_t top = std::min({most, kSplitMax, std::max<uint64_t>(2, red / minPerSplit(d)), reductionSlices(d, t)});
    SplitCost best{0, 0.0};
    for (uint64_t s = 2; s <= top; ++s) {
        double c = splitTileCost(d, t.bm, t.bn, rate(ctx, t).efficiency, slots(ctx, t), double(s),
                                 splitFlopsPerByte(ctx), splitPassFlops(ctx));
        if (!best.split || c < best.cost) best = {s, c};
    }
    return best;
}

SplitLimit tileSplitLimit(const ContextImpl& ctx, const ConvDesc& d, const TileConfig& t, VkDeviceSize workspaceLimit) {
    return splitLimit(ctx, d, reductionSlices(d, t), workspaceLimit);
}

// PlanOptions::tile for split-K ("<tile>/s<splits>", conv/split_k.hpp), with the tile looked up.
struct TileSplitRequest {
    const TileConfig* tile = nullptr;  // null: the heuristic's
    uint64_t split = 0;                // 0: the heuristic's
    std::string error;
};
TileSplitRequest parseTileSplit(const std::string& s) {
    SplitRequest q = parseSplitRequest(s);
    TileSplitRequest r{nullptr, q.split, q.error};
    if (!q.spec.ok() || (r.error.empty() && !q.tile.empty() && !(r.tile = findTile(q.spec))))
        r.error = noTileError(q.spec, allTileNames() + "; each optionally followed by /s<splits>, or s<splits> alone");
    return r;
}

struct SplitChoice {
    const TileConfig* tile = nullptr;
    uint32_t split = 0, asked = 0;  // asked: a forced split count before clamping to the slices
    std::string why;                // why none fits (then tile is null)
};

// The tile and split count: the smallest splitTileCost (conv/tile_score.hpp) over the tiles, each
// with its best split (bestSplit: at least 2 where the reduction has 2 slices, since the algorithm
// was asked for by name or by the router); a forced split is clamped to the reduction's slices
// and declined beyond the other limits; the modelled one is lowered to them.
SplitChoice modelSplit(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    TileSplitRequest req = parseTileSplit(o.tile);
    SplitChoice best;
    if (!req.error.empty()) return {nullptr, 0, 0, req.error};
    std::string why;  // the first tile's reason for not fitting
    double bestCost = 0;
    const uint32_t sg = requiredSubgroup(ctx, o);
    for (auto& t : kTiles) {
        if (req.tile ? req.tile != &t : !tileFits(ctx, d, t, sg)) continue;
        uint64_t slices = reductionSlices(d, t);
        SplitLimit lim = tileSplitLimit(ctx, d, t, o.workspaceLimit);
        uint64_t s = req.split ? std::min(req.split, slices) : bestSplit(ctx, d, t, lim.most).split;
        if (!s) s = std::min<uint64_t>(2, slices);
        if (s > lim.most) {
            if (req.split || lim.most == 0) {
                if (why.empty())
                    why = std::to_string(s) + " split(s) of tile " + t.name + " exceed " + lim.what +
                          (lim.most ? "; at most " + std::to_string(lim.most) : "");
                continue;
            }
            s = lim.most;
        }
        double cost = splitTileCost(d, t.bm, t.bn, rate(ctx, t).efficiency, slots(ctx, t), double(s),
                                    splitFlopsPerByte(ctx), splitPassFlops(ctx));
        if (!best.tile || cost < bestCost) {
            bestCost = cost;
            best = {&t, uint32_t(s), uint32_t(req.split ? req.split : s), ""};
        }
    }
    if (!best.tile) best.why = why.empty() ? "no tile fits this device's workgroup or shared-memory limits" : why;
    return best;
}
// The model's split, or on a small grid (smallGridPick) the small tile's best split.
SplitChoice chooseSplit(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (!smallGridPick(ctx, d, o)) return modelSplit(ctx, d, o);
    PlanOptions small = o;
    small.tile = kSmallGridTile;
    return modelSplit(ctx, d, small);
}

class ImplicitGemmInstance final : public AlgorithmInstance {
public:
    // split > 0: split-K with that many splits (two passes, a workspace); 0: one pass.
    ImplicitGemmInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, const TileConfig& tile,
                         uint32_t maskMode, const char* name, uint32_t split = 0, uint32_t askedSplit = 0)
        : ctx_(ctx),
          desc_(d),
          pc_(makePushConstants(d)),
          tile_(tile),
          name_(name),
          sg_(o.subgroupSize),
          maskMode_(maskMode),
          split_(split),
          askedSplit_(askedSplit) {
        channelSlices_ = d.channelsPerGroup() % tile_.bk == 0;
        vecA_ = channelSlices_ && d.inputLayout == TensorLayout::NHWC && d.c % 4 == 0;
        vecAM_ = channelSlices_ && implicitGemmFourPixelLoads(d);
        // KCRS with R = S = 1 is KRSC in memory; 4-wide there only next to vecAM_ (with scalar A
        // staging it measured 7-8 % slower on MobileNetV2's 7x7 1x1 layers).
        vecB_ = channelSlices_ && (d.filterLayout == FilterLayout::KRSC || vecAM_);
        uint64_t splits = split_ ? split_ : 1;
        const uint64_t depth = (uint64_t(d.reductionLength()) + splits - 1) / splits;
        stageOut_ = stagedEpilogue(ctx, tile_, d, depth, split_ != 0);
        // The direct epilogue in 16-byte stores (the 4-wide build, one pass): four consecutive
        // pixels of one image (NCHW) or filters of one group (NHWC).  Where staging would apply too,
        // it wins on the 8x8 tiles (H200 b32/b1: 0.87-0.94x the staged time on the 1x1 and Winograd
        // layers) and on 8x4 tiles up to 64 deep (0.81-0.90x at 16-32 deep, 1.06-1.21x from 144).
        // Not for NHWC input with NCHW output (the NHWC kernel behind implicit_gemm_nhwc): it ran
        // 6 % slower there (ResNet-50 layer2.0.conv2 b32, 8x8, stride 2).
        vecOut_ = !split_ && (vecA_ || vecAM_ || vecB_) &&
                  !(d.inputLayout == TensorLayout::NHWC && d.outputLayout == TensorLayout::NCHW) &&
                  (d.outputLayout == TensorLayout::NCHW ? (uint64_t(d.outH()) * uint64_t(d.outW())) % 4 == 0
                                                        : d.filtersPerGroup() % 4 == 0);
        if (vecOut_ && stageOut_) {
            if ((tile_.tm == 8 && tile_.tn == 8) ||
                (tile_.tm == 8 && tile_.tn == 4 && depth <= kVecOutOverStagedMaxDepth8x4))
                stageOut_ = false;
            else
                vecOut_ = false;
        }
        if (usesTapTable(d, tile_)) {
            uint32_t entries = tapTableEntries(d.reductionLength());
            if ((stageOut_ ? tile_.stagedSharedBytes() : tile_.sharedBytes()) + entries * 8 <= ctx.caps.maxSharedMemory)
                tapEntries_ = entries;
        }
        vectorPipeline_ = &pipeline(true);
        if (split_) {
            pc_.splitK = split_;
            reduce_ = std::make_unique<SplitReduce>(ctx, d);
        }
        uint64_t M = uint64_t(d.n) * uint64_t(d.outH()) * uint64_t(d.outW());
        gx_ = uint32_t((M + tile_.bm - 1) / tile_.bm);
        gy_ = uint32_t(((d.filtersPerGroup() + tile_.bn - 1) / tile_.bn) * d.groups);
    }
    void record(VkCommandBuffer cmd, const ConvTensors& t) const override {
        // 4-wide loads need the views 4-element aligned; otherwise the scalar-staging variant.
        uint64_t vecBytes = 4ull * dtypeSize(desc_.dtype);
        bool aligned = t.input.offset % vecBytes == 0 && t.filter.offset % vecBytes == 0 &&
                       (!vecOut_ || t.output.offset % vecBytes == 0);
        const ComputePipeline& p = aligned ? *vectorPipeline_ : pipeline(false);
        bindConvTensors(ctx_, cmd, p, t, bindings());
        pushConstants(ctx_, cmd, p, pc_);
        cmdDispatch(ctx_, cmd, gx_, gy_, split_ ? split_ : 1u);
        if (reduce_) reduce_->record(cmd, t, pc_);
    }
    VkDeviceSize workspaceSize() const override {
        return VkDeviceSize(split_) * VkDeviceSize(desc_.outputElements()) * 4;
    }
    std::string name() const override { return name_; }
    std::string config() const override {
        std::string c = std::string("tile ") + tile_.name;
        if (vecA_ || vecAM_ || vecB_)
            c += std::string(" vec4") + (vecA_ ? "A" : "") +
                 (vecAM_ ? implicitGemmFourPixelStride2(desc_) ? "Am2" : "Am" : "") + (vecB_ ? "B" : "");
        else if (channelSlices_)
            c += " slices";
        else if (tapEntries_)
            c += " taps";
        if (split_) c += " split " + std::to_string(split_);
        if (stageOut_) c += " staged";
        if (vecOut_) c += " out4";
        if (split_ && askedSplit_ != split_) c += " (asked " + std::to_string(askedSplit_) + ", clamped to the slices)";
        if (sg_) c += " sg" + std::to_string(sg_);
        return c;
    }

private:
    // vector: the 4-wide loads this problem allows (vecA_, vecAM_, vecB_); else scalar staging.
    const ComputePipeline& pipeline(bool vector) const {
        // 4-wide staging has its own shader build (implicit_gemm.comp's VEC_STAGING); so has the tap table.
        bool vecStaging = vector && (vecA_ || vecAM_ || vecB_);
        const char* build = vecStaging ? "vec_" : tapEntries_ ? "tap_" : "";
        PipelineKey key = convPipelineKey(
            std::string(split_ ? "implicit_gemm_splitk_" : "implicit_gemm_") + build + dtypeSuffix(desc_.dtype), desc_,
            tile_.threads(), sg_, bindings());
        key.spec.push_back({kSpecBM, tile_.bm});
        key.spec.push_back({kSpecBN, tile_.bn});
        key.spec.push_back({kSpecBK, tile_.bk});
        key.spec.push_back({kSpecTM, tile_.tm});
        key.spec.push_back({kSpecTN, tile_.tn});
        key.spec.push_back({kSpecMaskMode, maskMode_});
        key.spec.push_back({kSpecChannelSlices, channelSlices_ ? 1u : 0u});
        key.spec.push_back({kSpecVecA, vector && vecA_ ? 1u : 0u});
        key.spec.push_back({kSpecVecB, vector && vecB_ ? 1u : 0u});
        key.spec.push_back({kSpecVecAM, vector && vecAM_ ? 1u : 0u});
        if (vector && vecAM_ && implicitGemmFourPixelStride2(desc_)) key.spec.push_back({kSpecVecAMStride2, 1u});
        if (vecStaging && vecOut_) key.spec.push_back({kSpecVecOut, 1u});
        key.spec.push_back({kSpecStageOut, stageOut_ ? 1u : 0u});
        if (tapEntries_) key.spec.push_back({kSpecTapEntries, tapEntries_});
        return ctx_.pipelines->get(key);  // made once per context, then a map lookup
    }
    uint32_t bindings() const { return split_ ? kSplitBindings : kConvBindings; }

    ContextImpl& ctx_;
    ConvDesc desc_;
    ConvPushConstants pc_;
    const TileConfig& tile_;
    const char* name_;
    uint32_t sg_, maskMode_, split_, askedSplit_;
    std::unique_ptr<SplitReduce> reduce_;  // split-K pass 2
    bool channelSlices_ = false, vecA_ = false, vecAM_ = false, vecB_ = false, stageOut_ = false, vecOut_ = false;
    uint32_t tapEntries_ = 0;  // > 0: the TAP_TABLE build with a table of this many entries
    const ComputePipeline* vectorPipeline_ = nullptr;
    uint32_t gx_ = 0, gy_ = 0;
};

}  // namespace

// Every tile name PlanOptions::tile takes (findAlgorithms' exhaustive candidates).
std::vector<std::string> implicitGemmTileNames() {
    std::vector<std::string> v;
    for (const auto& t : kTiles) v.emplace_back(t.name);
    return v;
}

std::string implicitGemmWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (!o.tile.empty()) {
        const TileSpec spec = parseTile(o.tile);
        const TileConfig* t = findTile(spec);
        if (!t) return noTileError(spec, allTileNames());
        if (!tileFitsWorkgroup(ctx, *t, requiredSubgroup(ctx, o)))
            return "tile " + o.tile +
                   " exceeds this device's workgroup or shared-memory limits (or, at the required "
                   "subgroup size, subgroup size x maxComputeWorkgroupSubgroups invocations)";
        if (std::string why = tileGridWhyNot(ctx, d, *t); !why.empty()) return "tile " + o.tile + ": " + why;
    }
    if (d.r > 32 || d.s > 32) return "filter taps beyond 32 per axis do not fit the padding masks";
    if (o.tile.empty()) {  // some tile must fit both the workgroup limits and the grid
        std::string gridWhy;
        bool any = false;
        for (auto& t : kTiles) {
            if (!tileFitsWorkgroup(ctx, t, requiredSubgroup(ctx, o))) continue;
            std::string why = tileGridWhyNot(ctx, d, t);
            if (why.empty()) {
                any = true;
                break;
            }
            gridWhy = why;
        }
        if (!any) return gridWhy.empty() ? "no tile fits this device's workgroup or shared-memory limits" : gridWhy;
    }
    if (o.subgroupSize && (!ctx.caps.subgroupSizeControl || o.subgroupSize < ctx.caps.minSubgroupSize ||
                           o.subgroupSize > ctx.caps.maxSubgroupSize))
        return "subgroup size " + std::to_string(o.subgroupSize) + " cannot be required on this device";
    return "";
}

// RDNA default: wave32 (docs/amd.md).  The compile lab shows the same VGPR count at wave32 and
// wave64, RDNA issues wave32 natively (wave64 runs as two halves), and peers report wave32 ahead
// for compute on RDNA1/2.  Unmeasured on AMD hardware here; PlanOptions::subgroupSize overrides.
PlanOptions withDefaultSubgroup(const ContextImpl& ctx, PlanOptions o) {
    const auto& c = ctx.caps;
    if (o.subgroupSize == 0 && c.amdArch != AmdArch::None && c.amdArch != AmdArch::GCN && c.subgroupSizeControl &&
        c.minSubgroupSize <= 32 && c.maxSubgroupSize >= 32)
        o.subgroupSize = 32;
    return o;
}

std::unique_ptr<AlgorithmInstance> implicitGemmInstantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return std::make_unique<ImplicitGemmInstance>(ctx, d, withDefaultSubgroup(ctx, o), chooseTile(ctx, d, o), 1u,
                                                  "implicit_gemm");
}

std::unique_ptr<AlgorithmInstance> implicitGemmAnalyticInstantiate(ContextImpl& ctx, const ConvDesc& d,
                                                                   const PlanOptions& o) {
    return std::make_unique<ImplicitGemmInstance>(ctx, d, withDefaultSubgroup(ctx, o), chooseTile(ctx, d, o), 0u,
                                                  "implicit_gemm_analytic");
}

std::string implicitGemmSplitKWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    TileSplitRequest req = parseTileSplit(o.tile);
    if (!req.error.empty()) return req.error;
    PlanOptions one = o;  // the one-pass kernel's own limits, with the tile alone
    one.tile = req.tile ? req.tile->name : "";
    std::string why = implicitGemmWhyNot(ctx, d, one);
    if (!why.empty()) return why;
    if (o.workspaceLimit == 0) return "it needs a workspace and PlanOptions::workspaceLimit is 0";
    return chooseSplit(ctx, d, o).why;
}

std::unique_ptr<AlgorithmInstance> implicitGemmSplitKInstantiate(ContextImpl& ctx, const ConvDesc& d,
                                                                 const PlanOptions& o) {
    SplitChoice c = chooseSplit(ctx, d, o);  // whyNot checked that one fits
    return std::make_unique<ImplicitGemmInstance>(ctx, d, withDefaultSubgroup(ctx, o), *c.tile, 1u,
                                                  "implicit_gemm_splitk", c.split, c.asked);
}

namespace {
// Each tile's modelled one-pass cost and best split cost (0 split: none within the limits, or
// split-K not considered), over the tiles that fit: what both router questions below compare.
struct TileCosts {
    double onePass;
    SplitCost split;
};
std::vector<TileCosts> tileCosts(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, bool splits) {
    std::vector<TileCosts> v;
    const uint32_t sg = requiredSubgroup(ctx, o);
    for (auto& t : kTiles) {
        if (!tileFits(ctx, d, t, sg)) continue;
        TileCosts c{splitTileCost(d, t.bm, t.bn, rate(ctx, t).efficiency, slots(ctx, t), 1.0, splitFlopsPerByte(ctx),
                                  splitPassFlops(ctx)),
                    {0, 0.0}};
        if (splits) c.split = bestSplit(ctx, d, t, tileSplitLimit(ctx, d, t, o.workspaceLimit).most);
        v.push_back(c);
    }
    return v;
}
bool splitConsidered(const ConvDesc& d, const PlanOptions& o) {
    return o.workspaceLimit > 0 && uint64_t(d.reductionLength()) >= kSplitMinReduction;
}
}  // namespace

// The router's question (router.cpp): on a deep reduction (>= kSplitMinReduction), is the
// best split (within the workspace limit) modelled at scalarSplitMargin of the best
// one-pass tile?  The margin covers the model's error; no timing.
namespace {
bool modelSplitPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (!splitConsidered(d, o)) return false;
    double onePass = -1, split = -1;
    for (const TileCosts& c : tileCosts(ctx, d, o, true)) {
        if (onePass < 0 || c.onePass < onePass) onePass = c.onePass;
        if (c.split.split && (split < 0 || c.split.cost < split)) split = c.split.cost;
    }
    return split > 0 && split < ctx.model.scalarSplitMargin * onePass;
}

// Small grids of the 4-pixel 1x1 layers: where the model's pick (tile x splits) runs fewer
// workgroups than 3/4 of the compute units, each runs alone on its unit and a slice costs about a
// load's latency plus the workgroup's own FMAs; the model counts waves and cannot see that.  There
// the 64x16 tile (a quarter of the invocations, half the FMAs each per slice) ran 0.71-0.95x the
// time of the model's 128x64 pick on all 20 such layers of the H200 batch-1 sweep (MobileNetV2,
// ResNet-50, RDNA1 matrix), and was slower on grids from ~100
// workgroups and on the other staging modes (taps, channel slices, NHWC: 1.1-2.2x), which keep the
// model.  Split there from 192 deep (one pass measured faster up to 128, even at 144).
constexpr uint64_t kSmallGridSplitMin = 192;
uint64_t gridOf(const ConvDesc& d, const TileConfig& t, uint64_t split) {
    uint64_t M = uint64_t(d.n) * uint64_t(d.outH()) * uint64_t(d.outW());
    return (M + t.bm - 1) / t.bm * ((uint64_t(d.filtersPerGroup()) + t.bn - 1) / t.bn) * uint64_t(d.groups) *
           std::max<uint64_t>(split, 1);
}
bool smallGridPick(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (!o.tile.empty() || !implicitGemmFourPixelLoads(d) ||
        !tileFits(ctx, d, *findTile(kSmallGridTile), requiredSubgroup(ctx, o)))
        return false;
    uint64_t grid;
    if (modelSplitPays(ctx, d, o)) {
        SplitChoice c = modelSplit(ctx, d, o);
        if (!c.tile) return false;
        grid = gridOf(d, *c.tile, c.split);
    } else {
        grid = gridOf(d, modelTile(ctx, d, o), 0);
    }
    return double(grid) < ctx.model.scalarSmallGridFill * ctx.model.computeUnits;
}
}  // namespace

bool implicitGemmSplitKPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (smallGridPick(ctx, d, o))
        return splitConsidered(d, o) && uint64_t(d.reductionLength()) >= kSmallGridSplitMin &&
               chooseSplit(ctx, d, o).tile;
    return modelSplitPays(ctx, d, o);
}

// The router's modelled time of this problem on the scalar implicit GEMM (FLOP-equivalents, the
// units of splitTileCost): the best one-pass tile, or the best split within the workspace limit.
double implicitGemmModelCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    double best = -1;
    for (const TileCosts& c : tileCosts(ctx, d, o, splitConsidered(d, o))) {
        double cost =
            c.split.split && c.split.cost < ctx.model.scalarSplitMargin * c.onePass ? c.split.cost : c.onePass;
        if (best < 0 || cost < best) best = cost;
    }
    return best;
}

// For Plan::explain (device_model.cpp): the best one-pass tile's modelled cost, and the best
// split's within the workspace limit (< 0 where none), also where the router would not ask.
double implicitGemmOnePassCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    double best = -1;
    for (const TileCosts& c : tileCosts(ctx, d, o, false))
        if (best < 0 || c.onePass < best) best = c.onePass;
    return best;
}
double implicitGemmSplitCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    double best = -1;
    for (const TileCosts& c : tileCosts(ctx, d, o, true))
        if (c.split.split && (best < 0 || c.split.cost < best)) best = c.split.cost;
    return best;
}

// Every tile x dtype x staging mode (NCHW scalar, NHWC 4-wide) x (wave32, wave64 where the device
// can require them): the compile lab builds each one.  Each also on an unpadded 64-deep 1x1
// layer: 4-pixel NCHW loads (VEC_AM), 4-wide 1x1 KCRS filters and the 8x8 tiles' staged epilogue
// (stagedEpilogue), none of which the 576-deep 3x3 layer uses.
std::vector<std::pair<ConvDesc, PlanOptions>> implicitGemmVariants(const ContextImpl& ctx) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    const std::vector<uint32_t> sgs = variantSubgroupSizes(ctx);
    // deep, shallow (1x1), C = 3 at 7x7 (per-element taps: the TAP_TABLE build), and a stride-2
    // 1x1 at W % 8 == 0 (NCHW: VEC_AM_S2)
    for (auto& tile : kTiles)
        for (int shape : {0, 1, 2, 3}) {
            for (DType t : {DType::F32, DType::F16, DType::BF16})
                for (bool nhwc : {false, true})
                    for (uint32_t sg : sgs) {
                        if (shape == 3 && nhwc) continue;
                        ConvDesc d;
                        d.c = 64;
                        d.h = d.w = 28;
                        d.k = 128;
                        d.r = d.s = 3;
                        d.pad(1, 1);
                        d.dtype = t;
                        if (shape == 1) d.r = d.s = 1, d.pad(0, 0);
                        if (shape == 2) d.c = 3, d.r = d.s = 7, d.pad(3, 3);  // 147 deep: the NHWC taps too
                        // 256 deep: the 8x8 tiles' direct epilogue, in 16-byte stores (VEC_OUT)
                        if (shape == 3)
                            d.c = 256, d.h = d.w = 32, d.r = d.s = 1, d.pad(0, 0), d.strideH = d.strideW = 2;
                        if (nhwc) makeNhwc(d);
                        PlanOptions o{"implicit_gemm", sg, tile.name};
                        v.push_back({d, o});
                    }
        }
    return v;
}

// The same set through the split-K kernel (its pipelines do not depend on the split count), and
// the reduce pass per dtype x output layout, with and without the full epilogue.
std::vector<std::pair<ConvDesc, PlanOptions>> implicitGemmSplitKVariants(const ContextImpl& ctx) {
    auto v = implicitGemmVariants(ctx);
    for (auto& [d, o] : v) {
        o.algorithm = "implicit_gemm_splitk";
        o.tile += "/s2";
    }
    for (DType t : {DType::F32, DType::F16, DType::BF16})
        for (bool nhwc : {false, true}) {
            ConvDesc d;
            d.c = 64;
            d.h = d.w = 28;
            d.k = 128;
            d.r = d.s = 3;
            d.pad(1, 1);
            d.dtype = t;
            if (nhwc) makeNhwc(d);
            d.hasBias = d.hasResidual = true;
            d.activation = Activation::Gelu;
            v.push_back({d, PlanOptions{"implicit_gemm_splitk", 0, "64x64x8/4x4/s2"}});
        }
    return v;
}

}  // namespace vkconv
