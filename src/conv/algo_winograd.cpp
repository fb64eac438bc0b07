// "winograd": F(m x m, 3x3), m = 2 or 4, for 3x3 stride-1 convolutions, non-fused
// (docs/design.md "Winograd").  Each m x m output block comes from an (m+2) x (m+2) input patch
// through (m+2)^2 products instead of 9 m^2: 16/36 of the direct multiplies for F(2x2,3x3), 36/144
// for F(4x4,3x3).  Per call:
//   (scaled bf16)     the input's and filter's largest magnitudes -> the scales of V and U
//                                                                 (shaders/winograd_range.comp)
//   filter transform  U[xi][k][c] = (G g G^T)[xi]                 (shaders/winograd_filter.comp)
//   per chunk of output tiles:
//     input transform V[t][xi][c] = (B^T d B)[xi]                  (shaders/winograd_input.comp)
//     batched GEMM    M[t][xi][k] = sum_c V[t][xi][c] U[xi][k][c]   a grouped 1x1 convolution with
//                     (m+2)^2 x groups groups, planned through the router like any other problem
//     output transform y = epilogue(A^T M A)                        (shaders/winograd_output.comp)
// The GEMM runs on the matrix units where the storage is 16-bit and implicit_gemm_coopmat takes
// it: V and U are then stored in a 16-bit type (its operands) and M in fp16 (an ordinary grouped
// 1x1 convolution, planned by the router).  fp16 layers use fp16.  bf16 layers use fp16 too,
// scaled (winogradScaled): a range pass finds the input's and the filter's largest magnitudes
// and the transforms scale V and U by powers of two that keep every fp16 V, U and M finite, so
// the errors stay near the direct kernels' (docs/performance.md, "winograd").  With a packed
// filter bf16 keeps bf16 V and U: M in bf16 for F(2x2) (errors 2-4x direct's) and in fp32 for
// F(4x4) (the raw accumulators of one split-K pass-1 dispatch; errors ~10x, so forced only).
// Otherwise V, U and M are fp32 whatever the storage dtype (16-bit tensors then round only where
// the direct kernels do: on load and on the final store).  Chunks keep the workspace within
// PlanOptions::workspaceLimit.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "conv/algorithm.hpp"
#include "conv/tile_syntax.hpp"
#include "conv/router.hpp"
#include "conv/registry.hpp"
#include "conv/dispatch.hpp"
#include "conv/winograd.hpp"
#include "runtime/context_impl.hpp"
#include "util/test_hooks.hpp"
#include "vkconv/error.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kTransformWorkgroup = 256;   // at most; see transformWorkgroup
constexpr uint32_t kLocalInputWorkgroup = 128;  // WinogradInstance::inWg_
// NCHW transforms work on blocks of (workgroup / 8) tiles x 8 channels or filters
// (winograd_input.comp / winograd_output.comp's CC and CK: one 32-byte sector of a V or M row).
constexpr uint32_t kNchwBlockChannels = 8;
// The five tensors, the workspace region and the scale region (binding 6: SCALED only; else the
// workspace region again).
constexpr uint32_t kWinogradBindings = kBindWorkspace + 2;
constexpr uint64_t kChunkAlign = 128;      // chunk tiles rounded to the GEMM's tallest tile
constexpr uint32_t kSpecWs16 = 120;        // winograd.glsl WS16
constexpr uint32_t kSpecPairs = 121;       // winograd.glsl PAIRS
constexpr uint32_t kSpecOutputCk = 122;    // winograd_output.comp CK: filters per NCHW block
constexpr uint32_t kSpecOutputRb = 123;    // winograd_output.comp RB: NCHW output rows per round
constexpr uint32_t kSpecOutputWide = 124;  // winograd_output.comp WIDE: WM-wide NCHW row stores
constexpr uint32_t kSpecScaled = 125;      // winograd.glsl SCALED; winograd_range.comp FINALIZE
constexpr uint32_t kSpecRangeKU = 126, kSpecRangeKV = 127, kSpecRangeVec = 128, kSpecRangeBf16 = 129;
constexpr uint32_t kSpecOutputFallback = 130;  // winograd_output.comp FALLBACK
constexpr uint32_t kSpecLocalScale = 131;      // winograd.glsl LOCAL_SCALE (with KU / KV at 126 / 127)
constexpr uint32_t kSpecWithFilter = 132;      // winograd_input.comp WITH_FILTER
constexpr uint32_t kSpecFilterPairs = 133;     // winograd_input.comp FILTER_PAIRS

// The batched GEMM of a chunk of `tiles` output tiles as a grouped 1x1 NHWC convolution: one
// "pixel" per tile, taps x C input channels (group xi * groups + g holds the channels of tap xi
// and group g), taps x K filters.
// Its dtype: the 16-bit storage type on the matrix units (for M too where mElem is 2: the
// GEMM's own output; with fp32 M the raw instance writes the workspace binding), else fp32.
// Scaled (bf16 layers): an fp16 GEMM.
ConvDesc gemmDesc(const ConvDesc& d, uint32_t taps, uint64_t tiles, bool matrix, bool scaled = false) {
    ConvDesc g;
    g.n = 1, g.h = 1, g.w = int64_t(tiles);
    g.c = taps * d.c, g.k = taps * d.k, g.r = g.s = 1, g.groups = taps * d.groups;
    g.dtype = !matrix ? DType::F32 : scaled ? DType::F16 : d.dtype;
    makeNhwc(g);
    return g;
}

std::string variantName(uint32_t m) { return m == 2 ? "2x2" : "4x4"; }

// The output tile m of F(m x m,3x3) a PlanOptions::tile "MxM" forces: 2 or 4; 0 for none (or a tile
// winogradWhyNot declines).
uint32_t forcedM(const std::string& tile) {
    const TileSpec s = parseTile(tile);
    for (uint32_t m : {2u, 4u})
        if (s.is({{m, m}})) return m;
    return 0;
}

}  // namespace

