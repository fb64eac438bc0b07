// Level 5 "implicit_gemm_coopmat" (shaders/implicit_gemm_coopmat.comp): the channel-slice implicit
// GEMM on the matrix units through VK_KHR_cooperative_matrix, 16-bit operands (fp16; bf16 where
// a bf16 cooperative-matrix shader could be built), fp32 accumulation.  Declines what the fast
// path cannot do (C/groups not a multiple of the 16-value slice, fp32 storage): the router then
// falls back to implicit_gemm / direct.
#include <cmath>

#include "conv/algorithm.hpp"
#include "conv/coopmat_support.hpp"
#include "conv/dispatch.hpp"
#include "conv/split_k.hpp"
#include "conv/tile_score.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/shader_registry.hpp"
#include "util/test_hooks.hpp"
#include "vkconv/error.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kSliceK = 32;      // BK of most tiles
constexpr uint32_t kMinSliceK = 16;   // the shortest BK
constexpr uint32_t kChannelWord = 8;  // C/groups must be a multiple of it: each tap's last slice is zero past C/groups

struct CmTile {
    const char* name;
    uint32_t bm, bn, bk, warpsM, warpsN;
    uint32_t nbuf;           // shared staging buffers: 2 double-buffered, 1 single (two barriers per slice)
    uint64_t minSlices = 0;  // the router skips it where a workgroup would run fewer slices (forced: any)
    uint32_t ks = 1;         // sliced-K: groups of warpsM x warpsN subgroups splitting each tile's reduction
    // Its rating (efficiency, residency, lone share, or the sliced-K tiles' one-wave line):
    // DeviceModel::matrixTiles, in this order.
    uint32_t groupWarps() const { return warpsM * warpsN; }
    uint32_t warps() const { return warpsM * warpsN * ks; }
    uint32_t wm() const { return bm / warpsM; }
    uint32_t wn() const { return bn / warpsN; }
    // A and B staging, 16 bytes per word: each row holds its nbuf buffers side by side and one
    // word of padding (the shader's LDK / LDM); the epilogue's per-subgroup fp32 scratch reuses it.
    uint32_t sharedBytes(bool nhwcInput) const {
        uint32_t a = nhwcInput ? bm * (nbuf * bk / 8 + 1) : bk * (nbuf * bm / 8 + 1);
        uint32_t b = bn * (nbuf * bk / 8 + 1);
        return (a + b) * 16 * ks;  // each K group its own buffers
    }
    // After the loop: a group's subgroups' fp32 scratch (one group writes at a time) and, sliced-K,
    // two sets of ks - 1 partial accumulators per subgroup of a group (the shader's RED_BASE).
    uint32_t epilogueBytes(uint32_t cmM, uint32_t cmN) const { return (2 * ks - 1) * groupWarps() * cmM * cmN * 4; }
};

