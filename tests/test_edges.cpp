// Edge shapes and every feature combination, each through every algorithm plus "auto".
// An algorithm that declines a case skips it with its reason (visible in gtest output).
#include <algorithm>
#include <iostream>
#include <tuple>

#include "environment.hpp"
#include "harness.hpp"

using namespace vkt;
using vkconv::Activation;
using vkconv::ConvDesc;
using vkconv::DType;
using vkconv::FilterLayout;
using vkconv::TensorLayout;

namespace {

using EdgeCase = NamedDesc;

ConvDesc base() {
    ConvDesc d;
    d.c = 8, d.h = 9, d.w = 11, d.k = 8, d.r = 3, d.s = 3;
    d.pad(1, 1);
    return d;
}

std::vector<EdgeCase> makeCases() {
    std::vector<EdgeCase> v;
    auto add = [&](const std::string& name, auto f) {
        ConvDesc d = base();
        f(d);
        v.push_back({name, d});
    };
    add("base", [](ConvDesc&) {});
    add("spatial1x1", [](ConvDesc& d) { d.h = d.w = 1, d.r = d.s = 1, d.pad(0, 0); });
    add("spatial1x1_k3_pad1", [](ConvDesc& d) { d.h = d.w = 1; });
    add("kernel_gt_input", [](ConvDesc& d) { d.h = d.w = 3, d.r = d.s = 5, d.pad(2, 2); });
    add("kernel_gt_input_rect", [](ConvDesc& d) { d.h = 2, d.w = 4, d.r = 7, d.s = 3, d.pad(3, 1); });
    add("kernel_eq_input", [](ConvDesc& d) { d.h = d.w = 5, d.r = d.s = 5, d.pad(0, 0); });
    add("stride3_kernel2", [](ConvDesc& d) { d.h = d.w = 11, d.r = d.s = 2, d.strideH = d.strideW = 3, d.pad(0, 0); });
    add("stride2_1x1", [](ConvDesc& d) { d.r = d.s = 1, d.strideH = d.strideW = 2, d.pad(0, 0); });
    add("stride4_pad3", [](ConvDesc& d) { d.h = d.w = 13, d.strideH = d.strideW = 4, d.pad(3, 3); });
    add("stride2x3", [](ConvDesc& d) { d.strideH = 2, d.strideW = 3; });
    add("dilation2", [](ConvDesc& d) { d.h = d.w = 13, d.dilationH = d.dilationW = 2, d.pad(2, 2); });
    add("dilation3", [](ConvDesc& d) { d.h = d.w = 13, d.dilationH = d.dilationW = 3, d.pad(3, 3); });
    add("dilation1x3", [](ConvDesc& d) { d.dilationW = 3, d.pad(1, 3); });
    add("dilation3_stride2",
        [](ConvDesc& d) { d.h = d.w = 15, d.dilationH = d.dilationW = 3, d.strideH = d.strideW = 2; });
    add("asym_pad_t0b2l1r0", [](ConvDesc& d) { d.padTop = 0, d.padBottom = 2, d.padLeft = 1, d.padRight = 0; });
    add("asym_pad_t3b0l0r2", [](ConvDesc& d) { d.padTop = 3, d.padBottom = 0, d.padLeft = 0, d.padRight = 2; });
    add("pad_gt_kernel_bias", [](ConvDesc& d) { d.r = d.s = 1, d.pad(2, 3), d.hasBias = true; });
    add("c1", [](ConvDesc& d) { d.c = 1; });
    add("k1", [](ConvDesc& d) { d.k = 1; });
    add("c1_k1", [](ConvDesc& d) { d.c = d.k = 1; });
    add("depthwise", [](ConvDesc& d) { d.groups = 8; });
    add("depthwise_stride2", [](ConvDesc& d) { d.groups = 8, d.strideH = d.strideW = 2; });
    add("depthwise_5x5_dil2",
        [](ConvDesc& d) { d.groups = 8, d.r = d.s = 5, d.dilationH = d.dilationW = 2, d.pad(4, 4); });
    add("depthwise_mult2", [](ConvDesc& d) { d.c = d.groups = 4, d.k = 8; });
    add("depthwise_nhwc_f16",
        [](ConvDesc& d) { d.groups = 8, d.dtype = DType::F16, d.inputLayout = d.outputLayout = TensorLayout::NHWC; });
    // "depthwise" kernel paths: NCHW blocks, NHWC vec4 in/out, NHWC scalar lanes (C % 4 != 0 or
    // a multiplier), tall filters (one row per block), the generic path (81 taps).
    auto nhwc = [](ConvDesc& d) { d.inputLayout = d.outputLayout = TensorLayout::NHWC; };
    add("dw_mult2_s2_bf16_epilogue", [](ConvDesc& d) {
        d.c = d.groups = 6, d.k = 12, d.h = 13, d.w = 17, d.strideH = d.strideW = 2, d.dtype = DType::BF16;
        d.hasBias = d.hasResidual = true, d.activation = Activation::Relu6;
    });
    add("dw_mult3_nhwc_asym_pad", [=](ConvDesc& d) {
        d.c = d.groups = 5, d.k = 15, d.padTop = 0, d.padBottom = 2, d.padLeft = 2, d.padRight = 1, nhwc(d);
    });
    add("dw_nhwc_vec4_bias_res", [=](ConvDesc& d) {
        d.n = 2, d.c = d.k = d.groups = 12, d.h = d.w = 17, d.hasBias = d.hasResidual = true, nhwc(d);
    });
    add("dw_nhwc_vec4_s2_f16_leaky", [=](ConvDesc& d) {
        d.c = d.k = d.groups = 16, d.h = 15, d.w = 21, d.strideH = d.strideW = 2, d.dtype = DType::F16, nhwc(d);
        d.hasBias = true, d.activation = Activation::LeakyRelu, d.activationAlpha = 0.2f;
    });
    add("dw_nhwc_vec4_bf16_bias_res_relu6", [=](ConvDesc& d) {
        d.n = 2, d.c = d.k = d.groups = 24, d.h = 11, d.w = 13, d.dtype = DType::BF16, nhwc(d);
        d.hasBias = d.hasResidual = true, d.activation = Activation::Relu6;
    });
    add("dw_nhwc_c6_dil2_bf16", [=](ConvDesc& d) {
        d.n = 2, d.c = d.k = d.groups = 6, d.h = d.w = 14, d.dilationH = d.dilationW = 2, d.pad(2, 2),
        d.dtype = DType::BF16, nhwc(d);
    });
    add("dw_nchw_n2_s2_dil2_f16_asym", [](ConvDesc& d) {
        d.n = 2, d.c = d.k = d.groups = 7, d.h = 19, d.w = 23, d.strideH = d.strideW = 2, d.dilationH = d.dilationW = 2;
        d.padTop = 1, d.padBottom = 3, d.padLeft = 2, d.padRight = 0, d.dtype = DType::F16, d.hasResidual = true;
    });
    add("dw_nhwc_in_nchw_out_c8", [](ConvDesc& d) {
        d.c = d.k = d.groups = 8, d.h = d.w = 16, d.inputLayout = TensorLayout::NHWC, d.hasBias = d.hasResidual = true;
    });
    add("dw_nchw_in_nhwc_out_5x5", [](ConvDesc& d) {
        d.c = d.k = d.groups = 8, d.h = d.w = 16, d.r = d.s = 5, d.pad(2, 2), d.outputLayout = TensorLayout::NHWC;
    });
    add("dw_nchw_vec4_f16_bias_res", [](ConvDesc& d) {  // W, Q % 4 == 0: chunked rows, vector stores
        d.n = 2, d.c = d.k = d.groups = 8, d.h = 11, d.w = 16, d.dtype = DType::F16, d.hasBias = d.hasResidual = true;
    });
    add("dw_nchw_vec4_s2_padl3_mult2", [](ConvDesc& d) {
        d.c = d.groups = 4, d.k = 8, d.h = d.w = 20, d.r = d.s = 5, d.strideH = d.strideW = 2;
        d.padTop = 2, d.padBottom = 2, d.padLeft = 3, d.padRight = 1;
    });
    add("dw_nchw_vec4_1x1_pad0_bf16", [](ConvDesc& d) {
        d.c = d.k = d.groups = 6, d.h = 5, d.w = 12, d.r = d.s = 1, d.pad(0, 0), d.dtype = DType::BF16,
        d.hasResidual = true;
    });
    add("dw_7x7_nhwc_tall_block",
        [=](ConvDesc& d) { d.c = d.k = d.groups = 8, d.h = d.w = 16, d.r = d.s = 7, d.pad(3, 3), nhwc(d); });
    add("dw_9x9_generic",
        [](ConvDesc& d) { d.c = d.k = d.groups = 4, d.h = d.w = 12, d.r = d.s = 9, d.pad(4, 4), d.hasBias = true; });
    add("dw_c1_mult4_1x1_s2",
        [](ConvDesc& d) { d.c = 1, d.k = 4, d.h = d.w = 10, d.r = d.s = 1, d.strideH = d.strideW = 2, d.pad(0, 0); });
    add("grouped4", [](ConvDesc& d) { d.c = 16, d.k = 8, d.groups = 4; });
    add("grouped4_k16", [](ConvDesc& d) { d.c = 8, d.k = 16, d.groups = 4; });
    add("grouped3_odd", [](ConvDesc& d) { d.c = 6, d.k = 9, d.groups = 3; });
    add("grouped2_nhwc_krsc", [](ConvDesc& d) {
        d.c = 12, d.k = 10, d.groups = 2, d.inputLayout = d.outputLayout = TensorLayout::NHWC;
        d.filterLayout = FilterLayout::KRSC;
    });
    add("odd_7x13", [](ConvDesc& d) { d.h = 7, d.w = 13, d.c = 5, d.k = 7, d.r = 3, d.s = 2, d.pad(1, 0); });
    add("rect_1x7", [](ConvDesc& d) { d.r = 1, d.s = 7, d.pad(0, 3); });
    add("tall_kernel_r33", [](ConvDesc& d) { d.c = 2, d.k = 3, d.h = 40, d.w = 6, d.r = 33, d.s = 1, d.pad(16, 0); });
    add("rect_7x1", [](ConvDesc& d) { d.h = 12, d.r = 7, d.s = 1, d.pad(3, 0); });
    add("batch3", [](ConvDesc& d) { d.n = 3; });
    add("batch3_nhwc_krsc", [](ConvDesc& d) {
        d.n = 3, d.inputLayout = d.outputLayout = TensorLayout::NHWC, d.filterLayout = FilterLayout::KRSC;
    });
    add("tails_c67_k65", [](ConvDesc& d) { d.c = 67, d.k = 65, d.h = 17, d.w = 19; });
    add("wide_k130", [](ConvDesc& d) { d.c = 3, d.k = 130, d.h = d.w = 12; });
    add("long_reduction_c96", [](ConvDesc& d) { d.c = 96, d.h = d.w = 6; });
    add("f16_odd_count",
        [](ConvDesc& d) { d.c = d.k = 1, d.h = d.w = 3, d.r = d.s = 1, d.pad(0, 0), d.dtype = DType::F16; });
    add("bf16_odd_count",
        [](ConvDesc& d) { d.c = d.k = 3, d.h = 3, d.w = 5, d.dtype = DType::BF16, d.hasResidual = true; });
    add("bias", [](ConvDesc& d) { d.hasBias = true; });
    add("residual", [](ConvDesc& d) { d.hasResidual = true; });
    add("bias_residual", [](ConvDesc& d) { d.hasBias = d.hasResidual = true; });
    for (auto a : {Activation::None, Activation::Relu, Activation::Relu6, Activation::LeakyRelu, Activation::Gelu,
                   Activation::Silu, Activation::Sigmoid})
        for (auto t : {DType::F32, DType::F16, DType::BF16})
            add("act_" + std::string(toString(a)) + "_" + std::string(toString(t)), [=](ConvDesc& d) {
                d.hasBias = d.hasResidual = true, d.activation = a, d.dtype = t;
                d.activationAlpha = 0.2f;  // not the default, so a hard-coded slope shows
            });
    // Every layout combination with every dtype, on a shape whose dims all differ so that any
    // transposition shows.
    for (auto t : {DType::F32, DType::F16, DType::BF16})
        for (auto in : {TensorLayout::NCHW, TensorLayout::NHWC})
            for (auto out : {TensorLayout::NCHW, TensorLayout::NHWC})
                for (auto f : {FilterLayout::KCRS, FilterLayout::KRSC})
                    add("layout_" + std::string(toString(t)) + "_" + std::string(toString(in)) + "_" +
                            std::string(toString(out)) + "_" + std::string(toString(f)),
                        [=](ConvDesc& d) {
                            d.n = 2, d.c = 5, d.k = 6, d.h = 7, d.w = 9, d.r = 3, d.s = 2, d.pad(1, 0);
                            d.dtype = t, d.inputLayout = in, d.outputLayout = out, d.filterLayout = f;
                            d.hasBias = d.hasResidual = true;
                        });
    return v;
}

const std::vector<EdgeCase>& cases() {
    static const auto v = makeCases();
    return v;
}

std::vector<std::string> algorithmsAndAuto() {
    auto v = vkconv::algorithmNames();
    v.insert(v.begin(), "auto");
    return v;
}

// "" when some algorithm accepts d (so "auto" must too), else every algorithm's reason.
std::string whyNoAlgorithm(const ConvDesc& d) {
    std::string all;
    for (const auto& a : vkconv::algorithmNames()) {
        const auto why = vkconv::whyUnsupported(ctx(), d, a);
        if (why.empty()) return "";
        all += a + ": " + why + "; ";
    }
    return all;
}

// Skips (visibly) when `algorithm` declines d; returns true when the test should go on.
bool acceptsOrSkip(const ConvDesc& d, const std::string& algorithm, std::string* reason) {
    *reason = algorithm == "auto" ? whyNoAlgorithm(d) : vkconv::whyUnsupported(ctx(), d, algorithm);
    return reason->empty();
}

using Param = std::tuple<int, std::string>;
std::string paramName(const ::testing::TestParamInfo<Param>& info) { return caseAlgorithmName(cases(), info.param); }

}  // namespace

