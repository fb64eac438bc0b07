// "implicit_gemm" with every tile forced: each tile has its own invocation layout (8x4 blocks of
// invocations where it allows, rows otherwise) and its own epilogue chunks (implicit_gemm.comp
// stages the output through shared memory in RB x CB pieces), so each is checked on partial
// tiles in both dimensions, both output layouts, every staging mode (channel slices with and
// without 4-wide loads of channels or of NCHW pixels, per-element taps), groups and the fused
// epilogue in every dtype.
#include <regex>
#include <set>
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

// Every tile src/conv/algo_implicit_gemm.cpp ships (TilesAreTheLibrarys keeps this list honest).
const std::vector<std::string> kTiles = {"128x128x8/8x8", "128x64x16/8x4", "128x64x8/8x4",
                                         "64x64x8/4x4",   "128x32x8/4x4",  "64x16x8/4x4"};

using TileCase = NamedDesc;

std::vector<TileCase> makeCases() {
    std::vector<TileCase> v;
    auto add = [&](const std::string& name, auto f) {
        ConvDesc d;
        d.n = 2, d.c = 16, d.h = 13, d.w = 13, d.k = 70, d.r = d.s = 1;  // M = 338: partial row tiles
        f(d);
        v.push_back({name, d});
    };
    const auto nhwc = setNhwcKrsc;
    // Six cases keep the 36 pipelines of this cross affordable on lavapipe (~4 s each).
    add("nchw_3x3_k37_bias_res_relu", [](ConvDesc& d) {  // channel slices, scalar loads
        d.c = 24, d.k = 37, d.r = d.s = 3, d.pad(1, 1), d.hasBias = d.hasResidual = true,
        d.activation = Activation::Relu;
    });
    add("nhwc_3x3_n3_k130_bias_res", [=](ConvDesc& d) {  // 4-wide loads; K = 130: partial tiles of 128
        d.n = 3, d.c = 8, d.h = 11, d.w = 9, d.k = 130, d.r = d.s = 3, d.pad(1, 1), d.hasBias = d.hasResidual = true;
        nhwc(d);
    });
    add("nchw_in_nhwc_out_f16_c5_stride2_silu", [](ConvDesc& d) {  // per-element taps
        d.c = 5, d.k = 20, d.r = d.s = 3, d.strideH = d.strideW = 2, d.pad(1, 1), d.dtype = DType::F16;
        d.outputLayout = TensorLayout::NHWC, d.hasBias = true, d.activation = Activation::Silu;
    });
    add("nhwc_kcrs_c6_g2_5x5_dil2_taps", [](ConvDesc& d) {  // per-element taps (75 deep), filter taps from the table
        d.c = 6, d.groups = 2, d.k = 20, d.r = d.s = 5, d.dilationH = d.dilationW = 2, d.pad(4, 4), d.hasBias = true;
        d.inputLayout = d.outputLayout = TensorLayout::NHWC;  // filters stay KCRS: not the reduction's order
    });
    add("nchw_1x1_hw20_k70_bias_res_relu", [](ConvDesc& d) {  // 4-pixel loads (VEC_AM), 4-wide 1x1 KCRS filters
        d.h = 4, d.w = 5, d.hasBias = d.hasResidual = true, d.activation = Activation::Relu;
    });
    add("nhwc_in_nchw_out_bf16_grouped2_gelu_1x1", [](ConvDesc& d) {  // K/groups = 33
        d.c = 32, d.k = 66, d.groups = 2, d.dtype = DType::BF16, d.inputLayout = TensorLayout::NHWC;
        d.hasResidual = true, d.activation = Activation::Gelu;
    });
    return v;
}

const std::vector<TileCase>& cases() {
    static const auto v = makeCases();
    return v;
}

using Param = std::tuple<int, std::string>;  // (case, tile)
std::string paramName(const ::testing::TestParamInfo<Param>& info) { return caseAlgorithmName(cases(), info.param); }

}  // namespace

class IgemmTiles : public VkconvParamTest<Param> {};