// Name: BMxBNxBK/WARPS_MxWARPS_N, "s1" for a single staging buffer, "k<groups>" for sliced-K.
// 128x128x32/2x4: 8 subgroups of 64x32 (4x2 accumulators of 16x16), 40 KiB of shared memory.
// Ratings (DeviceModel::matrixTiles) are each tile's full-wave throughput relative to the best
// (128x256x32/2x4s1) on the large VGG-16 / RetinaNet b32 layers; residency follows the registers
// NVIDIA's driver reports (every 256-invocation tile holds an SM alone).  The measurements behind each row are in
// (docs/performance.md, "implicit_gemm_coopmat"); why the less obvious tiles exist:
//  * 64x32x16/2x1: for 32 filters and fewer, where the 64- and 128-wide tiles multiply 2-8x the
//    useful products.  Its residency is estimated and its lone share unmeasured, so small grids
//    keep the 64x64 and 128x128x16 tiles.
//  * 128x128x16/2x4: the tile for C/groups % 32 == 16 (MobileNetV2's 16- and 144-channel layers).
//  * 192x128x64: two thirds of 128x256x32's barriers per FLOP; the /4x4 tiles (16 subgroups) hide
//    a barrier behind four subgroups per scheduler instead of two.  256x64x64/4x4s1 is the tile
//    for 64 filters and fewer.
//  * 64x64x64/2x4 and 64x64x32/2x4: grids smaller than the GPU.  A lone workgroup's time is its
//    slices' latency (global loads it cannot hide), so deeper slices and eight subgroups to overlap
//    them win there; with one or two slices per workgroup there is nothing to overlap (minSlices).
//    64x64x32/2x2 stays for devices that cannot run 256 invocations of this layout.
//  * Sliced-K ("k<groups>"): the tile's subgroups in `ks` groups, each walking its own run of the
//    slices with its own staging buffers, partials added in shared memory: one pass where split-K
//    needs a second one and a workspace.  It wins on single images whose grid fits one wave, over
//    short-to-medium reductions.  A rating (a share of the best tile's full-wave rate) misses how a
//    one-wave k-tile's time grows with its reduction, so the three the router offers are priced
//    by a measured one-wave line instead: lineUs + sliceUs x (slices per K group), less the
//    per-wave fixed cost the rated tiles' model leaves out (DeviceModel::matrixRatedFixedUs).  A group's slice costs
//    about the same whatever its products (it is latency), so the deeper, fewer slices win; the
//    32-deep k4 tile is left for C/groups that 64 does not divide, and 64x64x64/2x2k2 is offered
//    only from 8 slices per group.  The lines are the H200's; elsewhere they are unmeasured.
// The rest stay forced-only (kUnrated: the router skips them, `--tile` takes them).
constexpr uint64_t kUnrated = ~uint64_t(0);
constexpr CmTile kCmTiles[] = {
    {"128x128x32/2x4", 128, 128, kSliceK, 2, 4, 2},
    {"128x64x32/2x2", 128, 64, kSliceK, 2, 2, 2},
    {"64x64x32/2x2", 64, 64, kSliceK, 2, 2, 2},
    {"256x128x32/4x2s1", 256, 128, kSliceK, 4, 2, 1},
    {"128x256x32/2x4s1", 128, 256, kSliceK, 2, 4, 1},
    {"128x128x64/2x4s1", 128, 128, 2 * kSliceK, 2, 4, 1},
    {"256x64x32/4x2s1", 256, 64, kSliceK, 4, 2, 1},
    {"64x256x32/1x8s1", 64, 256, kSliceK, 1, 8, 1},
    {"128x128x16/2x4", 128, 128, kMinSliceK, 2, 4, 2},
    {"192x128x64/4x2s1", 192, 128, 2 * kSliceK, 4, 2, 1},
    {"192x128x64/4x4s1", 192, 128, 2 * kSliceK, 4, 4, 1},
    {"256x64x64/4x4s1", 256, 64, 2 * kSliceK, 4, 4, 1},
    {"64x32x16/2x1", 64, 32, kMinSliceK, 2, 1, 2},
    {"64x64x64/2x4", 64, 64, 2 * kSliceK, 2, 4, 2, 3},
    {"64x64x32/2x4", 64, 64, kSliceK, 2, 4, 2},
    {"32x64x32/2x2k4", 32, 64, kSliceK, 2, 2, 1, 0, 4},
    {"64x64x64/2x2k2", 64, 64, 2 * kSliceK, 2, 2, 1, 16, 2},
    {"32x64x64/2x2k2", 32, 64, 2 * kSliceK, 2, 2, 1, 0, 2},
    // Forced-only (no rating: a forced tile and split is the only candidate).
    {"32x64x32/2x2k2", 32, 64, kSliceK, 2, 2, 2, kUnrated, 2},
    {"64x64x32/2x2k2", 64, 64, kSliceK, 2, 2, 2, kUnrated, 2},
    {"64x64x32/2x2k4", 64, 64, kSliceK, 2, 2, 1, kUnrated, 4},
    {"64x128x32/2x2k2", 64, 128, kSliceK, 2, 2, 1, kUnrated, 2},
    {"128x64x32/2x2k2", 128, 64, kSliceK, 2, 2, 1, kUnrated, 2},
    {"128x128x32/2x2k2", 128, 128, kSliceK, 2, 2, 1, kUnrated, 2},
};
static_assert(std::size(kCmTiles) == DeviceModel::kMatrixTiles, "DeviceModel::matrixTiles rates these tiles");
// A tile's rating in this card's model (the same row of DeviceModel::matrixTiles).
const MatrixTileRate& rate(const ContextImpl& ctx, const CmTile& t) { return ctx.model.matrixTiles[&t - kCmTiles]; }

// Whether a parsed PlanOptions::tile (its split taken off) names t: BMxBNxBK/WARPS_MxWARPS_N, then
// "k<groups>" for sliced-K or "s1" for a single staging buffer.
bool names(const TileSpec& s, const CmTile& t) {
    if (!s.hasDims({{t.bm, t.bn, t.bk}, {t.warpsM, t.warpsN}}) || !s.groups[0].tags.empty()) return false;
    const std::vector<TileTag> want = t.ks > 1      ? std::vector<TileTag>{{'k', t.ks}}
                                      : t.nbuf == 1 ? std::vector<TileTag>{{'s', 1}}
                                                    : std::vector<TileTag>{};
    return s.groups[1].tags == want;
}

enum SpecCoopmat : uint32_t {
    kSpecBM = 101,
    kSpecBN = 102,
    kSpecBK = 103,
    kSpecWarpsM = 104,
    kSpecWarpsN = 105,
    kSpecCmM = 106,
    kSpecCmN = 107,
    kSpecCmK = 108,
    kSpecEmuLanes = 109,
    kSpecMaskMode = 110,
    kSpecVecA = 112,
    kSpecVecB = 113,
    kSpecVecOut = 114,
    kSpecNbuf = 115,
    kSpecPrefetch2 = 116,
    kSpecCTail = 117,
    kSpecNchwRuns = 118,
    kSpecNchwRuns4 = 119,
    kSpecOutWord = 120,
    kSpecSwizzle = 123,
    kSpecEpi16 = 125,
    kSpecKSplit = 126,
    kSpecNchwVecA = 128,
    kSpecNchwWords = 129,
};

std::string shaderName(DType t, bool split = false, bool trace = false) {
    return std::string("implicit_gemm_coopmat_") + (coopmatEmulated(t) ? "emu_" : "") + (split ? "splitk_" : "") +
           (trace ? "trace_" : "") + dtypeSuffix(t);
}

// ContextImpl::coopmatTrace (profiling only; vkconv-bench --trace sets it): one-pass fp16 plans
// run the CM_TRACE build, which writes its phase clocks to the workspace
// (shaders/include/coopmat_trace.glsl) on devices with VK_KHR_shader_clock's two clocks.
constexpr uint64_t kTraceHeaderWords = 8;
constexpr uint64_t kTraceRecordWords = 8 + 3 * 64 + 3 * 16;  // coopmat_trace.glsl TR_WORDS (64-bit words)