class Edges : public VkconvParamTest<Param> {};

TEST_P(Edges, MatchesReference) {
    const auto& [i, algorithm] = GetParam();
    const auto& c = cases()[size_t(i)];
    std::string why;
    if (!acceptsOrSkip(c.desc, algorithm, &why))
        GTEST_SKIP() << algorithm << " declines " << c.desc.toString() << ": " << why;
    vkconv::PlanOptions o;
    o.algorithm = algorithm;
    const auto r = runAndCheck(ctx(), c.desc, o, 1000 + uint64_t(i), DataMode::Uniform);
    EXPECT_TRUE(passed(r)) << "case " << c.name;
    if (algorithm != "auto" && r.error.empty()) {
        EXPECT_EQ(r.algorithm, algorithm);
    }
    RecordProperty("chosen", r.algorithm + " " + r.config);
}

INSTANTIATE_TEST_SUITE_P(All, Edges,
                         ::testing::Combine(::testing::Range(0, int(cases().size())),
                                            ::testing::ValuesIn(algorithmsAndAuto())),
                         paramName);

// Small-integer data: fp32 sums of products of integers in [-3,3] are exact, so any
// difference at all is a bug (wrong tap, lost element, double-counted split-K slice).
class EdgesExact : public VkconvParamTest<Param> {};

