// The backward-weight kernels wgrad_implicit_gemm and wgrad_depthwise, forced by name: edge cases
// with their tiles and split counts (one pass, the heuristic's split, many splits), every dtype
// and layout pairing, accumulate and the bias gradient, against the float64 reference
// (tests/support/gradient_check.hpp); runs that must be bit-identical; a seeded sweep of random
// descriptors per kernel; and the router's choices.
#include <gtest/gtest.h>
#include <vkconv/vkconv.hpp>

#include <cstring>
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

ConvDesc gemmBase() {
    ConvDesc d;
    d.n = 2, d.c = 12, d.h = 11, d.w = 9, d.k = 20, d.r = d.s = 3;
    d.pad(1, 1);
    return d;
}

// GEMM-shaped edge cases: partial tiles on both axes, every stride / dilation / padding path of
// the staged x, the pointwise build, groups, dtypes, layouts, the bias and long reductions.
const std::vector<vkt::NamedDesc>& gemmCases() {
    static const std::vector<vkt::NamedDesc> cases = vkt::editedCases(
        gemmBase(),
        {{"base", [](ConvDesc&) {}},
         {"stride3_over_k2", [](ConvDesc& d) { d.r = d.s = 2, d.strideH = d.strideW = 3, d.pad(0, 0); }},
         {"dil2_stride2", [](ConvDesc& d) { d.dilationH = d.dilationW = 2, d.strideH = d.strideW = 2, d.pad(2, 2); }},
         {"dil3x1_stride1x2_asym",
          [](ConvDesc& d) {
              d.dilationH = 3, d.strideW = 2, d.padTop = 0, d.padBottom = 3, d.padLeft = 2, d.padRight = 0;
          }},
         {"pointwise", [](ConvDesc& d) { d.r = d.s = 1, d.pad(0, 0), d.c = 40, d.k = 36; }},
         {"pointwise_nhwc_f16",
          [](ConvDesc& d) {
              d.r = d.s = 1, d.pad(0, 0), d.c = 24, d.k = 40, d.dtype = DType::F16, vkt::setNhwcKrsc(d);
          }},
         {"pointwise_stride2", [](ConvDesc& d) { d.r = d.s = 1, d.pad(0, 0), d.strideH = d.strideW = 2; }},
         {"pointwise_padded", [](ConvDesc& d) { d.r = d.s = 1, d.pad(1, 0); }},
         {"groups3", [](ConvDesc& d) { d.c = 12, d.k = 15, d.groups = 3; }},
         {"groups2_krsc_nhwc_in",
          [](ConvDesc& d) { d.groups = 2, d.filterLayout = FilterLayout::KRSC, d.inputLayout = TensorLayout::NHWC; }},
         {"depthwise_mult3", [](ConvDesc& d) { d.c = d.groups = 6, d.k = 18; }},
         {"kernel_over_input", [](ConvDesc& d) { d.h = 3, d.w = 2, d.r = 5, d.s = 4, d.pad(2, 2); }},
         {"k7_s2_first_layer",
          [](ConvDesc& d) {
              d.c = 3, d.k = 16, d.h = d.w = 19, d.r = d.s = 7, d.strideH = d.strideW = 2, d.pad(3, 3);
          }},
         {"odd_n3", [](ConvDesc& d) { d.n = 3, d.c = 5, d.k = 7, d.h = 13, d.w = 7, d.r = 3, d.s = 1; }},
         {"n1_h1", [](ConvDesc& d) { d.n = 1, d.h = 1, d.r = 1, d.padTop = d.padBottom = 0; }},
         {"nchw_in_nhwc_out", [](ConvDesc& d) { d.outputLayout = TensorLayout::NHWC; }},
         {"nhwc_in_nchw_out_krsc",
          [](ConvDesc& d) { d.inputLayout = TensorLayout::NHWC, d.filterLayout = FilterLayout::KRSC; }},
         {"nhwc_krsc_bf16", [](ConvDesc& d) { vkt::setNhwcKrsc(d), d.dtype = DType::BF16; }},
         {"nhwc_kcrs_f16",
          [](ConvDesc& d) { d.inputLayout = d.outputLayout = TensorLayout::NHWC, d.dtype = DType::F16; }},
         {"f16_nchw_krsc_bias",
          [](ConvDesc& d) { d.dtype = DType::F16, d.filterLayout = FilterLayout::KRSC, d.hasBias = true; }},
         {"bias_groups2_nhwc",
          [](ConvDesc& d) { d.groups = 2, d.c = 8, d.k = 10, d.hasBias = true, vkt::setNhwcKrsc(d); }},
         {"wide_k140_c70", [](ConvDesc& d) { d.n = 1, d.c = 70, d.k = 140, d.h = d.w = 6; }},
         // N x P x Q = 4 x 40 x 36 = 5760 pixels: hundreds of slices, many splits.
         {"long_reduction_bias", [](ConvDesc& d) { d.n = 4, d.h = 40, d.w = 36, d.c = 8, d.k = 12, d.hasBias = true; }},
         {"long_reduction_bf16_nhwc", [](ConvDesc& d) {
              d.n = 3, d.h = 33, d.w = 47, d.c = 16, d.k = 8, d.dtype = DType::BF16, vkt::setNhwcKrsc(d);
          }}});
    return cases;
}