// A subgroup-scope A*B+C configuration with 16-bit operands of the storage type and fp32 C and
// result whose sizes tile every subgroup block (32 and 64 rows, 32 columns) and the 32-value
// slice, in units of the 8-value shared words.  16x16x16 preferred (NVIDIA, RDNA3), then the
// driver's order (which lists preferred configurations first).
const CoopMatConfig* pickConfig(const DeviceCaps& caps, DType t) {
    if (coopmatEmulated(t)) return &coopmatEmulatedConfig(t);
    const CoopMatConfig* best = nullptr;
    for (const auto& c : caps.coopMatConfigs) {
        if (!coopmatOperandsMatch(c, t)) continue;
        if (c.m == 0 || c.n == 0 || c.k == 0 || c.m % 8 || c.n % 8 || c.k % 8) continue;
        if (32 % c.m || 32 % c.n || kSliceK % c.k) continue;
        if (c.m == 16 && c.n == 16 && c.k == 16) return &c;
        if (!best) best = &c;
    }
    return best;
}

uint64_t outputPixels(const ConvDesc& d) { return uint64_t(d.n) * uint64_t(d.outH()) * uint64_t(d.outW()); }

// Whether `t` may take C/groups with a zero-filled slice tail although a 16-deep slice divides it
// (see tileWhyNot): a 32-deep tile, C/groups % 32 == 16, and an output of at most one 64x64 tile
// per compute unit.
bool sixteenTailAllowed(const ContextImpl& ctx, const ConvDesc& d, const CmTile& t) {
    if (t.bk != 2 * kMinSliceK || d.channelsPerGroup() % (2 * kMinSliceK) != kMinSliceK) return false;
    const double tiles64 =
        double((outputPixels(d) + 63) / 64) * double(d.groups) * double((d.filtersPerGroup() + 63) / 64);
    return tiles64 <= ctx.model.computeUnits;
}

// One pass's grid: output-pixel tiles x (groups x filter tiles).
uint64_t gridX(const ConvDesc& d, const CmTile& t) { return (outputPixels(d) + t.bm - 1) / t.bm; }
uint64_t gridY(const ConvDesc& d, const CmTile& t) {
    return uint64_t(d.groups) * ((uint64_t(d.filtersPerGroup()) + t.bn - 1) / t.bn);
}

// Why `t` cannot run `d` on this device ("" when it can).
std::string tileWhyNot(const ContextImpl& ctx, const ConvDesc& d, const CmTile& t, const CoopMatConfig& cm,
                       uint32_t sg) {
    const auto& caps = ctx.caps;
    uint32_t threads = t.warps() * sg;
    if (threads > caps.maxWorkgroupInvocations || threads > caps.maxWorkgroupSize[0])
        return std::to_string(threads) + " invocations exceed the workgroup limit";
    uint32_t aWords = t.bm * t.bk / 8, bWords = t.bn * t.bk / 8, groupThreads = t.groupWarps() * sg;
    if (aWords % groupThreads || bWords % groupThreads) return "staging does not divide among the invocations";
    if (d.inputLayout == TensorLayout::NCHW && groupThreads % (t.bm / 8)) return "NCHW staging does not divide";
    if (t.wm() % cm.m || t.wn() % cm.n || t.bk % cm.k) return "cooperative-matrix size does not tile it";
    // A zero-filled slice tail where no slice divides C/groups (% 16 == 8), and a 16-value tail on
    // 32-deep slices where only 16 does (% 32 == 16) on outputs of at most one 64x64 tile per compute
    // unit.  A lone workgroup's time is its slices' latency, so fewer, deeper slices win there
    // (MobileNetV2's 144-channel 1x1 layers at b1).  In full waves the tails measured slower, and
    // so did 64-deep tails on 160 channels; the model, which prices a tail only as padded FLOPs,
    // would take them there (docs/performance.md, "implicit_gemm_coopmat").
    if (d.channelsPerGroup() % kMinSliceK == 0 && d.channelsPerGroup() % t.bk && !sixteenTailAllowed(ctx, d, t))
        return "C/groups is not a multiple of its " + std::to_string(t.bk) + "-value slice";
    bool nhwc = d.inputLayout == TensorLayout::NHWC;
    // The 8-pixel NCHW decode beside a second group's cursor and 64x64 accumulators per subgroup
    // spilled 11 VGPRs on RDNA3 (RADV 25); every other sliced-K build compiles without spills.
    if (t.ks > 1 && !nhwc && t.wm() * t.wn() >= 64 * 64)
        return "sliced-K with NCHW input needs smaller subgroup blocks than 64x64";
    if (t.sharedBytes(nhwc) > caps.maxSharedMemory)
        return "needs " + std::to_string(t.sharedBytes(nhwc)) + " bytes of shared memory, the device has " +
               std::to_string(caps.maxSharedMemory);
    if (t.epilogueBytes(cm.m, cm.n) > t.sharedBytes(nhwc)) return "the epilogue scratch exceeds the staging memory";
    uint64_t gx = gridX(d, t), gy = gridY(d, t);
    if (gx > caps.maxWorkgroupCount[0] || gy > caps.maxWorkgroupCount[1]) return "the grid exceeds maxWorkgroupCount";
    return "";
}

