// Every layer of bench/suites/*.csv at batch 1, fp32 NCHW, through "auto", checked against
// the reference (a sample for layers over ~2e8 multiply-adds).  One gtest per layer so the
// output shows progress; VKCONV_SHAPES_MAX_GFLOP skips (visibly) the layers above it.
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <set>

#include "environment.hpp"
#include "harness.hpp"
#include "suites.hpp"

using namespace vkt;

namespace {

std::string g_loadError;

const std::vector<SuiteLayer>& layers() {
    static const auto v = [] {
        try {
            return readSuites(suitesDir());
        } catch (const std::exception& e) {
            g_loadError = e.what();
            return std::vector<SuiteLayer>{};
        }
    }();
    return v;
}

std::vector<std::string> layerNames() {
    std::vector<std::string> names;
    std::set<std::string> used;
    for (const auto& l : layers()) {
        std::string n = sanitizeName(l.suite + "_" + l.layer);
        while (!used.insert(n).second) n += "_";
        names.push_back(n);
    }
    return names;
}

double maxGflop() {
    const char* v = std::getenv("VKCONV_SHAPES_MAX_GFLOP");
    return v && *v ? std::strtod(v, nullptr) : 0.0;  // 0: no limit
}

}  // namespace

class Shapes : public VkconvParamTest<int> {};

TEST_P(Shapes, Layer) {
    const auto& l = layers()[size_t(GetParam())];
    vkconv::ConvDesc d = l.desc;
    d.n = 1;
    const double gflop = d.flops() * 1e-9;
    if (maxGflop() > 0 && gflop > maxGflop())
        GTEST_SKIP() << l.suite << "/" << l.layer << " is " << gflop
                     << " GFLOP > VKCONV_SHAPES_MAX_GFLOP=" << maxGflop();
    // Tensors past the device's maxStorageBufferRange are refused by contract (IndexOverflow).
    const uint64_t range = ctx().caps().maxStorageBufferRange;
    const std::pair<const char*, int64_t> tensors[] = {
        {"input", d.inputBytes()}, {"filter", d.filterBytes()}, {"output", d.outputBytes()}};
    for (const auto& [what, bytes] : tensors)
        if (uint64_t(bytes) > range) {
            EXPECT_EQ(runAndCheck(ctx(), d, {}, 1).errorCode, vkconv::ErrorCode::IndexOverflow);
            GTEST_SKIP() << l.suite << "/" << l.layer << ": " << what << " is " << bytes
                         << " bytes > maxStorageBufferRange " << range << " of this device";
        }
    const auto r = runAndCheck(ctx(), d, {}, 4242 + uint64_t(GetParam()), DataMode::Uniform);
    std::cout << std::fixed << std::setprecision(2) << "[ shape ] " << l.suite << "/" << l.layer << "  " << gflop
              << " GFLOP  " << r.algorithm << " [" << r.config << "]  plan " << r.planMs << " ms  run " << r.runMs
              << " ms (" << (r.runMs > 0 ? d.flops() / (r.runMs * 1e6) : 0.0) << " GFLOP/s)  reference " << r.refMs
              << " ms, " << r.sampleInfo << std::endl;
    EXPECT_TRUE(passed(r)) << l.suite << "/" << l.layer;
}

INSTANTIATE_TEST_SUITE_P(Suites, Shapes, ::testing::Range(0, int(layers().size())),
                         [](const ::testing::TestParamInfo<int>& info) { return layerNames()[size_t(info.param)]; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Shapes);  // ShapesFound below reports the reason

class ShapesFound : public VkconvTest {};

TEST_F(ShapesFound, SuitesDirectoryHasLayers) {
    EXPECT_TRUE(g_loadError.empty()) << g_loadError;
    EXPECT_FALSE(layers().empty()) << "no layers in " << suitesDir();
    std::cout << "[ shape ] " << layers().size() << " layers from " << suitesDir();
    if (maxGflop() > 0) std::cout << " (VKCONV_SHAPES_MAX_GFLOP=" << maxGflop() << ")";
    std::cout << std::endl;
}