ConvDesc depthwiseBase() {
    ConvDesc d;
    d.n = 2, d.c = d.k = d.groups = 10, d.h = 13, d.w = 11, d.r = d.s = 3;
    d.pad(1, 1);
    return d;
}

const std::vector<vkt::NamedDesc>& depthwiseCases() {
    static const std::vector<vkt::NamedDesc> cases = vkt::editedCases(
        depthwiseBase(),
        {{"base", [](ConvDesc&) {}},
         {"mult2_stride2", [](ConvDesc& d) { d.k = 20, d.strideH = d.strideW = 2; }},
         {"mult3_nhwc_bias", [](ConvDesc& d) { d.c = d.groups = 7, d.k = 21, d.hasBias = true, vkt::setNhwcKrsc(d); }},
         {"stride3_over_k2", [](ConvDesc& d) { d.r = d.s = 2, d.strideH = d.strideW = 3, d.pad(0, 0); }},
         {"dil2_stride2_5x5",
          [](ConvDesc& d) { d.r = d.s = 5, d.dilationH = d.dilationW = 2, d.strideH = d.strideW = 2, d.pad(4, 4); }},
         {"asym_pad_3x1", [](ConvDesc& d) { d.s = 1, d.padTop = 2, d.padBottom = 0, d.padLeft = d.padRight = 0; }},
         {"k7_kernel_over_input", [](ConvDesc& d) { d.h = 4, d.w = 3, d.r = d.s = 7, d.pad(3, 3); }},
         {"one_by_one", [](ConvDesc& d) { d.r = d.s = 1, d.pad(0, 0); }},
         {"nhwc_f16_c40", [](ConvDesc& d) { d.c = d.k = d.groups = 40, d.dtype = DType::F16, vkt::setNhwcKrsc(d); }},
         {"nhwc_in_nchw_out_bf16", [](ConvDesc& d) { d.inputLayout = TensorLayout::NHWC, d.dtype = DType::BF16; }},
         {"nchw_in_nhwc_out_kcrs", [](ConvDesc& d) { d.outputLayout = TensorLayout::NHWC, d.k = 30; }},
         {"c2_n1_odd", [](ConvDesc& d) { d.n = 1, d.c = d.k = d.groups = 2, d.h = 9, d.w = 5; }},
         // 3 x 60 x 52 = 9360 pixels per filter: many splits.
         {"long_reduction_bias",
          [](ConvDesc& d) { d.n = 3, d.h = 60, d.w = 52, d.c = d.k = d.groups = 4, d.hasBias = true; }},
         {"long_reduction_nhwc_f16", [](ConvDesc& d) {
              d.n = 2, d.h = d.w = 64, d.c = d.k = d.groups = 36, d.dtype = DType::F16, vkt::setNhwcKrsc(d);
          }}});
    return cases;
}

