// "coopmat_nhwc": 16-bit NCHW activations (and KCRS filters) transposed into the workspace as NHWC
// (KRSC), then a matrix-unit kernel on the NHWC problem writing the caller's output layout.  Each
// case runs with the inner kernel the router picks ("") and with inner kernels forced through
// PlanOptions::tile ("ALGO[:TILE]"), in integer data (exact: a transposed element in the wrong
// place is a mismatch, not a tolerance miss) and uniform data; then what "auto" picks for NCHW
// activations, and the declines.  Test names contain "coopmat" (the emulated runs on lavapipe).
#include <cstdlib>
#include <string>
#include <tuple>
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

constexpr const char* kAlgo = "coopmat_nhwc";

ConvDesc nchwBase() {
    ConvDesc d;
    d.n = 2, d.c = 32, d.h = 9, d.w = 11, d.k = 40, d.r = d.s = 3, d.pad(1, 1), d.dtype = DType::F16;
    d.inputLayout = d.outputLayout = TensorLayout::NCHW;
    d.filterLayout = FilterLayout::KCRS;
    return d;
}

std::vector<NamedDesc> makeCases() {
    return editedCases(
        nchwBase(),
        {
            {"c32_3x3_bias_relu", [](ConvDesc& d) { d.hasBias = true, d.activation = Activation::Relu; }},
            // One tap: KCRS is KRSC already (no filter transpose); NHWC output.
            {"pointwise_c64_k72_nhwc_out",
             [](ConvDesc& d) { d.c = 64, d.k = 72, d.r = d.s = 1, d.pad(0, 0), d.outputLayout = TensorLayout::NHWC; }},
            {"stride2_krsc_res",
             [](ConvDesc& d) {
                 d.h = d.w = 17, d.strideH = d.strideW = 2, d.filterLayout = FilterLayout::KRSC, d.hasResidual = true;
             }},
            {"bf16_c48_k24_5x5_asym",
             [](ConvDesc& d) {
                 d.dtype = DType::BF16, d.c = 48, d.k = 24, d.r = d.s = 5;
                 d.padTop = 1, d.padBottom = 3, d.padLeft = 2, d.padRight = 0;
             }},
            {"groups2_c64_k48", [](ConvDesc& d) { d.c = 64, d.k = 48, d.groups = 2, d.hasBias = true; }},
            // Even C and H*W: the input moves in 32-bit words of two elements (64 x 64 blocks, here
            // two partial ones each way, three images).
            {"pairs_c80_k24_10x13_n3",
             [](ConvDesc& d) { d.n = 3, d.c = 80, d.k = 24, d.h = 10, d.w = 13, d.hasResidual = true; }},
            {"bf16_pairs_c144_k40_1x1_8x17",
             [](ConvDesc& d) { d.dtype = DType::BF16, d.c = 144, d.h = 8, d.w = 17, d.r = d.s = 1, d.pad(0, 0); }},
            // Strided / padded 1x1 layers: the transpose gathers the P x Q pixels they read (zero
            // where padded) and the kernel behind runs a 1x1 stride-1 layer on them.
            {"pointwise_s2_c64_k48_gather",
             [](ConvDesc& d) {
                 d.n = 3, d.c = 64, d.k = 48, d.h = d.w = 17, d.r = d.s = 1, d.pad(0, 0), d.strideH = d.strideW = 2;
             }},
            {"bf16_pointwise_s2x3_pads_c32_gather_nhwc_out",
             [](ConvDesc& d) {
                 d.dtype = DType::BF16, d.h = 13, d.w = 16, d.r = d.s = 1, d.strideH = 2, d.strideW = 3;
                 d.padTop = 1, d.padBottom = 0, d.padLeft = 2, d.padRight = 1, d.hasBias = true,
                 d.activation = Activation::Relu;
                 d.outputLayout = TensorLayout::NHWC;
             }},
            // A first layer (6 channels): few_channels_coopmat behind the transposes.
            {"first_c6_k32_7x7_s2",
             [](ConvDesc& d) {
                 d.c = 6, d.k = 32, d.h = d.w = 23, d.r = d.s = 7, d.pad(3, 3), d.strideH = d.strideW = 2;
             }},
        });
}

const std::vector<NamedDesc>& cases() {
    static const auto v = makeCases();
    return v;
}

