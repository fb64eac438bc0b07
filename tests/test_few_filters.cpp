// The "direct_few_filters" kernel (at most 8 filters per group): every tile forced through
// PlanOptions::tile ("<invocations>x<pixels per invocation>") on shapes that exercise its filter
// chunks (one and several), both register widths (KP = 4 and 8), the 16-byte NHWC loads shared by
// 1-16 invocations per pixel and the element loads, the tap masks (strides, dilations, asymmetric padding, a kernel
// wider than the input), groups, layouts, dtypes and the epilogue; then the router and the declines.
#include <string>
#include <vector>

#include "environment.hpp"
#include "harness.hpp"

using namespace vkt;
using vkconv::Activation;
using vkconv::ConvDesc;
using vkconv::DType;
using vkconv::FilterLayout;
using vkconv::TensorLayout;

namespace {

using FewFiltersCase = NamedDesc;

std::vector<FewFiltersCase> makeCases() {
    std::vector<FewFiltersCase> v;
    auto add = [&](const std::string& name, auto f) {
        ConvDesc d;
        d.c = 128, d.h = 13, d.w = 11, d.k = 3, d.r = d.s = 3, d.pad(1, 1);
        f(d);
        v.push_back({name, d});
    };
    const auto nhwc = setNhwcKrsc;
    // The decoder's RGB output layer: 128 channels in two filter chunks.
    add("rgb_out_c128_k3_bias", [](ConvDesc& d) { d.hasBias = true; });
    add("nhwc_f16_c64_k8_res_relu", [=](ConvDesc& d) {
        d.c = 64, d.k = 8, d.h = 11, d.w = 9, d.dtype = DType::F16, d.hasResidual = true,
        d.activation = Activation::Relu, nhwc(d);
    });
    add("nhwc_f32_c32_k6_leaky", [=](ConvDesc& d) {
        d.c = 32, d.k = 6, d.activation = Activation::LeakyRelu, d.activationAlpha = 0.25f, nhwc(d);
    });
    add("nhwc_bf16_c21_k5_s2_dil2_asym", [=](ConvDesc& d) {
        d.c = 21, d.k = 5, d.dtype = DType::BF16, d.strideH = d.strideW = 2, d.dilationH = d.dilationW = 2;
        d.padTop = 3, d.padBottom = 0, d.padLeft = 1, d.padRight = 2;
        nhwc(d);
    });
    // 16 invocations per pixel, four filter chunks; two invocations per pixel for eight filters.
    add("nhwc_f32_c256_k7_chunks",
        [=](ConvDesc& d) { d.c = 256, d.k = 7, d.h = 9, d.w = 7, d.hasBias = true, nhwc(d); });
    add("nhwc_groups2_c16_k10_res",
        [=](ConvDesc& d) { d.c = 16, d.groups = 2, d.k = 10, d.hasResidual = true, nhwc(d); });
    add("groups4_c24_k12_krsc_nchw_in_nhwc_out", [](ConvDesc& d) {
        d.c = 24, d.groups = 4, d.k = 12, d.filterLayout = FilterLayout::KRSC, d.outputLayout = TensorLayout::NHWC;
    });
    add("k1_5x5_dil3_n3", [](ConvDesc& d) { d.n = 3, d.c = 7, d.k = 1, d.r = d.s = 5, d.dilationH = 3, d.pad(6, 2); });
    add("f16_1x1_c256_k4_s2", [](ConvDesc& d) {
        d.c = 256, d.k = 4, d.r = d.s = 1, d.pad(0, 0), d.strideH = d.strideW = 2, d.dtype = DType::F16;
    });
    add("kernel_wider_than_input", [](ConvDesc& d) { d.c = 9, d.h = 4, d.w = 3, d.r = d.s = 5, d.pad(2, 3), d.k = 2; });
    return v;
}

const std::vector<FewFiltersCase>& cases() {
    static const auto v = makeCases();
    return v;
}

// "" is the heuristic's pick; then every workgroup size and pixels-per-invocation count, and a
// grid of 3 workgroups (each strides over several pixel tiles, as on a GPU with large layers).
const std::vector<std::string> kTiles = {"", "256x4", "128x2", "64x1", "64x2g3"};

using Param = std::tuple<int, std::string>;
std::string paramName(const ::testing::TestParamInfo<Param>& info) { return caseTileName(cases(), info.param); }

}  // namespace

class FewFiltersTiles : public VkconvParamTest<Param> {};

