// The "pointwise_coopmat" kernel (1x1 stride-1 layers of few channels, streaming subgroups): the
// heuristic's tile and forced tiles ("PBxBN/SGS[pBPS]") on shapes that exercise a ragged last
// block and a last block past the pixels, channels padded to the next 16 (C = 8, 24, 40), filters
// in several slabs with a partial last one, the element-wise stores (K % 8 != 0), the epilogue
// (bias, residual, activations), fp16 and bf16, blocks per subgroup beyond the grid's pixels,
// NCHW activations and outputs (blocks across two images, H*W % 8 != 0 element-wise); then the
// router and the declines.
// Test names contain "coopmat": the emulated runs (the coopmat_emulate test hook, lavapipe) take them,
// and on devices without matrix units the plain runs skip them with the algorithm's reason.
#include <cstdlib>
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

constexpr const char* kAlgo = "pointwise_coopmat";

std::vector<NamedDesc> makePwCases() {
    std::vector<NamedDesc> v;
    auto add = [&](const std::string& name, auto f) {
        ConvDesc d;
        d.n = 2, d.c = 16, d.h = 13, d.w = 11, d.k = 96, d.r = d.s = 1, d.pad(0, 0), d.dtype = DType::F16;
        setNhwcKrsc(d);
        f(d);
        v.push_back({name, d});
    };
    add("c16_k96_bias_relu6", [](ConvDesc& d) { d.hasBias = true, d.activation = Activation::Relu6; });
    add("c8_k20_res_element_stores", [](ConvDesc& d) { d.c = 8, d.k = 20, d.hasResidual = true; });
    add("c24_k144_two_slabs", [](ConvDesc& d) { d.c = 24, d.k = 144, d.h = 9, d.w = 9; });
    add("bf16_c64_k272_three_slabs_bias",
        [](ConvDesc& d) { d.dtype = DType::BF16, d.c = 64, d.k = 272, d.n = 1, d.h = 7, d.w = 9, d.hasBias = true; });
    add("c32_k16_one_fragment", [](ConvDesc& d) { d.c = 32, d.k = 16, d.n = 3, d.h = 5, d.w = 7; });
    add("bf16_c40_k48_res_silu", [](ConvDesc& d) {
        d.dtype = DType::BF16, d.c = 40, d.k = 48, d.hasResidual = true, d.hasBias = true,
        d.activation = Activation::Silu;
    });
    add("c16_k24_fewer_pixels_than_a_block", [](ConvDesc& d) { d.n = 1, d.h = 1, d.w = 5, d.k = 24; });
    add("c48_k40_n4_leaky",
        [](ConvDesc& d) { d.c = 48, d.k = 40, d.n = 4, d.h = 6, d.w = 6, d.activation = Activation::LeakyRelu; });
    // Past 64 channels (accepted, not routed): a projection's 6 reduction steps, and 13 steps
    // with the last one half past C.
    add("c96_k24_projection", [](ConvDesc& d) { d.c = 96, d.k = 24, d.h = 7, d.w = 9; });
    add("bf16_c200_k32_bias",
        [](ConvDesc& d) { d.dtype = DType::BF16, d.c = 200, d.k = 32, d.n = 1, d.h = 9, d.w = 5, d.hasBias = true; });
    // NCHW (KCRS filters): 48 pixels an image (16-byte words; blocks of 16 or 32 across two
    // images), 143 (element-wise loads and stores), 40 with two slabs, a residual in NCHW.
    auto nchw = [](ConvDesc& d) {
        d.inputLayout = d.outputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS;
    };
    add("nchw_c16_k96_bias_relu6",
        [&](ConvDesc& d) { nchw(d), d.h = 8, d.w = 6, d.hasBias = true, d.activation = Activation::Relu6; });
    add("nchw_c24_k20_res_odd_pixels", [&](ConvDesc& d) { nchw(d), d.c = 24, d.k = 20, d.hasResidual = true; });
    add("bf16_nchw_c64_k144_two_slabs_bias", [&](ConvDesc& d) {
        nchw(d), d.dtype = DType::BF16, d.c = 64, d.k = 144, d.n = 3, d.h = 4, d.w = 10, d.hasBias = true;
    });
    add("nchw_c32_k48_res_silu", [&](ConvDesc& d) {
        nchw(d), d.c = 32, d.k = 48, d.h = 7, d.w = 8, d.hasResidual = true, d.activation = Activation::Silu;
    });
    return v;
}

const std::vector<NamedDesc>& pwCases() {
    static const auto v = makePwCases();
    return v;
}

