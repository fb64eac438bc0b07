// The device model: every fitted number the routers and the tile choices price with, in one
// struct and one unit system (microseconds, FLOP/µs, bytes/µs, and dimensionless efficiencies,
// shares and margins).  modelFor() fills it once per context from the architecture's defaults,
// then from the card's measured ceilings where the context has them (Context::calibrate, the
// record `vkconv-bench --peak` caches).  The cost functions beside each kernel (algo_*.cpp) read
// their constants from ContextImpl::model; a kernel's shape and the hardware's facts stay there.
// docs/design.md, "The device model", says where each value comes from and how to add a card.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "vkconv/context.hpp"
#include "vkconv/device_caps.hpp"
#include "vkconv/plan.hpp"

namespace vkconv {

struct ContextImpl;

// One implicit_gemm tile's rating (its kTiles row, by name and in order).
struct ScalarTileRate {
    const char* tile;
    double efficiency;  // full-wave throughput relative to the best tile's (scalarFlopsPerUs)
    uint32_t resident;  // workgroups resident per compute unit (registers decide)
};

// One implicit_gemm_coopmat tile's rating (its kCmTiles row, by name and in order).
struct MatrixTileRate {
    const char* tile;
    double efficiency;  // full-wave throughput relative to the best tile's (matrixTileFlopsPerUs); 0: unrated
    uint32_t resident;  // workgroups resident per compute unit
    double lone = 0;    // share of a unit's full-occupancy rate one workgroup alone reaches (0: unmeasured)
    // Sliced-K tiles priced by a measured one-wave line: lineUs + sliceUs x (slices per K group),
    // µs (0: priced by `efficiency`, or forced only).
    double sliceUs = 0, lineUs = 0;
};

// One halo_coopmat tile's slice time (its kHaloTiles row, by name and in order).
struct HaloTileRate {
    const char* tile;
    double sliceUs;  // one 16-channel 3x3 slice per workgroup, µs; 0: unmeasured
};

struct DeviceModel {
    static constexpr size_t kScalarTiles = 6, kMatrixTiles = 24, kHaloTiles = 8;

    std::string source;  // where the values came from (Plan::explain, vkconv-bench --calibrate)

    // ---- the grid ----
    double computeUnits = 0;           // the driver's count, else 64 (a mid-size GPU's)
    double depthwiseFillUnits = 0;     // depthwise_tiled's fill penalty: the driver's count, else 32
    double depthwiseFillPerUnit = 0;   // workgroups per unit below which its tiles are charged the gap
    double depthwiseFilterWeight = 0;  // its filter taps' read weight against a staged halo word
    // Invocations that stand in for "enough to fill the GPU" (depthwise's blocking; 128 workgroups
    // of 64, each invocation with several independent loads in flight).
    uint64_t depthwiseFillInvocations = 0;
    // The tile choices' grid targets, workgroups per compute unit: a tile shrinks (or a block
    // grows) until its grid reaches it, since a unit needs several resident to hide its loads.
    double gemvFill = 0;                 // gemv: lanes per pixel double up to it
    double fewChannelsFill = 0;          // direct_few_channels: rows per tile halve up to it
    double fewFiltersFill = 0;           // direct_few_filters: pixels per invocation halve up to it
    double fewFiltersPersistent = 0;     // direct_few_filters' persistent grid
    double pointwiseFill = 0;            // pointwise_coopmat: blocks per subgroup double while above it
    double slicedKOneGroupFill = 0;      // slicedk_coopmat: one filter block per workgroup up to it,
    double slicedKTwoGroupFill = 0;      //   two up to this, else four
    double groupedRowStepFill = 0;       // grouped_coopmat: row steps double while above it
    double fewChannelsCoopmatFill = 0;   // few_channels_coopmat: its wider tiles while above it
    double groupedElementLoadWaste = 0;  // grouped_coopmat: element loads' products against words'
    double wgradSplitFill = 0;           // backward-weight's split reduction: workgroups per unit it aims at
    // wgrad_coopmat: FLOPs the matrix units do while memory moves one byte; its split's fp32
    // partials (written and read back) may cost at most the products' time.
    double wgradMatrixFlopsPerByte = 0;

