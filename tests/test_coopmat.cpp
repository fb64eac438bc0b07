// Shapes the cooperative-matrix implicit GEMM accepts (16-bit storage, C/groups % 16 == 0), each
// through "implicit_gemm_coopmat" and "auto": the edge list and the random sweep draw almost none
// of them (few channels).  Where the device has no usable cooperative matrix (lavapipe, RDNA1/2)
// the coopmat cases skip with the algorithm's reason and "auto" checks the fallback.  Every test
// name contains "coopmat" (--gtest_filter='*coopmat*').
#include <cstdlib>
#include <initializer_list>
#include <tuple>

#include "environment.hpp"
#include "harness.hpp"
#include "util/test_hooks.hpp"

using namespace vkt;
using vkconv::Activation;
using vkconv::ConvDesc;
using vkconv::DType;
using vkconv::FilterLayout;
using vkconv::TensorLayout;

namespace {

constexpr const char* kAlgo = "implicit_gemm_coopmat";

using CmCase = NamedDesc;

ConvDesc cmBase() {
    ConvDesc d;
    d.n = 2, d.c = 32, d.h = 9, d.w = 11, d.k = 40, d.r = 3, d.s = 3;
    d.pad(1, 1);
    d.dtype = DType::F16;
    d.inputLayout = d.outputLayout = TensorLayout::NHWC;
    d.filterLayout = FilterLayout::KRSC;
    return d;
}

std::vector<CmCase> makeCmCases() {
    std::vector<CmCase> v;
    auto add = [&](const std::string& name, auto f) {
        ConvDesc d = cmBase();
        f(d);
        v.push_back({name, d});
    };
    add("base", [](ConvDesc&) {});
    add("k8", [](ConvDesc& d) { d.k = 8; });
    add("k20_out4", [](ConvDesc& d) { d.k = 20; });  // 8-byte stores of 4 filters (4 but not 8 divides K)
    add("k18_out2", [](ConvDesc& d) { d.k = 18; });  // 4-byte stores of 2 filters
    add("k9_no_vec_out", [](ConvDesc& d) { d.k = 9; });
    add("bf16_k42_out2_bias", [](ConvDesc& d) { d.dtype = DType::BF16, d.k = 42, d.hasBias = true; });
    add("grouped2_kg12_out4_bias", [](ConvDesc& d) { d.c = 64, d.k = 24, d.groups = 2, d.hasBias = true; });
    add("k1", [](ConvDesc& d) { d.k = 1; });
    add("c64_k96_bias_res_relu",
        [](ConvDesc& d) { d.c = 64, d.k = 96, d.hasBias = d.hasResidual = true, d.activation = Activation::Relu; });
    add("pointwise", [](ConvDesc& d) { d.r = d.s = 1, d.pad(0, 0), d.c = 64, d.k = 72; });
    add("pointwise_stride2",
        [](ConvDesc& d) { d.r = d.s = 1, d.pad(0, 0), d.strideH = d.strideW = 2, d.h = d.w = 15; });
    add("stride2", [](ConvDesc& d) { d.h = d.w = 17, d.strideH = d.strideW = 2; });
    add("stem7x7_s2", [](ConvDesc& d) { d.h = d.w = 23, d.r = d.s = 7, d.pad(3, 3), d.strideH = d.strideW = 2; });
    add("dilation2", [](ConvDesc& d) { d.h = d.w = 13, d.dilationH = d.dilationW = 2, d.pad(2, 2); });
    add("dilation3_stride2_rect", [](ConvDesc& d) {
        d.h = 15, d.w = 12, d.dilationH = 3, d.dilationW = 2, d.strideH = 2, d.strideW = 1, d.pad(3, 2);
    });
    add("asym_pad", [](ConvDesc& d) { d.padTop = 0, d.padBottom = 2, d.padLeft = 3, d.padRight = 0; });
    add("kernel_gt_input", [](ConvDesc& d) { d.h = 3, d.w = 4, d.r = d.s = 5, d.pad(2, 2); });
    add("rect_1x7", [](ConvDesc& d) { d.r = 1, d.s = 7, d.pad(0, 3); });
    add("rect_7x1", [](ConvDesc& d) { d.h = 12, d.r = 7, d.s = 1, d.pad(3, 0); });
    add("grouped2", [](ConvDesc& d) { d.c = 64, d.k = 48, d.groups = 2; });
    add("grouped4_k16", [](ConvDesc& d) { d.c = 128, d.k = 64, d.groups = 4, d.hasBias = true; });
    add("long_reduction_c256", [](ConvDesc& d) { d.c = 256, d.k = 64, d.h = d.w = 6; });
    add("many_tiles", [](ConvDesc& d) { d.n = 3, d.c = 64, d.k = 160, d.h = d.w = 30; });
    // C/groups a multiple of 16 but not 32: only the 16-value-slice tiles take it.
    add("c48_slice16", [](ConvDesc& d) { d.c = 48, d.k = 56, d.h = d.w = 13, d.hasBias = true; });
    // Bias and ReLU / ReLU6 without a residual: the fp16 scratch's fused path (fp16 NHWC).
    add("bias_relu", [](ConvDesc& d) { d.hasBias = true, d.activation = Activation::Relu; });
    add("bias_relu6_k64", [](ConvDesc& d) { d.k = 64, d.hasBias = true, d.activation = Activation::Relu6; });
    add("c16_grouped3_slice16", [](ConvDesc& d) { d.c = 48, d.k = 24, d.groups = 3, d.r = d.s = 1, d.pad(0, 0); });
    // Several 64-value slices per filter tap (the 64-deep tiles), ragged tiles both ways.
    add("deep_c128_stride2_k72", [](ConvDesc& d) {
        d.n = 3, d.c = 128, d.k = 72, d.h = d.w = 21, d.strideH = d.strideW = 2, d.hasBias = d.hasResidual = true;
    });
    add("deep_bf16_c192_k64_asym", [](ConvDesc& d) {
        d.dtype = DType::BF16, d.n = 2, d.c = 192, d.k = 64, d.h = 16, d.w = 19;
        d.padTop = 0, d.padBottom = 2, d.padLeft = 1, d.padRight = 1, d.activation = Activation::Relu;
    });
    add("big_k", [](ConvDesc& d) { d.n = 1, d.c = 64, d.k = 272, d.h = d.w = 20, d.hasResidual = true; });
    for (auto a : {Activation::Relu6, Activation::LeakyRelu, Activation::Gelu, Activation::Silu, Activation::Sigmoid})
        add("act_" + std::string(toString(a)),
            [=](ConvDesc& d) { d.hasBias = d.hasResidual = true, d.activation = a, d.activationAlpha = 0.2f; });
    for (auto in : {TensorLayout::NCHW, TensorLayout::NHWC})
        for (auto out : {TensorLayout::NCHW, TensorLayout::NHWC})
            for (auto f : {FilterLayout::KCRS, FilterLayout::KRSC})
                add("layout_" + std::string(toString(in)) + "_" + std::string(toString(out)) + "_" +
                        std::string(toString(f)),
                    [=](ConvDesc& d) {
                        d.inputLayout = in, d.outputLayout = out, d.filterLayout = f;
                        d.n = 3, d.c = 64, d.k = 48, d.h = 7, d.w = 10, d.r = 3, d.s = 2, d.pad(1, 0);
                        d.hasBias = d.hasResidual = true;
                    });
    add("nchw_stride2_dil2", [](ConvDesc& d) {
        d.inputLayout = d.outputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS;
        d.h = d.w = 19, d.strideH = d.strideW = 2, d.dilationH = d.dilationW = 2, d.pad(2, 2);
    });
    add("nchw_many_tiles", [](ConvDesc& d) {
        d.inputLayout = d.outputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS;
        d.n = 2, d.c = 64, d.k = 136, d.h = d.w = 29;
    });
    // NCHW outputs: 192 pixels per image, runs of 8 in 16-byte stores (epilogue_runs.glsl), with
    // a partial filter tile; 196 and 100 per image: runs of 4 (octets cross images at their
    // middle); 6 per image (runs would cross images anywhere): the element loop.
    add("nchw_out_16x12_k40_bias_res", [](ConvDesc& d) {
        d.n = 3, d.h = 16, d.w = 12, d.outputLayout = TensorLayout::NCHW, d.hasBias = d.hasResidual = true;
    });
    add("nchw_out_14x14_k24_bias_res_relu", [](ConvDesc& d) {
        d.n = 3, d.h = d.w = 14, d.k = 24, d.outputLayout = TensorLayout::NCHW, d.hasBias = d.hasResidual = true;
        d.activation = Activation::Relu;
    });
    add("nchw_out_10x10_n3_k40", [](ConvDesc& d) {
        d.n = 3, d.h = d.w = 10, d.k = 40, d.outputLayout = TensorLayout::NCHW, d.hasBias = true;
        d.activation = Activation::Relu;
    });
    add("nchw_out_tiny_2x3_n5",
        [](ConvDesc& d) { d.n = 5, d.h = 2, d.w = 3, d.outputLayout = TensorLayout::NCHW, d.hasResidual = true; });
    // NCHW outputs that 4 does not divide: 4-byte words of two pixels where P*Q is even
    // (NCHW_WORDS; 30 pixels and 41 filters, 18 pixels: an image boundary inside most 16-pixel
    // fragments, bf16), element stores where it is odd (49 pixels).
    add("nchw_out_7x7_n3_k40_bias_res_relu", [](ConvDesc& d) {
        d.n = 3, d.h = d.w = 7, d.k = 40, d.outputLayout = TensorLayout::NCHW, d.hasBias = d.hasResidual = true;
        d.activation = Activation::Relu;
    });
    add("nchw_out_5x6_n5_k41_res", [](ConvDesc& d) {
        d.inputLayout = d.outputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS;
        d.n = 5, d.h = 5, d.w = 6, d.k = 41, d.hasResidual = true;
    });
    add("bf16_nchw_out_3x6_n7_k24_bias", [](ConvDesc& d) {
        d.dtype = DType::BF16, d.n = 7, d.h = 3, d.w = 6, d.k = 24, d.outputLayout = TensorLayout::NCHW,
        d.hasBias = true;
    });
    // NCHW input of 1x1 stride-1 layers with 4-pixel aligned images (NCHW_VEC_A): an item's 8
    // pixels as one 16-byte word (8x8 maps), as two 8-byte words (6x6: octets cross images; 108
    // rows, the last octet half outside; 48 channels, a zero-filled slice tail), bf16, NHWC out.
    add("nchw_pointwise_8x8_c64_k40_bias_res", [](ConvDesc& d) {
        d.inputLayout = d.outputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS;
        d.c = 64, d.k = 40, d.h = d.w = 8, d.r = d.s = 1, d.pad(0, 0), d.hasBias = d.hasResidual = true;
    });
    add("bf16_nchw_pointwise_6x6_c48_k24_n3", [](ConvDesc& d) {
        d.dtype = DType::BF16, d.inputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS;
        d.n = 3, d.c = 48, d.k = 24, d.h = d.w = 6, d.r = d.s = 1, d.pad(0, 0), d.activation = Activation::Relu;
    });
    // C/groups a multiple of 8, not of the slice: each tap's last slice zero past C/groups
    // (MobileNetV2's 24-channel expansion; 40 = 32 + 8 on a 3x3 window; 24 per group in NCHW).
    add("c24_pointwise_k144", [](ConvDesc& d) { d.c = 24, d.k = 144, d.r = d.s = 1, d.pad(0, 0), d.hasBias = true; });
    add("c40_tail", [](ConvDesc& d) { d.c = 40; });
    add("c24_grouped2_tail_nchw", [](ConvDesc& d) {
        d.c = 48, d.groups = 2, d.k = 32, d.inputLayout = d.outputLayout = TensorLayout::NCHW,
        d.filterLayout = FilterLayout::KCRS;
    });
    // ... in NCHW with a short reduction the router keeps the scalar GEMM (router.cpp; as a
    // small 1x1 layer, the one with analytic bounds).
    add("c40_pointwise_nchw_scalar", [](ConvDesc& d) {
        d.c = 40, d.k = 48, d.r = d.s = 1, d.pad(0, 0), d.inputLayout = d.outputLayout = TensorLayout::NCHW;
        d.filterLayout = FilterLayout::KCRS;
    });
    // What the router must not send to the matrix units.
    add("declines_c36", [](ConvDesc& d) { d.c = 36; });
    add("declines_f32", [](ConvDesc& d) { d.dtype = DType::F32; });
    // bf16 operands (VK_KHR_shader_bfloat16 cooperative matrices; emulated with the coopmat_emulate hook):
    // the 16-byte and the element-wise staging and output paths.
    add("bf16", [](ConvDesc& d) { d.dtype = DType::BF16, d.hasBias = true; });
    add("bf16_k20_res_silu", [](ConvDesc& d) {
        d.dtype = DType::BF16, d.k = 20, d.hasBias = d.hasResidual = true, d.activation = Activation::Silu;
    });
    add("bf16_nchw_kcrs_stride2", [](ConvDesc& d) {
        d.dtype = DType::BF16, d.inputLayout = d.outputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS;
        d.c = 64, d.k = 48, d.h = d.w = 17, d.strideH = d.strideW = 2, d.hasResidual = true;
    });
    return v;
}

const std::vector<CmCase>& cmCases() {
    static const auto v = makeCmCases();
    return v;
}

using Param = std::tuple<int, std::string>;
std::string paramName(const ::testing::TestParamInfo<Param>& info) { return caseAlgorithmName(cmCases(), info.param); }

}  // namespace