// "": the router's inner pick; then inner kernels forced: implicit_gemm_coopmat on a tile that fits
// lavapipe's 32 KiB (a bare tile name is its), halo_coopmat, winograd (KCRS filters read as given),
// slicedk_coopmat (its NCHW-output epilogue).
const std::vector<std::string> kInner = {"", "64x64x32/2x2", "halo_coopmat", "winograd:2x2", "slicedk_coopmat"};

// A 1x1 layer with a stride or padding: the input transpose gathers the pixels it reads.
bool gathersPixels(const ConvDesc& d) {
    const bool padded = d.padTop || d.padBottom || d.padLeft || d.padRight;
    return d.r * d.s == 1 && (d.strideH * d.strideW > 1 || padded);
}

using Param = std::tuple<int, std::string>;
std::string paramName(const ::testing::TestParamInfo<Param>& info) { return caseTileName(cases(), info.param); }

}  // namespace

class CoopmatNhwcTiles : public VkconvParamTest<Param> {};

TEST_P(CoopmatNhwcTiles, MatchesReference) {
    const auto& [i, inner] = GetParam();
    const NamedDesc& c = cases()[size_t(i)];
    vkconv::PlanOptions o;
    o.algorithm = kAlgo;
    o.tile = inner;
    const std::string why = planDeclines(ctx(), c.desc, o);
    if (!why.empty()) GTEST_SKIP() << kAlgo << " [" << inner << "] declines " << c.desc.toString() << ": " << why;
    for (auto mode : {DataMode::Integer, DataMode::Uniform}) {
        const auto r = runAndCheck(ctx(), c.desc, o, 9300 + uint64_t(i), mode);
        EXPECT_TRUE(passed(r)) << "case " << c.name << " inner '" << inner << "' (" << toString(mode) << " data)";
        EXPECT_EQ(r.config.rfind("NCHW->NHWC", 0), 0u) << r.config;
        // Filters are transposed where they have several taps in KCRS, except for winograd.
        const bool filterCopy = c.desc.filterLayout == FilterLayout::KCRS && c.desc.r * c.desc.s > 1 &&
                                r.config.find("; winograd [") == std::string::npos;
        EXPECT_EQ(r.config.find("KCRS->KRSC") != std::string::npos, filterCopy) << r.config;
        EXPECT_EQ(r.config.find("gathered") != std::string::npos, gathersPixels(c.desc)) << r.config;
        if (!inner.empty()) {
            const bool named = inner.find(':') != std::string::npos || inner.find('_') != std::string::npos;
            const std::string algo = named ? inner.substr(0, inner.find(':')) : "implicit_gemm_coopmat";
            EXPECT_NE(r.config.find("; " + algo + " ["), std::string::npos) << r.config;
        }
        RecordProperty("chosen", r.algorithm + " " + r.config);
    }
}

INSTANTIATE_TEST_SUITE_P(coopmat, CoopmatNhwcTiles,
                         ::testing::Combine(::testing::Range(0, int(cases().size())), ::testing::ValuesIn(kInner)),
                         paramName);

class CoopmatNhwcRouting : public VkconvTest {};