namespace {

// The batched GEMM on the matrix units: implicit_gemm_coopmat takes the grouped 1x1 problem of V
// and U in the storage type (scaled: fp16; C/groups a multiple of 16) in one pass writing raw
// fp32 products.  Asked for F(4x4)'s 36 x groups groups (the larger grid) and at most 128 tiles:
// more tiles only lengthen the grid's x dimension, which 32-bit indexing bounds well below
// maxWorkgroupCount.
bool gemmOnMatrixUnits(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, bool scaled) {
    PlanOptions inner;
    inner.subgroupSize = o.subgroupSize;
    const uint64_t tiles =
        std::max<uint64_t>(1, std::min<uint64_t>(kChunkAlign, uint64_t(d.n) * uint64_t(d.outH()) * uint64_t(d.outW())));
    return coopmatRawWhyNot(ctx, gemmDesc(d, 36, tiles, true, scaled), inner).empty();
}

bool scaledAvailable(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return d.dtype == DType::BF16 && !o.packedFilter && gemmOnMatrixUnits(ctx, d, o, true);
}

double modelCost(const ContextImpl& ctx, const ConvDesc& d, uint32_t m, const PlanOptions& o, bool matrix, bool scaled);

// bf16 F(2x2) on bf16 V and U against the scaled path, both by their models as they stand
// (DeviceModel::winogradUnscaledBf16Price): at 1.0 exactly the layers measured faster on bf16
// operands keep them; at 0.85 more would flip, most to no gain (docs/performance.md, "winograd").

// The direct kernels the router weighs winograd on the matrix units against, and the margin a
// winograd variant must beat them by (winogradPaysOver).
double matrixDirectCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, bool scaled,
                        double directExtra);
double matrixMargin(const ContextImpl& ctx, const ConvDesc& d, bool scaled, bool bf16Margin);

}  // namespace

// 16-bit storage whose GEMM the matrix units take: scaled fp16 operands (bf16) or the storage type.
bool winogradMatrixUnits(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (d.dtype == DType::F32) return false;
    return scaledAvailable(ctx, d, o) || gemmOnMatrixUnits(ctx, d, o, false);
}

// bf16 with fp16 V, U and M where implicit_gemm_coopmat takes the fp16 GEMM: bf16's 8-bit
// significand in V, U and M puts F(4x4)'s errors at ~10x the direct kernels' and F(2x2)'s at
// 2-4x; fp16's 11 bits, with the operands scaled by powers of two into fp16's range, keep them at
// fp16's.  The price is a pass over the input and the filter for their largest magnitudes
// (winograd_range.comp), or per-tile scales in the transforms.  Not with PlanOptions::packedFilter
// (U's scale would change with each call's filter range; packed plans keep bf16 V and U).
// A layer whose scaled path costs its passes more than it saves (small grids) keeps bf16 F(2x2)
// on bf16 V and U where that is modelled cheaper; a forced tile is always scaled.
bool winogradScaled(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (!scaledAvailable(ctx, d, o)) return false;
    if (!o.tile.empty() || !gemmOnMatrixUnits(ctx, d, o, false)) return true;
    const double s2 = modelCost(ctx, d, 2, o, true, true), s4 = modelCost(ctx, d, 4, o, true, true);
    const double s = s2 < 0 ? s4 : s4 < 0 ? s2 : std::min(s2, s4);
    const double u2 = modelCost(ctx, d, 2, o, true, false);
    if (u2 < 0 || (s >= 0 && s <= ctx.model.winogradUnscaledBf16Price * u2)) return true;
    // bf16 F(2x2) on bf16 operands is modelled cheaper but needs 0.80 of the direct kernels to be
    // taken (DeviceModel::winogradMarginBf16), which the scaled path, held to fp16's margins, may meet where it
    // does not: then scaled.  The layers this moves ran faster scaled than on the direct kernels
    // they had gone to (docs/performance.md, "winograd").
    if (s < 0) return false;
    // One price for both: where the direct kernels run at all, the scaled path's fp16 stand-in
    // (matrixDirectCost) does not apply.
    const double direct = matrixDirectCost(ctx, d, o, false, 0.0);
    return direct >= 0 && !(u2 < matrixMargin(ctx, d, false, true) * direct) &&
           s < matrixMargin(ctx, d, true, true) * direct;
}