class CoopmatShapes : public VkconvParamTest<Param> {};

TEST_P(CoopmatShapes, MatchesReference) {
    const auto& [i, algorithm] = GetParam();
    const auto& c = cmCases()[size_t(i)];
    const std::string why = vkconv::whyUnsupported(ctx(), c.desc, kAlgo);
    if (algorithm != "auto" && !why.empty()) GTEST_SKIP() << kAlgo << " declines " << c.desc.toString() << ": " << why;
    vkconv::PlanOptions o;
    o.algorithm = algorithm;
    for (auto mode : {DataMode::Uniform, DataMode::Integer}) {
        const auto r = runAndCheck(ctx(), c.desc, o, 5000 + uint64_t(i), mode);
        EXPECT_TRUE(passed(r)) << "case " << c.name << " (" << toString(mode) << " data)";
        // The router must pick the matrix units wherever they accept, except for grouped layers
        // of few channels or filters per group (grouped_coopmat), at most 4 filters per group,
        // which go to direct_few_filters (or, stride-1 layers with several taps, big enough, on
        // NVIDIA, halo_coopmat's one-column tiles), and NCHW slice-tail
        // layers with short reductions, which stay on implicit_gemm; 3x3 stride-1 layers may go to
        // winograd with its GEMM on them, stride-1 layers with several taps to halo_coopmat, 1x1
        // NHWC layers of at most 64 channels to pointwise_coopmat, and NCHW activations through
        // coopmat_nhwc's transposes to one of those (router.cpp).
        if (algorithm == "auto" && r.error.empty()) {
            const bool stride1 = c.desc.strideH == 1 && c.desc.strideW == 1;
            const bool wino =
                c.desc.r == 3 && c.desc.s == 3 && stride1 && c.desc.dilationH == 1 && c.desc.dilationW == 1;
            if (!why.empty()) EXPECT_NE(r.algorithm, kAlgo) << c.desc.toString();
            // Grouped layers that would leave its tiles mostly padding (K/groups < 16 or C/groups
            // % 16 != 0), at stride 1 on outputs at least 14 wide: grouped_coopmat, NCHW behind
            // coopmat_nhwc's transposes (router.cpp).
            else if (c.desc.groups > 1 && (c.desc.filtersPerGroup() < 16 || c.desc.channelsPerGroup() % 16 != 0) &&
                     stride1 && c.desc.outW() >= 14 && vkconv::whyUnsupported(ctx(), c.desc, "grouped_coopmat").empty())
                EXPECT_EQ(r.algorithm, c.desc.inputLayout == TensorLayout::NHWC ? "grouped_coopmat" : "coopmat_nhwc")
                    << c.desc.toString();
            else if (c.desc.filtersPerGroup() <= 4 &&
                     !(r.algorithm == "halo_coopmat" && stride1 && c.desc.r * c.desc.s > 1))
                EXPECT_EQ(r.algorithm, "direct_few_filters") << c.desc.toString();
            else if (wino && r.algorithm == "winograd")
                EXPECT_NE(r.config.find("V/U"), std::string::npos) << r.config;
            else if (stride1 && c.desc.r * c.desc.s > 1 && r.algorithm == "halo_coopmat")
                SUCCEED();
            // 16-bit NCHW 1x1 stride-1 unpadded layers of 4-pixel aligned images from 32 channels
            // up to 1024 pixels and 2^18 outputs: slicedk_coopmat in layout (slicedKCoopmatNchwPays).
            else if (c.desc.inputLayout == TensorLayout::NCHW && c.desc.r == 1 && c.desc.s == 1 && stride1 &&
                     c.desc.padTop + c.desc.padBottom + c.desc.padLeft + c.desc.padRight == 0 && c.desc.groups == 1 &&
                     c.desc.h * c.desc.w % 4 == 0 && c.desc.c >= 32 && c.desc.n * c.desc.h * c.desc.w <= 1024 &&
                     c.desc.outputElements() <= (1 << 18))
                EXPECT_EQ(r.algorithm, "slicedk_coopmat") << c.desc.toString();
            // 16-bit NCHW 1x1 stride-1 layers of <= 64 channels and <= 64 MFLOP: the scalar GEMM in
            // layout with analytic bounds (smallPointwiseStaysScalar).
            else if (c.desc.inputLayout == TensorLayout::NCHW && c.desc.outputLayout == TensorLayout::NCHW &&
                     c.desc.r == 1 && c.desc.s == 1 && stride1 &&
                     c.desc.padTop + c.desc.padBottom + c.desc.padLeft + c.desc.padRight == 0 &&
                     c.desc.channelsPerGroup() <= 64 && c.desc.flops() <= 64e6)
                EXPECT_EQ(r.algorithm, "implicit_gemm_analytic") << c.desc.toString();
            else if (c.desc.inputLayout == TensorLayout::NCHW && c.desc.channelsPerGroup() % 16 != 0 &&
                     c.desc.reductionLength() < 96)
                EXPECT_EQ(r.algorithm, "implicit_gemm") << c.desc.toString();
            else if (r.algorithm == "coopmat_nhwc")
                EXPECT_EQ(c.desc.inputLayout, TensorLayout::NCHW) << r.config;
            // 1x1 stride-1 NHWC layers of few channels (or small ones of up to 192): the streaming kernel.
            else if (r.algorithm == "pointwise_coopmat")
                EXPECT_TRUE(c.desc.r == 1 && c.desc.s == 1 && stride1 && c.desc.channelsPerGroup() <= 192 &&
                            c.desc.outputLayout == TensorLayout::NHWC)
                    << c.desc.toString();
            else
                EXPECT_EQ(r.algorithm, kAlgo) << c.desc.toString();
        }
        RecordProperty("chosen", r.algorithm + " " + r.config);
    }
}

