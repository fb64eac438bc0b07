// Checks of the test support code itself (no GPU): if these are wrong, every other test is.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <cmath>
#include <limits>

#include "environment.hpp"
#include "half.hpp"
#include "reference.hpp"
#include "suites.hpp"
#include "tensors.hpp"

using namespace vkt;

class Support : public VkconvTest {};

TEST_F(Support, HalfKnownValues) {
    EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
    EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
    EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
    EXPECT_EQ(floatToHalf(65519.0f), 0x7BFF);  // below the tie: max half
    EXPECT_EQ(floatToHalf(65520.0f), 0x7C00);  // the tie rounds to even = inf
    EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7C00);
    EXPECT_EQ(floatToHalf(-std::numeric_limits<float>::infinity()), 0xFC00);
    EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);         // smallest subnormal
    EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);         // tie with 0 -> even (0)
    EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -25)), 0x0001);         // above the tie
    EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -25)), 0x0002);         // 1.5 ulp: tie -> even (2)
    EXPECT_EQ(floatToHalf(std::ldexp(1023.5f, -24)), 0x0400);      // rounds up into the smallest normal
    EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);  // tie -> even
    EXPECT_EQ(floatToHalf(1.0f + std::ldexp(3.0f, -11)), 0x3C02);  // tie -> even (up)
    EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
    EXPECT_EQ(floatToHalf(std::numeric_limits<float>::denorm_min()), 0x0000);
    EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(std::numeric_limits<float>::quiet_NaN()))));
    EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
    EXPECT_EQ(halfToFloat(0x03FF), std::ldexp(1023.0f, -24));
    EXPECT_TRUE(std::isnan(halfToFloat(0x7E00)));
}

TEST_F(Support, HalfRoundTripsEveryValue) {
    for (uint32_t h = 0; h < 0x10000; ++h) {
        const float f = halfToFloat(uint16_t(h));
        if (std::isnan(f)) {
            EXPECT_EQ(floatToHalf(f) & 0x7E00, 0x7E00) << h;
            continue;
        }
        ASSERT_EQ(floatToHalf(f), h) << "half 0x" << std::hex << h;
        // The midpoint to the next half rounds to the even one of the two.
        if ((h & 0x7FFF) < 0x7BFF) {
            const float next = halfToFloat(uint16_t(h + 1));
            const double mid = (double(f) + double(next)) / 2;
            const uint16_t want = (h & 1) ? uint16_t(h + 1) : uint16_t(h);
            ASSERT_EQ(floatToHalf(float(mid)), want) << "midpoint above half 0x" << std::hex << h;
        }
    }
}

TEST_F(Support, Bf16) {
    EXPECT_EQ(floatToBf16(1.0f), 0x3F80);
    EXPECT_EQ(floatToBf16(std::bit_cast<float>(0x3F808000u)), 0x3F80);  // tie -> even
    EXPECT_EQ(floatToBf16(std::bit_cast<float>(0x3F818000u)), 0x3F82);  // tie -> even (up)
    EXPECT_EQ(floatToBf16(std::bit_cast<float>(0x3F808001u)), 0x3F81);
    EXPECT_EQ(floatToBf16(std::bit_cast<float>(0x7F7FFFFFu)), 0x7F80);  // max float rounds to inf
    EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(std::numeric_limits<float>::quiet_NaN()))));
    EXPECT_EQ(bf16ToFloat(0x4040), 3.0f);
}

TEST_F(Support, PackUnpackLayouts) {
    const Dims dims{2, 3, 4, 5};
    std::vector<float> v(120);
    for (size_t i = 0; i < v.size(); ++i) v[i] = float(i);
    const auto nhwc = pack(v, dims, true, vkconv::DType::F32);
    float e;
    std::memcpy(&e, nhwc.data() + 4 * (((1 * 4 + 2) * 5 + 3) * 3 + 1), 4);  // (n1,c1,h2,w3)
    EXPECT_EQ(e, float(((1 * 3 + 1) * 4 + 2) * 5 + 3));
    for (auto t : {vkconv::DType::F32, vkconv::DType::F16, vkconv::DType::BF16})
        for (bool cl : {false, true}) EXPECT_EQ(unpack(pack(v, dims, cl, t).data(), dims, cl, t), v);
}

TEST_F(Support, ReferenceSmallByHand) {
    // 1x1x3x3 input 1..9, 2x2 filter of ones, pad top 1 only, stride 2 -> out 2x1.
    vkconv::ConvDesc d;
    d.h = 3, d.w = 3, d.r = 2, d.s = 2, d.padTop = 1, d.strideH = 2, d.strideW = 2;
    d.hasBias = true;
    d.activation = vkconv::Activation::Relu;
    ConvData data;
    data.input = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    data.filter = {1, 1, 1, -1};
    data.bias = {-0.5f};
    ASSERT_EQ(d.outH(), 2);
    ASSERT_EQ(d.outW(), 1);
    const auto r = referenceAll(d, data);
    // p0: rows -1,0 -> 0+0+1-2 = -1 - 0.5 -> relu 0; p1: rows 1,2 -> 4+5+7-8 = 8 - 0.5 = 7.5
    EXPECT_EQ(r.value, (std::vector<double>{0.0, 7.5}));
    EXPECT_EQ(r.absSum, (std::vector<double>{3.5, 24.5}));
}

TEST_F(Support, ReferenceGroupsAndSample) {
    vkconv::ConvDesc d;
    d.n = 2, d.c = 4, d.h = 5, d.w = 6, d.k = 6, d.r = 3, d.s = 2, d.groups = 2;
    d.dilationW = 2;
    d.pad(1, 2);
    d.hasResidual = true;
    const auto data = makeConvData(d, 7, DataMode::Integer);
    const auto all = referenceAll(d, data);
    std::string info;
    const auto idx = chooseSample(d, 3, &info);
    const auto s = referenceSample(d, data, idx, info);
    ASSERT_EQ(s.indices.size(), s.value.size());
    for (size_t i = 0; i < s.indices.size(); ++i) EXPECT_EQ(s.value[i], all.value[size_t(s.indices[i])]);
    // Channel 3 of k=5 belongs to group 1 (c 2..3): check one element directly.
    const OutCoord o = outCoord(d, 5 * d.outH() * d.outW() + d.outW() + 1);
    EXPECT_EQ(o.k, 5);
    EXPECT_EQ(o.p, 1);
    EXPECT_EQ(o.q, 1);
}

TEST_F(Support, RandomTensorsAreRoundedAndNotZero) {
    const auto h = randomTensor(1000, vkconv::DType::F16, 1, DataMode::Uniform);
    for (float x : h) ASSERT_EQ(x, roundToHalf(x));
    const auto one = randomTensor(1, vkconv::DType::F32, 5, DataMode::Integer);
    EXPECT_NE(one[0], 0.0f);
}

TEST_F(Support, SuitesParse) {
    const auto layers = readSuites(suitesDir());
    ASSERT_FALSE(layers.empty()) << "no layers in " << suitesDir();
    for (const auto& l : layers) EXPECT_NO_THROW(l.desc.validate()) << l.suite << "/" << l.layer;
}