// (case, PlanOptions::tile): the heuristic, one pass, 3 and 37 splits (clamped to the slices),
// and each tile of the GEMM.
std::vector<std::tuple<int, std::string>> gemmParams() {
    std::vector<std::tuple<int, std::string>> v;
    for (int i = 0; i < int(gemmCases().size()); ++i)
        for (const char* t : {"", "s1", "s3", "s37", "128x128x8/8x8/s2", "32x32x16/4x4"}) v.emplace_back(i, t);
    return v;
}
std::vector<std::tuple<int, std::string>> depthwiseParams() {
    std::vector<std::tuple<int, std::string>> v;
    for (int i = 0; i < int(depthwiseCases().size()); ++i)
        for (const char* t : {"", "s1", "s3", "s37"}) v.emplace_back(i, t);
    return v;
}

void checkCase(const ConvDesc& d, const std::string& algorithm, const std::string& tile) {
    PlanOptions o;
    o.algorithm = algorithm;
    o.tile = tile;
    o.pass = ConvPass::BackwardWeight;
    try {
        (void)vkconv::Plan::create(vkt::ctx(), d, o);
    } catch (const vkconv::Error& e) {
        ASSERT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
        // The 128x128 tile needs more shared memory than some devices have; nothing else declines.
        ASSERT_EQ(tile.rfind("128x128", 0), 0u) << e.what();
        GTEST_SKIP() << e.what();
    }
    // Integer data: fp32 sums of small integers are exact, so any index error shows exactly.
    for (DataMode mode : {DataMode::Integer, DataMode::Uniform}) {
        EXPECT_TRUE(vkt::passed(vkt::checkWeightGrad(d, o, 31, mode)));
        PlanOptions acc = o;
        acc.accumulate = true;
        EXPECT_TRUE(vkt::passed(vkt::checkWeightGrad(d, acc, 32, mode))) << "accumulate";
    }
}

class WgradGemmCases : public vkt::VkconvParamTest<std::tuple<int, std::string>> {};
TEST_P(WgradGemmCases, MatchesReference) {
    const auto& [index, tile] = GetParam();
    checkCase(gemmCases()[size_t(index)].desc, "wgrad_implicit_gemm", tile);
}
INSTANTIATE_TEST_SUITE_P(All, WgradGemmCases, ::testing::ValuesIn(gemmParams()),
                         [](const auto& info) { return vkt::caseTileName(gemmCases(), info.param); });

class WgradDepthwiseCases : public vkt::VkconvParamTest<std::tuple<int, std::string>> {};
TEST_P(WgradDepthwiseCases, MatchesReference) {
    const auto& [index, tile] = GetParam();
    checkCase(depthwiseCases()[size_t(index)].desc, "wgrad_depthwise", tile);
}
INSTANTIATE_TEST_SUITE_P(All, WgradDepthwiseCases, ::testing::ValuesIn(depthwiseParams()),
                         [](const auto& info) { return vkt::caseTileName(depthwiseCases(), info.param); });