TEST_P(EdgesExact, IntegerDataIsExact) {
    const auto& [i, algorithm] = GetParam();
    const ConvDesc& d = cases()[size_t(i)].desc;
    std::string why;
    if (!acceptsOrSkip(d, algorithm, &why)) GTEST_SKIP() << algorithm << " declines " << d.toString() << ": " << why;
    vkconv::PlanOptions o;
    o.algorithm = algorithm;
    const auto r = runAndCheck(ctx(), d, o, 2000 + uint64_t(i), DataMode::Integer);
    // winograd F(4x4,3x3) cannot be exact (1/6 in its transforms): checked against its tolerance,
    // which on these small integers is far below 0.5.
    if (r.amplification == 1.0) {
        ASSERT_TRUE(r.exact) << r.algorithm << " " << r.config;
    }
    EXPECT_TRUE(passed(r)) << "case " << cases()[size_t(i)].name;
}

// The fp32 cases with a piecewise-linear activation (the others cannot be exact).
static std::vector<int> exactCases() {
    std::vector<int> v;
    for (size_t i = 0; i < cases().size(); ++i) {
        const auto& d = cases()[i].desc;
        if (d.dtype == DType::F32 &&
            (d.activation == Activation::None || d.activation == Activation::Relu || d.activation == Activation::Relu6))
            v.push_back(int(i));
    }
    return v;
}