// "auto" sends 16-bit NCHW activations to the NHWC kernels behind the transposes wherever the
// NHWC problem runs on the matrix units, and only there (first layers keep few_channels_coopmat's
// own NCHW staging); without workspace the NCHW staging stays (and is still right).
TEST_F(CoopmatNhwcRouting, coopmat_NchwGoesThroughNhwc) {
    ConvDesc d = nchwBase();
    const std::string why = vkconv::whyUnsupported(ctx(), d, "implicit_gemm_coopmat");
    if (!why.empty()) GTEST_SKIP() << "implicit_gemm_coopmat declines " << d.toString() << ": " << why;
    EXPECT_EQ(vkconv::Plan::create(ctx(), d).algorithm(), kAlgo);
    ConvDesc b = d;
    b.dtype = DType::BF16;
    if (vkconv::whyUnsupported(ctx(), b, "implicit_gemm_coopmat").empty()) {
        EXPECT_EQ(vkconv::Plan::create(ctx(), b).algorithm(), kAlgo);
    }
    ConvDesc nhwcIn = d;  // NHWC activations: nothing to transpose
    nhwcIn.inputLayout = TensorLayout::NHWC;
    EXPECT_NE(vkconv::Plan::create(ctx(), nhwcIn).algorithm(), kAlgo);
    ConvDesc dw = d;  // depthwise runs NCHW itself
    dw.k = dw.groups = dw.c;
    EXPECT_EQ(vkconv::Plan::create(ctx(), dw).algorithm(), "depthwise");
    ConvDesc f32 = d;  // the scalar path
    f32.dtype = DType::F32;
    EXPECT_NE(vkconv::Plan::create(ctx(), f32).algorithm(), kAlgo);
    ConvDesc first = d;  // 3 channels at this size: direct_few_channels, NCHW
    first.c = 3;
    EXPECT_EQ(vkconv::Plan::create(ctx(), first).algorithm(), "direct_few_channels");
    first.c = 6;  // 6: few_channels_coopmat, NCHW (forced behind the transposes: the tile test's last case)
    if (vkconv::whyUnsupported(ctx(), first, "few_channels_coopmat").empty()) {  // 16x16x16 fragments
        EXPECT_EQ(vkconv::Plan::create(ctx(), first).algorithm(), "few_channels_coopmat");
    }
    // A 3x3 layer the router gives winograd: behind the transposes, with the filters as given.
    ConvDesc big = d;
    big.n = 8, big.c = big.k = 512, big.h = big.w = 28;
    const vkconv::Plan wp = vkconv::Plan::create(ctx(), big);
    EXPECT_EQ(wp.algorithm(), kAlgo);
    EXPECT_NE(wp.config().find("; winograd ["), std::string::npos) << wp.config();
    EXPECT_EQ(wp.config().find("KCRS->KRSC"), std::string::npos) << wp.config();
    std::cout << "[ info ] auto on " << big.toString() << ": " << wp.algorithm() << " [" << wp.config() << "]"
              << std::endl;
    // 1x1 layers whose NCHW staging loads 16-byte words stay in layout up to 128 filters.
    ConvDesc pw = d;
    pw.n = 8, pw.c = 256, pw.k = 128, pw.h = pw.w = 56, pw.r = pw.s = 1, pw.pad(0, 0);
    EXPECT_EQ(vkconv::Plan::create(ctx(), pw).algorithm(), "implicit_gemm_coopmat")
        << vkconv::Plan::create(ctx(), pw).config();
    EXPECT_NE(vkconv::Plan::create(ctx(), pw).config().find("vec8A"), std::string::npos)
        << vkconv::Plan::create(ctx(), pw).config();
    pw.k = 256;
    EXPECT_EQ(vkconv::Plan::create(ctx(), pw).algorithm(), kAlgo) << vkconv::Plan::create(ctx(), pw).config();
    // No workspace: the NCHW staging, correct.
    vkconv::PlanOptions none;
    none.workspaceLimit = 0;
    EXPECT_EQ(vkconv::Plan::create(ctx(), d, none).algorithm(), "implicit_gemm_coopmat");
    const auto r = runAndCheck(ctx(), d, none, 9390, DataMode::Integer);
    EXPECT_TRUE(passed(r));
}

class CoopmatNhwcDeclines : public VkconvTest {};

TEST_F(CoopmatNhwcDeclines, coopmat_Reasons) {
    ConvDesc d = nchwBase();
    const std::string why = vkconv::whyUnsupported(ctx(), d, kAlgo);
    std::cout << "[ info ] " << kAlgo << " on " << ctx().caps().deviceName << ": "
              << (why.empty() ? "accepts fp16 NCHW" : why) << std::endl;
    ConvDesc nhwcIn = d;
    nhwcIn.inputLayout = TensorLayout::NHWC;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), nhwcIn, kAlgo).find("NHWC already"), std::string::npos);
    ConvDesc f32 = d;
    f32.dtype = DType::F32;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), f32, kAlgo).find("fp32"), std::string::npos);
    vkconv::PlanOptions o;
    o.algorithm = kAlgo;
    o.workspaceLimit = 0;
    EXPECT_NE(planDeclines(ctx(), d, o).find("workspace"), std::string::npos);
    o.workspaceLimit = 1024;  // less than the input's copy
    EXPECT_NE(planDeclines(ctx(), d, o).find("workspace"), std::string::npos);
    if (!why.empty()) return;
    ConvDesc dw = d;  // depthwise: the NHWC problem is not the matrix units'
    dw.k = dw.groups = dw.c;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), dw, kAlgo).find("matrix units"), std::string::npos);
    ConvDesc c36 = d;  // C/groups not a multiple of 8: the matrix units decline the NHWC problem too
    c36.c = 36;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), c36, kAlgo), "");
    o = {};
    o.algorithm = kAlgo;
    o.tile = "direct";  // forcing a kernel off the matrix units
    EXPECT_NE(planDeclines(ctx(), d, o).find("matrix units"), std::string::npos);
}

