// The "depthwise" kernel's block shapes, forced through PlanOptions::tile ("<rows>x<cols>"):
// the heuristic picks small blocks for the small shapes of the edge and sweep tests, so every
// block shape is run here on shapes that exercise its borders, vector paths and multipliers.
#include <cstdlib>
#include <string>
#include <vector>

#include "environment.hpp"
#include "harness.hpp"

using namespace vkt;
using vkconv::Activation;
using vkconv::ConvDesc;
using vkconv::DType;
using vkconv::TensorLayout;

namespace {

using DwCase = NamedDesc;

std::vector<DwCase> makeDwCases() {
    std::vector<DwCase> v;
    auto add = [&](const std::string& name, auto f) {
        ConvDesc d;
        d.c = d.k = d.groups = 8, d.h = 13, d.w = 20, d.r = d.s = 3, d.pad(1, 1);
        f(d);
        v.push_back({name, d});
    };
    auto nhwc = [](ConvDesc& d) { d.inputLayout = d.outputLayout = TensorLayout::NHWC; };
    add("nchw_s1", [](ConvDesc&) {});  // chunked rows, vector stores
    add("nchw_s2_f16_bias_res", [](ConvDesc& d) {
        d.strideH = d.strideW = 2, d.dtype = DType::F16, d.hasBias = d.hasResidual = true,
        d.activation = Activation::Relu6;
    });
    add("nchw_w19_s1_bf16", [](ConvDesc& d) { d.w = 19, d.dtype = DType::BF16, d.hasResidual = true; });  // scalar rows
    add("nchw_5x5_dil2_asym", [](ConvDesc& d) {
        d.r = d.s = 5, d.dilationH = d.dilationW = 2, d.padTop = 3, d.padBottom = 4, d.padLeft = 5, d.padRight = 2;
    });
    add("nchw_mult3_s3_n2", [](ConvDesc& d) { d.n = 2, d.c = d.groups = 3, d.k = 9, d.strideH = d.strideW = 3; });
    add("nhwc_s1_bias_res", [=](ConvDesc& d) { d.hasBias = d.hasResidual = true, nhwc(d); });  // vec4 in/out
    add("nhwc_s2_f16", [=](ConvDesc& d) { d.strideH = d.strideW = 2, d.dtype = DType::F16, nhwc(d); });
    add("nhwc_c10_bf16_res",
        [=](ConvDesc& d) { d.c = d.k = d.groups = 10, d.dtype = DType::BF16, d.hasResidual = true, nhwc(d); });
    add("nhwc_mult2_dil3",
        [=](ConvDesc& d) { d.c = d.groups = 4, d.k = 8, d.dilationH = d.dilationW = 3, d.pad(3, 3), nhwc(d); });
    add("nhwc_in_nchw_out_s2x1",
        [](ConvDesc& d) { d.strideH = 2, d.inputLayout = TensorLayout::NHWC, d.hasBias = true; });
    add("nchw_in_nhwc_out_1x5",
        [](ConvDesc& d) { d.r = 1, d.s = 5, d.pad(0, 2), d.outputLayout = TensorLayout::NHWC; });
    add("nhwc_7x7_n3", [=](ConvDesc& d) { d.n = 3, d.c = d.k = d.groups = 12, d.r = d.s = 7, d.pad(3, 3), nhwc(d); });
    return v;
}

const std::vector<DwCase>& dwCases() {
    static const auto v = makeDwCases();
    return v;
}

const std::vector<std::string> kTiles = {"", "1x1", "1x4", "2x4", "2x2", "3x8", "4x3", "1x8"};

using Param = std::tuple<int, std::string>;
std::string paramName(const ::testing::TestParamInfo<Param>& info) {
    const std::string& t = std::get<1>(info.param);
    return sanitizeName(dwCases()[size_t(std::get<0>(info.param))].name + "__" + (t.empty() ? "heuristic" : t));
}

}  // namespace

class DepthwiseTiles : public VkconvParamTest<Param> {};

TEST_P(DepthwiseTiles, IntegerDataIsExact) {
    const auto& [i, tile] = GetParam();
    const ConvDesc& d = dwCases()[size_t(i)].desc;
    vkconv::PlanOptions o;
    o.algorithm = "depthwise";
    o.tile = tile;
    const std::string why = vkconv::whyUnsupported(ctx(), d, "depthwise");
    ASSERT_EQ(why, "") << d.toString();
    const auto r = runAndCheck(ctx(), d, o, 5000 + uint64_t(i), DataMode::Integer);
    EXPECT_TRUE(passed(r)) << "case " << dwCases()[size_t(i)].name << " tile '" << tile << "'";
    RecordProperty("chosen", r.algorithm + " " + r.config);
    // fp16 NHWC input: the path specialized on the layer's sizes.
    bool shape =
        d.dtype == DType::F16 && d.inputLayout == TensorLayout::NHWC && r.config.find("generic") == std::string::npos;
    EXPECT_EQ(r.config.find(" shape") != std::string::npos, shape) << r.config;
}