// Split-K cost terms, in "FLOPs at the best tile's full-wave rate": each split writes and the
// reduce pass reads one fp32 copy of the output (DeviceModel::matrixSplitBytesPerUs), and the
// second pass costs a barrier, a launch and the reduce kernel (matrixSplitPassUs), measured on the
// H200 at batch 1.  Splits as short as 2-4 slices still paid there (ResNet-50 layer3/4, the
// RetinaNet heads, MobileNetV2's 7x7 layers at batch 1), so 2 slices is the floor
// (docs/performance.md, "implicit_gemm_coopmat").
double splitFlopsPerByte(const ContextImpl& ctx) {
    return ctx.model.matrixFlopsPerByte(ctx.model.matrixSplitBytesPerUs);
}
double splitPassFlops(const ContextImpl& ctx) { return ctx.model.matrixSplitPassUs * ctx.model.matrixTileFlopsPerUs; }
constexpr uint64_t kSplitMinSlices = 2;  // the heuristic keeps >= 2 slices per split
constexpr uint64_t kSplitMax = 16;

struct CmChoice {
    const CmTile* tile = nullptr;
    uint32_t split = 1;  // 1: one pass, no workspace
    std::string why;     // why nothing fits (tile null)
    double cost = 0;     // modelled time (splitTileCost)
};

// Each filter tap's channels in BK slices, the last one zero past C/groups where BK does not divide it.
uint64_t slicesPerTap(const ConvDesc& d, const CmTile& t) { return (uint64_t(d.channelsPerGroup()) + t.bk - 1) / t.bk; }
uint64_t cmSlices(const ConvDesc& d, const CmTile& t) { return uint64_t(d.r) * uint64_t(d.s) * slicesPerTap(d, t); }
// `d` as the tile multiplies it: C/groups rounded up to whole slices (the model's FLOPs).
ConvDesc paddedDesc(const ConvDesc& d, const CmTile& t) {
    ConvDesc p = d;
    p.c = int64_t(slicesPerTap(d, t) * t.bk) * d.groups;
    return p;
}

// Whether the router (no tile forced) considers `t` for `d`.  Unrated tiles: forced only.
// Sliced-K tiles stand in for split-K's second pass, so never under a split request alone ("s<N>",
// winograd's one-pass GEMM) and, as measured, only for groups == 1 (which also leaves winograd's
// batched GEMMs, one group per tap, as they were).  Not for NCHW outputs of 1x1 layers (behind
// coopmat_nhwc's transposes): there the owner groups write their element-wise NCHW stores one
// group at a time, a large share of a short reduction, and they measured slower at b1.
// The line-priced k-tiles (kCmTiles) only for single images whose grid fits one wave of `units`,
// and not at all where `lineTiles` is false (coopmatModelCost).
bool routerOffers(const ContextImpl& ctx, const CmTile& t, const ConvDesc& d, const SplitRequest& req, bool lineTiles,
                  double units) {
    if (t.minSlices == kUnrated) return false;
    if (t.ks == 1) return true;
    const MatrixTileRate& r = rate(ctx, t);
    if (r.sliceUs > 0 && (!lineTiles || d.n != 1 || double(gridX(d, t) * gridY(d, t)) > units * r.resident))
        return false;
    return !req.split && d.groups == 1 && !(d.outputLayout == TensorLayout::NCHW && d.r * d.s == 1);
}

// A rated tile's modelled time at `splits` (conv/tile_score.hpp splitTileCost).
double ratedCost(const ContextImpl& ctx, const ConvDesc& d, const CmTile& t, double units, uint64_t splits) {
    const MatrixTileRate& r = rate(ctx, t);
    return splitTileCost(paddedDesc(d, t), t.bm, t.bn, r.efficiency, units * r.resident, double(splits),
                         splitFlopsPerByte(ctx), splitPassFlops(ctx), units, r.lone);
}

// The chosen tile's split count between its power-of-two neighbours (s/2, 2s): the split that
// fills the last wave (ResNet-50 layer4.0.conv2 at b32: 26 tiles x 5 splits = 130 workgroups on
// 132 SMs, where powers of two gave 4).  Only the count moves: the tile, and the cost other
// algorithms compare against (winograd's and halo_coopmat's margins were fitted on the
// power-of-two model), stay as they were.  Letting every count compete for the tile and against
// winograd changed tiles and algorithms that lost (docs/performance.md, "implicit_gemm_coopmat").
void refineSplit(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, double units, CmChoice& best) {
    const CmTile& t = *best.tile;
    const uint64_t slices = cmSlices(d, t);
    const SplitLimit lim = splitLimit(ctx, d, slices, o.workspaceLimit);
    const uint64_t power = best.split;
    double bestCost = ratedCost(ctx, d, t, units, power);
    for (uint64_t s = power / 2 + 1; s < 2 * power && s <= std::min(lim.most, kSplitMax); ++s) {
        if (slices / s < std::max(t.minSlices, kSplitMinSlices)) break;
        if (double cost = ratedCost(ctx, d, t, units, s); cost < bestCost) {
            bestCost = cost;
            best.split = uint32_t(s);
        }
    }
}

