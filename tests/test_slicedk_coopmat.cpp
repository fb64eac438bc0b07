// The "slicedk_coopmat" kernel (layers of few pixels over deep reductions, the reduction split
// over a workgroup's subgroups): the heuristic's tile and forced tiles ("BNxKD/SGS[aAHEAD]") on
// shapes with a ragged last pixel block, fewer pixels than a block, a reduction that does not
// split evenly (and a last step half past the end), more subgroups than steps, filters past the
// last block (K % BN != 0) and element stores (K % 8 != 0), the fused epilogue, fp16 and bf16,
// and layers through the filter taps (3x3, stride, dilation, asymmetric padding); the
// element-wise loads and stores; NCHW input (1x1, and through the taps with KCRS or KRSC filters);
// then the router and the declines.
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

constexpr const char* kAlgo = "slicedk_coopmat";

std::vector<NamedDesc> makeSkCases() {
    std::vector<NamedDesc> v;
    auto add = [&](const std::string& name, auto f) {
        ConvDesc d;
        d.n = 1, d.c = 384, d.h = d.w = 7, d.k = 64, d.r = d.s = 1, d.pad(0, 0), d.dtype = DType::F16;
        setNhwcKrsc(d);
        f(d);
        v.push_back({name, d});
    };
    add("c384_k64_7x7_bias_relu", [](ConvDesc& d) { d.hasBias = true, d.activation = Activation::Relu; });
    add("bf16_c520_k48_res_uneven_split",
        [](ConvDesc& d) { d.dtype = DType::BF16, d.c = 520, d.k = 48, d.hasResidual = true; });
    add("c40_k32_more_subgroups_than_steps", [](ConvDesc& d) { d.c = 40, d.k = 32, d.n = 2, d.h = 5, d.w = 3; });
    add("c256_k20_element_stores_res",
        [](ConvDesc& d) { d.c = 256, d.k = 20, d.hasResidual = true, d.h = 3, d.w = 4; });
    add("c136_k96_n3_relu6", [](ConvDesc& d) {
        d.c = 136, d.k = 96, d.n = 3, d.h = d.w = 6, d.hasBias = true, d.activation = Activation::Relu6;
    });
    add("bf16_c1024_k80_14x14", [](ConvDesc& d) { d.dtype = DType::BF16, d.c = 1024, d.k = 80, d.h = d.w = 14; });
    // Through the taps (IM2COL): 3x3 with padding, a 1x1 stride-2 downsample, a dilated 3x3 of
    // stride 2 with asymmetric padding, a 5x5 of one word per tap (an odd reduction in words).
    add("c64_k48_3x3_pad1_bias_res",
        [](ConvDesc& d) { d.c = 64, d.k = 48, d.r = d.s = 3, d.pad(1, 1), d.hasBias = d.hasResidual = true; });
    add("bf16_c96_k32_1x1_s2_n2", [](ConvDesc& d) {
        d.dtype = DType::BF16, d.c = 96, d.k = 32, d.n = 2, d.h = 9, d.w = 11, d.strideH = d.strideW = 2;
    });
    add("c32_k64_3x3_s2_dil2_asym", [](ConvDesc& d) {
        d.c = 32, d.k = 64, d.h = 13, d.w = 12, d.r = d.s = 3, d.strideH = d.strideW = 2, d.dilationH = d.dilationW = 2;
        d.padTop = 2, d.padBottom = 1, d.padLeft = 0, d.padRight = 3, d.activation = Activation::Relu;
    });
    add("c8_k24_5x5_pad2", [](ConvDesc& d) { d.c = 8, d.k = 24, d.r = d.s = 5, d.pad(2, 2), d.h = 6, d.w = 9; });
    // NCHW output (what coopmat_nhwc's 16-bit NCHW layers ask): element stores, NCHW residual.
    add("c320_k40_nchw_out_res_relu6", [](ConvDesc& d) {
        d.c = 320, d.k = 40, d.n = 2, d.h = 5, d.w = 3, d.outputLayout = TensorLayout::NCHW,
        d.hasResidual = d.hasBias = true;
        d.activation = Activation::Relu6;
    });
    // NCHW input (1x1 stride-1, KCRS filters): the channel-major staging; a 7x7 map of one image
    // (channel planes at odd element offsets: shifted 4-pixel loads; 16-bit ones on the element
    // path), 15-pixel images that 16-pixel blocks straddle with an NHWC output (vector stores) and
    // an uneven split (16-bit pair loads); a 14x14 map (4-pixel loads) with element stores.
    auto nchwIn = [](ConvDesc& d) { d.inputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS; };
    add("nchw_c384_k64_7x7_bias_relu", [&](ConvDesc& d) {
        nchwIn(d), d.outputLayout = TensorLayout::NCHW, d.hasBias = true, d.activation = Activation::Relu;
    });
    add("nchw_in_bf16_c520_k48_n3_res", [&](ConvDesc& d) {
        nchwIn(d), d.dtype = DType::BF16, d.c = 520, d.k = 48, d.n = 3, d.h = 5, d.w = 3, d.hasResidual = true;
    });
    add("nchw_c136_k20_14x14_res_relu6", [&](ConvDesc& d) {
        nchwIn(d), d.outputLayout = TensorLayout::NCHW, d.c = 136, d.k = 20, d.h = d.w = 14,
                   d.hasResidual = d.hasBias = true;
        d.activation = Activation::Relu6;
    });
    // 4-pixel loads (H*W % 4 == 0) with 12-pixel images that blocks straddle, bf16, an uneven split.
    add("nchw_in4_bf16_c200_k40_n3_3x4_res", [&](ConvDesc& d) {
        nchwIn(d), d.outputLayout = TensorLayout::NCHW, d.dtype = DType::BF16, d.c = 200, d.k = 40, d.n = 3, d.h = 3,
                   d.w = 4;
        d.hasResidual = true;
    });
    // NCHW input through the taps: KCRS filters of a padded 3x3 (the reduction in (c, r, s)
    // order), KRSC filters of a dilated stride-2 3x3 with asymmetric padding ((r, s, c)), a 1x1
    // stride-2 downsample over two images.
    add("nchw_kcrs_c64_k48_3x3_pad1_bias_res", [&](ConvDesc& d) {
        nchwIn(d), d.outputLayout = TensorLayout::NCHW, d.c = 64, d.k = 48, d.r = d.s = 3, d.pad(1, 1);
        d.hasBias = d.hasResidual = true;
    });
    add("nchw_krsc_c32_k64_3x3_s2_dil2_asym", [&](ConvDesc& d) {
        nchwIn(d), d.filterLayout = FilterLayout::KRSC, d.c = 32, d.k = 64, d.h = 13, d.w = 12, d.r = d.s = 3;
        d.strideH = d.strideW = 2, d.dilationH = d.dilationW = 2, d.padTop = 2, d.padBottom = 1, d.padLeft = 0,
        d.padRight = 3;
        d.activation = Activation::Relu;
    });
    add("nchw_bf16_c24_k40_1x1_s2_n2", [&](ConvDesc& d) {
        nchwIn(d), d.outputLayout = TensorLayout::NCHW, d.dtype = DType::BF16, d.c = 24, d.k = 40, d.n = 2, d.h = 9,
                   d.w = 11;
        d.strideH = d.strideW = 2;
    });
    // Shifted 4-pixel loads with planes 2 elements off alignment every other channel (5x6), an
    // uneven split and a ragged last step (72 channels), bf16, an NHWC output.
    add("nchw_in4s_bf16_c72_k40_5x6_res", [&](ConvDesc& d) {
        nchwIn(d), d.dtype = DType::BF16, d.c = 72, d.k = 40, d.h = 5, d.w = 6, d.hasResidual = true;
    });
    return v;
}

