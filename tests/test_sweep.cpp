// A seeded random sweep over small descriptors: every feature combination the edge list does
// not spell out.  Each case runs through "auto" and every algorithm that accepts it, with the
// filter packed once (PlanOptions::packedFilter) for the forced algorithms on odd cases and for
// "auto" on even ones.
// VKCONV_SWEEP_SEED / VKCONV_SWEEP_COUNT override the fixed seed and the count (200).
#include <cstdlib>
#include <iostream>
#include <random>
#include <set>

#include "environment.hpp"
#include "harness.hpp"

using namespace vkt;
using vkconv::ConvDesc;

namespace {

constexpr uint64_t kDefaultSeed = 20240611;

uint64_t envOr(const char* name, uint64_t def) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 0) : def;
}
uint64_t sweepSeed() { return envOr("VKCONV_SWEEP_SEED", kDefaultSeed); }
int sweepCount() { return int(envOr("VKCONV_SWEEP_COUNT", 200)); }

// Case i depends only on (seed, i), so one failing case can be rerun alone with --gtest_filter.
ConvDesc randomDesc(uint64_t seed, int index) {
    std::mt19937_64 rng(seed * 1000003u + uint64_t(index));
    auto uni = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
    for (;;) {
        ConvDesc d;
        d.n = uni(1, 3), d.c = uni(1, 24), d.h = uni(1, 20), d.w = uni(1, 20), d.k = uni(1, 24);
        d.r = uni(1, 5), d.s = uni(1, 5);
        d.padTop = uni(0, 3), d.padBottom = uni(0, 3), d.padLeft = uni(0, 3), d.padRight = uni(0, 3);
        d.strideH = uni(1, 3), d.strideW = uni(1, 3);
        d.dilationH = uni(1, 3), d.dilationW = uni(1, 3);
        const int64_t g = uni(0, 9);
        if (g == 0) {  // depthwise
            d.k = d.c, d.groups = d.c;
        } else if (g <= 3) {  // any common divisor
            std::vector<int64_t> divs;
            for (int64_t x = 1; x <= std::min(d.c, d.k); ++x)
                if (d.c % x == 0 && d.k % x == 0) divs.push_back(x);
            d.groups = divs[size_t(uni(0, int64_t(divs.size()) - 1))];
        }
        d.dtype = vkconv::DType(uni(0, 2));
        d.inputLayout = vkconv::TensorLayout(uni(0, 1));
        d.outputLayout = vkconv::TensorLayout(uni(0, 1));
        d.filterLayout = vkconv::FilterLayout(uni(0, 1));
        d.hasBias = uni(0, 1) == 1;
        d.hasResidual = uni(0, 2) == 0;
        d.activation = vkconv::Activation(uni(0, 6));
        d.activationAlpha = float(uni(1, 30)) / 100.0f;
        try {
            d.validate();  // e.g. a dilated kernel larger than the padded input: draw again
            return d;
        } catch (const vkconv::Error&) {}
    }
}

const std::vector<ConvDesc>& sweep() {
    static const auto v = [] {
        std::vector<ConvDesc> d;
        for (int i = 0; i < sweepCount(); ++i) d.push_back(randomDesc(sweepSeed(), i));
        return d;
    }();
    return v;
}

}  // namespace

class Sweep : public VkconvParamTest<int> {};

TEST_P(Sweep, AutoAndEveryAcceptingAlgorithm) {
    const int i = GetParam();
    const ConvDesc& d = sweep()[size_t(i)];
    const std::string where = "sweep seed " + std::to_string(sweepSeed()) + " case " + std::to_string(i) +
                              " (rerun: VKCONV_SWEEP_SEED=" + std::to_string(sweepSeed()) + " --gtest_filter=*Sweep*/" +
                              std::to_string(i) + ")";
    std::string declined;
    int accepted = 0;
    for (const auto& a : vkconv::algorithmNames()) {
        const auto why = vkconv::whyUnsupported(ctx(), d, a);
        if (!why.empty()) {
            declined += "\n  " + a + ": " + why;
            continue;
        }
        ++accepted;
        vkconv::PlanOptions o;
        o.algorithm = a;
        o.packedFilter = i % 2 == 1;  // constant weights on every other case (auto on the others)
        const auto r = runAndCheck(ctx(), d, o, sweepSeed() + uint64_t(i), DataMode::Uniform);
        EXPECT_TRUE(passed(r)) << where << (o.packedFilter ? " (packed filter)" : "");
    }
    vkconv::PlanOptions ao;
    ao.packedFilter = i % 2 == 0;
    const auto r = runAndCheck(ctx(), d, ao, sweepSeed() + uint64_t(i), DataMode::Uniform);
    if (accepted == 0) {
        // Then "auto" has nothing to choose either and must say so.
        EXPECT_EQ(r.errorCode, vkconv::ErrorCode::Unsupported) << r.summary() << "\n" << where;
        GTEST_SKIP() << "no algorithm accepts " << d.toString() << ":" << declined;
    }
    EXPECT_TRUE(passed(r)) << where << (ao.packedFilter ? " (auto, packed filter)" : " (auto)");
}

INSTANTIATE_TEST_SUITE_P(Random, Sweep, ::testing::Range(0, sweepCount()));

class SweepInfo : public VkconvTest {};

// Prints the seed and checks that the draw covers every feature at least once.
TEST_F(SweepInfo, SeedAndCoverage) {
    std::cout << "[ sweep ] seed " << sweepSeed() << ", " << sweepCount() << " descriptors" << std::endl;
    if (sweepCount() < 200) GTEST_SKIP() << "coverage is only checked for the full sweep (>= 200 cases)";
    std::set<std::string> seen;
    for (const auto& d : sweep()) {
        seen.insert("dtype " + std::string(toString(d.dtype)));
        seen.insert("in " + std::string(toString(d.inputLayout)));
        seen.insert("out " + std::string(toString(d.outputLayout)));
        seen.insert("filter " + std::string(toString(d.filterLayout)));
        seen.insert("act " + std::string(toString(d.activation)));
        if (d.groups > 1 && d.groups == d.c && d.c == d.k) seen.insert("depthwise");
        if (d.groups > 1 && d.groups < d.c) seen.insert("grouped");
        if (d.strideH != d.strideW) seen.insert("stride h!=w");
        if (d.dilationH > 1 && d.dilationW > 1) seen.insert("dilated");
        if (d.padTop != d.padBottom && d.padLeft != d.padRight) seen.insert("asymmetric pad");
        if (d.n > 1) seen.insert("batch");
        if (d.hasBias && d.hasResidual) seen.insert("bias+residual");
    }
    EXPECT_EQ(seen.size(), 3u + 2 + 2 + 2 + 7 + 7) << "missing some feature in the sweep";
}