// Two runs of one plan on the same data write the same bits (fixed-order split reduction, no
// atomics), for each kernel with many splits and the bias.
TEST(WgradKernels, RepeatedRunsAreBitIdentical) {
    auto& ctx = vkt::ctx();
    ConvDesc gemm = gemmCases()[0].desc;
    gemm.n = 3, gemm.h = gemm.w = 30, gemm.hasBias = true, gemm.dtype = DType::F16;
    ConvDesc dw = depthwiseBase();
    dw.n = 3, dw.h = dw.w = 40, dw.hasBias = true;
    vkt::setNhwcKrsc(dw);
    for (const auto& [d, algorithm] : {std::pair{gemm, "wgrad_implicit_gemm"}, std::pair{dw, "wgrad_depthwise"}})
        for (const char* tile : {"", "s1", "s13"}) {
            PlanOptions o;
            o.algorithm = algorithm, o.tile = tile, o.pass = ConvPass::BackwardWeight, o.accumulate = true;
            const auto plan = vkconv::Plan::create(ctx, d, o);
            auto up = [&](const std::vector<float>& v, const vkt::Dims& dims, bool last) {
                const auto bytes = vkt::pack(v, dims, last, d.dtype);
                auto b = vkconv::Buffer::create(ctx, (bytes.size() + 3) / 4 * 4);
                b.upload(bytes.data(), bytes.size());
                return b;
            };
            const bool xl = d.inputLayout == TensorLayout::NHWC, yl = d.outputLayout == TensorLayout::NHWC;
            auto xb =
                up(vkt::randomTensor(size_t(d.inputElements()), d.dtype, 1, DataMode::Uniform), vkt::inputDims(d), xl);
            auto dyb = up(vkt::randomTensor(size_t(d.outputElements()), d.dtype, 2, DataMode::Uniform),
                          vkt::outputDims(d), yl);
            const auto oldW = vkt::randomTensor(size_t(d.filterElements()), d.dtype, 3, DataMode::Uniform);
            const auto oldB = vkt::randomTensor(size_t(d.k), d.dtype, 4, DataMode::Uniform);
            std::vector<std::vector<uint8_t>> results;
            for (int run = 0; run < 2; ++run) {
                auto dwb = up(oldW, vkt::filterDims(d), d.filterLayout == FilterLayout::KRSC);
                auto dbb = up(oldB, {1, d.k, 1, 1}, false);
                vkconv::Buffer ws;
                vkconv::BackwardWeightTensors t{xb.view(0, d.inputBytes()),
                                                dyb.view(0, d.outputBytes()),
                                                dwb.view(0, d.filterBytes()),
                                                dbb.view(0, d.biasBytes()),
                                                {}};
                if (plan.workspaceSize()) {
                    ws = vkconv::Buffer::create(ctx, plan.workspaceSize());
                    ws.fill(run ? 0x7fc00000u : 0u);  // different stale partials: none may leak through
                    t.workspace = ws.view(0, plan.workspaceSize());
                }
                plan.run(t);
                std::vector<uint8_t> bytes(size_t(d.filterBytes() + d.biasBytes()));
                dwb.download(bytes.data(), VkDeviceSize(d.filterBytes()));
                dbb.download(bytes.data() + d.filterBytes(), VkDeviceSize(d.biasBytes()));
                results.push_back(std::move(bytes));
            }
            EXPECT_TRUE(results[0] == results[1]) << algorithm << " tile '" << tile << "' [" << plan.config() << "]";
        }
}