// The gathered transpose behind the scalar GEMM (implicit_gemm_nhwc, fp32; any device): strided,
// padded and grouped 1x1 layers, integer data (exact: a pixel gathered from the wrong place is a
// mismatch), then the index limit of a padded layer whose gathered copy outgrows its input.
class NhwcGather : public VkconvTest {};

TEST_F(NhwcGather, ScalarBehindGatheredPixels) {
    ConvDesc base = nchwBase();
    base.dtype = DType::F32, base.r = base.s = 1, base.pad(0, 0);
    const std::vector<NamedDesc> shapes = editedCases(
        base,
        {
            {"s2_c24_k20_15x15", [](ConvDesc& d) { d.c = 24, d.k = 20, d.h = d.w = 15, d.strideH = d.strideW = 2; }},
            {"s3x2_pads_bias_res",
             [](ConvDesc& d) {
                 d.strideH = 3, d.strideW = 2, d.padTop = 2, d.padBottom = 1, d.padLeft = 0, d.padRight = 3,
                 d.hasBias = d.hasResidual = true;
             }},
            {"pad1_s1_nhwc_out", [](ConvDesc& d) { d.pad(1, 1), d.outputLayout = TensorLayout::NHWC; }},
            {"groups2_s2_c16_k12",
             [](ConvDesc& d) { d.c = 16, d.k = 12, d.groups = 2, d.strideH = d.strideW = 2, d.h = 10; }},
        });
    vkconv::PlanOptions o;
    o.algorithm = "implicit_gemm_nhwc";
    for (size_t i = 0; i < shapes.size(); ++i) {
        const NamedDesc& c = shapes[i];
        const std::string why = planDeclines(ctx(), c.desc, o);
        ASSERT_EQ(why, "") << c.name;
        for (auto mode : {DataMode::Integer, DataMode::Uniform}) {
            const auto r = runAndCheck(ctx(), c.desc, o, 9400 + uint64_t(i), mode);
            EXPECT_TRUE(passed(r)) << c.name << " (" << toString(mode) << " data)";
            EXPECT_EQ(r.config.find("gathered") != std::string::npos, gathersPixels(c.desc))
                << c.name << ": " << r.config;
        }
    }
    // 4096 channels of one pixel padded to 1024 x 1024: the output (one filter) fits 32-bit
    // indexing and the transpose's grid, the gathered NHWC input (2^32 elements) does not.
    ConvDesc huge = base;
    huge.n = 1, huge.c = 4096, huge.k = 1, huge.h = huge.w = 1, huge.pad(512, 512);
    huge.padBottom = huge.padRight = 511;
    if (gathersPixels(huge)) {
        EXPECT_NE(vkconv::whyUnsupported(ctx(), huge, "implicit_gemm_nhwc").find("32-bit indexing"), std::string::npos)
            << vkconv::whyUnsupported(ctx(), huge, "implicit_gemm_nhwc");
    }
}

// The 16-bit transpose in 32-bit words behind the scalar GEMM (implicit_gemm_nhwc, any device with
// 16-bit storage): even C and H*W with partial 32 x 64 blocks both ways, fp16 and bf16, integer
// data (exact: a word's halves swapped is a mismatch).
TEST_F(NhwcGather, ScalarBehindWordTransposes) {
    if (!ctx().caps().storageBuffer16BitAccess) GTEST_SKIP() << "no 16-bit storage on this device";
    ConvDesc base = nchwBase();
    const std::vector<NamedDesc> shapes = editedCases(
        base, {
                  {"fp16_c80_10x13_n3_3x3", [](ConvDesc& d) { d.n = 3, d.c = 80, d.k = 24, d.h = 10, d.w = 13; }},
                  {"bf16_c36_8x17_1x1_res",
                   [](ConvDesc& d) {
                       d.dtype = DType::BF16, d.c = 36, d.h = 8, d.w = 17, d.r = d.s = 1, d.pad(0, 0),
                       d.hasResidual = true;
                   }},
              });
    vkconv::PlanOptions o;
    o.algorithm = "implicit_gemm_nhwc";
    for (size_t i = 0; i < shapes.size(); ++i) {
        const NamedDesc& c = shapes[i];
        ASSERT_EQ(planDeclines(ctx(), c.desc, o), "") << c.name;
        const auto r = runAndCheck(ctx(), c.desc, o, 9410 + uint64_t(i), DataMode::Integer);
        EXPECT_TRUE(passed(r)) << c.name << ": " << r.config;
    }
}