const std::vector<NamedDesc>& skCases() {
    static const auto v = makeSkCases();
    return v;
}

// "" is the heuristic's pick; then one subgroup (no split), 16 filters in 16 one-step
// subgroups, 64 filters, four-step stages, and two stages ahead (with an odd stage count too).
const std::vector<std::string> kTiles = {"", "32x2/1", "16x1/16", "64x1/4", "32x4/2", "16x2/8a2", "32x1/4a2"};

using Param = std::tuple<int, std::string>;
std::string paramName(const ::testing::TestParamInfo<Param>& info) { return caseTileName(skCases(), info.param); }

}  // namespace

class SlicedKCoopmatTiles : public VkconvParamTest<Param> {};

// Integer data (16-bit exact, fp32 sums exact): a wrong word, a step summed twice or missed, a
// partial tile added from the wrong subgroup shows as an exact mismatch; then uniform data.
TEST_P(SlicedKCoopmatTiles, MatchesReference) {
    const auto& [i, tile] = GetParam();
    const NamedDesc& c = skCases()[size_t(i)];
    vkconv::PlanOptions o;
    VKT_FORCE_TILE_OR_SKIP(ctx(), kAlgo, c.desc, tile, o);  // a forced tile may exceed shared memory
    for (const auto& r : checkIntegerThenUniform(ctx(), c.desc, o, 8300 + uint64_t(i), c.name))
        if (!tile.empty()) {
            EXPECT_NE(r.config.find("tile " + tile + " "), std::string::npos) << r.config;
        }
}