INSTANTIATE_TEST_SUITE_P(coopmat, CoopmatShapes,
                         ::testing::Combine(::testing::Range(0, int(cmCases().size())),
                                            ::testing::Values(std::string(kAlgo), std::string("auto"))),
                         paramName);

// Every tile configuration forced (PlanOptions::tile) on shapes covering each staging path; a
// tile the device cannot hold (shared memory, workgroup size) skips with its reason.
class CoopmatTiles : public VkconvParamTest<std::tuple<int, std::string>> {};

TEST_P(CoopmatTiles, MatchesReference) {
    const auto& [i, tile] = GetParam();
    const auto& c = cmCases()[size_t(i)];
    const std::string why = vkconv::whyUnsupported(ctx(), c.desc, kAlgo);
    if (!why.empty()) GTEST_SKIP() << kAlgo << " declines " << c.desc.toString() << ": " << why;
    vkconv::PlanOptions o;
    o.algorithm = kAlgo;
    o.tile = tile;
    const auto r = runAndCheck(ctx(), c.desc, o, 6000 + uint64_t(i), DataMode::Uniform);
    if (r.errorCode == vkconv::ErrorCode::Unsupported) GTEST_SKIP() << r.error;
    EXPECT_TRUE(passed(r)) << "case " << c.name << " tile " << tile;
    // "<tile>/s<N>": split-K with N splits (fewer where the reduction has fewer slices).
    const size_t split = tile.rfind("/s");
    EXPECT_NE(r.config.find("tile " + tile.substr(0, split) + " "), std::string::npos) << r.config;
    if (split != std::string::npos) {
        EXPECT_NE(r.config.find(" split "), std::string::npos) << r.config;
    }
    // The fp16 scratch where nothing is fused (the unsplit vector pipeline of fp16 NHWC outputs).
    expectHalfScratch(ctx(), c.desc, r.config, r.config.find(" split ") == std::string::npos, 4);
    expectNhwcOutWord(c.desc, r.config);
    // NCHW outputs that 4 does not divide leave in pixel-pair words where P*Q is even, unless split
    // (pass 2 writes them).
    if (const int64_t pq = c.desc.outH() * c.desc.outW(); c.desc.outputLayout == TensorLayout::NCHW && pq % 4 != 0) {
        EXPECT_EQ(r.config.find(" words") != std::string::npos,
                  pq % 2 == 0 && r.config.find(" split ") == std::string::npos)
            << r.config;
    }
}

