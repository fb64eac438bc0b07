// The device model's values (device_model.hpp): the per-architecture defaults, the measured
// ceilings that replace them, and each modelled algorithm's time for Plan::explain.
#include "conv/device_model.hpp"

#include "conv/registry.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

// The ceilings of the card the defaults were fitted on (the H200; docs/performance.md, "Floors
// and ceilings"): a measured ceiling scales every value fitted beside it by measured / these.
constexpr double kFitFmaFlopsPerUs = 65.2e6;       // fp32 FMA
constexpr double kFitSliceLoopFlopsPerUs = 464e6;  // the matrix units' best staged slice loop
constexpr double kFitCopyBytesPerUs = 4.23e6;      // a vec4 copy
constexpr double kFitCacheBytesPerUs = 10.2e6;     // reads that stay in L2
constexpr double kFitCallFloorUs = 2.55;           // a tiny dispatch behind a compute barrier

// The routers' models as fitted on the H200 (docs/performance.md: "implicit_gemm",
// "implicit_gemm_coopmat", "halo_coopmat", "winograd", "NCHW layers").  Times that were fitted in
// a model's FLOP-equivalents are written here as µs at that model's rate; each converts back to
// the fitted number exactly (DeviceModel tests), so the routers decide as they did.
DeviceModel nvidiaFit() {
    DeviceModel m;
    m.depthwiseFillPerUnit = 8;
    m.depthwiseFilterWeight = 0.25;
    m.depthwiseFillInvocations = 8192;
    m.gemvFill = 2;
    m.fewChannelsFill = 2;
    m.fewFiltersFill = 2;
    m.fewFiltersPersistent = 4;
    m.pointwiseFill = 4;
    m.slicedKOneGroupFill = 1.5;
    m.slicedKTwoGroupFill = 4;
    m.groupedRowStepFill = 4;
    m.fewChannelsCoopmatFill = 4;
    m.groupedElementLoadWaste = 1.5;
    m.wgradSplitFill = 4;
    m.wgradMatrixFlopsPerByte = 100;  // H100/H200: ~400-700 TFLOP/s of fp16 products, 3-5 TB/s

    m.scalarFlopsPerUs = 28e6;  // ~28 TFLOP/s fp32: implicit_gemm's 128x128 tile in full waves
    // Residency from the registers the driver reports: 121-128 for the 8x8/8x4 register tiles,
    // 63-64 for 4x4, 96 for 64x16.
    m.scalarTiles = {{{"128x128x8/8x8", 1.00, 2},
                      {"128x64x16/8x4", 0.80, 2},
                      {"128x64x8/8x4", 0.85, 2},
                      {"64x64x8/4x4", 0.60, 4},
                      {"128x32x8/4x4", 0.55, 4},
                      {"64x16x8/4x4", 0.30, 10}}};
    m.scalarSplitBytesPerUs = 875e3;          // scattered fp32 partials: ~0.9 TB/s, not the 4.2 peak
    m.scalarSplitPassUs = 7.142857142857143;  // the reduce pass, fitted as 2e8 FLOPs
    m.scalarSplitMargin = 0.9;
    m.scalarSmallGridFill = 0.75;
    m.streamBytesPerUs = 2.8e6;           // a copy-like pass: ~2.8 TB/s
    m.streamPassUs = 3.5714285714285716;  // one more dispatch behind a barrier, fitted as 1e8 FLOPs
    m.winogradScalarMargin = 0.85;
    m.nhwcSpeed = 0.75;  // measured 0.62-0.82 on ResNet-50 b32's stride-2 and 7x7 1x1 layers
    m.nhwcMargin = 0.9;

    m.matrixTileFlopsPerUs = 215e6;  // ~215 TFLOP/s: 128x256x32/2x4s1 in full waves
    m.matrixRatedFixedUs = 3.0;
    // Efficiency: full-wave throughput relative to the best tile on VGG-16 / RetinaNet b32; every
    // 256-invocation tile holds an SM alone; lone: a workgroup alone on its SM; the k-tiles' lines
    // (sliceUs, lineUs) measured in one wave.  Efficiency 0: forced only.
    m.matrixTiles = {{{"128x128x32/2x4", 0.72, 1},
                      {"128x64x32/2x2", 0.45, 2},
                      {"64x64x32/2x2", 0.47, 4, 0.64},
                      {"256x128x32/4x2s1", 0.95, 1},
                      {"128x256x32/2x4s1", 1.00, 1},
                      {"128x128x64/2x4s1", 0.93, 1},
                      {"256x64x32/4x2s1", 0.60, 1},
                      {"64x256x32/1x8s1", 0.68, 1},
                      {"128x128x16/2x4", 0.62, 1},
                      {"192x128x64/4x2s1", 0.97, 1},
                      {"192x128x64/4x4s1", 1.00, 1},
                      {"256x64x64/4x4s1", 0.68, 1},
                      {"64x32x16/2x1", 0.40, 8},
                      {"64x64x64/2x4", 0.43, 2, 1.07},
                      {"64x64x32/2x4", 0.50, 2, 0.70},
                      {"32x64x32/2x2k4", 0, 1, 0, 0.727, 4.3},
                      {"64x64x64/2x2k2", 0, 1, 0, 0.857, 5.2},
                      {"32x64x64/2x2k2", 0, 1, 0, 0.619, 4.2},
                      {"32x64x32/2x2k2", 0, 1},
                      {"64x64x32/2x2k2", 0, 1},
                      {"64x64x32/2x2k4", 0, 1},
                      {"64x128x32/2x2k2", 0, 1},
                      {"128x64x32/2x2k2", 0, 1},
                      {"128x128x32/2x2k2", 0, 1}}};
    m.matrixSplitBytesPerUs = 4.3e6;          // the partials at ~4.3 TB/s
    m.matrixSplitPassUs = 6.976744186046512;  // the reduce pass, fitted as 1.5e9 FLOPs

    m.matrixFitFlopsPerUs = 265e6;
    m.haloTiles = {{{"256x64/4x1", 2.1},
                    {"256x64/4x2", 0},
                    {"128x64/2x2", 1.5},
                    {"256x32/4x1", 0},
                    {"64x64/1x2", 0},
                    {"768x16/12x1", 2.57},
                    {"256x16/4x1", 0.76},
                    {"256x48/4x1", 1.8}}};
    m.haloWorkgroupUs = 3.0;
    m.haloDispatchUs = 2.0;
    m.haloPaddedTileGain = 0.12;
    m.haloNchwElementUsPerMiB = 0.8;
    m.winogradBytesPerUs = 3533333.3333333335;  // ~3.5 TB/s, fitted as 75 FLOPs per byte
    m.winogradPassUsF4 = 2.9660377358490564;    // fitted as 0.786e9 FLOPs
    m.winogradPassUsF2 = 2.4754716981132074;    // 0.656e9
    m.winogradGemmScaleF4 = 0.93;
    m.winogradGemmScaleF2 = 0.87;
    m.winogradLocalInputExtra = 0.5;
    m.matrixDirectPassUs = 4.415094339622642;  // 1.17e9
    m.callFloorUs = 2.547169811320755;         // 0.675e9
    m.nchwOutputUsPerMB = 0.4528301886792453;  // 120 FLOPs per byte
    m.winogradSmallGridTiles = 256;
    m.winogradLargeGridTiles = 512;
    m.winogradMarginSmall = 0.90;
    m.winogradMarginLarge = 1.05;
    m.winogradMarginBf16 = 0.80;
    m.winogradUnscaledBf16Price = 1.0;
    return m;
}