INSTANTIATE_TEST_SUITE_P(All, DepthwiseTiles,
                         ::testing::Combine(::testing::Range(0, int(dwCases().size())), ::testing::ValuesIn(kTiles)),
                         paramName);

class DepthwiseRouting : public VkconvTest {};

// The router picks "depthwise" for groups == C > 1 with a whole multiplier; tiles it cannot
// parse or fit are declined with a reason; dense and grouped problems are declined.
TEST_F(DepthwiseRouting, ChoosesAndDeclines) {
    ConvDesc d;
    d.c = d.k = d.groups = 16, d.h = d.w = 14, d.r = d.s = 3, d.pad(1, 1);
    EXPECT_EQ(vkconv::Plan::create(ctx(), d).algorithm(), "depthwise");
    ConvDesc m = d;
    m.k = 32;
    EXPECT_EQ(vkconv::Plan::create(ctx(), m).algorithm(), "depthwise");
    for (const char* bad : {"x4", "2x", "0x4", "2x9", "5x1", "2x4x", "2x4/1"}) {
        vkconv::PlanOptions o;
        o.algorithm = "depthwise";
        o.tile = bad;
        EXPECT_THROW(vkconv::Plan::create(ctx(), d, o), vkconv::Error) << "tile '" << bad << "'";
    }
    ConvDesc wide = d;  // a 5x5 filter dilated by 7 spans 29 columns: 8 outputs need 36 > 32
    wide.r = wide.s = 5, wide.dilationH = wide.dilationW = 7, wide.h = wide.w = 40, wide.pad(14, 14);
    vkconv::PlanOptions o;
    o.algorithm = "depthwise";
    o.tile = "1x8";
    EXPECT_THROW(vkconv::Plan::create(ctx(), wide, o), vkconv::Error);
    o.tile = "1x4";
    EXPECT_EQ(vkconv::Plan::create(ctx(), wide, o).algorithm(), "depthwise");
    ConvDesc dense = d;
    dense.groups = 1;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), dense, "depthwise"), "");
    ConvDesc grouped = d;
    grouped.groups = 4;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), grouped, "depthwise"), "");
}

// ---- "depthwise_tiled": the shared-memory halo kernel (groups == C == K, NHWC) ----
namespace {

std::vector<DwCase> makeTiledCases() {
    std::vector<DwCase> v;
    auto add = [&](const std::string& name, auto f) {
        ConvDesc d;
        d.c = d.k = d.groups = 32, d.h = 13, d.w = 20, d.r = d.s = 3, d.pad(1, 1);
        d.inputLayout = d.outputLayout = TensorLayout::NHWC;
        f(d);
        v.push_back({name, d});
    };
    add("c32_s1_f32_bias_res", [](ConvDesc& d) { d.hasBias = d.hasResidual = true; });
    add("c32_s2_f16_leaky", [](ConvDesc& d) {
        d.h = 15, d.w = 21, d.strideH = d.strideW = 2, d.dtype = DType::F16;
        d.hasBias = true, d.activation = Activation::LeakyRelu, d.activationAlpha = 0.2f;
    });
    add("c24_n2_bf16_bias_res_relu6", [](ConvDesc& d) {
        d.n = 2, d.c = d.k = d.groups = 24, d.h = 11, d.w = 13, d.dtype = DType::BF16;
        d.hasBias = d.hasResidual = true, d.activation = Activation::Relu6;
    });
    add("c64_f16_5x5_dil2_asym", [](ConvDesc& d) {
        d.c = d.k = d.groups = 64, d.r = d.s = 5, d.dilationH = d.dilationW = 2, d.dtype = DType::F16;
        d.padTop = 3, d.padBottom = 4, d.padLeft = 5, d.padRight = 2;
    });
    add("c96_n3_7x7map_f16_res", [](ConvDesc& d) {
        d.n = 3, d.c = d.k = d.groups = 96, d.h = d.w = 7, d.dtype = DType::F16, d.hasResidual = true;
    });
    add("c16_s2x1_1x3_f32", [](ConvDesc& d) { d.c = d.k = d.groups = 16, d.strideH = 2, d.r = 1, d.pad(0, 1); });
    add("c16_s3_k2_nopad_f16", [](ConvDesc& d) {
        d.c = d.k = d.groups = 16, d.h = d.w = 11, d.r = d.s = 2, d.strideH = d.strideW = 3, d.pad(0, 0),
        d.dtype = DType::F16;
    });
    add("c8_pad_gt_kernel_bf16", [](ConvDesc& d) {
        d.c = d.k = d.groups = 8, d.r = d.s = 1, d.pad(2, 3), d.dtype = DType::BF16, d.hasBias = true;
    });
    return v;
}

const std::vector<DwCase>& tiledCases() {
    static const auto v = makeTiledCases();
    return v;
}

// The heuristic, and tiles of 8/16/32 channels, 1x1-2x4 outputs per invocation, 64-256 invocations.
const std::vector<std::string> kTiledTiles = {
    "", "32x8x16/2x4", "8x8x4/1x1", "16x4x16/1x4", "8x16x16/2x4", "16x8x16/1x2", "32x2x8/1x2"};

std::string tiledParamName(const ::testing::TestParamInfo<Param>& info) {
    const std::string& t = std::get<1>(info.param);
    return sanitizeName(tiledCases()[size_t(std::get<0>(info.param))].name + "__" + (t.empty() ? "heuristic" : t));
}

}  // namespace