// Indices of the named cmCases().
static std::vector<int> casesNamed(std::initializer_list<const char*> names) {
    std::vector<int> v;
    for (const char* name : names)
        for (size_t i = 0; i < cmCases().size(); ++i)
            if (cmCases()[i].name == name) v.push_back(int(i));
    return v;
}

static std::string tileCaseName(const ::testing::TestParamInfo<std::tuple<int, std::string>>& info) {
    return sanitizeName(cmCases()[size_t(std::get<0>(info.param))].name + "__" + std::get<1>(info.param));
}

// Every entry of algo_implicit_gemm_coopmat.cpp's tile table but the 32-wide one (below), and split-K on four.
static const std::vector<std::string> kTileNames = {
    "128x128x32/2x4", "128x64x32/2x2", "64x64x32/2x2", "256x128x32/4x2s1", "128x256x32/2x4s1", "128x128x64/2x4s1",
    "256x64x32/4x2s1", "64x256x32/1x8s1", "128x128x16/2x4", "192x128x64/4x2s1", "192x128x64/4x4s1", "256x64x64/4x4s1",
    "64x64x64/2x4", "64x64x32/2x4",
    // split-K: even, uneven and clamped splits
    "128x128x32/2x4/s2", "64x64x32/2x2/s3", "128x256x32/2x4s1/s64", "128x128x16/2x4/s3", "64x64x64/2x4/s3",
    "64x64x32/2x4/s3",
    // sliced-K: 2 and 4 groups, one and two staging buffers, and with split-K
    // (lavapipe's 32 KiB holds the 32x64 and the 64x128 / 128x64 ones)
    "32x64x32/2x2k2", "32x64x32/2x2k4", "64x64x32/2x2k2", "64x64x32/2x2k4", "64x64x64/2x2k2", "64x128x32/2x2k2",
    "128x64x32/2x2k2", "128x128x32/2x2k2", "32x64x32/2x2k4/s3", "64x64x32/2x2k4/s3", "32x64x64/2x2k2"};