// Each architecture's defaults.  Only the H200 has a fit; every other architecture takes it (so
// the routers decide there as they always have) until its own measurements replace it, in a
// case of its own here (docs/design.md, "The device model").
DeviceModel defaultsFor(const DeviceCaps& caps) {
    DeviceModel m = nvidiaFit();
    const char* arch = "other";
    if (caps.vendorId == 0x10DE)
        arch = "NVIDIA";
    else if (caps.amdArch != AmdArch::None)
        arch = toString(caps.amdArch);
    else if (caps.vendorId == 0x8086)
        arch = "Intel";
    else if (caps.vendorId == 0x10005)
        arch = "Mesa CPU";
    m.source = std::string(arch) + ": the H200 fit";
    return m;
}

}  // namespace

DeviceModel modelFor(const DeviceCaps& caps, const MeasuredPeaks* peaks) {
    DeviceModel m = defaultsFor(caps);
    m.computeUnits = caps.computeUnits ? double(caps.computeUnits) : 64.0;  // unreported: a mid-size GPU's
    m.depthwiseFillUnits = caps.computeUnits ? double(caps.computeUnits) : 32.0;
    if (!peaks) return m;
    // Each measured ceiling scales the values fitted beside it by measured / the fit card's.
    std::string measured;
    auto note = [&](const char* what) { measured += std::string(measured.empty() ? "" : ", ") + what; };
    if (peaks->fp32FmaTflops && *peaks->fp32FmaTflops > 0) {
        m.scalarFlopsPerUs *= *peaks->fp32FmaTflops * 1e6 / kFitFmaFlopsPerUs;
        note("FMA rate");
    }
    if (peaks->sliceLoopTflops && *peaks->sliceLoopTflops > 0) {
        const double r = *peaks->sliceLoopTflops * 1e6 / kFitSliceLoopFlopsPerUs;
        m.matrixTileFlopsPerUs *= r;
        m.matrixFitFlopsPerUs *= r;
        note("slice loop");
    }
    if (peaks->copyGbs && *peaks->copyGbs > 0) {
        const double r = *peaks->copyGbs * 1e3 / kFitCopyBytesPerUs;
        m.streamBytesPerUs *= r;
        m.winogradBytesPerUs *= r;
        m.nchwOutputUsPerMB /= r;
        m.haloNchwElementUsPerMiB /= r;
        note("copy bandwidth");
    }
    if (peaks->cacheReadGbs && *peaks->cacheReadGbs > 0) {
        const double r = *peaks->cacheReadGbs * 1e3 / kFitCacheBytesPerUs;
        m.scalarSplitBytesPerUs *= r;
        m.matrixSplitBytesPerUs *= r;
        note("L2 bandwidth");
    }
    if (peaks->callFloorUs && *peaks->callFloorUs > 0) {
        const double r = *peaks->callFloorUs / kFitCallFloorUs;
        for (double* us : {&m.scalarSplitPassUs, &m.streamPassUs, &m.matrixSplitPassUs, &m.haloDispatchUs,
                           &m.winogradPassUsF4, &m.winogradPassUsF2, &m.matrixDirectPassUs, &m.callFloorUs})
            *us *= r;
        note("call floor");
    }
    if (!measured.empty()) m.source += ", measured " + measured;
    return m;
}