// Tile and split count.  No timing: the smallest modelled time (conv/tile_score.hpp
// splitTileCost, slots = compute units x residency).
// A forced tile / split (PlanOptions::tile "<tile>", "<tile>/s<N>", "s<N>") is taken as is
// (more splits than slices are clamped); whyNot checked the tile.
CmChoice chooseConfig(const ContextImpl& ctx, const ConvDesc& d, const CoopMatConfig& cm, uint32_t sg,
                      const PlanOptions& o, bool lineTiles = true) {
    SplitRequest req = parseSplitRequest(o.tile);
    if (!req.error.empty()) return {nullptr, 1, req.error};
    const double units = ctx.model.computeUnits;
    CmChoice best;
    double bestCost = 0;
    std::string why;
    for (const auto& t : kCmTiles) {
        if (!req.tile.empty() && !names(req.spec, t)) continue;
        if (req.tile.empty() && !routerOffers(ctx, t, d, req, lineTiles, units)) continue;
        std::string w = tileWhyNot(ctx, d, t, cm, sg);
        if (!w.empty()) {
            if (why.empty()) why = std::string(t.name) + ": " + w;
            continue;
        }
        const uint64_t slices = cmSlices(d, t);
        const SplitLimit lim = splitLimit(ctx, d, slices, o.workspaceLimit);
        // Forced: that split (clamped to the slices); else 1 and powers of two up to the limits
        // (the best tile's count is refined after the loop: refineSplit).
        uint64_t first = req.split ? std::min(req.split, slices) : 1;
        uint64_t last =
            req.split ? first : std::min({lim.most, kSplitMax, std::max<uint64_t>(1, slices / kSplitMinSlices)});
        if (t.ks > 1 && !req.split) last = 1;  // sliced-K stands in for split-K's second pass: one pass unless forced
        const MatrixTileRate& r = rate(ctx, t);
        const bool line = r.sliceUs > 0 && req.tile.empty();  // priced by its one-wave line (kCmTiles)
        for (uint64_t s = first; s <= std::max(first, last); s *= 2) {
            if (!req.split && req.tile.empty() && slices / s < t.minSlices) break;
            if (s > 1 && s > lim.most) {
                if (why.empty()) why = std::to_string(s) + " splits of tile " + t.name + " exceed " + lim.what;
                break;
            }
            const DeviceModel& m = ctx.model;
            double cost =
                line ? ((r.lineUs - m.matrixRatedFixedUs) + r.sliceUs * double(slices) / t.ks) * m.matrixTileFlopsPerUs
                     : ratedCost(ctx, d, t, units, s);
            if (!best.tile || cost < bestCost) {
                bestCost = cost;
                best = {&t, uint32_t(s), "", cost};
            }
            if (s == first && req.split) break;
        }
    }
    if (!best.tile)
        best.why = why.empty() ? "no tile fits this device and problem" : why;
    else if (!req.split && best.split > 1)
        refineSplit(ctx, d, o, units, best);
    return best;
}

}  // namespace

// NCHW activations of a 1x1 stride-1 unpadded layer whose images are 4-pixel aligned: a staged
// item's 8 pixels of one channel in one 16-byte load (H*W % 8 == 0) or two 8-byte ones, not 8
// element loads (the shader's NCHW_VEC_A; on 16-byte aligned views).
bool coopmatNchwWordLoads(const ConvDesc& d) {
    return d.inputLayout == TensorLayout::NCHW && d.r == 1 && d.s == 1 && d.strideH == 1 && d.strideW == 1 &&
           !d.padTop && !d.padBottom && !d.padLeft && !d.padRight && (uint64_t(d.h) * d.w) % 4 == 0;
}

