// The backward-weight kernel on the matrix units, wgrad_coopmat, forced by name: edge cases with
// its tiles and split counts, both activation layouts and both filter layouts, the bias gradient
// and accumulate, against the float64 reference (tests/support/gradient_check.hpp); repeated runs
// that must be bit-identical; a seeded sweep of random GEMM-shaped descriptors; its named
// declines; and the router's choice.  16-bit only: on lavapipe through the coopmat_emulate test
// hook (registrations vkconv_tests_wgrad_coopmat_emulated_sg{4,8}); without matrix units or the
// hook the kernel declines, and its cases skip with the reason.
#include <gtest/gtest.h>
#include <vkconv/vkconv.hpp>

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "support/environment.hpp"
#include "support/gradient_check.hpp"
#include "support/tensors.hpp"

namespace {

using vkconv::ConvDesc;
using vkconv::ConvPass;
using vkconv::DType;
using vkconv::ErrorCode;
using vkconv::FilterLayout;
using vkconv::PlanOptions;
using vkconv::TensorLayout;
using vkt::DataMode;

constexpr const char* kAlgo = "wgrad_coopmat";

ConvDesc base() {
    ConvDesc d;
    d.n = 2, d.c = 32, d.h = 9, d.w = 7, d.k = 40, d.r = d.s = 3;
    d.pad(1, 1);
    d.dtype = DType::F16;
    vkt::setNhwcKrsc(d);
    return d;
}

// Partial tiles on both axes (40 filters, 288 taps), every stride / dilation / padding path of the
// staged x, the pointwise build, groups, both dtypes, every layout pairing, the bias and long
// reductions (many slices, many splits).
const std::vector<vkt::NamedDesc>& cases() {
    static const std::vector<vkt::NamedDesc> v = vkt::editedCases(
        base(),
        {{"base", [](ConvDesc&) {}},
         {"stride3_over_k2", [](ConvDesc& d) { d.r = d.s = 2, d.strideH = d.strideW = 3, d.pad(0, 0), d.h = 11; }},
         {"dil2_stride2", [](ConvDesc& d) { d.dilationH = d.dilationW = 2, d.strideH = d.strideW = 2, d.pad(2, 2); }},
         {"dil3x1_stride1x2_asym",
          [](ConvDesc& d) {
              d.dilationH = 3, d.strideW = 2, d.padTop = 0, d.padBottom = 3, d.padLeft = 2, d.padRight = 0;
          }},
         {"kernel_over_input", [](ConvDesc& d) { d.h = 3, d.w = 2, d.r = 5, d.s = 4, d.pad(2, 2); }},
         {"groups2", [](ConvDesc& d) { d.c = 48, d.k = 64, d.groups = 2; }},
         {"pointwise", [](ConvDesc& d) { d.r = d.s = 1, d.pad(0, 0), d.c = 64, d.k = 24; }},
         {"pointwise_stride2_bias",
          [](ConvDesc& d) { d.r = d.s = 1, d.pad(0, 0), d.strideH = d.strideW = 2, d.hasBias = true; }},
         {"odd_c21_k19_n3", [](ConvDesc& d) { d.n = 3, d.c = 21, d.k = 19, d.h = 13, d.w = 5, d.s = 1, d.pad(1, 0); }},
         {"nchw_kcrs_bias",
          [](ConvDesc& d) {
              d.inputLayout = d.outputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS;
              d.hasBias = true;
          }},
         {"nhwc_in_nchw_out_kcrs",
          [](ConvDesc& d) { d.outputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS; }},
         {"nchw_in_nhwc_out_groups2",
          [](ConvDesc& d) { d.inputLayout = TensorLayout::NCHW, d.groups = 2, d.c = 64, d.k = 32; }},
         {"bf16_bias_krsc", [](ConvDesc& d) { d.dtype = DType::BF16, d.hasBias = true; }},
         {"bf16_nchw_s2",
          [](ConvDesc& d) {
              d.dtype = DType::BF16, d.strideH = d.strideW = 2, d.h = d.w = 12;
              d.inputLayout = d.outputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS;
          }},
         // N x P x Q = 3 x 30 x 26 = 2340 pixels: 74 slices, splits over many of them.
         {"long_reduction_bias",
          [](ConvDesc& d) { d.n = 3, d.h = 30, d.w = 26, d.c = 16, d.k = 24, d.hasBias = true; }},
         // 136 filters, 144 taps: two row tiles and two column tiles of the 128-wide tiles.
         {"wide_k136_c16", [](ConvDesc& d) { d.n = 1, d.c = 16, d.k = 136, d.h = d.w = 6, d.hasBias = true; }}});
    return v;
}

// (case, PlanOptions::tile): the heuristic, one pass, 5 splits (clamped to the slices), and the
// tiles forced.
std::vector<std::tuple<int, std::string>> params() {
    std::vector<std::tuple<int, std::string>> v;
    for (int i = 0; i < int(cases().size()); ++i)
        for (const char* t : {"", "s1", "s5", "64x64x32/2x2/s3", "64x128x32/2x4", "128x64x32/2x4/s2", "128x256x16/2x4"})
            v.emplace_back(i, t);
    return v;
}

PlanOptions options(const std::string& tile, bool accumulate = false) {
    PlanOptions o;
    o.algorithm = kAlgo, o.tile = tile, o.pass = ConvPass::BackwardWeight, o.accumulate = accumulate;
    return o;
}

class WgradCoopmatCases : public vkt::VkconvParamTest<std::tuple<int, std::string>> {};
TEST_P(WgradCoopmatCases, MatchesReference) {
    const auto& [index, tile] = GetParam();
    const ConvDesc& d = cases()[size_t(index)].desc;
    if (std::string why = vkt::declineReason(d, options(tile)); !why.empty()) GTEST_SKIP() << why;
    // Integer data: fp32 sums of small integers are exact, so any index error shows exactly; with
    // accumulate the old gradient is added (one rounding).
    const vkt::GradCheck r = vkt::checkWeightGrad(d, options(tile), 41, DataMode::Integer);
    EXPECT_TRUE(vkt::passed(r));
    EXPECT_NE(r.config.find("cm "), std::string::npos) << r.config;
    EXPECT_TRUE(vkt::passed(vkt::checkWeightGrad(d, options(tile, true), 42, DataMode::Uniform))) << "accumulate";
}
INSTANTIATE_TEST_SUITE_P(All, WgradCoopmatCases, ::testing::ValuesIn(params()),
                         [](const auto& info) { return vkt::caseTileName(cases(), info.param); });

// Two runs of one plan on the same data write the same bits (fixed-order split reduction, no
// atomics), split and in one pass, with the bias and accumulate; stale partials in the workspace
// may not leak through.
TEST(WgradCoopmat, RepeatedRunsAreBitIdentical) {
    auto& ctx = vkt::ctx();
    ConvDesc d = base();
    d.n = 3, d.h = d.w = 20, d.hasBias = true;
    for (const char* tile : {"", "s1", "s7"}) {
        const PlanOptions o = options(tile, true);
        if (std::string why = vkt::declineReason(d, o); !why.empty()) GTEST_SKIP() << why;
        const auto plan = vkconv::Plan::create(ctx, d, o);
        auto up = [&](const std::vector<float>& v, const vkt::Dims& dims, bool last) {
            const auto bytes = vkt::pack(v, dims, last, d.dtype);
            auto b = vkconv::Buffer::create(ctx, (bytes.size() + 3) / 4 * 4);
            b.upload(bytes.data(), bytes.size());
            return b;
        };
        auto xb =
            up(vkt::randomTensor(size_t(d.inputElements()), d.dtype, 1, DataMode::Uniform), vkt::inputDims(d), true);
        auto dyb =
            up(vkt::randomTensor(size_t(d.outputElements()), d.dtype, 2, DataMode::Uniform), vkt::outputDims(d), true);
        const auto oldW = vkt::randomTensor(size_t(d.filterElements()), d.dtype, 3, DataMode::Uniform);
        const auto oldB = vkt::randomTensor(size_t(d.k), d.dtype, 4, DataMode::Uniform);
        std::vector<std::vector<uint8_t>> results;
        for (int run = 0; run < 2; ++run) {
            auto dwb = up(oldW, vkt::filterDims(d), true);
            auto dbb = up(oldB, {1, d.k, 1, 1}, false);
            vkconv::Buffer ws;
            vkconv::BackwardWeightTensors t{xb.view(0, d.inputBytes()),
                                            dyb.view(0, d.outputBytes()),
                                            dwb.view(0, d.filterBytes()),
                                            dbb.view(0, d.biasBytes()),
                                            {}};
            if (plan.workspaceSize()) {
                ws = vkconv::Buffer::create(ctx, plan.workspaceSize());
                ws.fill(run ? 0x7fc00000u : 0u);
                t.workspace = ws.view(0, plan.workspaceSize());
            }
            plan.run(t);
            std::vector<uint8_t> bytes(size_t(d.filterBytes() + d.biasBytes()));
            dwb.download(bytes.data(), VkDeviceSize(d.filterBytes()));
            dbb.download(bytes.data() + d.filterBytes(), VkDeviceSize(d.biasBytes()));
            results.push_back(std::move(bytes));
        }
        EXPECT_TRUE(results[0] == results[1]) << "tile '" << tile << "' [" << plan.config() << "]";
        if (std::string(tile) == "s7") {
            EXPECT_NE(plan.config().find("split 7"), std::string::npos) << plan.config();
        }
    }
}

// Random GEMM-shaped descriptors (at least 16 filters and 16 taps per group, any groups but
// depthwise), every one accepted and checked; a third with a forced split count, every fifth
// with accumulate.
ConvDesc randomDesc(std::mt19937_64& rng) {
    auto pick = [&](int lo, int hi) { return int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
    for (;;) {
        ConvDesc d;
        d.n = pick(1, 3);
        d.groups = pick(0, 3) == 0 ? pick(2, 3) : 1;
        d.c = d.groups * (pick(0, 1) ? 8 * pick(1, 6) : pick(1, 40));
        d.k = d.groups * (pick(0, 1) ? 8 * pick(2, 10) : pick(16, 70));
        d.h = pick(1, 18), d.w = pick(1, 18);
        d.r = pick(1, 5), d.s = pick(1, 5);
        d.strideH = pick(1, 3), d.strideW = pick(1, 3);
        d.dilationH = pick(1, 2), d.dilationW = pick(1, 2);
        d.padTop = pick(0, 3), d.padBottom = pick(0, 3), d.padLeft = pick(0, 3), d.padRight = pick(0, 3);
        if (pick(0, 4) == 0) d.r = d.s = 1, d.strideH = d.strideW = 1, d.pad(0, 0);  // pointwise
        d.dtype = pick(0, 2) == 0 ? DType::BF16 : DType::F16;
        d.inputLayout = pick(0, 2) ? TensorLayout::NHWC : TensorLayout::NCHW;
        d.outputLayout = pick(0, 2) ? TensorLayout::NHWC : TensorLayout::NCHW;
        d.filterLayout = pick(0, 1) ? FilterLayout::KRSC : FilterLayout::KCRS;
        d.hasBias = pick(0, 2) == 0;
        if (d.channelsPerGroup() * d.r * d.s < 16 || d.groups == d.c) continue;
        try {
            d.validate();
            return d;
        } catch (const vkconv::Error&) {}
    }
}

TEST(WgradCoopmatSweep, MatchesReference) {
    if (std::string why = vkt::declineReason(base(), options("")); !why.empty()) GTEST_SKIP() << why;
    std::mt19937_64 rng(0xc0);
    const int count = vkt::gradientSweepCount(72);
    for (int i = 0; i < count; ++i) {
        const ConvDesc d = randomDesc(rng);
        PlanOptions o = options(i % 3 == 1 ? "s" + std::to_string(1 + i % 19) : "", i % 5 == 0);
        ASSERT_EQ(vkt::declineReason(d, o), "") << "sweep case " << i << ": " << d.toString();
        ASSERT_TRUE(vkt::passed(vkt::checkWeightGrad(d, o, uint64_t(i), DataMode::Uniform))) << "sweep case " << i;
    }
}

// The declines, each with its reason; and the router's choice for fp16 / bf16 GEMM-shaped layers.
TEST(WgradCoopmat, DeclinesByName) {
    auto& ctx = vkt::ctx();
    if (std::string why = vkt::declineReason(base(), options("")); !why.empty()) GTEST_SKIP() << why;
    auto expectDecline = [&](const ConvDesc& d, const std::string& tile, const char* needle) {
        const std::string why = vkt::declineReason(d, options(tile));
        EXPECT_NE(why.find(needle), std::string::npos) << d.toString() << " tile '" << tile << "': " << why;
    };
    ConvDesc f32 = base();
    f32.dtype = DType::F32;
    expectDecline(f32, "", "fp32 storage");
    ConvDesc dw = base();
    dw.c = dw.k = dw.groups = 32;
    expectDecline(dw, "", "depthwise");
    ConvDesc narrow = base();
    narrow.c = 32, narrow.k = 32, narrow.groups = 4;  // 8 filters per group
    expectDecline(narrow, "", "filters per group fill less than one");
    ConvDesc fewTaps = base();
    fewTaps.c = 8, fewTaps.r = fewTaps.s = 1, fewTaps.pad(0, 0);  // 8 taps
    expectDecline(fewTaps, "", "taps per group fill less than one");
    expectDecline(base(), "16x16", "no tile '16x16'");
    expectDecline(base(), "s0", "at least 1");
    PlanOptions small = options("s8");
    small.workspaceLimit = 1024;
    try {
        (void)vkconv::Plan::create(ctx, base(), small);
        ADD_FAILURE() << "8 splits in 1 KiB of workspace accepted";
    } catch (const vkconv::Error& e) {
        EXPECT_NE(std::string(e.what()).find("workspaceLimit"), std::string::npos) << e.what();
    }

    PlanOptions route;
    route.pass = ConvPass::BackwardWeight;
    EXPECT_EQ(vkconv::Plan::create(ctx, base(), route).algorithm(), kAlgo);
    ConvDesc bf16 = base();
    bf16.dtype = DType::BF16;
    EXPECT_EQ(vkconv::Plan::create(ctx, bf16, route).algorithm(), kAlgo);
    EXPECT_EQ(vkconv::Plan::create(ctx, f32, route).algorithm(), "wgrad_implicit_gemm");
    EXPECT_EQ(vkconv::Plan::create(ctx, dw, route).algorithm(), "wgrad_depthwise");
    EXPECT_EQ(vkconv::Plan::create(ctx, narrow, route).algorithm(), "wgrad_implicit_gemm");
    PlanOptions none = route;
    none.workspaceLimit = 0;
    const auto plan = vkconv::Plan::create(ctx, base(), none);
    EXPECT_EQ(plan.algorithm(), kAlgo);
    EXPECT_EQ(plan.workspaceSize(), 0u) << plan.config();
}

}  // namespace
