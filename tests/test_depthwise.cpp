// The "depthwise" kernel's block shapes, forced through PlanOptions::tile ("<rows>x<cols>"):
// the heuristic picks small blocks for the small shapes of the edge and sweep tests, so every
// block shape is run here on shapes that exercise its borders, vector paths and multipliers.
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
    add("nchw_s1", [](ConvDesc&) {});                                 // chunked rows, vector stores
    add("nchw_s2_f16_bias_res", [](ConvDesc& d) {
        d.strideH = d.strideW = 2, d.dtype = DType::F16, d.hasBias = d.hasResidual = true, d.activation = Activation::Relu6;
    });
    add("nchw_w19_s1_bf16", [](ConvDesc& d) { d.w = 19, d.dtype = DType::BF16, d.hasResidual = true; });  // scalar rows
    add("nchw_5x5_dil2_asym", [](ConvDesc& d) {
        d.r = d.s = 5, d.dilationH = d.dilationW = 2, d.padTop = 3, d.padBottom = 4, d.padLeft = 5, d.padRight = 2;
    });
    add("nchw_mult3_s3_n2", [](ConvDesc& d) { d.n = 2, d.c = d.groups = 3, d.k = 9, d.strideH = d.strideW = 3; });
    add("nhwc_s1_bias_res", [=](ConvDesc& d) { d.hasBias = d.hasResidual = true, nhwc(d); });   // vec4 in/out
    add("nhwc_s2_f16", [=](ConvDesc& d) { d.strideH = d.strideW = 2, d.dtype = DType::F16, nhwc(d); });
    add("nhwc_c10_bf16_res", [=](ConvDesc& d) { d.c = d.k = d.groups = 10, d.dtype = DType::BF16, d.hasResidual = true, nhwc(d); });
    add("nhwc_mult2_dil3", [=](ConvDesc& d) { d.c = d.groups = 4, d.k = 8, d.dilationH = d.dilationW = 3, d.pad(3, 3), nhwc(d); });
    add("nhwc_in_nchw_out_s2x1", [](ConvDesc& d) { d.strideH = 2, d.inputLayout = TensorLayout::NHWC, d.hasBias = true; });
    add("nchw_in_nhwc_out_1x5", [](ConvDesc& d) { d.r = 1, d.s = 5, d.pad(0, 2), d.outputLayout = TensorLayout::NHWC; });
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