INSTANTIATE_TEST_SUITE_P(All, EdgesExact,
                         ::testing::Combine(::testing::ValuesIn(exactCases()),
                                            ::testing::ValuesIn(algorithmsAndAuto())),
                         paramName);

// Each subgroup size the device offers (powers of two in [min, max]) through each algorithm.
class EdgesSubgroup : public VkconvTest {};

TEST_F(EdgesSubgroup, EverySupportedSize) {
    const auto& caps = ctx().caps();
    // 0 is the device's choice; on a device that can require its single size, every other test
    // runs that size already, so there only the required-size path is added.
    std::vector<uint32_t> sizes;
    if (!caps.subgroupSizeControl || caps.minSubgroupSize != caps.maxSubgroupSize) sizes.push_back(0);
    for (uint32_t s = std::max(1u, caps.minSubgroupSize); s <= caps.maxSubgroupSize; s *= 2) sizes.push_back(s);
    int ran = 0;
    std::string declined;
    for (const char* name : {"base", "tails_c67_k65", "depthwise_stride2", "layout_fp16_nhwc_nhwc_krsc"}) {
        const auto it = std::find_if(cases().begin(), cases().end(), [&](const EdgeCase& c) { return c.name == name; });
        ASSERT_TRUE(it != cases().end()) << "no edge case named " << name;
        for (const auto& a : vkconv::algorithmNames()) {
            if (!vkconv::whyUnsupported(ctx(), it->desc, a).empty()) continue;
            for (uint32_t sg : sizes) {
                vkconv::PlanOptions o;
                o.algorithm = a;
                o.subgroupSize = sg;
                const auto r = runAndCheck(ctx(), it->desc, o, 3000 + sg, DataMode::Uniform);
                if (r.errorCode == vkconv::ErrorCode::Unsupported) {  // an algorithm may need one size
                    declined += a + "@sg" + std::to_string(sg) + " ";
                    continue;
                }
                ++ran;
                EXPECT_TRUE(passed(r)) << "case " << name << " subgroupSize " << sg;
            }
        }
    }
    EXPECT_GT(ran, 0);
    if (!declined.empty()) std::cout << "[ info ] declined subgroup sizes: " << declined << std::endl;
}