// Integer data: fp32 sums of small integers are exact, so any difference is a wrong tap, mask
// bit or staged filter; the 16-bit cases are checked against their rounding tolerance.
TEST_P(FewFiltersTiles, MatchesReference) {
    const auto& [i, tile] = GetParam();
    const ConvDesc& d = cases()[size_t(i)].desc;
    vkconv::PlanOptions o;
    o.algorithm = "direct_few_filters";
    o.tile = tile;
    ASSERT_EQ(vkconv::whyUnsupported(ctx(), d, o.algorithm), "") << d.toString();
    VKT_SKIP_IF_DECLINED(ctx(), d, o, "multiply-adds per tap");  // a forced tile may unroll too much
    const auto r = runAndCheck(ctx(), d, o, 7300 + uint64_t(i), DataMode::Integer);
    EXPECT_TRUE(passed(r)) << "case " << cases()[size_t(i)].name << " tile '" << tile << "'";
    if (requiresExact(d, DataMode::Integer)) {
        EXPECT_TRUE(r.exact) << r.config;
    }
    if (!tile.empty()) {
        EXPECT_NE(r.config.find(tile), std::string::npos) << r.config;
    }
    RecordProperty("chosen", r.algorithm + " " + r.config);
}

INSTANTIATE_TEST_SUITE_P(All, FewFiltersTiles,
                         ::testing::Combine(::testing::Range(0, int(cases().size())), ::testing::ValuesIn(kTiles)),
                         paramName);

class FewFiltersRouting : public VkconvTest {};

// The router takes layers with at most 8 filters per group here (not depthwise ones; on the
// scalar path at most 128 channels per group) and leaves the rest; more filters, more than 32 taps
// and bad tile names are declined with a reason.
TEST_F(FewFiltersRouting, ChoosesAndDeclines) {
    ConvDesc rgb;
    rgb.c = 128, rgb.h = rgb.w = 64, rgb.k = 3, rgb.r = rgb.s = 3, rgb.pad(1, 1);
    for (DType t : {DType::F32, DType::F16}) {
        ConvDesc d = rgb;
        d.dtype = t;
        EXPECT_EQ(vkconv::Plan::create(ctx(), d).algorithm(), "direct_few_filters") << d.toString();
    }
    ConvDesc depthwise = rgb;
    depthwise.k = depthwise.groups = 128;
    EXPECT_EQ(vkconv::Plan::create(ctx(), depthwise).algorithm(), "depthwise");
    // The scalar path keeps layers of more than 128 channels per group on the GEMM kernels.
    ConvDesc deep = rgb;
    deep.c = 256;
    EXPECT_NE(vkconv::Plan::create(ctx(), deep).algorithm(), "direct_few_filters");
    ConvDesc wide = rgb;
    wide.k = 9;
    EXPECT_NE(vkconv::Plan::create(ctx(), wide).algorithm(), "direct_few_filters");
    std::string why = vkconv::whyUnsupported(ctx(), wide, "direct_few_filters");
    EXPECT_NE(why.find("few filters"), std::string::npos) << why;
    ConvDesc big = rgb;
    big.r = big.s = 7, big.pad(3, 3);
    why = vkconv::whyUnsupported(ctx(), big, "direct_few_filters");
    EXPECT_NE(why.find("49 taps"), std::string::npos) << why;
    EXPECT_NE(vkconv::Plan::create(ctx(), big).algorithm(), "direct_few_filters");
    // 4 pixels x 8 filters x 8 fp16 channels per tap: declined (NVIDIA's compiler did not finish it).
    ConvDesc eight = rgb;
    eight.k = 8, eight.dtype = DType::F16, eight.inputLayout = eight.outputLayout = TensorLayout::NHWC;
    vkconv::PlanOptions o4;
    o4.algorithm = "direct_few_filters";
    o4.tile = "256x4";
    why = planDeclines(ctx(), eight, o4);
    EXPECT_NE(why.find("multiply-adds per tap"), std::string::npos) << why;
    o4.tile.clear();
    EXPECT_EQ(vkconv::Plan::create(ctx(), eight, o4).config().find("256x4"), std::string::npos);
    for (const char* bad : {"256", "256x3", "96x4", "256x4x", "x4", "256x4g0", "256x4g"}) {
        vkconv::PlanOptions o;
        o.algorithm = "direct_few_filters";
        o.tile = bad;
        EXPECT_THROW(vkconv::Plan::create(ctx(), rgb, o), vkconv::Error) << "tile '" << bad << "'";
    }
}