INSTANTIATE_TEST_SUITE_P(
    coopmat, CoopmatTiles,
    ::testing::Combine(
        ::testing::ValuesIn(casesNamed({"base", "k20_out4", "stem7x7_s2", "grouped2", "many_tiles", "c48_slice16",
                                        "c40_tail", "layout_nchw_nchw_kcrs", "layout_nchw_nhwc_krsc",
                                        "layout_nhwc_nchw_kcrs", "nchw_many_tiles", "nchw_out_16x12_k40_bias_res",
                                        "bf16_nchw_kcrs_stride2", "deep_c128_stride2_k72", "deep_bf16_c192_k64_asym"})),
        ::testing::ValuesIn(kTileNames)),
    tileCaseName);

// The 32-wide tile on fewer cases (the 12 s NCHW bf16 ones left out for CI's time): both staging
// layouts, groups, K = 20 (a partial column tile, 4-filter stores), K = 18 and 42 (2-filter stores),
// K = 9 (element stores), 16-deep slices and deep strided reductions.
INSTANTIATE_TEST_SUITE_P(
    coopmat_wn32, CoopmatTiles,
    ::testing::Combine(::testing::ValuesIn(casesNamed({"base", "k20_out4", "k18_out2", "bf16_k42_out2_bias",
                                                       "k9_no_vec_out", "grouped2_kg12_out4_bias", "grouped2",
                                                       "c48_slice16", "nchw_many_tiles", "deep_c128_stride2_k72"})),
                       ::testing::Values(std::string("64x32x16/2x1"))),
    tileCaseName);