// "" is the heuristic's pick; then single fragments in a one-subgroup workgroup, two subgroups of
// three blocks each, a 128-filter slab with two blocks per subgroup, 32-pixel blocks, and the
// widest slab (256 filters: 16 accumulators per subgroup).
const std::vector<std::string> kTiles = {"", "16x16/1", "32x64/2p3", "16x128/4p2", "32x32/4", "16x256/2"};

using Param = std::tuple<int, std::string>;
std::string paramName(const ::testing::TestParamInfo<Param>& info) { return caseTileName(pwCases(), info.param); }

}  // namespace

class PointwiseCoopmatTiles : public VkconvParamTest<Param> {};

// Integer data (16-bit exact, fp32 sums exact): a wrong pixel word, filter word or block shows as
// an exact mismatch; then uniform data against the 16-bit tolerance.
TEST_P(PointwiseCoopmatTiles, MatchesReference) {
    const auto& [i, tile] = GetParam();
    const NamedDesc& c = pwCases()[size_t(i)];
    vkconv::PlanOptions o;
    VKT_FORCE_TILE_OR_SKIP(ctx(), kAlgo, c.desc, tile, o);  // a forced tile may exceed shared memory
    for (const auto& r : checkIntegerThenUniform(ctx(), c.desc, o, 8100 + uint64_t(i), c.name)) {
        if (!tile.empty()) {
            EXPECT_NE(r.config.find("tile " + tile + " "), std::string::npos) << r.config;
        }
        expectHalfScratch(ctx(), c.desc, r.config, c.desc.inputLayout == TensorLayout::NHWC);
    }
}

INSTANTIATE_TEST_SUITE_P(coopmat, PointwiseCoopmatTiles,
                         ::testing::Combine(::testing::Range(0, int(pwCases().size())), ::testing::ValuesIn(kTiles)),
                         paramName);

class PointwiseCoopmatRouting : public VkconvTest {};