namespace {

class CoopmatInstance final : public AlgorithmInstance {
public:
    // raw: one pass of the split-K pass-1 shader, writing the fp32 products (no epilogue) to the
    // workspace binding: winograd's batched GEMM (coopmatRawInstantiate).
    CoopmatInstance(ContextImpl& ctx, const ConvDesc& d, const CoopMatConfig& cm, const CmTile& tile, uint32_t split,
                    SubgroupChoice sg, bool raw = false)
        : ctx_(ctx), desc_(d), pc_(makePushConstants(d)), cm_(cm), tile_(tile), split_(split), sg_(sg), raw_(raw) {
        vecA_ = d.inputLayout == TensorLayout::NHWC;
        nchwVecA_ = coopmatNchwWordLoads(d);
        prefetch2_ = wantPrefetch2(ctx, d, tile);
        vecB_ = d.filterLayout == FilterLayout::KRSC;
        // Split-K pass 1 writes fp32 partials element by element; pass 2 writes the output.
        // NHWC: 8 filters per 16-byte store (4 or 2 per 8- or 4-byte store where only those divide
        // K/groups); NCHW: runs of 8 pixels in one 16-byte store, where 8
        // divides P*Q (no run crosses an image and every run is aligned), or two 8-byte runs of 4
        // where only 4 does (14x14, 50x50: each half lies in one image).  Elsewhere (odd P*Q) the
        // runs' 2-byte pieces wrote each 32-byte sector in several partial writes, slower than the
        // element stores on 7x7 layers.  The runs of 4 stay off the 16-subgroup tiles (512
        // invocations, so at most 128 registers on NVIDIA), where 192x128x64/4x4s1 measured slower
        // with them and every other tile faster (docs/performance.md, "NCHW layers").
        const int64_t pq = d.outH() * d.outW();
        const bool runs4 = pq % 4 == 0 && tile_.warps() < 16;
        runs_ = !raw_ && split_ == 1 && d.outputLayout == TensorLayout::NCHW && (pq % 8 == 0 || runs4);
        runs4_ = runs_ && pq % 8 != 0;
        // Even P*Q the runs leave (4 | P*Q on 16-subgroup tiles: ResNet-50's 14x14 layers; 2 mod 4):
        // 4-byte words of two pixels, faster than the element stores there.  Odd P*Q (7x7) keeps
        // the element stores: words aligned in the output with a lone element at each plane's ends
        // measured slower (docs/performance.md, "NCHW layers").
        words_ = !raw_ && split_ == 1 && d.outputLayout == TensorLayout::NCHW && !runs_ && pq % 2 == 0;
        outWord_ = d.outputLayout == TensorLayout::NHWC ? coopmatNhwcOutWord(d) : 8;
        vecOut_ = !raw_ && split_ == 1 && (d.outputLayout == TensorLayout::NHWC ? outWord_ != 0 : runs_);
        if (raw_) pc_.splitK = 1;
        if (split_ > 1) {
            pc_.splitK = split_;
            reduce_ = std::make_unique<SplitReduce>(ctx, d);
        }
        trace_ = !raw_ && split_ == 1 && tile_.ks == 1 && d.dtype == DType::F16 && ctx.coopmatTrace &&
                 ctx.caps.shaderClock && shaders::find(shaderName(d.dtype, false, true));
        gx_ = uint32_t(gridX(d, tile_));
        gy_ = uint32_t(gridY(d, tile_));
        swizzle_ = wantSwizzle(ctx);
        epi16_ = coopmatHalfScratch(ctx.caps, d, vecOut_, cm.m, cm.n);
        vectorPipeline_ = &pipeline(true);
    }
    void record(VkCommandBuffer cmd, const ConvTensors& t) const override {
        // 16-byte loads and stores need 16-byte aligned views; otherwise the element-wise pipeline.
        bool aligned = t.input.offset % 16 == 0 && t.filter.offset % 16 == 0 && (raw_ || t.output.offset % 16 == 0);
        const ComputePipeline& p = aligned ? *vectorPipeline_ : pipeline(false);
        bindConvTensors(ctx_, cmd, p, t, bindings());
        pushConstants(ctx_, cmd, p, pc_);
        cmdDispatch(ctx_, cmd, gx_, gy_, split_);
        if (reduce_) reduce_->record(cmd, t, pc_);
    }
    VkDeviceSize workspaceSize() const override {
        if (trace_)
            return VkDeviceSize(kTraceHeaderWords + uint64_t(gx_) * gy_ * tile_.warps() * kTraceRecordWords) * 8;
        return split_ > 1 ? VkDeviceSize(split_) * VkDeviceSize(desc_.outputElements()) * 4 : 0;
    }
    std::string name() const override { return "implicit_gemm_coopmat"; }
    std::string config() const override {
        std::string c = std::string("tile ") + tile_.name + " cm " + std::to_string(cm_.m) + "x" +
                        std::to_string(cm_.n) + "x" + std::to_string(cm_.k);
        if (vecA_ || nchwVecA_ || vecB_ || vecOut_)
            c += std::string(" vec8") + (vecA_ || nchwVecA_ ? "A" : "") + (vecB_ ? "B" : "") +
                 coopmatOutputTag(vecOut_, outWord_);
        if (split_ > 1) c += " split " + std::to_string(split_);
        if (prefetch2_) c += " ahead2";
        if (epi16_) c += " epi16";
        if (words_) c += " words";
        if (raw_) c += " raw-f32";
        if (trace_) c += " trace";
        c += " sg" + std::to_string(sg_.size);
        if (coopmatEmulated(desc_.dtype)) c += " EMULATED";
        return c;
    }

private:
    const ComputePipeline& pipeline(bool vec) const {
        PipelineKey key = convPipelineKey(shaderName(desc_.dtype, split_ > 1 || raw_, trace_), desc_,
                                          tile_.warps() * sg_.size, sg_.required, bindings());
        key.spec.push_back({kSpecBM, tile_.bm});
        key.spec.push_back({kSpecBN, tile_.bn});
        key.spec.push_back({kSpecBK, tile_.bk});
        key.spec.push_back({kSpecWarpsM, tile_.warpsM});
        key.spec.push_back({kSpecWarpsN, tile_.warpsN});
        key.spec.push_back({kSpecCmM, cm_.m});
        key.spec.push_back({kSpecCmN, cm_.n});
        key.spec.push_back({kSpecCmK, cm_.k});
        key.spec.push_back({kSpecMaskMode, 1u});
        key.spec.push_back({kSpecVecA, vec && vecA_ ? 1u : 0u});
        key.spec.push_back({kSpecVecB, vec && vecB_ ? 1u : 0u});
        if (vec && nchwVecA_) key.spec.push_back({kSpecNchwVecA, 1u});
        key.spec.push_back({kSpecVecOut, vec && vecOut_ ? 1u : 0u});
        key.spec.push_back({kSpecNbuf, tile_.nbuf});
        key.spec.push_back({kSpecPrefetch2, prefetch2_ ? 1u : 0u});
        key.spec.push_back({kSpecCTail, desc_.channelsPerGroup() % tile_.bk ? 1u : 0u});
        key.spec.push_back({kSpecNchwRuns, runs_ ? 1u : 0u});
        key.spec.push_back({kSpecNchwRuns4, runs4_ ? 1u : 0u});
        if (vec && words_) key.spec.push_back({kSpecNchwWords, 1u});
        key.spec.push_back({kSpecSwizzle, swizzle_ ? 1u : 0u});
        key.spec.push_back({kSpecEpi16, vec && epi16_ ? 1u : 0u});
        if (vec && vecOut_ && outWord_ != 8) key.spec.push_back({kSpecOutWord, outWord_});
        key.spec.push_back({kSpecKSplit, tile_.ks});
        if (coopmatEmulated(desc_.dtype)) key.spec.push_back({kSpecEmuLanes, sg_.size});
        key.fullSubgroups = true;  // the subgroup index must name a whole 32 (or default-size) block
        return ctx_.pipelines->get(key);
    }