// NCHW outputs whose P*Q is a multiple of 4 and not of 8 (runs of 4 within one image; 588 rows, so
// the last octet is half outside) on tiles of each staging shape, and a 10x10 grid of 3 images;
// a 16-subgroup tile keeps the element stores there (the host's rule).
INSTANTIATE_TEST_SUITE_P(
    coopmat_runs4, CoopmatTiles,
    ::testing::Combine(::testing::ValuesIn(casesNamed({"nchw_out_14x14_k24_bias_res_relu", "nchw_out_10x10_n3_k40"})),
                       ::testing::Values(std::string("128x256x32/2x4s1"), std::string("64x64x32/2x4"),
                                         std::string("256x64x64/4x4s1"), std::string("64x32x16/2x1"),
                                         std::string("64x64x32/2x2/s3"))),
    tileCaseName);

// NCHW output words (P*Q 2 mod 4; 4 | P*Q on 16-subgroup tiles is coopmat_runs4's
// 256x64x64/4x4s1) and the element stores of odd P*Q on tiles of each staging shape: 2 and 8
// subgroups, sliced-K, the 32-wide tile, and split-K (its pass 2 writes the output; no words).
INSTANTIATE_TEST_SUITE_P(
    coopmat_out_words, CoopmatTiles,
    ::testing::Combine(::testing::ValuesIn(casesNamed({"nchw_out_7x7_n3_k40_bias_res_relu", "nchw_out_5x6_n5_k41_res",
                                                       "bf16_nchw_out_3x6_n7_k24_bias"})),
                       ::testing::Values(std::string("64x64x32/2x4"), std::string("128x256x32/2x4s1"),
                                         std::string("32x64x32/2x2k2"), std::string("64x32x16/2x1"),
                                         std::string("64x64x32/2x2/s3"))),
    tileCaseName);