TEST_P(IgemmTiles, IntegerDataIsExact) {
    const auto& [i, tile] = GetParam();
    const ConvDesc& d = cases()[size_t(i)].desc;
    vkconv::PlanOptions o;
    o.algorithm = "implicit_gemm";
    o.tile = tile;
    // A tile larger than the device's limits (lavapipe at subgroup size 4 caps workgroups at 128
    // invocations when a size is required) is declined with a reason, never run wrongly.
    VKT_SKIP_IF_DECLINED(ctx(), d, o, "");
    const auto r = runAndCheck(ctx(), d, o, 7000 + uint64_t(i), DataMode::Integer);
    EXPECT_TRUE(passed(r)) << "case " << cases()[size_t(i)].name << " tile " << tile;
    // Per-element taps run the TAP_TABLE build on the 8-row register tiles (its table fits next to
    // each of them at these reductions), NHWC from 64 deep.
    bool taps = d.channelsPerGroup() % 8 != 0 && tile.find("/8x") != std::string::npos &&
                (d.inputLayout == TensorLayout::NCHW || d.reductionLength() >= 64);
    if (taps) {
        EXPECT_NE(r.config.find(" taps"), std::string::npos) << r.config;
    }
    RecordProperty("chosen", r.algorithm + " " + r.config);
}

INSTANTIATE_TEST_SUITE_P(All, IgemmTiles,
                         ::testing::Combine(::testing::Range(0, int(cases().size())), ::testing::ValuesIn(kTiles)),
                         paramName);

class IgemmTileList : public VkconvTest {};

// The library's own list (from the error that names an unknown tile) is the one tested above.
TEST_F(IgemmTileList, TilesAreTheLibrarys) {
    ConvDesc d;
    vkconv::PlanOptions o;
    o.algorithm = "implicit_gemm";
    o.tile = "no-such-tile";
    std::string msg;
    try {
        (void)vkconv::Plan::create(ctx(), d, o);
    } catch (const vkconv::Error& e) {
        msg = e.what();
    }
    std::smatch m;
    ASSERT_TRUE(std::regex_search(msg, m, std::regex("have: ([^)]*)\\)"))) << msg;
    std::set<std::string> listed;
    std::string names = m[1].str();
    for (size_t at = 0; at < names.size();) {
        size_t end = names.find(", ", at);
        listed.insert(names.substr(at, end == std::string::npos ? std::string::npos : end - at));
        at = end == std::string::npos ? names.size() : end + 2;
    }
    EXPECT_EQ(listed, std::set<std::string>(kTiles.begin(), kTiles.end())) << msg;
}

// Stride-2 unpadded 1x1 NCHW layers with W % 8 == 0 stage four output pixels from two aligned
// 4-wide loads (every other input pixel, VEC_AM_S2), one pass and split; W % 8 != 0 keeps scalar
// channel slices.  Integer data: exact.
class IgemmFourPixelStride2 : public VkconvTest {};
TEST_F(IgemmFourPixelStride2, EveryOtherPixelIsExact) {
    struct Case {
        int64_t n, h, w;
        const char* tile;
        bool vec;
    };
    for (const Case& c : {Case{2, 7, 24, "128x64x8/8x4", true}, Case{1, 6, 16, "64x16x8/4x4/s3", true},
                          Case{1, 6, 12, "128x64x8/8x4", false}}) {
        ConvDesc d;
        d.n = c.n, d.c = 24, d.h = c.h, d.w = c.w, d.k = 20, d.strideH = d.strideW = 2;
        d.hasBias = d.hasResidual = true, d.activation = Activation::Relu;
        vkconv::PlanOptions o;
        o.algorithm = std::string(c.tile).find("/s") == std::string::npos ? "implicit_gemm" : "implicit_gemm_splitk";
        o.tile = c.tile;
        const auto r = runAndCheck(ctx(), d, o, 7100 + uint64_t(c.w), DataMode::Integer);
        EXPECT_TRUE(passed(r)) << c.tile << " w " << c.w << ": " << r.config;
        EXPECT_EQ(r.config.find("vec4Am2") != std::string::npos, c.vec) << r.config;
    }
}

