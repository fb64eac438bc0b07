// The "direct_few_channels" kernel (first layers): every tile shape forced through
// PlanOptions::tile ("<rows per invocation>x<columns>x<filters>") on shapes that exercise its
// halo (strides, dilations, asymmetric padding, ragged rows and columns), its row-group layout
// (8- and 16-wide columns: several row groups share a subgroup), partial filter tiles, groups,
// layouts, dtypes and the epilogue; then the router and the declines.
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

using FewCase = NamedDesc;

std::vector<FewCase> makeFewCases() {
    std::vector<FewCase> v;
    auto add = [&](const std::string& name, auto f) {
        ConvDesc d;
        d.c = 3, d.h = 21, d.w = 37, d.k = 24, d.r = d.s = 3, d.pad(1, 1);
        f(d);
        v.push_back({name, d});
    };
    const auto nhwc = setNhwcKrsc;
    add("c3_3x3", [](ConvDesc&) {});
    add("stem_7x7_s2_n2_bias_relu", [](ConvDesc& d) {
        d.n = 2, d.h = d.w = 45, d.k = 64, d.r = d.s = 7, d.pad(3, 3), d.strideH = d.strideW = 2, d.hasBias = true,
        d.activation = Activation::Relu;
    });
    add("nhwc_krsc_c4_k40_res", [=](ConvDesc& d) { d.c = 4, d.k = 40, d.hasResidual = true, nhwc(d); });
    add("c1_5x3_dil2x1_asym", [](ConvDesc& d) {
        d.c = 1, d.r = 5, d.dilationH = 2, d.padTop = 0, d.padBottom = 5, d.padLeft = 2, d.padRight = 0;
    });
    add("c2_s3x2_nhwc_in_nchw_out", [](ConvDesc& d) {
        d.c = 2, d.strideH = 3, d.strideW = 2, d.inputLayout = TensorLayout::NHWC, d.hasBias = true;
    });
    add("groups3_c6_k15_krsc",
        [](ConvDesc& d) { d.c = 6, d.groups = 3, d.k = 15, d.filterLayout = FilterLayout::KRSC; });
    add("c8_1x1_s2_nchw_in_nhwc_out", [](ConvDesc& d) {
        d.c = 8, d.r = d.s = 1, d.pad(0, 0), d.strideH = d.strideW = 2, d.outputLayout = TensorLayout::NHWC;
    });
    add("f16_c3_k70_relu6", [](ConvDesc& d) { d.dtype = DType::F16, d.k = 70, d.activation = Activation::Relu6; });
    add("bf16_nhwc_s2_res",
        [=](ConvDesc& d) { d.dtype = DType::BF16, d.strideH = d.strideW = 2, d.hasResidual = true, nhwc(d); });
    add("kernel_wider_than_input", [](ConvDesc& d) { d.h = 4, d.w = 3, d.r = d.s = 5, d.pad(2, 3), d.k = 9; });
    return v;
}

const std::vector<FewCase>& fewCases() {
    static const auto v = makeFewCases();
    return v;
}

// "" is the heuristic's pick; then every columns width (one, two and four row groups), every
// rows-per-invocation count and every filter count.
const std::vector<std::string> kTiles = {"", "8x32x64", "4x16x32", "2x8x16", "8x8x8", "2x32x8"};

using Param = std::tuple<int, std::string>;
std::string paramName(const ::testing::TestParamInfo<Param>& info) { return caseTileName(fewCases(), info.param); }

}  // namespace

class FewChannelsTiles : public VkconvParamTest<Param> {};

// Integer data: fp32 sums of small integers are exact, so any difference is a wrong tap, halo
// word or filter; the 16-bit cases are checked against their rounding tolerance.
TEST_P(FewChannelsTiles, MatchesReference) {
    const auto& [i, tile] = GetParam();
    const ConvDesc& d = fewCases()[size_t(i)].desc;
    vkconv::PlanOptions o;
    o.algorithm = "direct_few_channels";
    o.tile = tile;
    ASSERT_EQ(vkconv::whyUnsupported(ctx(), d, o.algorithm), "") << d.toString();
    VKT_SKIP_IF_DECLINED(ctx(), d, o, "shared memory");  // a forced tile may exceed it
    const auto r = runAndCheck(ctx(), d, o, 7000 + uint64_t(i), DataMode::Integer);
    EXPECT_TRUE(passed(r)) << "case " << fewCases()[size_t(i)].name << " tile '" << tile << "'";
    if (d.dtype == DType::F32) {
        EXPECT_TRUE(r.exact) << r.config;
    }
    if (!tile.empty()) {
        EXPECT_NE(r.config.find(tile), std::string::npos) << r.config;
    }
    RecordProperty("chosen", r.algorithm + " " + r.config);
}

INSTANTIATE_TEST_SUITE_P(All, FewChannelsTiles,
                         ::testing::Combine(::testing::Range(0, int(fewCases().size())), ::testing::ValuesIn(kTiles)),
                         paramName);

class FewChannelsRouting : public VkconvTest {};

// The router takes first layers (C/groups <= 4, 16+ filters) here and leaves the rest; bad tile
// names and tiles beyond shared memory are declined with a reason, never a failing pipeline.
TEST_F(FewChannelsRouting, ChoosesAndDeclines) {
    ConvDesc stem;
    stem.c = 3, stem.h = stem.w = 224, stem.k = 64, stem.r = stem.s = 7, stem.pad(3, 3),
    stem.strideH = stem.strideW = 2;
    EXPECT_EQ(vkconv::Plan::create(ctx(), stem).algorithm(), "direct_few_channels");
    ConvDesc vgg = stem;
    vgg.r = vgg.s = 3, vgg.pad(1, 1), vgg.strideH = vgg.strideW = 1;
    EXPECT_EQ(vkconv::Plan::create(ctx(), vgg).algorithm(), "direct_few_channels");
    ConvDesc deep = vgg;
    deep.c = 64;
    EXPECT_NE(vkconv::Plan::create(ctx(), deep).algorithm(), "direct_few_channels");
    const std::string why = vkconv::whyUnsupported(ctx(), deep, "direct_few_channels");
    EXPECT_NE(why.find("few channels"), std::string::npos) << why;
    for (const char* bad : {"8x32", "3x32x64", "8x12x64", "8x32x48", "8x32x64x", "x32x64"}) {
        vkconv::PlanOptions o;
        o.algorithm = "direct_few_channels";
        o.tile = bad;
        EXPECT_THROW(vkconv::Plan::create(ctx(), vgg, o), vkconv::Error) << "tile '" << bad << "'";
    }
    // 5 channels of a 7x7 filter dilated by 2, 64 filters: 63 KB of filters and an 18 KB halo.
    ConvDesc huge = vgg;
    huge.c = 5, huge.r = huge.s = 7, huge.dilationH = huge.dilationW = 2, huge.h = huge.w = 40, huge.pad(6, 6);
    vkconv::PlanOptions o;
    o.algorithm = "direct_few_channels";
    o.tile = "8x32x64";
    try {
        (void)vkconv::Plan::create(ctx(), huge, o);
        ADD_FAILURE() << "tile 8x32x64 of " << huge.toString() << " was accepted";
    } catch (const vkconv::Error& e) {
        EXPECT_NE(std::string(e.what()).find("shared memory"), std::string::npos) << e.what();
    }
    o.tile.clear();  // the heuristic shrinks the tile until it fits
    EXPECT_TRUE(passed(runAndCheck(ctx(), huge, o, 7100, DataMode::Integer)));
}