    // ---- the scalar GEMM (implicit_gemm, its split-K, winograd and implicit_gemm_nhwc off the
    // matrix units): costs in FLOPs at the best tile's full-wave rate ----
    double scalarFlopsPerUs = 0;  // FLOP/µs: the best scalar tile's full-wave rate
    std::array<ScalarTileRate, kScalarTiles> scalarTiles{};
    double scalarSplitBytesPerUs = 0;  // bytes/µs: split-K partials written and reduced
    double scalarSplitPassUs = 0;      // µs: split-K's reduce pass (barrier, launch, reduce)
    double scalarSplitMargin = 0;      // split only where modelled this share of one pass or less
    double scalarSmallGridFill = 0;    // grids under this share of the units take the 64x16 tile
    double streamBytesPerUs = 0;       // bytes/µs: a streaming pass (transforms, transposes)
    double streamPassUs = 0;           // µs: one more dispatch behind a barrier
    double winogradScalarMargin = 0;   // winograd off the matrix units: this share of the GEMM
    double nhwcSpeed = 0;              // implicit_gemm on NHWC, as a share of its NCHW time
    double nhwcMargin = 0;             // implicit_gemm_nhwc: this share of the NCHW kernel

    // ---- the matrix units (implicit_gemm_coopmat): costs in FLOPs at its best tile's full-wave rate
    double matrixTileFlopsPerUs = 0;  // FLOP/µs: the rate the k-tiles' lines and the split terms were fitted at
    double matrixRatedFixedUs = 0;    // µs: the per-wave fixed cost the rated tiles' model omits
    std::array<MatrixTileRate, kMatrixTiles> matrixTiles{};
    double matrixSplitBytesPerUs = 0;  // bytes/µs: split-K partials written and reduced
    double matrixSplitPassUs = 0;      // µs: split-K's reduce pass

    // ---- halo_coopmat and winograd on the matrix units, fitted against implicit_gemm_coopmat's
    // model: one of its FLOPs is 1 / matrixFitFlopsPerUs µs ----
    double matrixFitFlopsPerUs = 0;  // FLOP/µs: the scale the winograd fit found for the coopmat model
    std::array<HaloTileRate, kHaloTiles> haloTiles{};
    double haloWorkgroupUs = 0;                               // µs: a workgroup's prologue and epilogue
    double haloDispatchUs = 0;                                // µs: the dispatch
    double haloPaddedTileGain = 0;                            // the least a padded strip's faster stores gain per tile
    double haloNchwElementUsPerMiB = 0;                       // µs per MiB of output: element-wise NCHW stores' extra
    double winogradBytesPerUs = 0;                            // bytes/µs: the transforms' workspace traffic
    double winogradPassUsF4 = 0, winogradPassUsF2 = 0;        // µs per fitted pass
    double winogradGemmScaleF4 = 0, winogradGemmScaleF2 = 0;  // the batched GEMM's share of its model
    double winogradLocalInputExtra = 0;  // LOCAL_SCALE's input transform: this share of its bytes again
    double matrixDirectPassUs = 0;       // µs: a direct kernel's one pass (launch and barrier)
    double callFloorUs = 0;              // µs: one tiny dependent dispatch behind a barrier
    double nchwOutputUsPerMB = 0;        // µs per 10^6 bytes of output: winograd's NCHW output transform's extra
    double winogradSmallGridTiles = 0, winogradLargeGridTiles = 0;  // F(4x4) tiles: the margin's ramp
    double winogradMarginSmall = 0, winogradMarginLarge = 0, winogradMarginBf16 = 0;
    double winogradUnscaledBf16Price = 0;  // bf16 F(2x2) on bf16 operands against the scaled path

    // Derived conversions into each model's own units (the code compares in those).
    double scalarFlopsPerByte(double bytesPerUs) const { return scalarFlopsPerUs / bytesPerUs; }
    double matrixFlopsPerByte(double bytesPerUs) const { return matrixTileFlopsPerUs / bytesPerUs; }
    double fitFlopsPerByte(double bytesPerUs) const { return matrixFitFlopsPerUs / bytesPerUs; }
};

// The card's model: the architecture's defaults, each ceiling `peaks` holds replacing the value
// the defaults were fitted beside (nullptr or an empty record: the defaults alone).
DeviceModel modelFor(const DeviceCaps& caps, const MeasuredPeaks* peaks = nullptr);

// What the router's model says `algorithm` takes for `d`, in µs; < 0 where it has no model
// (rule-only) or declines.  For Plan::explain.
double modelledMicroseconds(const ContextImpl& ctx, const std::string& algorithm, const ConvDesc& d,
                            const PlanOptions& o);

}  // namespace vkconv