INSTANTIATE_TEST_SUITE_P(coopmat, SlicedKCoopmatTiles,
                         ::testing::Combine(::testing::Range(0, int(skCases().size())), ::testing::ValuesIn(kTiles)),
                         paramName);

class SlicedKCoopmatElementPath : public VkconvParamTest<int> {};

// The element-wise loads and stores that views without 16-byte alignment take (RADV's storage
// buffer offsets need only 4), forced on aligned views with the slicedk_vec=0 hook: 1x1 layers
// (fp16 with bias + ReLU, bf16 with a residual and an uneven split, element stores of 20 filters,
// NCHW input) and through the taps (3x3 with padding, a dilated stride-2 3x3 with asymmetric
// padding, NHWC and NCHW).
TEST_P(SlicedKCoopmatElementPath, MatchesReference) {
    EnvOverride vec("VKCONV_TEST_HOOKS", withTestHook("slicedk_vec=0"));
    const NamedDesc& c = skCases()[size_t(GetParam())];
    const std::string why = vkconv::whyUnsupported(ctx(), c.desc, kAlgo);
    if (!why.empty()) GTEST_SKIP() << kAlgo << " declines " << c.desc.toString() << ": " << why;
    vkconv::PlanOptions o;
    o.algorithm = kAlgo;
    const auto r = runAndCheck(ctx(), c.desc, o, 8400 + uint64_t(GetParam()), DataMode::Integer);
    EXPECT_TRUE(passed(r)) << "case " << c.name << " (element-wise path)";
}

INSTANTIATE_TEST_SUITE_P(coopmat, SlicedKCoopmatElementPath, ::testing::Values(0, 1, 3, 6, 8, 12, 15),
                         [](const ::testing::TestParamInfo<int>& info) { return skCases()[size_t(info.param)].name; });

class SlicedKCoopmatRouting : public VkconvTest {};

