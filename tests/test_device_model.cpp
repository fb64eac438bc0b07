// The device model (src/conv/device_model.hpp): its defaults give back exactly the numbers the
// routers were fitted with (so every plan stays as it was), its tile rows name their kernels' tiles
// in order, and a measured ceiling scales only what was fitted beside it.  Offline, from the
// recorded device profiles.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "conv/device_model.hpp"
#include "conv/registry.hpp"
#include "runtime/context_access.hpp"
#include "runtime/context_impl.hpp"
#include "vkconv/context.hpp"
#include "vkconv/plan.hpp"

namespace {

vkconv::DeviceCaps profile(const std::string& name) {
    std::ifstream in(std::string(VKCONV_PROFILES_DIR) + "/" + name + ".json");
    std::stringstream text;
    text << in.rdbuf();
    return vkconv::DeviceCaps::fromJson(text.str());
}

const std::vector<std::string> kProfiles = {"nvidia_h200", "radv_null_navi10", "radv_null_navi31", "radv_null_gfx1201"};

// The fitted numbers as the cost functions use them, in each model's FLOP-equivalents: compared
// with ==, since a rounding step would move a router decision somewhere.
TEST(DeviceModel, DefaultsGiveTheFittedNumbersExactly) {
    for (const std::string& p : kProfiles) {
        SCOPED_TRACE(p);
        const vkconv::DeviceCaps caps = profile(p);
        const vkconv::DeviceModel m = vkconv::modelFor(caps);
        EXPECT_EQ(m.computeUnits, caps.computeUnits ? double(caps.computeUnits) : 64.0);
        EXPECT_EQ(m.scalarFlopsPerByte(m.scalarSplitBytesPerUs), 32.0);
        EXPECT_EQ(m.scalarSplitPassUs * m.scalarFlopsPerUs, 2e8);
        EXPECT_EQ(m.scalarFlopsPerByte(m.streamBytesPerUs), 10.0);
        EXPECT_EQ(m.streamPassUs * m.scalarFlopsPerUs, 1e8);
        EXPECT_EQ(m.matrixFlopsPerByte(m.matrixSplitBytesPerUs), 50.0);
        EXPECT_EQ(m.matrixSplitPassUs * m.matrixTileFlopsPerUs, 1.5e9);
        EXPECT_EQ(m.fitFlopsPerByte(m.winogradBytesPerUs), 75.0);
        EXPECT_EQ(m.winogradPassUsF4 * m.matrixFitFlopsPerUs, 0.786e9);
        EXPECT_EQ(m.winogradPassUsF2 * m.matrixFitFlopsPerUs, 0.656e9);
        EXPECT_EQ(m.matrixDirectPassUs * m.matrixFitFlopsPerUs, 1.17e9);
        EXPECT_EQ(m.callFloorUs * m.matrixFitFlopsPerUs, 0.675e9);
        EXPECT_EQ(m.nchwOutputUsPerMB * m.matrixFitFlopsPerUs / 1e6, 120.0);
        EXPECT_FALSE(m.source.empty());
    }
}

// Each rating row names the tile of its kernel's table at the same index.
TEST(DeviceModel, TileRowsFollowTheKernelsTables) {
    const vkconv::DeviceModel m = vkconv::modelFor(profile("nvidia_h200"));
    const std::vector<std::string> scalar = vkconv::implicitGemmTileNames(), matrix = vkconv::coopmatTileNames(),
                                   halo = vkconv::haloCoopmatTileNames();
    ASSERT_EQ(scalar.size(), m.scalarTiles.size());
    ASSERT_EQ(matrix.size(), m.matrixTiles.size());
    ASSERT_EQ(halo.size(), m.haloTiles.size());
    for (size_t i = 0; i < scalar.size(); ++i) EXPECT_EQ(scalar[i], m.scalarTiles[i].tile);
    for (size_t i = 0; i < matrix.size(); ++i) EXPECT_EQ(matrix[i], m.matrixTiles[i].tile);
    for (size_t i = 0; i < halo.size(); ++i) EXPECT_EQ(halo[i], m.haloTiles[i].tile);
}

// A ceiling scales the values fitted beside it, in proportion, and nothing else; none given: the
// defaults.
TEST(DeviceModel, MeasuredCeilingsScaleWhatTheyMeasure) {
    const vkconv::DeviceCaps caps = profile("nvidia_h200");
    const vkconv::DeviceModel d = vkconv::modelFor(caps);
    const vkconv::MeasuredPeaks none;
    const vkconv::DeviceModel same = vkconv::modelFor(caps, &none);
    EXPECT_EQ(same.scalarFlopsPerUs, d.scalarFlopsPerUs);
    EXPECT_EQ(same.callFloorUs, d.callFloorUs);
    EXPECT_EQ(same.source, d.source);

    vkconv::MeasuredPeaks slow, slower;
    slow.fp32FmaTflops = 30.0, slower.fp32FmaTflops = 15.0;
    slow.callFloorUs = 3.0, slower.callFloorUs = 6.0;
    slow.copyGbs = 2000.0, slower.copyGbs = 1000.0;
    const vkconv::DeviceModel a = vkconv::modelFor(caps, &slow), b = vkconv::modelFor(caps, &slower);
    EXPECT_DOUBLE_EQ(a.scalarFlopsPerUs, 2.0 * b.scalarFlopsPerUs);
    EXPECT_DOUBLE_EQ(b.callFloorUs, 2.0 * a.callFloorUs);
    EXPECT_DOUBLE_EQ(b.streamPassUs, 2.0 * a.streamPassUs);
    EXPECT_DOUBLE_EQ(b.winogradPassUsF4, 2.0 * a.winogradPassUsF4);
    EXPECT_DOUBLE_EQ(a.streamBytesPerUs, 2.0 * b.streamBytesPerUs);
    EXPECT_DOUBLE_EQ(b.nchwOutputUsPerMB, 2.0 * a.nchwOutputUsPerMB);
    // Not measured: as fitted.
    EXPECT_EQ(a.matrixTileFlopsPerUs, d.matrixTileFlopsPerUs);
    EXPECT_EQ(a.matrixSplitBytesPerUs, d.matrixSplitBytesPerUs);
    EXPECT_EQ(a.matrixTiles[0].efficiency, d.matrixTiles[0].efficiency);
    EXPECT_NE(a.source.find("measured"), std::string::npos) << a.source;
    EXPECT_NE(a.source.find("call floor"), std::string::npos) << a.source;
}

// Context::calibrate reaches the routers: a context calibrated with a call floor ten times the
// fit card's prices split-K's reduce pass ten times dearer, and still plans every layer.
TEST(DeviceModel, CalibrateReachesTheRouter) {
    vkconv::Context c = vkconv::Context::createOffline(profile("nvidia_h200"));
    vkconv::ConvDesc d;
    d.n = 1, d.c = 512, d.h = d.w = 7, d.k = 512, d.r = d.s = 3;
    d.pad(1, 1);
    const auto splitUs = [&] {
        for (const auto& cand : vkconv::Plan::create(c, d).explain().candidates)
            if (cand.algorithm == "implicit_gemm_splitk") return cand.modelledMicroseconds;
        return -1.0;
    };
    const double before = splitUs();
    const double floorUs = vkconv::implOf(c).model.callFloorUs;
    vkconv::MeasuredPeaks p;
    p.callFloorUs = 25.5;
    c.calibrate(p);
    EXPECT_NEAR(vkconv::implOf(c).model.callFloorUs, 10.0 * floorUs, 1e-9);
    const double after = splitUs();
    ASSERT_GT(before, 0);
    EXPECT_GT(after, before);
    EXPECT_NE(vkconv::Plan::create(c, d).explain().toString().find("measured call floor"), std::string::npos);
}

}  // namespace