// Random descriptors: GEMM-shaped ones (any groups) for the implicit GEMM, depthwise ones (any
// multiplier) for the depthwise kernel; 120 of each, every one accepted and checked, a third of
// them with a forced split count, every fifth with accumulate.
ConvDesc randomDesc(std::mt19937_64& rng, bool depthwise) {
    auto pick = [&](int lo, int hi) { return int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
    for (;;) {
        ConvDesc d;
        d.n = pick(1, 3);
        if (depthwise) {
            d.c = d.groups = pick(2, 24);
            d.k = d.c * (pick(0, 2) == 0 ? pick(2, 3) : 1);
        } else {
            d.groups = pick(0, 3) == 0 ? pick(2, 4) : 1;
            d.c = d.groups * pick(1, 24);
            d.k = d.groups * pick(1, 40);
        }
        d.h = pick(1, 20), d.w = pick(1, 20);
        d.r = pick(1, 5), d.s = pick(1, 5);
        d.strideH = pick(1, 3), d.strideW = pick(1, 3);
        d.dilationH = pick(1, 2), d.dilationW = pick(1, 2);
        d.padTop = pick(0, 3), d.padBottom = pick(0, 3), d.padLeft = pick(0, 3), d.padRight = pick(0, 3);
        if (pick(0, 4) == 0) d.r = d.s = 1, d.strideH = d.strideW = 1, d.pad(0, 0);  // pointwise
        d.dtype = DType(pick(0, 2));
        d.inputLayout = TensorLayout(pick(0, 1));
        d.outputLayout = TensorLayout(pick(0, 1));
        d.filterLayout = FilterLayout(pick(0, 1));
        d.hasBias = pick(0, 2) == 0;
        try {
            d.validate();
            return d;
        } catch (const vkconv::Error&) {}
    }
}

class WgradSweep : public vkt::VkconvParamTest<std::string> {};
TEST_P(WgradSweep, MatchesReference) {
    const std::string algorithm = GetParam();
    const bool depthwise = algorithm == "wgrad_depthwise";
    std::mt19937_64 rng(depthwise ? 0xd3 : 0x93);
    const int count = vkt::gradientSweepCount(120);
    for (int i = 0; i < count; ++i) {
        const ConvDesc d = randomDesc(rng, depthwise);
        PlanOptions o;
        o.algorithm = algorithm;
        o.pass = ConvPass::BackwardWeight;
        o.accumulate = i % 5 == 0;
        if (i % 3 == 1) o.tile = "s" + std::to_string(1 + i % 23);
        const DataMode mode = d.dtype == DType::F32 ? DataMode::Integer : DataMode::Uniform;
        ASSERT_TRUE(vkt::passed(vkt::checkWeightGrad(d, o, uint64_t(i), mode))) << "sweep case " << i;
    }
}
INSTANTIATE_TEST_SUITE_P(Random, WgradSweep, ::testing::Values("wgrad_implicit_gemm", "wgrad_depthwise"),
                         [](const auto& info) { return info.param; });

// The router: depthwise layers to wgrad_depthwise, GEMM-shaped ones and long reductions to
// wgrad_implicit_gemm, a short one over 2-filter groups to the reference; the forced kernels'
// declines are named.
TEST(WgradRouting, PicksByShape) {
    auto& ctx = vkt::ctx();
    PlanOptions o;
    o.pass = ConvPass::BackwardWeight;
    EXPECT_EQ(vkconv::Plan::create(ctx, depthwiseBase(), o).algorithm(), "wgrad_depthwise");
    EXPECT_EQ(vkconv::Plan::create(ctx, gemmBase(), o).algorithm(), "wgrad_implicit_gemm");
    ConvDesc narrow = gemmBase();
    narrow.c = 12, narrow.k = 12, narrow.groups = 6;
    EXPECT_EQ(vkconv::Plan::create(ctx, narrow, o).algorithm(), "wgrad_direct");
    narrow.n = 3;  // 297 pixels: the split pays even on 2-filter groups
    EXPECT_EQ(vkconv::Plan::create(ctx, narrow, o).algorithm(), "wgrad_implicit_gemm");
    ConvDesc noWorkspace = gemmBase();
    noWorkspace.n = 8;
    PlanOptions none = o;
    none.workspaceLimit = 0;
    const auto plan = vkconv::Plan::create(ctx, noWorkspace, none);
    EXPECT_EQ(plan.algorithm(), "wgrad_implicit_gemm");
    EXPECT_EQ(plan.workspaceSize(), 0u) << plan.config();

    auto declines = [&](const ConvDesc& d, const char* algorithm, const char* tile, const char* needle) {
        PlanOptions f = o;
        f.algorithm = algorithm, f.tile = tile;
        try {
            (void)vkconv::Plan::create(ctx, d, f);
            ADD_FAILURE() << algorithm << " accepted " << d.toString();
        } catch (const vkconv::Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    declines(gemmBase(), "wgrad_depthwise", "", "not a depthwise layer");
    ConvDesc big = depthwiseBase();
    big.r = big.s = 9, big.pad(4, 4);
    declines(big, "wgrad_depthwise", "", "do not fit the registers");
    declines(depthwiseBase(), "wgrad_depthwise", "64x64x16/4x4", "s<splits> only");
    declines(gemmBase(), "wgrad_implicit_gemm", "16x16", "no tile '16x16'");
    declines(gemmBase(), "wgrad_implicit_gemm", "s0", "at least 1");
    PlanOptions small = o;
    small.workspaceLimit = 1024;
    small.algorithm = "wgrad_implicit_gemm", small.tile = "s8";
    try {
        (void)vkconv::Plan::create(ctx, gemmBase(), small);
        ADD_FAILURE() << "8 splits in 1 KiB of workspace accepted";
    } catch (const vkconv::Error& e) {
        EXPECT_NE(std::string(e.what()).find("workspaceLimit"), std::string::npos) << e.what();
    }
}

}  // namespace