class DepthwiseTiledTiles : public VkconvParamTest<Param> {};

// Integer data (exact) then uniform data; tiles the case's channels cannot take are skipped.
TEST_P(DepthwiseTiledTiles, Checked) {
    const auto& [i, tile] = GetParam();
    const ConvDesc& d = tiledCases()[size_t(i)].desc;
    ASSERT_EQ(vkconv::whyUnsupported(ctx(), d, "depthwise_tiled"), "") << d.toString();
    vkconv::PlanOptions o;
    o.algorithm = "depthwise_tiled";
    o.tile = tile;
    if (const std::string why = planDeclines(ctx(), d, o); !why.empty())
        GTEST_SKIP() << "tile '" << tile << "': " << why;
    const auto rs = checkIntegerThenUniform(ctx(), d, o, 6100 + uint64_t(i), tiledCases()[size_t(i)].name);
    for (const auto& r : rs) EXPECT_EQ(r.algorithm, "depthwise_tiled");
}

INSTANTIATE_TEST_SUITE_P(All, DepthwiseTiledTiles,
                         ::testing::Combine(::testing::Range(0, int(tiledCases().size())),
                                            ::testing::ValuesIn(kTiledTiles)),
                         tiledParamName);

// The router sends small NHWC depthwise layers with whole 16-byte channel words to depthwise_tiled;
// NCHW, multipliers, C % 8 != 0 for 16-bit and filters beyond 25 taps stay on "depthwise", each
// declined with its reason.
TEST_F(DepthwiseRouting, TiledTakesNhwcLayers) {
    ConvDesc d;
    d.c = d.k = d.groups = 32, d.h = d.w = 14, d.r = d.s = 3, d.pad(1, 1), d.dtype = DType::F16;
    d.inputLayout = d.outputLayout = TensorLayout::NHWC;
    EXPECT_EQ(vkconv::Plan::create(ctx(), d).algorithm(), "depthwise_tiled");
    auto declines = [&](ConvDesc x, const char* why) {
        EXPECT_NE(vkconv::whyUnsupported(ctx(), x, "depthwise_tiled").find(why), std::string::npos) << x.toString();
        EXPECT_EQ(vkconv::Plan::create(ctx(), x).algorithm(), "depthwise") << x.toString();
    };
    ConvDesc nchw = d;
    nchw.inputLayout = nchw.outputLayout = TensorLayout::NCHW;
    declines(nchw, "NHWC");
    ConvDesc mult = d;
    mult.k = 64;
    declines(mult, "groups == C == K");
    ConvDesc c12 = d;
    c12.c = c12.k = c12.groups = 12;
    declines(c12, "16-byte words");
    ConvDesc big = d;
    big.r = big.s = 7, big.pad(3, 3);
    declines(big, "taps");
    for (const char* bad : {"32x8x16", "32x8x16/2x3", "24x8x16/2x4", "32x8x16/2x4x", "x"}) {
        vkconv::PlanOptions o;
        o.algorithm = "depthwise_tiled";
        o.tile = bad;
        EXPECT_THROW(vkconv::Plan::create(ctx(), d, o), vkconv::Error) << "tile '" << bad << "'";
    }
}