// NCHW_VEC_A on tiles of each staging shape: two and sixteen subgroups (the latter beyond
// lavapipe's 32 KiB: it skips there), a single-buffer tile (two slices ahead where asked),
// sliced-K, split-K, the 32-wide tile.
INSTANTIATE_TEST_SUITE_P(
    coopmat_nchw_words, CoopmatTiles,
    ::testing::Combine(
        ::testing::ValuesIn(casesNamed({"nchw_pointwise_8x8_c64_k40_bias_res", "bf16_nchw_pointwise_6x6_c48_k24_n3"})),
        ::testing::Values(std::string("128x64x32/2x2"), std::string("256x64x64/4x4s1"), std::string("256x64x32/4x2s1"),
                          std::string("128x64x32/2x2k2"), std::string("64x64x32/2x2/s3"), std::string("64x32x16/2x1"))),
    tileCaseName);

// The declines the router relies on, with readable reasons, on every device.
class CoopmatDeclines : public VkconvTest {};

TEST_F(CoopmatDeclines, coopmat_ReasonsAreGiven) {
    ConvDesc d = cmBase();
    const bool accepts = vkconv::whyUnsupported(ctx(), d, kAlgo).empty();
    d.c = 36;  // not a multiple of 8 (16-byte channel words); where the device declines, its reason
    const std::string why36 = vkconv::whyUnsupported(ctx(), d, kAlgo);
    EXPECT_NE(why36, "");
    if (accepts) {
        EXPECT_NE(why36.find("multiple of 8"), std::string::npos) << why36;
    }
    d = cmBase();
    d.dtype = DType::F32;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), d, kAlgo).find("fp32"), std::string::npos);
    d = cmBase();
    std::cout << "[ info ] " << kAlgo << " on " << ctx().caps().deviceName << ": "
              << (vkconv::whyUnsupported(ctx(), d, kAlgo).empty() ? "accepts fp16 NHWC C=32"
                                                                  : vkconv::whyUnsupported(ctx(), d, kAlgo))
              << std::endl;
    d.dtype = DType::BF16;
    std::cout << "[ info ] bf16: "
              << (vkconv::whyUnsupported(ctx(), d, kAlgo).empty() ? "accepted"
                                                                  : vkconv::whyUnsupported(ctx(), d, kAlgo))
              << std::endl;
}

// Sliced-K tiles: a forced one that cannot run names why; the router gives them neither a split
// request alone (winograd's one-pass GEMM asks "s1") nor grouped layers.
TEST_F(CoopmatDeclines, coopmat_SlicedKDeclines) {
    ConvDesc d = cmBase();
    if (const std::string why = vkconv::whyUnsupported(ctx(), d, kAlgo); !why.empty()) GTEST_SKIP() << why;
    vkconv::PlanOptions o;
    o.algorithm = kAlgo;
    o.tile = "128x128x32/2x2k2";
    d.inputLayout = TensorLayout::NCHW;
    try {
        (void)vkconv::Plan::create(ctx(), d, o);
        ADD_FAILURE() << "a sliced-K tile of 64x64 per subgroup took NCHW input";
    } catch (const vkconv::Error& e) {
        EXPECT_NE(std::string(e.what()).find("sliced-K with NCHW input"), std::string::npos) << e.what();
    }
    d = cmBase();
    o.tile = "s1";
    EXPECT_EQ(vkconv::Plan::create(ctx(), d, o).config().find("k4 "), std::string::npos);
    d.groups = 2, d.k = 64;
    o.tile.clear();
    EXPECT_EQ(vkconv::Plan::create(ctx(), d, o).config().find("2x2k"), std::string::npos);
}