double modelledMicroseconds(const ContextImpl& ctx, const std::string& a, const ConvDesc& d, const PlanOptions& o) {
    const DeviceModel& m = ctx.model;
    auto scalar = [&](double cost) { return cost > 0 ? cost / m.scalarFlopsPerUs : -1.0; };
    auto matrix = [&](double cost) { return cost > 0 ? cost / m.matrixFitFlopsPerUs : -1.0; };
    if (a == "implicit_gemm" || a == "implicit_gemm_analytic") return scalar(implicitGemmOnePassCost(ctx, d, o));
    if (a == "implicit_gemm_splitk") return scalar(implicitGemmSplitCost(ctx, d, o));
    if (a == "implicit_gemm_nhwc") return scalar(nhwcTransformModelCost(ctx, d, o));
    // Charged its one pass, as winograd's comparison charges it (winograd's and halo_coopmat's fits
    // hold their passes).
    if (a == "implicit_gemm_coopmat") {
        const double cost = coopmatModelCost(ctx, d, o, false);
        return cost > 0 ? matrix(cost + m.matrixDirectPassUs * m.matrixFitFlopsPerUs) : -1.0;
    }
    if (a == "halo_coopmat") return matrix(haloCoopmatModelCost(ctx, d, o));
    if (a == "winograd") {
        bool onMatrixUnits = false;
        const double cost = winogradModelCost(ctx, d, o, onMatrixUnits);
        return onMatrixUnits ? matrix(cost) : scalar(cost);
    }
    return -1;
}

}  // namespace vkconv
