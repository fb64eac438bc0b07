// The routers' tile model (src/conv/tile_score.hpp), on the numbers it was fitted to: no device.
#include <gtest/gtest.h>

#include "conv/tile_score.hpp"

namespace {

using vkconv::splitTileCost;
using vkconv::waveTileScore;

vkconv::ConvDesc conv(int64_t n, int64_t c, int64_t hw, int64_t k, int64_t rs) {
    vkconv::ConvDesc d;
    d.n = n;
    d.c = c;
    d.h = d.w = hw;
    d.k = k;
    d.r = d.s = rs;
    d.pad(rs / 2, rs / 2);
    return d;
}

// The H200's 132 SMs; 64x64 (efficiency 0.47, four resident, 0.64 alone) against 128x128x64
// (0.93, one resident): two implicit_gemm_coopmat tiles (docs/performance.md, "implicit_gemm_coopmat").
constexpr double kUnits = 132;

TEST(TileScore, WithoutLoneEveryWorkgroupIsAFractionOfItsUnit) {
    // ResNet-50 layer3.0.conv1 at b1: 784 x 256, 52 tiles of 64x64 on 528 slots.
    auto d = conv(1, 512, 28, 256, 1);
    const double tiles = 13 * 4, useful = 784.0 / (13 * 64);
    EXPECT_DOUBLE_EQ(waveTileScore(d, 64, 64, 0.47, kUnits * 4), useful * tiles / (kUnits * 4) * 0.47);
}

TEST(TileScore, LoneWorkgroupsOnASmallGrid) {
    auto d = conv(1, 512, 28, 256, 1);
    const double small = waveTileScore(d, 64, 64, 0.47, kUnits * 4, kUnits, 0.64);
    EXPECT_DOUBLE_EQ(small, 784.0 / (13 * 64) * 0.64 * 52 / kUnits * 0.47);  // one to a unit, g(1) = lone
    const double big = waveTileScore(d, 128, 128, 0.93, kUnits, kUnits, 0.0);
    // The small tile measured faster on the H200: it must win, and did not without `lone`.
    EXPECT_GT(small, big);
    EXPECT_LT(waveTileScore(d, 64, 64, 0.47, kUnits * 4), big);
    // A one-resident tile is unchanged by `lone`: alone is its full occupancy.
    EXPECT_DOUBLE_EQ(waveTileScore(d, 128, 128, 0.93, kUnits, kUnits, 0.5), big);
}

TEST(TileScore, LoneMeetsTheWaveModelAtFullResidency) {
    auto d = conv(1, 64, 100, 160, 1);  // 10000 pixels x 160 filters: 157 x 3 = 471 tiles of 64x64
    // 471 on 132 units: four to a unit = resident, so g = 1 and the score is the wave model's.
    EXPECT_DOUBLE_EQ(waveTileScore(d, 64, 64, 0.47, kUnits * 4, kUnits, 0.64),
                     waveTileScore(d, 64, 64, 0.47, kUnits * 4));
    // 60 x 60: 57 x 3 = 171 tiles, two to a unit: 2 x 0.64 caps at the unit's full rate, as
    // measured (two 64x64 workgroups on an SM ran 1.02x its full-occupancy throughput).
    d.h = d.w = 60;
    const double useful = 3600.0 * 160 / (57 * 64 * 3 * 64);
    EXPECT_DOUBLE_EQ(waveTileScore(d, 64, 64, 0.47, kUnits * 4, kUnits, 0.64), useful * 171 / (2 * kUnits) * 0.47);
    // A lone share under a half: two to a unit still below the full rate.
    EXPECT_DOUBLE_EQ(waveTileScore(d, 64, 64, 0.47, kUnits * 4, kUnits, 0.4), useful * 0.8 * 171 / (2 * kUnits) * 0.47);
}

TEST(TileScore, ALoneShareAboveOneIsTheRateAtEveryCount) {
    // 64x64x64/2x4 (0.43, two resident, 1.07 alone): faster alone than in full waves.
    // ResNet-50 layer3.0.conv1 at b1, one to a unit:
    auto d = conv(1, 512, 28, 256, 1);
    const double deep = waveTileScore(d, 64, 64, 0.43, kUnits * 2, kUnits, 1.07);
    EXPECT_DOUBLE_EQ(deep, 784.0 / (13 * 64) * 1.07 * 52 / kUnits * 0.43);
    // It measured faster than 64x64x32/2x2 there on the H200.
    EXPECT_GT(deep, waveTileScore(d, 64, 64, 0.47, kUnits * 4, kUnits, 0.64));
    // Two to a unit (171 tiles): still 1.07 of the full-wave rate, not 2.14 and not capped at 1.
    d = conv(1, 64, 60, 160, 1);
    const double useful = 3600.0 * 160 / (57 * 64 * 3 * 64);
    EXPECT_DOUBLE_EQ(waveTileScore(d, 64, 64, 0.43, kUnits * 2, kUnits, 1.07),
                     useful * 1.07 * 171 / (2 * kUnits) * 0.43);
}

TEST(TileScore, SplitsCountTheirWorkgroupsOnTheUnits) {
    // VGG-16 features.24 at b1: 32 tiles of 64x64; 4 splits = 128 workgroups, one to a unit.
    auto d = conv(1, 512, 14, 512, 3);
    const double flops = 2.0 * 196 * 512 * 4608, useful = 196.0 / 256;
    const double want = flops / (useful * 0.64 * 128 / kUnits * 0.47) + 2.0 * 4 * 196 * 512 * 4 * 50 + 1.5e9;
    EXPECT_NEAR(splitTileCost(d, 64, 64, 0.47, kUnits * 4, 4, 50, 1.5e9, kUnits, 0.64), want, want * 1e-12);
}

}  // namespace