namespace {

// The transforms' workgroup: 256 invocations, capped by the device and, at a required subgroup
// size, by subgroup size x maxComputeWorkgroupSubgroups (lavapipe at size 4: 128), and kept a
// multiple of that subgroup size (full subgroups).
uint32_t transformWorkgroup(const ContextImpl& ctx, uint32_t sg) {
    uint32_t wg = std::min({kTransformWorkgroup, ctx.caps.maxWorkgroupInvocations, ctx.caps.maxWorkgroupSize[0]});
    if (sg && ctx.caps.maxComputeWorkgroupSubgroups) wg = std::min(wg, sg * ctx.caps.maxComputeWorkgroupSubgroups);
    if (sg) wg = std::max(sg, wg / sg * sg);
    return wg;
}

// LOCAL_SCALE's input transform workgroup: whole tiles (C/2 invocations each) filling about
// kLocalInputWorkgroup, a multiple of the required subgroup size; else the transforms' own.
uint32_t localInputWorkgroup(const ConvDesc& d, uint32_t wg, uint32_t sg, bool localScale) {
    const uint32_t c2 = uint32_t(d.c / 2);
    if (!localScale || c2 == 0) return wg;
    const uint32_t in = c2 * std::max<uint32_t>(1, std::min(wg, kLocalInputWorkgroup) / c2);
    return in <= wg && (sg == 0 || in % sg == 0) ? in : wg;
}

// The batched GEMM's own plan options: the caller's subgroup size, what the workspace has left.
PlanOptions gemmOptions(const PlanOptions& o, const WinogradLayout& l) {
    PlanOptions inner;
    inner.subgroupSize = o.subgroupSize;
    inner.workspaceLimit = l.gemmLimit;
    return inner;
}

// Streaming passes (the transforms) in the scalar GEMM model's FLOP-equivalents: bytes at
// DeviceModel::streamBytesPerUs, one more dispatch after a barrier at streamPassUs, both at
// scalarFlopsPerUs.  winogradScalarMargin: the share of the direct GEMM's model winograd must be
// below.
double transformFlopsPerByte(const ContextImpl& ctx) {
    return ctx.model.scalarFlopsPerByte(ctx.model.streamBytesPerUs);
}
double passFlops(const ContextImpl& ctx) { return ctx.model.streamPassUs * ctx.model.scalarFlopsPerUs; }
// The same on the matrix units' scale (a FLOP-equivalent is one FLOP at the best tile's full-wave
// rate: DeviceModel::matrixFitFlopsPerUs), fitted over every 3x3 stride-1 layer of the suites with
// F(4x4) and F(2x2) forced (fp16 NHWC, H200; docs/performance.md, "winograd") by least squares on
// the relative error: time = s x GEMM + workspace bytes / winogradBytesPerUs + a fixed time per
// pass, with s = winogradGemmScaleF4 / F2 of the GEMM's own model and winogradPassUsF4 / F2 per
// pass; median error 4 %, at most 16 %.  winogradLocalInputExtra: LOCAL_SCALE's input transform.
double matrixFlopsPerByte(const ContextImpl& ctx) { return ctx.model.fitFlopsPerByte(ctx.model.winogradBytesPerUs); }
double matrixPassFlops(const ContextImpl& ctx, uint32_t m) {
    return (m == 2 ? ctx.model.winogradPassUsF2 : ctx.model.winogradPassUsF4) * ctx.model.matrixFitFlopsPerUs;
}
// The direct kernels' one pass (the launch and barrier winograd's fitted passes include), and
// the call floor halo_coopmat is charged instead on small grids (winogradPays).
double directPassFlops(const ContextImpl& ctx) { return ctx.model.matrixDirectPassUs * ctx.model.matrixFitFlopsPerUs; }
double callFloorFlops(const ContextImpl& ctx) { return ctx.model.callFloorUs * ctx.model.matrixFitFlopsPerUs; }

// 1 up to winogradSmallGridTiles F(4x4) tiles, 0 from winogradLargeGridTiles on, linear between.
double smallGridShare(const ContextImpl& ctx, const ConvDesc& d) {
    const double small = ctx.model.winogradSmallGridTiles, large = ctx.model.winogradLargeGridTiles;
    const double tiles4 = double(d.n) * double((d.outH() + 3) / 4) * double((d.outW() + 3) / 4);
    return std::clamp((large - tiles4) / (large - small), 0.0, 1.0);
}
// Winograd on the matrix units where its refitted time is below the direct kernels' model times
// a margin that tracks the direct model's own error on the same sweep: on batch-1-sized grids
// (up to 256 F(4x4) tiles) it prices the direct kernels up to 1.4x high, so winograd must be 10 %
// cheaper there (winogradMarginSmall); on the large grids it prices them up to 20 % low, so
// winograd is taken up to 5 % dearer (winogradMarginLarge).  Replayed over the sweep this came
// within 0.1 % of the best of the three on every layer (docs/performance.md, "winograd").
// bf16 with bf16 V and U (F(2x2) only) where its model is below winogradMarginBf16 of the direct
// kernels' on any grid: the rule above sent bf16 layers to F(2x2) that lost at b32 (its GEMM
// writes bf16 M without fp16's 16-bit epilogue scratch); nearly every layer modelled below 0.80
// won, most above lost.
// NCHW outputs (behind coopmat_nhwc's input transpose, ~0.9 us per MB of input): the output
// transform's NCHW path writes ~0.55 us per MB of output over its NHWC path (H200, fp16, every 3x3
// layer), and implicit_gemm_coopmat's NCHW epilogue ~0.15.  Neither model prices the layout, so
// against implicit_gemm_coopmat winograd is charged the difference (DeviceModel::nchwOutputUsPerMB).
double nchwOutputFlopsPerByte(const ContextImpl& ctx) {
    return ctx.model.nchwOutputUsPerMB * ctx.model.matrixFitFlopsPerUs / 1e6;
}

// The better of the two direct kernels, in the winograd model's units, charged one pass (the
// fitted winograd cost counts its passes' fixed time; the direct GEMM's one pass pays the same
// launch and barrier), its NCHW output's extra and `directExtra`; < 0 where neither runs.
// halo_coopmat's own fit holds a per-call term: on small grids it is charged only the call floor
// (the full pass charge sent small layers to F(4x4) where halo ran faster); on large ones the
// pass it was fitted beside.
double matrixDirectCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, bool scaled,
                        double directExtra) {
    double direct = coopmatModelCost(ctx, d, o, false);
    // Scaled bf16 runs its GEMM in fp16 where the device has fp16 matrix units and no bf16 ones
    // (VK_KHR_shader_bfloat16 missing, e.g. Mesa 26's lavapipe, or older drivers): the direct
    // kernels then take bf16 on the scalar path, slower than the same layer in fp16 on the matrix
    // units: winograd is taken where it beats that, a bound the scalar kernels cannot reach.
    if (scaled && direct < 0) {
        ConvDesc f16 = d;
        f16.dtype = DType::F16;
        direct = coopmatModelCost(ctx, f16, o, false);
    }
    if (direct < 0) return -1;
    const double pass = directPassFlops(ctx);
    direct += pass;
    if (d.outputLayout == TensorLayout::NCHW) direct -= nchwOutputFlopsPerByte(ctx) * double(d.outputBytes());
    if (double halo = haloCoopmatPaysCost(ctx, d, o); halo >= 0)
        direct = std::min(direct, halo + pass - smallGridShare(ctx, d) * (pass - callFloorFlops(ctx)));
    return direct + directExtra;
}

// bf16 on bf16 V and U: winogradMarginBf16 (unless `bf16Margin` is false); else fp16's, from
// winogradMarginSmall on small grids to winogradMarginLarge on large ones.
double matrixMargin(const ContextImpl& ctx, const ConvDesc& d, bool scaled, bool bf16Margin) {
    const DeviceModel& m = ctx.model;
    if (d.dtype == DType::BF16 && !scaled && bf16Margin) return m.winogradMarginBf16;
    const double small = smallGridShare(ctx, d);
    return m.winogradMarginLarge - small * (m.winogradMarginLarge - m.winogradMarginSmall);
}

// Modelled time of F(m x m) (FLOP-equivalents of implicitGemmModelCost, or of coopmatModelCost
// on the matrix units), < 0 when it declines.
double modelCost(const ContextImpl& ctx, const ConvDesc& d, uint32_t m, const PlanOptions& o, bool matrix,
                 bool scaled) {
    WinogradLayout l = winogradLayout(ctx, d, m, o.workspaceLimit, matrix, o.packedFilter, scaled, o.subgroupSize);
    if (!l.why.empty()) return -1;
    const ConvDesc g = gemmDesc(d, l.taps, l.chunk, matrix, l.scaled);
    const double one = matrix ? coopmatModelCost(ctx, g, gemmOptions(o, l), l.mElem == 4)
                              : implicitGemmModelCost(ctx, g, gemmOptions(o, l));
    if (one < 0) return -1;
    const double T = double(l.tiles);  // V and M each written once and read once
    // The filter transform (read the filter, write U) only where the filter is not packed.  Still
    // priced as a pass where it rides in the input transform's dispatch: the separate pass was
    // not behind a barrier, so the dispatch saved little, and pricing it at zero sent small NHWC
    // layers to winograd where it ran slower.
    const double filterPass = l.packedU ? 0.0 : 1.0;
    double bytes = 2.0 * double(d.inputBytes()) + 2.0 * l.taps * T * (double(d.c) * l.vElem + double(d.k) * l.mElem) +
                   double(d.outputBytes()) + filterPass * (double(l.uBytes) + double(d.filterBytes()));
    double passes = double(3 * l.chunks) + filterPass;
    // Scaled with the range pass: it reads the input and the filter once more; it and its
    // finalize are two more dispatches behind barriers (LOCAL_SCALE: neither).
    if (l.scaled && !l.localScale) bytes += double(d.inputBytes()) + double(d.filterBytes()), passes += 2;
    // LOCAL_SCALE: its input transform, held at two barriers, ran 1.25-1.5x fp16's: half its bytes
    // again.
    const DeviceModel& dm = ctx.model;
    if (l.localScale)
        bytes += dm.winogradLocalInputExtra * (double(d.inputBytes()) + l.taps * T * double(d.c) * l.vElem);
    if (!matrix) return double(l.chunks) * one + bytes * transformFlopsPerByte(ctx) + passes * passFlops(ctx);
    return (m == 2 ? dm.winogradGemmScaleF2 : dm.winogradGemmScaleF4) * double(l.chunks) * one +
           bytes * matrixFlopsPerByte(ctx) + passes * matrixPassFlops(ctx, m);
}