// bf16 on the matrix units needs this build's bf16 shader (a glslang with GL_EXT_bfloat16), the
// device's VK_KHR_shader_bfloat16 cooperative matrices and a bf16 x bf16 + f32 configuration:
// where it is declined, the reason names what is missing.
TEST_F(CoopmatDeclines, coopmat_Bf16ReasonNamesWhatIsMissing) {
    ConvDesc d = cmBase();
    d.dtype = DType::BF16;
    const std::string why = vkconv::whyUnsupported(ctx(), d, kAlgo);
    const auto& caps = ctx().caps();
    const bool emulating = vkconv::testHookOr("coopmat_emulate", false);
    std::cout << "[ info ] bf16 cooperative matrices on " << caps.deviceName << ": "
              << (why.empty() ? (emulating ? "accepted (emulated)" : "accepted") : why) << std::endl;
    if (why.empty()) {
        EXPECT_TRUE(emulating || caps.bfloat16CooperativeMatrix);
        return;
    }
    bool named = false;
    for (const char* what : {"GL_EXT_bfloat16", "VK_KHR_cooperative_matrix", "VK_KHR_shader_bfloat16", "bf16 x bf16",
                             "storageBuffer16BitAccess", "vulkanMemoryModel"})
        named = named || why.find(what) != std::string::npos;
    EXPECT_TRUE(named) << why;
    if (caps.bfloat16CooperativeMatrix) {
        EXPECT_EQ(why.find("VK_KHR_shader_bfloat16"), std::string::npos) << why;
    }
}

// The router's split between the matrix units and the scalar kernels by filters per group: at most
// 4 go to direct_few_filters, 5 and more stay on the matrix units, 9-32 on the 32-wide tile where
// the grid is large.  Where the matrix units decline the layer the scalar path takes all of them,
// so the test skips with the reason.  (Plans only: nothing this size runs.)
class CoopmatRouting : public VkconvTest {};

TEST_F(CoopmatRouting, coopmat_FiltersPerGroupSplit) {
    ConvDesc d = cmBase();
    // 2.4M outputs at 9 filters, 96 channels: past what the router gives pointwise_coopmat (at
    // most 64 channels, or small layers of at most 192 and 2^18 outputs).
    d.n = 4, d.c = 96, d.h = d.w = 256, d.r = d.s = 1, d.pad(0, 0);
    const std::string why = vkconv::whyUnsupported(ctx(), d, kAlgo);
    if (!why.empty()) GTEST_SKIP() << kAlgo << " declines " << d.toString() << ": " << why;
    for (int64_t k : {4, 8, 9, 16, 17, 32}) {
        d.k = k;
        const vkconv::Plan plan = vkconv::Plan::create(ctx(), d);
        EXPECT_EQ(plan.algorithm(), k <= 4 ? "direct_few_filters" : kAlgo) << d.toString();
        if (k >= 9 && k <= 32) {
            EXPECT_NE(plan.config().find("tile 64x32x16/2x1 "), std::string::npos)
                << d.toString() << ": " << plan.config();
        }
    }
    ConvDesc small = d;
    small.n = 1, small.h = small.w = 112, small.k = 16;  // MobileNetV2 features.1.conv.1's grid at b1: 200K outputs
    // ... a small layer: the streaming kernel where it runs; with 256 channels the general one.
    const bool pw = vkconv::whyUnsupported(ctx(), small, "pointwise_coopmat").empty();
    EXPECT_EQ(vkconv::Plan::create(ctx(), small).algorithm(), pw ? "pointwise_coopmat" : kAlgo) << small.toString();
    small.c = 256;
    EXPECT_EQ(vkconv::Plan::create(ctx(), small).algorithm(), kAlgo) << small.toString();
}