    uint32_t bindings() const { return split_ > 1 || raw_ || trace_ ? kSplitBindings : kConvBindings; }
    // Loads two slices ahead (NHWC input, slices up to 32 deep): faster on NVIDIA; on RDNA3/RDNA4
    // the extra register set makes the 64x64-per-subgroup tiles spill under RADV 26, and elsewhere
    // it is unmeasured, so one slice ahead there (docs/performance.md, "implicit_gemm_coopmat").
    // The test hook coopmat_ahead2=0|1 takes either path on any device (lavapipe, emulated).
    // Decided once, in the constructor (pipeline(false) runs at record time).
    static bool wantPrefetch2(const ContextImpl& ctx, const ConvDesc& d, const CmTile& t) {
        // NCHW input only with its word loads (coopmatNchwWordLoads: the element path decodes 8
        // pixel rows per item) and on single-buffer tiles: there 256x128x32/4x2s1 ran faster two
        // ahead, the double-buffered 64x32x16/2x1 and 64x64x32/2x4 mostly slower.
        if (d.inputLayout != TensorLayout::NHWC && !(coopmatNchwWordLoads(d) && t.nbuf == 1)) return false;
        // A 64-deep slice has twice the products of a 32-deep one to hide its loads behind: the
        // 64-deep tiles measured faster one slice ahead on the H200, 128x256x32/2x4s1 slower.  This
        // also keeps the second register set off the tiles with the most staged words per
        // invocation (192x128x64/4x2s1: 10 beside 96 accumulator registers).
        if (t.bk >= 2 * kSliceK) return false;
        return testHookOr("coopmat_ahead2", ctx.caps.vendorId == 0x10DE);
    }

    // Conflict-free shared-memory rows and scratch reads (the shader's SWIZZLE): faster on NVIDIA
    // on the layers of the 16- and 32-deep tiles.  Elsewhere unmeasured, and on RDNA3 (RADV 25)
    // 128x128x32/2x4 took 24 more VGPRs with it, so off (docs/performance.md,
    // "implicit_gemm_coopmat").  The test hook coopmat_swizzle=0|1 takes either path on any device.
    static bool wantSwizzle(const ContextImpl& ctx) {
        return testHookOr("coopmat_swizzle", ctx.caps.vendorId == 0x10DE);
    }

    ContextImpl& ctx_;
    ConvDesc desc_;
    ConvPushConstants pc_;
    CoopMatConfig cm_;
    const CmTile& tile_;
    uint32_t split_;
    std::unique_ptr<SplitReduce> reduce_;  // split-K pass 2
    SubgroupChoice sg_;
    bool raw_ = false;
    bool vecA_ = false, nchwVecA_ = false, vecB_ = false, vecOut_ = false, runs_ = false, runs4_ = false,
         words_ = false;
    bool prefetch2_ = false;
    bool trace_ = false;    // the CM_TRACE build, its clocks in the workspace
    bool swizzle_ = false;  // SWIZZLE (wantSwizzle)
    bool epi16_ = false;    // EPI16: fp16 scratch in the epilogue (vector pipeline)
    uint32_t outWord_ = 8;  // NHWC: filters per wide store, 8, 4 or 2 (coopmatNhwcOutWord; 0: element stores)
    const ComputePipeline* vectorPipeline_ = nullptr;
    uint32_t gx_ = 0, gy_ = 0;
};

}  // namespace

// Every tile name PlanOptions::tile takes (findAlgorithms' exhaustive candidates).
std::vector<std::string> coopmatTileNames() {
    std::vector<std::string> v;
    for (const auto& t : kCmTiles) v.emplace_back(t.name);
    return v;
}

std::string coopmatWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    const auto& caps = ctx.caps;
    if (std::string w = coopmatDeviceWhyNot(ctx, d.dtype, shaderName(d.dtype)); !w.empty()) return w;
    const CoopMatConfig* cm = pickConfig(caps, d.dtype);
    if (!cm)
        return std::string("no subgroup-scope ") + dtypeSuffix(d.dtype) + " x " + dtypeSuffix(d.dtype) +
               " + f32 -> f32 cooperative-matrix size that tiles 32x32 blocks (device reports: " +
               coopmatConfigList(caps) + ")";
    if (d.channelsPerGroup() % kChannelWord != 0)
        return "C/groups = " + std::to_string(d.channelsPerGroup()) + " is not a multiple of " +
               std::to_string(kChannelWord) +
               " (16-byte channel words; each filter tap's slices zero-filled past C/groups)";
    if (d.r > 32 || d.s > 32) return "filter taps beyond 32 per axis do not fit the padding masks";
    SubgroupChoice sg = coopmatSubgroup(caps);
    if (o.subgroupSize && o.subgroupSize != sg.size)
        return "the tiles are laid out for subgroups of " + std::to_string(sg.size) + ", not " +
               std::to_string(o.subgroupSize);
    if (!o.tile.empty()) {
        const SplitRequest req = parseSplitRequest(o.tile);
        if (!req.spec.ok() || (!req.tile.empty() && std::none_of(std::begin(kCmTiles), std::end(kCmTiles),
                                                                 [&](const CmTile& t) { return names(req.spec, t); })))
            return noTileError(req.spec, tileNames(kCmTiles, [](const CmTile& t) { return t.name; }) +
                                             "; each optionally followed by /s<splits>, or s<splits> alone");
    }
    CmChoice choice = chooseConfig(ctx, d, *cm, sg.size, o);
    if (!choice.tile)
        return o.tile.empty() ? "no tile fits this device and problem (" + choice.why + ")"
                              : "tile " + o.tile + " does not fit: " + choice.why;
    if (choice.split > 1 && !shaders::find(shaderName(d.dtype, true)))
        return "this build lacks the split-K cooperative-matrix shader";
    return "";
}