// PlanOptions::tile "2x2" / "4x4", else the cheaper of the two by the model; F(2x2) for bf16 on
// the matrix units with bf16 V and U (F(4x4)'s errors there: winogradPays).
// `scaled`: winogradScaled's decision, made once by the caller.
uint32_t chooseM(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, bool matrix, bool scaled) {
    if (uint32_t m = forcedM(o.tile)) return m;
    if (matrix && d.dtype == DType::BF16 && !scaled) return 2;
    double c2 = modelCost(ctx, d, 2, o, matrix, scaled), c4 = modelCost(ctx, d, 4, o, matrix, scaled);
    return c4 >= 0 && (c2 < 0 || c4 < c2) ? 4 : 2;
}

}  // namespace

WinogradLayout winogradLayout(const ContextImpl& ctx, const ConvDesc& d, uint32_t m, VkDeviceSize workspaceLimit,
                              bool matrix, bool packedU, bool scaled, uint32_t subgroupSize) {
    WinogradLayout l;
    // The whole workspace is one binding-sized view (Plan::record checks it).
    workspaceLimit = std::min<VkDeviceSize>(workspaceLimit, ctx.caps.maxStorageBufferRange);
    l.m = m;
    l.taps = (m + 2) * (m + 2);
    l.matrix = matrix;
    l.vElem = matrix ? 2 : 4;  // V and U: the GEMM's operand type
    l.scaled = matrix && scaled;
    // Per-tile and per-filter exponents where a tile's channel pairs and a filter's are whole
    // groups of a transform workgroup (winograd_scale.glsl); else the range pass.
    const uint64_t wg = transformWorkgroup(ctx, subgroupSize), c2 = uint64_t(d.c) / 2,
                   cg2 = uint64_t(d.channelsPerGroup()) / 2;
    l.localScale = l.scaled && d.inputLayout == TensorLayout::NHWC && d.c % 2 == 0 && d.channelsPerGroup() % 2 == 0 &&
                   c2 > 0 && cg2 > 0 && wg % c2 == 0 && wg % cg2 == 0;
    l.mElem = matrix && (d.dtype == DType::F16 || m == 2 || l.scaled) ? 2 : 4;
    const uint64_t es = 4;
    const uint64_t align = workspaceRegionAlignment(ctx);
    l.tiles = uint64_t(d.n) * uint64_t((d.outH() + m - 1) / m) * uint64_t((d.outW() + m - 1) / m);
    l.uBytes = alignUp(l.taps * uint64_t(d.k) * uint64_t(d.channelsPerGroup()) * l.vElem, align);
    if (l.uBytes > ctx.caps.maxStorageBufferRange) {  // packed, U is the filter binding; else a workspace region
        l.why = "the transformed filters of F(" + variantName(m) + ",3x3) take " + std::to_string(l.uBytes) +
                " bytes, over maxStorageBufferRange (" + std::to_string(ctx.caps.maxStorageBufferRange) + ")";
        return l;
    }
    const uint64_t perTile = l.taps * uint64_t(std::max(d.c, d.k));  // elements of V or M per tile (the larger)
    // Chunk limits: 32-bit indexing of V and M, maxStorageBufferRange per view, the workspace.
    uint64_t most = uint64_t(std::numeric_limits<int32_t>::max()) / perTile;
    most = std::min(most, uint64_t(ctx.caps.maxStorageBufferRange) / (perTile * es));
    // LOCAL_SCALE: one exponent word per tile besides V and M.
    const uint64_t perTileBytes = l.taps * (uint64_t(d.c) * l.vElem + uint64_t(d.k) * l.mElem) + (l.localScale ? 4 : 0);
    l.packedU = packedU;
    const uint64_t uWorkspace = packedU ? 0 : l.uBytes;
    const uint64_t sFixed = !l.scaled      ? 0
                            : l.localScale ? uint64_t(d.k) * 4
                                           : (kScaleHeadWords + 2 * kScalePartials) * 4;
    // (LOCAL_SCALE: the scale region's own rounding is one more alignment.)
    const uint64_t fixed = uWorkspace + (l.localScale ? sFixed + 3 * align : alignUp(sFixed, align) + 2 * align);
    if (workspaceLimit <= fixed || (workspaceLimit - fixed) / perTileBytes == 0) {
        l.why = "F(" + variantName(m) + ",3x3) needs at least " + std::to_string(fixed + perTileBytes) +
                " workspace bytes (" + (packedU ? "" : "the transformed filters and ") +
                "one tile) and PlanOptions::workspaceLimit is " + std::to_string(workspaceLimit);
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
    l.sOff = uWorkspace, l.sBytes = l.scaled ? alignUp(sFixed + (l.localScale ? l.chunk * 4 : 0), align) : 0;
    l.vOff = uWorkspace + l.sBytes;
    l.vBytes = alignUp(l.chunk * l.taps * uint64_t(d.c) * l.vElem, align);
    l.mOff = l.vOff + l.vBytes;
    l.mBytes = alignUp(l.chunk * l.taps * uint64_t(d.k) * l.mElem, align);
    l.gemmOff = l.mOff + l.mBytes;
    l.gemmLimit = workspaceLimit - l.gemmOff;
    if (l.tiles > std::numeric_limits<uint32_t>::max()) l.why = "more than 2^32 output tiles";
    return l;
}

namespace {

class WinogradInstance final : public AlgorithmInstance {
public:
    WinogradInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, bool matrix, bool scaled)
        : ctx_(ctx),
          desc_(d),
          pc_(makePushConstants(d)),
          sg_(o.subgroupSize),
          layout_(winogradLayout(ctx, d, chooseM(ctx, d, o, matrix, scaled), o.workspaceLimit, matrix, o.packedFilter,
                                 scaled, o.subgroupSize)),
          wg_(transformWorkgroup(ctx, o.subgroupSize)),
          inWg_(localInputWorkgroup(d, wg_, sg_, layout_.localScale)) {
        const PlanOptions inner = gemmOptions(o, layout_);
        auto plan = [&](uint64_t tiles) {
            ConvDesc g = gemmDesc(d, layout_.taps, tiles, matrix, layout_.scaled);
            if (matrix && layout_.mElem == 4) return coopmatRawInstantiate(ctx, g, inner);
            return chooseAlgorithm(ctx, g, inner).instantiate(ctx, g, inner);
        };
        gemm_ = plan(layout_.chunk);
        const uint64_t last = layout_.tiles - (layout_.chunks - 1) * layout_.chunk;
        if (last != layout_.chunk) gemmLast_ = plan(last);
        if (layout_.scaled) {
            // The exponent budget: |M| <= C/groups x 2^(bU + bV) <= 2^14 (fp16's largest finite
            // value is ~2^16), split between V and U, less log2 of each transform's growth bound:
            // V <= (max row sum of |B^T|)^2 max|x| = 4 (F(2x2)) or 49 (F(4x4), 7^2), U <= (max row
            // sum of |G|)^2 max|g| = 2.25 or (28/15)^2 ~ 3.5 (winograd.glsl's matrices).
            int budget = 14;
            for (uint64_t c = 1; c < uint64_t(d.channelsPerGroup()); c <<= 1) --budget;
            const int bV = budget >= 0 ? budget / 2 : -((1 - budget) / 2), bU = budget - bV;
            kV_ = bV - (layout_.m == 4 ? 6 : 2), kU_ = bU - 2;
        }
        if (layout_.scaled && !layout_.localScale) {
            auto range = [&](bool finalize, bool vec) {
                PipelineKey key = convPipelineKey("winograd_range", d, wg_, sg_, kBindWorkspace + 1);
                key.spec.push_back({kSpecScaled, finalize ? 1u : 0u});
                key.spec.push_back({kSpecRangeKU, uint32_t(kU_)});
                key.spec.push_back({kSpecRangeKV, uint32_t(kV_)});
                key.spec.push_back({kSpecRangeVec, vec ? 1u : 0u});
                key.spec.push_back({kSpecRangeBf16, d.dtype == DType::BF16 ? 1u : 0u});
                return &ctx.pipelines->get(key);
            };
            range_ = range(false, false);
            rangeVec_ = range(false, true);
            finalize_ = range(true, false);
        }
        // LOCAL_SCALE's input and filter transforms: the subgroup-maximum variant where the device
        // has subgroup arithmetic, else the shared atomics alone (test hook
        // winograd_no_subgroup_max: that path on a device with subgroup arithmetic).
        const bool sgMax =
            layout_.localScale && ctx.caps.subgroupArithmetic && !testHookOr("winograd_no_subgroup_max", false);
        auto pipe = [&](const char* pass, bool pairs = false, bool wide = false, bool withFilter = false,
                        bool filterPairs = false) {
            const std::string variant = sgMax && std::string(pass) != "output" ? "_sg" : "";
            PipelineKey key = convPipelineKey(
                "winograd" + std::to_string(layout_.m) + "_" + pass + "_" + dtypeSuffix(d.dtype) + variant, d,
                std::string(pass) == "input" ? inWg_ : wg_, sg_, kWinogradBindings);
            // 16-bit workspace values: V and U on the matrix units, M where their GEMM stores 16-bit M.
            if (std::string(pass) == "output" ? layout_.mElem == 2 : matrix) key.spec.push_back({kSpecWs16, 1u});
            if (pairs) key.spec.push_back({kSpecPairs, 1u});
            if (std::string(pass) == "output" && outputCk_ != kNchwBlockChannels)
                key.spec.push_back({kSpecOutputCk, outputCk_});
            if (std::string(pass) == "output" && outputRows_ != layout_.m)
                key.spec.push_back({kSpecOutputRb, outputRows_});
            if (wide) key.spec.push_back({kSpecOutputWide, 1u});
            if (withFilter) key.spec.push_back({kSpecWithFilter, 1u});
            if (filterPairs) key.spec.push_back({kSpecFilterPairs, 1u});
            if (layout_.scaled) key.spec.push_back({kSpecScaled, 1u});
            if (layout_.localScale) {
                key.spec.push_back({kSpecLocalScale, 1u});
                key.spec.push_back({kSpecRangeKU, uint32_t(kU_)});
                key.spec.push_back({kSpecRangeKV, uint32_t(kV_)});
            }
            // fp16 on the matrix units: direct sums for the (tile, filter)s whose M overflowed.
            if (std::string(pass) == "output" && matrix && d.dtype == DType::F16)
                key.spec.push_back({kSpecOutputFallback, 1u});
            return &ctx.pipelines->get(key);
        };
        // NCHW output from 16-bit M: 16 filters per block, so that a block's M reads fill whole
        // 32-byte sectors.
        if (d.outputLayout == TensorLayout::NCHW && layout_.mElem == 2 && wg_ % 16 == 0) outputCk_ = 16;
        // NCHW output: all m rows of a block in shared memory at once (one barrier), or two per
        // round where the device's shared memory is short of that (F(4x4) on a 16 KiB device;
        // test hook winograd_nchw_rb2: that path anywhere).
        if (d.outputLayout == TensorLayout::NCHW &&
            (nchwOutputSharedBytes(outputRows_) > ctx.caps.maxSharedMemory || testHookOr("winograd_nchw_rb2", false)))
            outputRows_ = 2;
        input_ = pipe("input");
        filter_ = pipe("filter");
        output_ = pipe("output");
        // NCHW output rows as one m-wide store each where the output view allows it (record();
        // test hook winograd_nchw_narrow: element stores, as for a view not aligned to m elements,
        // which a device with 4-byte storage buffer offsets may pass).
        if (d.outputLayout == TensorLayout::NCHW && !testHookOr("winograd_nchw_narrow", false))
            outputWide_ = pipe("output", false, true);
        // Two channels (filters) per invocation where the 16-bit values pair up (used when the
        // views are 4-byte aligned: record()).
        if (matrix && d.inputLayout == TensorLayout::NHWC && d.c % 2 == 0) inputPairs_ = pipe("input", true);
        if (layout_.mElem == 2 && d.outputLayout == TensorLayout::NHWC && d.k % 2 == 0)
            outputPairs_ = pipe("output", true);
        if (matrix && d.filterLayout == FilterLayout::KRSC && d.channelsPerGroup() % 2 == 0)
            filterPairs_ = pipe("filter", true);
        // The filter transform in the first input transform's dispatch (winograd_input.comp
        // WITH_FILTER) wherever the filter is not packed and, with per-tile scales, a filter's
        // channel pairs are whole groups of the input's workgroup too; built for the pair mappings
        // the aligned views take (record() falls back to a pass of its own where the views choose
        // others).
        const uint32_t cg2 = uint32_t(d.channelsPerGroup() / 2);
        if (!layout_.packedU && (!layout_.localScale || (cg2 > 0 && inWg_ % cg2 == 0)))
            inputFilter_ = pipe("input", inputPairs_ != nullptr, false, true, filterPairs_ != nullptr);
    }

    void record(VkCommandBuffer cmd, const ConvTensors& t) const override {
        const BufferView& ws = t.workspace;
        auto view = [&](uint64_t off, uint64_t bytes) { return BufferView{ws.buffer, ws.offset + off, bytes}; };
        // With a packed filter, U is the filter binding (recordPackFilter wrote it).
        const BufferView U = layout_.packedU ? t.filter : view(0, layout_.uBytes);
        const BufferView V = view(layout_.vOff, layout_.vBytes), M = view(layout_.mOff, layout_.mBytes);
        const uint64_t gemmWs = std::max(gemm_->workspaceSize(), gemmLast_ ? gemmLast_->workspaceSize() : 0);
        const BufferView G = gemmWs ? view(layout_.gemmOff, gemmWs) : BufferView{};

        // Scaled: the input's and the filter's largest magnitudes, then the exponents (binding 6
        // of every transform).
        const BufferView S = layout_.scaled ? view(layout_.sOff, layout_.sBytes) : view(layout_.vOff, layout_.vBytes);
        if (layout_.scaled && !layout_.localScale) {
            const bool vec = t.input.offset % 16 == 0 && t.filter.offset % 16 == 0;
            const ComputePipeline& rp = vec ? *rangeVec_ : *range_;
            const ConvTensors rt{t.input, t.filter, {}, {}, S, S};
            bindConvTensors(ctx_, cmd, rp, rt, kBindWorkspace + 1);
            pushConstants(ctx_, cmd, rp, pc_);
            cmdDispatch(ctx_, cmd, 2 * kScalePartials, 1, 1);
            computeBarrier(ctx_, cmd);
            bindConvTensors(ctx_, cmd, *finalize_, rt, kBindWorkspace + 1);
            pushConstants(ctx_, cmd, *finalize_, pc_);
            cmdDispatch(ctx_, cmd, 1, 1, 1);
            computeBarrier(ctx_, cmd);
        }
        const bool inPairs = inputPairs_ && t.input.offset % 4 == 0;
        // The first input dispatch takes the filter transform where its pipeline has the pair
        // mappings these views take.
        const bool withFilter =
            inputFilter_ && inPairs == (inputPairs_ != nullptr) && filterPairs(t.filter) == (filterPairs_ != nullptr);
        if (!layout_.packedU && !withFilter) recordFilterTransform(cmd, t.filter, U, S);

        ConvPushConstants pc = pc_;
        for (uint64_t c = 0; c < layout_.chunks; ++c) {
            const uint64_t first = c * layout_.chunk, tiles = std::min(layout_.chunk, layout_.tiles - first);
            pc.aux0 = uint32_t(first), pc.aux1 = uint32_t(tiles);
            // The previous chunk's GEMM has finished reading V: a barrier separates it from its
            // output transform, recorded before this.
            const bool filterHere = withFilter && c == 0;
            // WITH_FILTER writes U through binding 4 (the output binding, unused by this pass).
            ConvTensors it{t.input, t.filter, {}, {}, filterHere ? U : V, V};
            const ComputePipeline& in = filterHere ? *inputFilter_ : inPairs ? *inputPairs_ : *input_;
            bindTransform(cmd, in, it, S);
            pushConstants(ctx_, cmd, in, pc);
            // LOCAL_SCALE: one invocation per channel pair either way (winograd_input.comp).
            const bool inPairMap = inPairs || layout_.localScale;
            const uint64_t items =
                inPairMap ? tiles * uint64_t(desc_.c / 2) : transformItems(tiles, desc_.c, desc_.inputLayout);
            // WITH_FILTER: the filter transform's whole workgroups besides the input's (winograd_input.comp).
            const uint64_t groups =
                (items + inWg_ - 1) / inWg_ + (filterHere ? (filterItems(t.filter) + inWg_ - 1) / inWg_ : 0);
            dispatch1D(ctx_, cmd, groups * inWg_, inWg_);
            computeBarrier(ctx_, cmd);  // V (and, the first time, U) written

            const AlgorithmInstance& g = tiles == layout_.chunk ? *gemm_ : *gemmLast_;
            // With fp32 M on the matrix units the raw products go to the workspace binding.
            g.record(cmd, layout_.matrix && layout_.mElem == 4 ? ConvTensors{V, U, {}, {}, M, M}
                                                               : ConvTensors{V, U, {}, {}, M, G});
            computeBarrier(ctx_, cmd);  // M written

            ConvTensors ot{t.input, t.filter, t.bias, t.residual, t.output, M};
            const bool outPairs = outputPairs_ && t.output.offset % 4 == 0;
            const bool outWide = outputWide_ && t.output.offset % (layout_.m * dtypeSize(desc_.dtype)) == 0;
            const ComputePipeline& out = outPairs ? *outputPairs_ : outWide ? *outputWide_ : *output_;
            bindTransform(cmd, out, ot, S);
            pushConstants(ctx_, cmd, out, pc);
            dispatch1D(ctx_, cmd,
                       outPairs ? tiles * uint64_t(desc_.k / 2)
                                : transformItems(tiles, desc_.k, desc_.outputLayout, outputCk_),
                       wg_);
        }
    }
    // winograd_output.comp's NCHW shared memory: CK x LINE runs of m fp32 values, LINE = TT x RUN
    // + 1, RUN = rows + 1 (+ 1 for odd rows).
    uint64_t nchwOutputSharedBytes(uint32_t rows) const {
        const uint64_t run = rows + 1 + (rows & 1), line = uint64_t(wg_ / outputCk_) * run + 1;
        return uint64_t(outputCk_) * line * layout_.m * 4;
    }
    VkDeviceSize packedFilterSize() const override { return layout_.packedU ? layout_.uBytes : 0; }
    void recordPackFilter(VkCommandBuffer cmd, const BufferView& filter, const BufferView& packed) const override {
        const BufferView U{packed.buffer, packed.offset, layout_.uBytes};
        recordFilterTransform(cmd, filter, U, U);  // never scaled (winogradScaled)
    }
    // A transform's bindings: the six of bindConvTensors, then the scale region at binding 6.
    void bindTransform(VkCommandBuffer cmd, const ComputePipeline& p, const ConvTensors& t,
                       const BufferView& scale) const {
        bindConvTensors(ctx_, cmd, p, t, kBindWorkspace + 1);
        VkDescriptorBufferInfo info{scale.buffer, scale.offset, scale.size};
        VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstBinding = kBindWorkspace + 1;
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = &info;
        ctx_.dt.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &w);
    }
    // The filter transform: `filter` (the desc's layout) into U.  Transforms bind their fp32
    // region at binding 5 (shaders/include/winograd.glsl); binding 4 (unused by the input and
    // filter transforms) gets the same region.
    void recordFilterTransform(VkCommandBuffer cmd, const BufferView& filter, const BufferView& U,
                               const BufferView& scale) const {
        ConvTensors ft{filter, filter, {}, {}, U, U};
        const ComputePipeline& fp = filterPairs(filter) ? *filterPairs_ : *filter_;
        bindTransform(cmd, fp, ft, scale);
        pushConstants(ctx_, cmd, fp, pc_);
        dispatch1D(ctx_, cmd, filterItems(filter), wg_);
    }
    // The filter transform's mapping for this filter view: channel pairs (4-byte aligned KRSC), and
    // its invocations (one per pair under it or LOCAL_SCALE).
    bool filterPairs(const BufferView& filter) const { return filterPairs_ && filter.offset % 4 == 0; }
    uint64_t filterItems(const BufferView& filter) const {
        return uint64_t(desc_.k) * uint64_t(desc_.channelsPerGroup()) /
               (filterPairs(filter) || layout_.localScale ? 2 : 1);
    }
    // Invocations of a transform over `tiles` tiles x `channels`: one per pair (NHWC), or whole
    // workgroups of wg_ / 8 tiles x 8 channels (NCHW).
    uint64_t transformItems(uint64_t tiles, int64_t channels, TensorLayout layout,
                            uint32_t block = kNchwBlockChannels) const {
        if (layout != TensorLayout::NCHW) return tiles * uint64_t(channels);
        const uint64_t tt = wg_ / block;
        return (tiles + tt - 1) / tt * ((uint64_t(channels) + block - 1) / block) * wg_;
    }
    VkDeviceSize workspaceSize() const override {
        return layout_.gemmOff + std::max(gemm_->workspaceSize(), gemmLast_ ? gemmLast_->workspaceSize() : 0);
    }
    std::string name() const override { return "winograd"; }
    // The largest sum of |A^T| x |G| x |B^T| coefficients over one input-filter pair, squared for
    // 2-D: 2^2 for F(2x2,3x3), (14/3)^2 for F(4x4,3x3) (winograd.glsl's points); F(2x2)'s exact
    // transforms round like direct in fp32.
    double roundingAmplification() const override { return layout_.m == 4 ? 196.0 / 9.0 : 1.0; }
    // 16-bit V and U: each product's operands carry a relative error up to 2u (u = 2^-11 fp16,
    // 2^-8 bf16), 16-bit M one more u, summed through the transforms' coefficients: (2 or 3)u x
    // (that amplification).
    double operandRounding() const override {
        if (!layout_.matrix) return 0.0;
        const double u = desc_.dtype == DType::F16 || layout_.scaled ? std::ldexp(1.0, -11) : std::ldexp(1.0, -8);
        return (layout_.mElem == 2 ? 3.0 : 2.0) * u * (layout_.m == 4 ? 196.0 / 9.0 : 4.0);
    }
    std::string config() const override {
        std::string c = "F(" + variantName(layout_.m) + ",3x3) " + std::to_string(layout_.tiles) + " tiles";
        if (layout_.chunks > 1)
            c += " in " + std::to_string(layout_.chunks) + " chunks of " + std::to_string(layout_.chunk);
        c += "; gemm " + gemm_->name() + " [" + gemm_->config() + "]";
        if (layout_.matrix) {
            const std::string ops = layout_.scaled ? "f16" : dtypeSuffix(desc_.dtype);
            c += " V/U " + ops + " M " + (layout_.mElem == 2 ? ops : "f32");
            if (layout_.scaled) c += layout_.localScale ? " scaled per tile" : " scaled";
        }
        if (layout_.packedU) c += " U packed";
        if (filterPairs_ || inputPairs_ || outputPairs_)
            c += std::string(" pairs ") + (filterPairs_ ? "f" : "") + (inputPairs_ ? "in" : "") +
                 (outputPairs_ ? "out" : "");
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
    // LOCAL_SCALE's input transform: whole tiles of at least 128 invocations where the channel
    // pairs allow (its barriers hold fewer warps together: 10-18 % faster at 128 than at 256 on
    // layers of up to 256 channels); else wg_.
    uint32_t inWg_;
    uint32_t outputCk_ = kNchwBlockChannels;  // filters per block of the NCHW output transform
    uint32_t outputRows_ = layout_.m;         // output rows per shared-memory round of the NCHW output transform
    std::unique_ptr<AlgorithmInstance> gemm_, gemmLast_;  // full chunks, and a shorter last one
    const ComputePipeline *input_ = nullptr, *filter_ = nullptr, *output_ = nullptr;
    // Two channels (filters) per invocation; null where they do not apply.
    const ComputePipeline *filterPairs_ = nullptr, *inputPairs_ = nullptr, *outputPairs_ = nullptr;
    // The input transform that also transforms the filter (WITH_FILTER); null where it does not apply.
    const ComputePipeline* inputFilter_ = nullptr;
    const ComputePipeline* outputWide_ = nullptr;  // NCHW output with m-wide row stores
    // Scaled: the range pass (16-bit or 16-byte loads) and its finalize.
    const ComputePipeline *range_ = nullptr, *rangeVec_ = nullptr, *finalize_ = nullptr;
    int kU_ = 0, kV_ = 0;  // the exponent budget of U and V (scaled)
};

}  // namespace