// The router takes 16-bit 1x1 stride-1 NHWC layers of at most 1024 pixels over at least 320
// channels to it, and their NCHW twins in their own layout; more pixels or fewer channels stay
// on the general kernel; what it cannot do is declined with a reason, and bad tiles are refused.
TEST_F(SlicedKCoopmatRouting, coopmat_RoutesAndDeclines) {
    const ConvDesc d = skCases()[0].desc;
    const std::string why = vkconv::whyUnsupported(ctx(), d, kAlgo);
    std::cout << "[ info ] " << kAlgo << " on " << ctx().caps().deviceName << ": "
              << (why.empty() ? "accepts deep 1x1 layers" : why) << std::endl;
    ConvDesc f32 = d;
    f32.dtype = DType::F32;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), f32, kAlgo).find("fp32"), std::string::npos);
    if (!why.empty()) {
        EXPECT_NE(vkconv::Plan::create(ctx(), d).algorithm(), kAlgo);
        return;
    }
    EXPECT_EQ(vkconv::Plan::create(ctx(), d).algorithm(), kAlgo) << vkconv::Plan::create(ctx(), d).config();
    ConvDesc many = d;
    many.n = 21;  // 1029 pixels
    EXPECT_EQ(vkconv::whyUnsupported(ctx(), many, kAlgo), "");
    EXPECT_EQ(vkconv::Plan::create(ctx(), many).algorithm(), "implicit_gemm_coopmat");
    ConvDesc shallow = d;
    shallow.c = 312;
    EXPECT_EQ(vkconv::whyUnsupported(ctx(), shallow, kAlgo), "");
    EXPECT_NE(vkconv::Plan::create(ctx(), shallow).algorithm(), kAlgo);
    auto declines = [&](const char* what, auto change, const char* reason) {
        ConvDesc x = d;
        change(x);
        const std::string w = vkconv::whyUnsupported(ctx(), x, kAlgo);
        EXPECT_NE(w.find(reason), std::string::npos) << what << ": '" << w << "'";
        EXPECT_NE(vkconv::Plan::create(ctx(), x).algorithm(), kAlgo) << what;
    };
    // Any filter, stride and padding runs (through the taps), but only 1x1 stride-1 layers are routed.
    ConvDesc taps = d;
    taps.r = taps.s = 3, taps.pad(1, 1);
    EXPECT_EQ(vkconv::whyUnsupported(ctx(), taps, kAlgo), "");
    EXPECT_NE(vkconv::Plan::create(ctx(), taps).algorithm(), kAlgo);
    declines(
        "groups", [](ConvDesc& x) { x.groups = 2; }, "groups");
    ConvDesc nchwTaps = taps;
    nchwTaps.inputLayout = TensorLayout::NCHW, nchwTaps.filterLayout = FilterLayout::KCRS;
    EXPECT_EQ(vkconv::whyUnsupported(ctx(), nchwTaps, kAlgo), "");
    declines(
        "KCRS 3x3", [](ConvDesc& x) { x.filterLayout = FilterLayout::KCRS, x.r = x.s = 3, x.pad(1, 1); }, "KRSC");
    // 16-bit NCHW 1x1 layers run it reading NCHW.
    ConvDesc nchw = d;
    nchw.inputLayout = nchw.outputLayout = TensorLayout::NCHW, nchw.filterLayout = FilterLayout::KCRS;
    EXPECT_EQ(vkconv::whyUnsupported(ctx(), nchw, kAlgo), "");
    // Two 7x7 images: 16-bit loads, which lose to the transposes; one 7x7 image: shifted 4-pixel
    // loads, taken; 14x14: aligned 4-pixel loads, taken.
    auto taken = [&](const vkconv::Plan& p, const char* staging) {
        EXPECT_EQ(p.algorithm(), kAlgo) << p.config();
        EXPECT_NE(p.config().find(staging), std::string::npos) << p.config();
    };
    taken(vkconv::Plan::create(ctx(), nchw), "nchwIn4s ");
    ConvDesc two = nchw;
    two.n = 2;
    EXPECT_NE(vkconv::Plan::create(ctx(), two, vkconv::PlanOptions{kAlgo}).config().find("nchwIn "), std::string::npos);
    EXPECT_EQ(vkconv::Plan::create(ctx(), two).algorithm(), "coopmat_nhwc");
    nchw.h = nchw.w = 14;
    taken(vkconv::Plan::create(ctx(), nchw), "nchwIn4 ");
    // Fewer channels (64 -> 384 at 14x14: the scalar GEMM's or pointwise_coopmat's otherwise) up to
    // 2^18 outputs, from 32 channels; 256 channels at 56x56 (coopmat_nhwc around the general kernel
    // otherwise).
    ConvDesc few = nchw;
    few.c = 64, few.k = 384;
    ConvDesc big = few, thin = few, wide = nchw;
    big.k = 1344;  // 263424 outputs
    thin.c = 24;
    wide.c = 256, wide.k = 64, wide.h = wide.w = 56;
    EXPECT_EQ(vkconv::Plan::create(ctx(), few).algorithm(), kAlgo) << vkconv::Plan::create(ctx(), few).config();
    EXPECT_NE(vkconv::Plan::create(ctx(), big).algorithm(), kAlgo);
    EXPECT_NE(vkconv::Plan::create(ctx(), thin).algorithm(), kAlgo);
    // Taken here where the router puts its NHWC problem (coopmat_nhwc's inner one: NHWC input,
    // NCHW output) on the general kernel or on this one.
    ConvDesc inner = wide;
    inner.inputLayout = TensorLayout::NHWC;
    const std::string innerAlgo = vkconv::Plan::create(ctx(), inner).algorithm();
    std::cout << "[ info ] 256 -> 64 at 56x56, NHWC in: " << innerAlgo << std::endl;
    EXPECT_EQ(vkconv::Plan::create(ctx(), wide).algorithm() == kAlgo,
              innerAlgo == "implicit_gemm_coopmat" || innerAlgo == kAlgo)
        << vkconv::Plan::create(ctx(), wide).config();
    declines(
        "C = 12", [](ConvDesc& x) { x.c = 12; }, "multiple of 8");
    for (const char* bad : {"32x2", "48x2/8", "32x0/8", "32x5/8", "32x2/17", "32x2/8x", "32x2/8a3", "32x2/8a"}) {
        vkconv::PlanOptions o;
        o.algorithm = kAlgo;
        o.tile = bad;
        EXPECT_THROW(vkconv::Plan::create(ctx(), d, o), vkconv::Error) << "tile '" << bad << "'";
    }
}