// The non-default tiles (which no heuristic picks on these small shapes) of the algorithms that
// list them, forced one by one on the edge cases that stress tails, groups, strides and layouts.
class EdgesTiles : public VkconvTest {};

TEST_F(EdgesTiles, EveryTileOfTheDirectLevels) {
    const std::pair<const char*, std::vector<std::string>> tiled[] = {
        {"direct_blocked", {"4x4", "8x4"}},
        {"direct_tiled", {"8x16x32", "16x16x16", "8x8x64"}},
    };
    int ran = 0;
    for (const char* name : {"tails_c67_k65", "wide_k130", "grouped3_odd", "grouped2_nhwc_krsc", "dilation3_stride2",
                             "stride2x3", "asym_pad_t3b0l0r2", "kernel_gt_input_rect", "batch3_nhwc_krsc",
                             "layout_bf16_nhwc_nchw_krsc", "act_leaky_relu_fp16"}) {
        const auto it = std::find_if(cases().begin(), cases().end(), [&](const EdgeCase& c) { return c.name == name; });
        ASSERT_TRUE(it != cases().end()) << "no edge case named " << name;
        for (const auto& [algorithm, tiles] : tiled)
            for (const auto& tile : tiles) {
                vkconv::PlanOptions o;
                o.algorithm = algorithm;
                o.tile = tile;
                const auto r = runAndCheck(ctx(), it->desc, o, 5000 + uint64_t(ran), DataMode::Integer);
                ++ran;
                EXPECT_TRUE(passed(r)) << "case " << name << " " << algorithm << " tile " << tile;
                EXPECT_NE(r.config.find(tile), std::string::npos) << r.config;
            }
    }
    EXPECT_GT(ran, 0);
}

// A filter whose halo and filter chunk exceed shared memory even at one channel per chunk:
// direct_tiled declines it with the reason (never a failing pipeline), direct_blocked runs it.
TEST_F(EdgesTiles, DirectTiledDeclinesHaloBeyondSharedMemory) {
    ConvDesc d;
    d.c = 2, d.k = 3, d.h = d.w = 40, d.r = d.s = 31, d.pad(15, 15), d.dilationH = 2;
    const auto why = vkconv::whyUnsupported(ctx(), d, "direct_tiled");
    if (why.empty()) GTEST_SKIP() << "this device's shared memory holds even this halo (75 KB at tile 16x16x16)";
    ASSERT_NE(why.find("shared memory"), std::string::npos) << why;
    vkconv::PlanOptions o;
    o.algorithm = "direct_tiled";
    EXPECT_EQ(runAndCheck(ctx(), d, o, 6000).errorCode, vkconv::ErrorCode::Unsupported);
    o.algorithm = "direct_blocked";
    EXPECT_TRUE(passed(runAndCheck(ctx(), d, o, 6001, DataMode::Integer)));
    std::cout << "[ info ] direct_tiled: " << why << std::endl;
}