std::string winogradWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    const uint32_t forced = forcedM(o.tile);
    if (!o.tile.empty() && !forced)
        return noTileError(parseTile(o.tile),
                           "2x2, 4x4: the output tile of F(m x m,3x3); its batched GEMM is planned by the router");
    if (d.r != 3 || d.s != 3) return "F(m x m,3x3) needs a 3x3 filter";
    if (d.strideH != 1 || d.strideW != 1 || d.dilationH != 1 || d.dilationW != 1)
        return "F(m x m,3x3) needs stride 1 and dilation 1";
    if (o.workspaceLimit == 0) return "it needs a workspace and PlanOptions::workspaceLimit is 0";
    if (o.subgroupSize && (!ctx.caps.subgroupSizeControl || o.subgroupSize < ctx.caps.minSubgroupSize ||
                           o.subgroupSize > ctx.caps.maxSubgroupSize))
        return "subgroup size " + std::to_string(o.subgroupSize) + " cannot be required on this device";
    const uint32_t wg = transformWorkgroup(ctx, o.subgroupSize);
    if ((d.inputLayout == TensorLayout::NCHW || d.outputLayout == TensorLayout::NCHW) && wg % kNchwBlockChannels != 0)
        return "the NCHW transforms need a workgroup of a multiple of 8 invocations and this device allows " +
               std::to_string(wg);
    // A forced tile must fit; the heuristic needs one of the two to.
    const bool matrix = winogradMatrixUnits(ctx, d, o);
    const bool scaled = winogradScaled(ctx, d, o);  // once: its bf16 fallback prices the direct kernels
    std::string why;
    for (uint32_t m : {2u, 4u}) {
        if (forced && forced != m) continue;
        WinogradLayout l = winogradLayout(ctx, d, m, o.workspaceLimit, matrix, o.packedFilter, scaled, o.subgroupSize);
        if (l.why.empty() &&
            uint64_t(l.taps) * uint64_t(d.k) * uint64_t(d.channelsPerGroup()) > std::numeric_limits<int32_t>::max())
            l.why = std::to_string(l.taps) + " x K x C/groups transformed filter values exceed 32-bit indexing";
        if (l.why.empty()) {
            try {
                gemmDesc(d, l.taps, l.chunk, matrix, l.scaled).validate();
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
    const bool matrix = winogradMatrixUnits(ctx, d, o);
    // Scaled or not is decided on the caller's options (a tile chosen below is not a forced one).
    const bool scaled = matrix && winogradScaled(ctx, d, o);
    if (o.tile.empty()) {  // the heuristic's pick, or the one that fits
        PlanOptions f = o;
        f.tile = variantName(chooseM(ctx, d, o, matrix, scaled));
        if (!winogradWhyNot(ctx, d, f).empty()) f.tile = f.tile == "2x2" ? "4x4" : "2x2";
        return std::make_unique<WinogradInstance>(ctx, d, f, matrix, scaled);
    }
    return std::make_unique<WinogradInstance>(ctx, d, o, matrix, scaled);
}

// The router's question: is F(m x m,3x3) modelled clearly cheaper than the direct implicit GEMM
// (implicit_gemm_coopmat where the batched GEMM runs on the matrix units, else implicit_gemm)?
// bf16 with scaled fp16 V and U is routed as fp16 is (its model counts the range pass).  bf16
// with bf16 V and U (packed filters) takes only F(2x2) (chooseM): with 8-bit significands its
// F(4x4) errors reach ~3 % of the largest output (10x direct summation's; fp16's ~0.3 %), so that
// one is forced only; F(2x2)'s exact transforms keep them at 2-4x direct's.
namespace {

// winogradPays with the direct alternative charged `directExtra` more (FLOP-equivalents);
// `bf16Margin` false holds bf16 on bf16 V and U to fp16's margins (winogradBeatsTransposedDirect).
bool winogradPaysOver(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, double directExtra,
                      bool bf16Margin = true) {
    if (!o.allowWinograd || !winogradWhyNot(ctx, d, o).empty()) return false;
    const bool matrix = winogradMatrixUnits(ctx, d, o);
    const bool scaled = matrix && winogradScaled(ctx, d, o);
    // The variant winogradInstantiate takes (chooseM takes F(4x4) only where it fits, so a
    // declined pick means neither fits).
    const double best = modelCost(ctx, d, chooseM(ctx, d, o, matrix, scaled), o, matrix, scaled);
    if (!matrix) {
        const double direct = implicitGemmModelCost(ctx, d, o);
        return best >= 0 && direct >= 0 && best < ctx.model.winogradScalarMargin * direct;
    }
    const double direct = matrixDirectCost(ctx, d, o, scaled, directExtra);
    if (best < 0 || direct < 0) return false;
    return best < matrixMargin(ctx, d, scaled, bf16Margin) * direct;
}

}  // namespace

bool winogradPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return winogradPaysOver(ctx, d, o, 0.0);
}

// For Plan::explain (device_model.cpp): the modelled cost of the variant winogradInstantiate
// takes, in the units of the GEMM it runs on (`onMatrixUnits`); < 0 where it declines.
double winogradModelCost(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o, bool& onMatrixUnits) {
    onMatrixUnits = false;
    if (!winogradWhyNot(ctx, d, o).empty()) return -1;
    const bool matrix = winogradMatrixUnits(ctx, d, o);
    const bool scaled = matrix && winogradScaled(ctx, d, o);
    onMatrixUnits = matrix;
    return modelCost(ctx, d, chooseM(ctx, d, o, matrix, scaled), o, matrix, scaled);
}

// For a 16-bit NCHW layer whose NHWC problem (nhwc, with the inner plan's options) the router
// gives a direct matrix kernel: does winograd beat that kernel once it is charged what its NCHW
// route costs and winograd's does not: `dispatches` more dispatches behind a barrier (the call
// floor each) and `bytes` read and written by transposes.  Two questions ask it (nchwMatrixRoute,
// innerPlan):
//  * plain winograd, reading NCHW in its own input transform, against the direct kernel behind
//    the input's and the filter's transposes (one dispatch, their bytes);
//  * behind the input's transpose, winograd (whose filter transform reads KCRS) against the direct
//    kernel that needs the filter's KCRS -> KRSC transpose too (no dispatch of its own: it runs
//    beside the input's; its bytes).
// Both measured faster on nearly every layer they move (docs/performance.md, "NCHW layers").
// bf16 on bf16 V and U (F(2x2)) is held to fp16's margins here, not to the 0.80 that NHWC's bf16
// layers need (its bf16 M): at bf16 NCHW the 0.80 kept layers on a direct kernel behind the
// transposes where winograd ran most of them faster.
bool winogradBeatsTransposedDirect(const ContextImpl& ctx, const ConvDesc& nhwc, const PlanOptions& o,
                                   double dispatches, double bytes) {
    if (!winogradMatrixUnits(ctx, nhwc, o)) return false;
    return winogradPaysOver(ctx, nhwc, o, dispatches * callFloorFlops(ctx) + bytes * matrixFlopsPerByte(ctx), false);
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
                    d.c = 64;
                    d.h = d.w = 28;
                    d.k = 64;
                    d.r = d.s = 3;
                    d.pad(1, 1);
                    d.dtype = t;
                    d.hasBias = true;
                    if (nhwc) makeNhwc(d);
                    v.push_back({d, PlanOptions{"winograd", sg, m}});
                    // bf16 with a packed filter keeps bf16 V and U (winogradScaled).
                    if (t == DType::BF16) {
                        PlanOptions p{"winograd", sg, m};
                        p.packedFilter = true;
                        v.push_back({d, p});
                    }
                }
    return v;
}

}  // namespace vkconv