std::unique_ptr<AlgorithmInstance> coopmatInstantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    const CoopMatConfig* cm = pickConfig(ctx.caps, d.dtype);
    SubgroupChoice sg = coopmatSubgroup(ctx.caps);
    CmChoice choice = cm ? chooseConfig(ctx, d, *cm, sg.size, o) : CmChoice{};
    if (!cm || !choice.tile)
        throw Error(ErrorCode::Unsupported, "implicit_gemm_coopmat: no configuration for " + d.toString());
    return std::make_unique<CoopmatInstance>(ctx, d, *cm, *choice.tile, choice.split, sg);
}

// Winograd's batched GEMM (algo_winograd.cpp): `d` (a grouped 1x1 NHWC problem) in one pass whose
// fp32 products go, without an epilogue, to ConvTensors::workspace in the output's layout.
std::string coopmatRawWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    PlanOptions one = o;
    one.tile = "s1";
    if (std::string w = coopmatWhyNot(ctx, d, one); !w.empty()) return w;
    if (!shaders::find(shaderName(d.dtype, true))) return "this build lacks the split-K cooperative-matrix shader";
    return "";
}

std::unique_ptr<AlgorithmInstance> coopmatRawInstantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    PlanOptions one = o;
    one.tile = "s1";
    const CoopMatConfig* cm = pickConfig(ctx.caps, d.dtype);
    SubgroupChoice sg = coopmatSubgroup(ctx.caps);
    CmChoice choice = cm ? chooseConfig(ctx, d, *cm, sg.size, one) : CmChoice{};
    if (!cm || !choice.tile)
        throw Error(ErrorCode::Unsupported, "implicit_gemm_coopmat: no configuration for " + d.toString());
    return std::make_unique<CoopmatInstance>(ctx, d, *cm, *choice.tile, 1, sg, true);
}

// The router's modelled time of `d` on the matrix units (conv/tile_score.hpp units: FLOPs at the
// best tile's full-wave rate), < 0 where implicit_gemm_coopmat declines.  `oneSplit`: one pass.
// Rated tiles only: winograd's and halo_coopmat's decisions were fitted against them, so the
// k-tiles' line competes within this kernel's choice alone: where it took part, it sent VGG-16
// features.17 at b1 (fp16) from F(2x2), whose model runs high, to a slower k-tile
// (docs/performance.md, "implicit_gemm_coopmat").
double coopmatModelCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, bool oneSplit) {
    PlanOptions p = o;
    if (oneSplit) p.tile = "s1";
    if (!coopmatWhyNot(ctx, d, p).empty()) return -1;
    const CoopMatConfig* cm = pickConfig(ctx.caps, d.dtype);
    CmChoice choice = chooseConfig(ctx, d, *cm, coopmatSubgroup(ctx.caps).size, p, false);
    return choice.tile ? choice.cost : -1;
}

// Every tile forced in turn, one pass and split-K, x 16-bit dtype x (NHWC/KRSC: the 16-byte
// paths; NCHW/KCRS: the element-wise staging paths); in NHWC also with a 24-channel slice tail,
// in NCHW also on a 14x14 grid (output runs of 4).
std::vector<std::pair<ConvDesc, PlanOptions>> coopmatVariants(const ContextImpl&) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    for (DType t : {DType::F16, DType::BF16})
        for (bool nhwc : {true, false})
            for (const auto& tile : kCmTiles) {
                ConvDesc d;
                d.n = 8;
                d.c = 64;
                d.h = d.w = 56;
                d.k = 256;
                d.r = d.s = 3;
                d.pad(1, 1);
                d.dtype = t;
                d.inputLayout = d.outputLayout = nhwc ? TensorLayout::NHWC : TensorLayout::NCHW;
                d.filterLayout = nhwc ? FilterLayout::KRSC : FilterLayout::KCRS;
                PlanOptions o;
                o.algorithm = "implicit_gemm_coopmat";
                for (const char* split : {"", "/s2"}) {  // one pass; split-K pass 1 (+ the reduce pass)
                    o.tile = std::string(tile.name) + split;
                    v.push_back({d, o});
                }
                if (nhwc) {  // a channel tail (24 = 16 + 8), one pass: the bounds on every load
                    d.c = 24;
                    o.tile = tile.name;
                    v.push_back({d, o});
                    // Narrow output words (OUT_WORD): fp16 36 filters, 8-byte stores of 4 from the
                    // fp16 scratch; bf16 42 filters with a bias, 4-byte stores of 2 from the fp32 one
                    d.c = 64, d.k = t == DType::BF16 ? 42 : 36, d.hasBias = t == DType::BF16;
                    v.push_back({d, o});
                } else {  // NHWC in, NCHW out (coopmat_nhwc's inner problem), every tile: 14x14: P*Q % 8
                          // == 4, the runs of 4 (words on 16-subgroup tiles); 7x10: P*Q % 4 == 2, the words;
                          // 7x7: odd P*Q, the element loop
                    o.tile = tile.name;
                    d.inputLayout = TensorLayout::NHWC, d.filterLayout = FilterLayout::KRSC;
                    for (auto [h, w] : {std::pair<int64_t, int64_t>{14, 14}, {7, 10}, {7, 7}}) {
                        d.h = h, d.w = w;
                        v.push_back({d, o});
                    }
                }
            }
    return v;
}

}  // namespace vkconv