// The direct epilogue in 16-byte stores (VEC_OUT, config "out4"): four consecutive pixels of one
// filter for NCHW outputs (P*Q % 4 == 0), four filters of one pixel for NHWC (K/groups % 4 == 0);
// every dtype, bias, residual and activation; where neither holds (or for NHWC input with NCHW
// output), scalar stores.
class IgemmVecOut : public VkconvTest {};
TEST_F(IgemmVecOut, SixteenByteStoresAreExact) {
    struct Case {
        const char* name;
        const char* tile;
        bool out4;
        void (*make)(ConvDesc&);
    };
    const Case cases[] = {
        {"nchw_1x1_c160_f32", "128x128x8/8x8", true, [](ConvDesc& d) { d.c = 160, d.h = 6, d.w = 6; }},
        {"nchw_1x1_c160_f16_4x4", "64x64x8/4x4", true,
         [](ConvDesc& d) { d.c = 160, d.h = 6, d.w = 6, d.dtype = DType::F16; }},
        {"nchw_1x1_s2_c256_w16_bf16", "128x128x8/8x8", true,
         [](ConvDesc& d) { d.c = 256, d.h = 5, d.w = 16, d.strideH = d.strideW = 2, d.dtype = DType::BF16; }},
        {"nhwc_3x3_g2_kg12_bf16", "128x64x8/8x4", true,
         [](ConvDesc& d) {
             d.c = 16, d.k = 24, d.groups = 2, d.h = 7, d.w = 5, d.r = d.s = 3, d.pad(1, 1), d.dtype = DType::BF16;
             d.inputLayout = d.outputLayout = TensorLayout::NHWC, d.filterLayout = FilterLayout::KRSC;
         }},
        {"nhwc_in_nchw_out_pq25", "64x64x8/4x4", false,
         [](ConvDesc& d) { d.c = 16, d.h = d.w = 5, d.r = d.s = 3, d.pad(1, 1), d.inputLayout = TensorLayout::NHWC; }},
        // P*Q % 4 == 0, but NHWC input with NCHW output keeps scalar stores (measured slower).
        {"nhwc_in_nchw_out_pq36", "128x128x8/8x8", false,
         [](ConvDesc& d) { d.c = 16, d.h = d.w = 6, d.r = d.s = 3, d.pad(1, 1), d.inputLayout = TensorLayout::NHWC; }},
    };
    for (const Case& c : cases) {
        ConvDesc d;
        d.k = 20, d.hasBias = d.hasResidual = true, d.activation = Activation::Relu;
        c.make(d);
        vkconv::PlanOptions o;
        o.algorithm = "implicit_gemm";
        o.tile = c.tile;
        const auto r = runAndCheck(ctx(), d, o, 7200, DataMode::Integer);
        EXPECT_TRUE(passed(r)) << c.name << ": " << r.config;
        EXPECT_EQ(r.config.find(" out4") != std::string::npos, c.out4) << c.name << ": " << r.config;
    }
}

// A grid wider than 65535 pixel tiles of 64 rows (lavapipe's and Intel's maxWorkgroupCount in x):
// the router's small tile would have dispatched 65,568 groups (found by the dry-run fuzz,
// tests/test_dry_run.cpp); the tile choice now counts the grid and a forced 64-row tile is
// declined with the reason.  Run and checked on every element, integer data: exact.
class IgemmWideGrid : public VkconvTest {};
TEST_F(IgemmWideGrid, FitsTheDevicesWorkgroupCount) {
    ConvDesc d;
    d.c = 4, d.h = d.w = 2049, d.k = 4, d.r = d.s = 2, d.padTop = d.padBottom = 1, d.dilationW = 2;  // 4,196,352 pixels
    const uint64_t pixels = uint64_t(d.outH()) * uint64_t(d.outW());
    if (pixels / 64 <= ctx().caps().maxWorkgroupCount[0])
        GTEST_SKIP() << "maxWorkgroupCount[0] " << ctx().caps().maxWorkgroupCount[0] << " holds the 64-row grid";
    vkconv::PlanOptions o;
    o.algorithm = "implicit_gemm";
    const auto r = runAndCheck(ctx(), d, o, 7300, DataMode::Integer);
    EXPECT_TRUE(passed(r)) << r.summary();
    o.tile = "64x16x8/4x4";
    EXPECT_NE(planDeclines(ctx(), d, o).find("output pixel tiles"), std::string::npos) << planDeclines(ctx(), d, o);
}