// Where the kernel runs, the router takes 16-bit 1x1 stride-1 NHWC layers of at most 64
// channels (C % 8 == 0) to it, and NCHW ones of short reductions over H*W % 8 == 0 pixels;
// everything else it cannot do is declined with a reason.
TEST_F(PointwiseCoopmatRouting, coopmat_ChoosesAndDeclines) {
    ConvDesc d;
    d.n = 2, d.c = 16, d.h = d.w = 28, d.k = 96, d.r = d.s = 1, d.pad(0, 0), d.dtype = DType::F16;
    setNhwcKrsc(d);
    const std::string why = vkconv::whyUnsupported(ctx(), d, kAlgo);
    std::cout << "[ info ] " << kAlgo << " on " << ctx().caps().deviceName << ": "
              << (why.empty() ? "accepts 16-bit pointwise layers" : why) << std::endl;
    ConvDesc f32 = d;
    f32.dtype = DType::F32;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), f32, kAlgo).find("fp32"), std::string::npos);
    EXPECT_NE(vkconv::Plan::create(ctx(), f32).algorithm(), kAlgo);
    if (!why.empty()) {
        EXPECT_NE(vkconv::Plan::create(ctx(), d).algorithm(), kAlgo);
        return;
    }
    EXPECT_EQ(vkconv::Plan::create(ctx(), d).algorithm(), kAlgo);
    // The router's rule: one filter slab (at most 128 filters), or at most 32 channels.
    ConvDesc twoSlabs = d;
    twoSlabs.c = 32, twoSlabs.k = 192;
    EXPECT_EQ(vkconv::Plan::create(ctx(), twoSlabs).algorithm(), kAlgo);
    twoSlabs.c = 64;  // 64 channels read once per slab: accepted, not routed
    EXPECT_EQ(vkconv::whyUnsupported(ctx(), twoSlabs, kAlgo), "");
    EXPECT_EQ(vkconv::Plan::create(ctx(), twoSlabs).algorithm(), "implicit_gemm_coopmat");
    auto declines = [&](const char* what, auto change, const char* reason) {
        ConvDesc x = d;
        change(x);
        const std::string w = vkconv::whyUnsupported(ctx(), x, kAlgo);
        EXPECT_NE(w.find(reason), std::string::npos) << what << ": '" << w << "'";
        EXPECT_NE(vkconv::Plan::create(ctx(), x).algorithm(), kAlgo) << what;
    };
    declines(
        "3x3", [](ConvDesc& x) { x.r = x.s = 3, x.pad(1, 1); }, "not pointwise");
    declines(
        "stride 2", [](ConvDesc& x) { x.strideH = x.strideW = 2; }, "stride");
    declines(
        "padding", [](ConvDesc& x) { x.pad(1, 1); }, "padding");
    declines(
        "groups", [](ConvDesc& x) { x.groups = 2; }, "groups");
    declines(
        "NCHW in, NHWC out",
        [](ConvDesc& x) { x.inputLayout = TensorLayout::NCHW, x.filterLayout = FilterLayout::KCRS; }, "input's layout");
    // NCHW in and out: routed where H*W % 8 == 0 and the reduction is short; 14x14 pixels
    // (element-wise words) or 256 channels are accepted and left to the other routes.
    ConvDesc nchw = d;
    nchw.inputLayout = nchw.outputLayout = TensorLayout::NCHW, nchw.filterLayout = FilterLayout::KCRS;
    EXPECT_EQ(vkconv::whyUnsupported(ctx(), nchw, kAlgo), "");
    EXPECT_EQ(vkconv::Plan::create(ctx(), nchw).algorithm(), kAlgo);
    for (auto change : {+[](ConvDesc& x) { x.h = x.w = 14; }, +[](ConvDesc& x) { x.c = 256, x.k = 64; }}) {
        ConvDesc x = nchw;
        change(x);
        EXPECT_EQ(vkconv::whyUnsupported(ctx(), x, kAlgo), "") << x.toString();
        EXPECT_NE(vkconv::Plan::create(ctx(), x).algorithm(), kAlgo) << x.toString();
    }
    declines(
        "C = 12", [](ConvDesc& x) { x.c = 12; }, "multiple of 8");
    declines(
        "C = 264", [](ConvDesc& x) { x.c = 264; }, "above 256");
    // Past 64 channels: small layers (at most 192 channels and 2^18 outputs) in 32-filter slabs;
    // bigger ones, or 256 channels, are accepted and left to the general kernel.
    ConvDesc wide = d;
    wide.c = 72;  // 2 x 28 x 28 x 96 outputs
    EXPECT_EQ(vkconv::whyUnsupported(ctx(), wide, kAlgo), "");
    EXPECT_EQ(vkconv::Plan::create(ctx(), wide).algorithm(), kAlgo);
    EXPECT_NE(vkconv::Plan::create(ctx(), wide).config().find("tile 16x32/"), std::string::npos)
        << vkconv::Plan::create(ctx(), wide).config();
    wide.n = 32;  // 2.4 million outputs
    EXPECT_EQ(vkconv::Plan::create(ctx(), wide).algorithm(), "implicit_gemm_coopmat");
    wide.n = 1, wide.c = 256, wide.k = 64, wide.h = wide.w = 7;
    EXPECT_EQ(vkconv::whyUnsupported(ctx(), wide, kAlgo), "");
    EXPECT_EQ(vkconv::Plan::create(ctx(), wide).algorithm(), "implicit_gemm_coopmat");
    for (const char* bad : {"16x96", "16x96/4p", "48x64/4", "16x40/4", "16x272/4", "16x64/0", "16x64/4p2x"}) {
        vkconv::PlanOptions o;
        o.algorithm = kAlgo;
        o.tile = bad;
        EXPECT_THROW(vkconv::Plan::create(ctx(), d, o), vkconv::Error) << "tile '" << bad << "'";
    }
    // With 64 channels (9 words a row), 128 filters and 16 subgroups of 32 pixels: 130 KiB.
    ConvDesc deep = d;
    deep.c = 64;
    vkconv::PlanOptions o;
    o.algorithm = kAlgo;
    o.tile = "32x128/16";
    try {
        (void)vkconv::Plan::create(ctx(), deep, o);
        ADD_FAILURE() << "tile 32x128/16 of " << deep.toString() << " was accepted";
    } catch (const vkconv::Error& e) {
        EXPECT_NE(std::string(e.what()).find("shared memory"), std::string::npos) << e.what();
    }
}

class PointwiseCoopmatElementPath : public VkconvTest {};

// The element-wise loads and stores that views without 16-byte alignment take (RADV's storage
// buffer offsets need only 4), forced on aligned views with the pointwise_vec=0 hook: 16 channels
// and bias, 8 channels with a residual and element stores, bf16 with 40 channels padded to 48,
// NCHW with a residual.
TEST_F(PointwiseCoopmatElementPath, coopmat_MatchesReference) {
    EnvOverride vec("VKCONV_TEST_HOOKS", withTestHook("pointwise_vec=0"));
    for (int i : {0, 1, 5, 13}) {
        const NamedDesc& c = pwCases()[size_t(i)];
        const std::string why = vkconv::whyUnsupported(ctx(), c.desc, kAlgo);
        if (!why.empty()) GTEST_SKIP() << kAlgo << " declines " << c.desc.toString() << ": " << why;
        vkconv::PlanOptions o;
        o.algorithm = kAlgo;
        const auto r = runAndCheck(ctx(), c.desc, o, 8200 + uint64_t(i), DataMode::Integer);
        EXPECT_TRUE(passed(r)) << "case " << c.name << " (element-wise path)";
    }
}
