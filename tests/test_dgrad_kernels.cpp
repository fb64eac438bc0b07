// The fast backward-data kernels, each forced by PlanOptions::algorithm: "dgrad_implicit_gemm"
// (stride phases on a tiled GEMM), "dgrad_forward" (stride 1 as a forward convolution of dy
// with the flipped filter) and "dgrad_phases" (each stride phase as a forward convolution of dy,
// then a scatter into dx).  Edge cases (stride above the kernel, dilation with stride, phases no
// tap reaches, groups, depthwise, kernels larger than the input, odd sizes, N > 1, every dtype and
// layout pairing, asymmetric padding, accumulate, the transposed epilogue), every tile, the
// forward kernels behind dgrad_forward and dgrad_phases, a seeded sweep of 100+ accepted descriptors per
// algorithm, then the router's picks and the declines.  Each run: fresh random data, poisoned
// outputs, every element against the float64 scatter reference (support/gradient_check.hpp).
#include <gtest/gtest.h>
#include <vkconv/vkconv.hpp>

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "support/environment.hpp"
#include "support/gradient_check.hpp"

namespace {

using vkconv::Activation;
using vkconv::ConvDesc;
using vkconv::ConvPass;
using vkconv::ConvTransposeDesc;
using vkconv::DType;
using vkconv::ErrorCode;
using vkconv::FilterLayout;
using vkconv::PlanOptions;
using vkconv::TensorLayout;
using vkt::DataMode;

const char* const kAlgorithms[] = {"dgrad_implicit_gemm", "dgrad_forward", "dgrad_phases"};

ConvDesc base() {
    ConvDesc d;
    d.n = 2, d.c = 12, d.h = 9, d.w = 7, d.k = 16, d.r = d.s = 3;
    d.pad(1, 1);
    return d;
}

PlanOptions options(const std::string& algorithm, const std::string& tile = "") {
    PlanOptions o;
    o.algorithm = algorithm;
    o.tile = tile;
    o.pass = ConvPass::BackwardData;
    return o;
}

// PlanOptions::packedFilter (a transposed convolution's constant weights): the flip or the
// sub-filters, and the inner plan's own packing, written once; the original filter is poisoned
// after packing.  A forced inner algorithm may decline packed filters (then there is nothing to run).
void expectPackedMatches(const ConvDesc& d, PlanOptions o, uint64_t seed) {
    o.packedFilter = true;
    if (std::string why = vkt::declineReason(d, o); !why.empty()) return;
    EXPECT_TRUE(vkt::passed(vkt::checkDataGrad(d, o, seed, DataMode::Uniform))) << "packed filter";
}

std::vector<vkt::NamedDesc> makeCases() {
    std::vector<vkt::NamedDesc> v = vkt::editedCases(
        base(),
        {{"base", [](ConvDesc&) {}},
         {"k_not_multiple_of_8", [](ConvDesc& d) { d.k = 13; }},
         {"stride2", [](ConvDesc& d) { d.strideH = d.strideW = 2; }},
         {"stride2_even", [](ConvDesc& d) { d.h = d.w = 8, d.strideH = d.strideW = 2; }},
         {"stride3_over_k2", [](ConvDesc& d) { d.r = d.s = 2, d.strideH = d.strideW = 3, d.pad(0, 0); }},
         {"stride4_over_k1x3", [](ConvDesc& d) { d.r = 1, d.strideH = 4, d.strideW = 2, d.padTop = d.padBottom = 0; }},
         {"pointwise_stride2", [](ConvDesc& d) { d.r = d.s = 1, d.strideH = d.strideW = 2, d.pad(0, 0); }},
         {"pointwise_stride2_odd",
          [](ConvDesc& d) { d.r = d.s = 1, d.strideH = d.strideW = 2, d.pad(0, 0), d.h = 11; }},
         {"dilation2_stride2",
          [](ConvDesc& d) { d.dilationH = d.dilationW = 2, d.strideH = d.strideW = 2, d.pad(2, 2); }},
         {"dilation3_stride2",
          [](ConvDesc& d) { d.dilationH = 3, d.strideH = d.strideW = 2, d.padTop = d.padBottom = 3; }},
         {"dilation2_stride4",
          [](ConvDesc& d) { d.h = 13, d.dilationH = 2, d.strideH = 4, d.padTop = 2, d.padBottom = 1; }},
         {"dilation2", [](ConvDesc& d) { d.dilationH = d.dilationW = 2, d.pad(2, 2); }},
         {"asym_pad", [](ConvDesc& d) { d.padTop = 0, d.padBottom = 2, d.padLeft = 2, d.padRight = 1; }},
         {"asym_pad_s2",
          [](ConvDesc& d) { d.padTop = 2, d.padBottom = 0, d.padLeft = 0, d.padRight = 1, d.strideH = d.strideW = 2; }},
         {"pad_beyond_kernel", [](ConvDesc& d) { d.padTop = 3, d.padLeft = 0; }},
         {"kernel_over_input", [](ConvDesc& d) { d.h = 2, d.w = 3, d.r = d.s = 5, d.pad(2, 2); }},
         {"kernel_over_input_s2",
          [](ConvDesc& d) { d.h = 3, d.w = 2, d.r = 5, d.s = 4, d.pad(2, 2), d.strideH = d.strideW = 2; }},
         {"k7_stride2_pad3",
          [](ConvDesc& d) { d.h = d.w = 13, d.r = d.s = 7, d.strideH = d.strideW = 2, d.pad(3, 3); }},
         {"groups3", [](ConvDesc& d) { d.c = 24, d.k = 27, d.groups = 3; }},
         {"groups2_s2", [](ConvDesc& d) { d.c = 16, d.k = 32, d.groups = 2, d.strideH = d.strideW = 2; }},
         {"depthwise", [](ConvDesc& d) { d.c = d.k = d.groups = 8; }},
         {"depthwise_s2", [](ConvDesc& d) { d.c = d.k = d.groups = 8, d.strideH = d.strideW = 2; }},
         {"depthwise_mult2", [](ConvDesc& d) { d.c = 4, d.k = 8, d.groups = 4; }},
         {"odd_n3_1x1", [](ConvDesc& d) { d.n = 3, d.h = 5, d.w = 11, d.c = 7, d.k = 5, d.r = d.s = 1, d.pad(0, 0); }},
         {"odd_rect_1x5",
          [](ConvDesc& d) { d.n = 1, d.h = 1, d.w = 17, d.r = 1, d.s = 5, d.padTop = d.padBottom = 0; }},
         {"wide_c40", [](ConvDesc& d) { d.c = 40, d.k = 24, d.h = d.w = 10; }},
         {"wide_c72_s2", [](ConvDesc& d) { d.c = 72, d.k = 16, d.h = d.w = 10, d.strideH = d.strideW = 2; }},
         {"wide_c136", [](ConvDesc& d) { d.c = 136, d.k = 8, d.h = d.w = 6; }},
         {"many_rows", [](ConvDesc& d) { d.n = 3, d.h = d.w = 23, d.c = 8, d.k = 8; }}});
    // Every dtype x activation layouts (dy, dx) x filter layout, at stride 1 and 2.
    for (DType t : {DType::F32, DType::F16, DType::BF16})
        for (int layouts = 0; layouts < 8; ++layouts)
            for (int64_t stride : {1, 2}) {
                ConvDesc d = base();
                d.dtype = t;
                d.inputLayout = TensorLayout(layouts & 1);
                d.outputLayout = TensorLayout((layouts >> 1) & 1);
                d.filterLayout = FilterLayout((layouts >> 2) & 1);
                d.strideH = d.strideW = stride;
                const char* names[] = {"nchw", "nhwc"};
                v.push_back({std::string(vkconv::toString(t)) + "_" + names[layouts & 1] + "_" +
                                 names[(layouts >> 1) & 1] + (layouts & 4 ? "_krsc" : "_kcrs") + "_s" +
                                 std::to_string(stride),
                             d});
            }
    return v;
}

const std::vector<vkt::NamedDesc>& cases() {
    static const auto v = makeCases();
    return v;
}

std::vector<std::tuple<int, std::string>> caseParams() {
    std::vector<std::tuple<int, std::string>> v;
    for (int i = 0; i < int(cases().size()); ++i)
        for (const char* a : kAlgorithms) v.emplace_back(i, a);
    return v;
}

class DgradKernelEdges : public vkt::VkconvParamTest<std::tuple<int, std::string>> {};

// Integer data (fp32 sums of small integers are exact: an index error shows as a whole unit) and
// uniform data, each with and without accumulate (where the algorithm takes it).
TEST_P(DgradKernelEdges, MatchesReference) {
    const auto& [index, algorithm] = GetParam();
    const ConvDesc& d = cases()[size_t(index)].desc;
    const PlanOptions o = options(algorithm);
    if (std::string why = vkt::declineReason(d, o); !why.empty()) GTEST_SKIP() << why;
    for (DataMode mode : {DataMode::Integer, DataMode::Uniform}) {
        const vkt::GradCheck r = vkt::checkDataGrad(d, o, 31, mode);
        EXPECT_TRUE(vkt::passed(r));
        EXPECT_EQ(r.algorithm, algorithm);
        PlanOptions acc = o;
        acc.accumulate = true;
        if (vkt::declineReason(d, acc).empty()) {
            EXPECT_TRUE(vkt::passed(vkt::checkDataGrad(d, acc, 32, mode))) << "accumulate";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(All, DgradKernelEdges, ::testing::ValuesIn(caseParams()),
                         [](const auto& info) { return vkt::caseAlgorithmName(cases(), info.param); });

// Every dgrad_implicit_gemm tile on a stride-2 case, a stride-1 case whose K is no multiple of BK
// (per-element taps), an NHWC one and a grouped one: the tiles' staging and epilogue indexing.
const std::vector<vkt::NamedDesc>& tileCases() {
    static const std::vector<vkt::NamedDesc> v = vkt::editedCases(
        base(),
        {{"s2_c40", [](ConvDesc& d) { d.c = 40, d.strideH = d.strideW = 2, d.h = d.w = 15; }},
         {"k13_c70", [](ConvDesc& d) { d.c = 70, d.k = 13, d.h = 11; }},
         {"nhwc_f16_s2_dil2",
          [](ConvDesc& d) { vkt::setNhwcKrsc(d), d.dtype = DType::F16, d.strideH = 2, d.dilationW = 2, d.pad(1, 2); }},
         {"groups2_bf16_s3", [](ConvDesc& d) {
              d.c = 36, d.k = 24, d.groups = 2, d.dtype = DType::BF16, d.strideH = d.strideW = 3, d.h = 16;
          }}});
    return v;
}

std::vector<std::tuple<int, std::string>> tileParams() {
    std::vector<std::tuple<int, std::string>> v;
    for (int i = 0; i < int(tileCases().size()); ++i)
        for (const char* t : {"128x128x8/8x8", "128x64x8/8x4", "64x64x8/4x4", "128x32x8/4x4", "64x16x8/4x4"})
            v.emplace_back(i, t);
    return v;
}

class DgradIgemmTiles : public vkt::VkconvParamTest<std::tuple<int, std::string>> {};

TEST_P(DgradIgemmTiles, MatchesReference) {
    const auto& [index, tile] = GetParam();
    const ConvDesc& d = tileCases()[size_t(index)].desc;
    const PlanOptions o = options("dgrad_implicit_gemm", tile);
    if (std::string why = vkt::declineReason(d, o); !why.empty()) GTEST_SKIP() << why;
    const vkt::GradCheck r = vkt::checkDataGrad(d, o, 41, DataMode::Integer);
    EXPECT_TRUE(vkt::passed(r));
    EXPECT_NE(r.config.find("tile " + tile), std::string::npos) << r.config;
    PlanOptions acc = o;
    acc.accumulate = true;
    EXPECT_TRUE(vkt::passed(vkt::checkDataGrad(d, acc, 42, DataMode::Uniform))) << "accumulate";
}

INSTANTIATE_TEST_SUITE_P(All, DgradIgemmTiles, ::testing::ValuesIn(tileParams()),
                         [](const auto& info) { return vkt::caseTileName(tileCases(), info.param); });

// The forward kernels behind dgrad_forward (PlanOptions::tile names one): the GEMM kernels, split-K
// (its workspace after the flipped filter's), winograd (fp32 3x3), the NHWC route and depthwise.
struct InnerCase {
    std::string name, inner;
    ConvDesc desc;
};

std::vector<InnerCase> innerCases() {
    std::vector<InnerCase> v;
    ConvDesc d = base();
    d.c = 24, d.k = 32, d.h = d.w = 12;
    for (const char* inner : {"direct", "implicit_gemm", "implicit_gemm_analytic", "implicit_gemm_splitk", "winograd",
                              "implicit_gemm_nhwc", "direct_tiled", "direct_blocked"})
        v.push_back({std::string("c24_k32_") + inner, inner, d});
    ConvDesc nhwc = d;
    vkt::setNhwcKrsc(nhwc);
    nhwc.dtype = DType::F16;
    v.push_back({"nhwc_f16_implicit_gemm", "implicit_gemm", nhwc});
    v.push_back({"nhwc_f16_splitk", "implicit_gemm_splitk:64x64x8/4x4/s3", nhwc});
    ConvDesc dw = d;
    dw.c = dw.k = dw.groups = 16;
    dw.dilationH = 2, dw.padTop = dw.padBottom = 2;
    for (const char* inner : {"depthwise", "depthwise_tiled"})
        v.push_back({std::string("dw_dil2_") + inner, inner, dw});
    return v;
}

class DgradForwardInner : public vkt::VkconvParamTest<int> {};

TEST_P(DgradForwardInner, MatchesReference) {
    const InnerCase c = innerCases()[size_t(GetParam())];
    const PlanOptions o = options("dgrad_forward", c.inner);
    if (std::string why = vkt::declineReason(c.desc, o); !why.empty()) GTEST_SKIP() << why;
    const std::string inner = c.inner.substr(0, c.inner.find(':'));
    for (DataMode mode : {DataMode::Integer, DataMode::Uniform}) {
        const vkt::GradCheck r = vkt::checkDataGrad(c.desc, o, 51, mode);
        EXPECT_TRUE(vkt::passed(r));
        EXPECT_NE(r.config.find("then " + inner + " "), std::string::npos) << r.config;
    }
    expectPackedMatches(c.desc, o, 52);
}

INSTANTIATE_TEST_SUITE_P(All, DgradForwardInner, ::testing::Range(0, int(innerCases().size())),
                         [](const auto& info) { return vkt::sanitizeName(innerCases()[size_t(info.param)].name); });

// The matrix-unit kernels behind dgrad_forward (16-bit; on lavapipe through the coopmat_emulate
// test hook, registration vkconv_tests_dgrad_coopmat_emulated; they decline without it).
std::vector<InnerCase> coopmatCases() {
    std::vector<InnerCase> v;
    ConvDesc d = base();
    d.c = 32, d.k = 48, d.h = d.w = 12, d.dtype = DType::F16;
    vkt::setNhwcKrsc(d);
    for (const char* inner : {"implicit_gemm_coopmat", "slicedk_coopmat", "halo_coopmat"})
        v.push_back({std::string("nhwc_f16_3x3_") + inner, inner, d});
    ConvDesc bf = d;
    bf.dtype = DType::BF16, bf.dilationW = 2, bf.padLeft = 2, bf.padRight = 1;
    v.push_back({"nhwc_bf16_dil2_implicit_gemm_coopmat", "implicit_gemm_coopmat", bf});
    ConvDesc pw = d;
    pw.r = pw.s = 1, pw.pad(0, 0), pw.c = 64;
    v.push_back({"nhwc_f16_1x1_pointwise_coopmat", "pointwise_coopmat", pw});
    ConvDesc nchw = base();
    nchw.c = 32, nchw.k = 48, nchw.h = nchw.w = 12, nchw.dtype = DType::F16;
    v.push_back({"nchw_f16_coopmat_nhwc", "coopmat_nhwc", nchw});
    ConvDesc grouped = d;
    grouped.c = grouped.k = 32, grouped.groups = 8;
    v.push_back({"nhwc_f16_groups8_grouped_coopmat", "grouped_coopmat", grouped});
    ConvDesc few = d;
    few.k = 3;  // dy's 3 channels: a first layer's shape for the forward convolution of dy
    v.push_back({"nhwc_f16_k3_few_channels_coopmat", "few_channels_coopmat", few});
    return v;
}

class DgradForwardCoopmat : public vkt::VkconvParamTest<int> {};

TEST_P(DgradForwardCoopmat, MatchesReference) {
    const InnerCase c = coopmatCases()[size_t(GetParam())];
    const PlanOptions o = options("dgrad_forward", c.inner);
    if (std::string why = vkt::declineReason(c.desc, o); !why.empty()) GTEST_SKIP() << why;
    const vkt::GradCheck r = vkt::checkDataGrad(c.desc, o, 71, DataMode::Uniform);
    EXPECT_TRUE(vkt::passed(r));
    EXPECT_NE(r.config.find("then " + c.inner + " "), std::string::npos) << r.config;
    expectPackedMatches(c.desc, o, 72);
}

INSTANTIATE_TEST_SUITE_P(All, DgradForwardCoopmat, ::testing::Range(0, int(coopmatCases().size())),
                         [](const auto& info) { return vkt::sanitizeName(coopmatCases()[size_t(info.param)].name); });

// The forward kernels behind dgrad_phases (PlanOptions::tile forces every phase's): strided
// layers whose phases are GEMM-shaped (3x3 s2: 2x2, 2x1, 1x2 and 1x1 sub-filters; 6x6 s2: four
// 3x3 ones, winograd's), split-K with each phase's own workspace region, the NHWC route, 1x1 s2
// (three phases no tap reaches), dilation sharing the stride's factor, and depthwise.
std::vector<InnerCase> phaseInnerCases() {
    std::vector<InnerCase> v;
    ConvDesc d = base();
    d.c = 24, d.k = 32, d.h = d.w = 13, d.strideH = d.strideW = 2;
    for (const char* inner : {"direct", "implicit_gemm", "implicit_gemm_analytic", "implicit_gemm_splitk",
                              "implicit_gemm_nhwc", "direct_tiled", "direct_blocked"})
        v.push_back({std::string("c24_k32_s2_") + inner, inner, d});
    ConvDesc k6 = d;
    k6.r = k6.s = 6, k6.pad(2, 2), k6.h = k6.w = 16;
    v.push_back({"k6_s2_winograd", "winograd", k6});
    ConvDesc nhwc = d;
    vkt::setNhwcKrsc(nhwc);
    nhwc.dtype = DType::F16, nhwc.strideW = 3, nhwc.padLeft = 0;
    v.push_back({"nhwc_f16_s2x3_implicit_gemm", "implicit_gemm", nhwc});
    v.push_back({"nhwc_f16_s2x3_splitk", "implicit_gemm_splitk:64x64x8/4x4/s3", nhwc});
    ConvDesc pw = d;
    pw.r = pw.s = 1, pw.pad(0, 0), pw.h = 14;
    v.push_back({"pointwise_s2_implicit_gemm", "implicit_gemm", pw});
    ConvDesc dil = d;
    dil.dilationH = dil.dilationW = 2, dil.pad(2, 1), dil.h = dil.w = 15;
    v.push_back({"dil2_s2_implicit_gemm", "implicit_gemm", dil});
    ConvDesc dil3 = d;
    dil3.dilationH = 3, dil3.strideH = 3, dil3.padTop = 3, dil3.padBottom = 2, dil3.h = 17;
    v.push_back({"dil3_s3_implicit_gemm", "implicit_gemm", dil3});
    ConvDesc dw = d;
    dw.c = dw.k = dw.groups = 16;
    v.push_back({"dw_s2_depthwise", "depthwise", dw});
    vkt::setNhwcKrsc(dw);
    v.push_back({"dw_nhwc_s2_depthwise_tiled", "depthwise_tiled", dw});
    return v;
}

class DgradPhasesInner : public vkt::VkconvParamTest<int> {};

TEST_P(DgradPhasesInner, MatchesReference) {
    const InnerCase c = phaseInnerCases()[size_t(GetParam())];
    const PlanOptions o = options("dgrad_phases", c.inner);
    if (std::string why = vkt::declineReason(c.desc, o); !why.empty()) GTEST_SKIP() << why;
    const std::string inner = c.inner.substr(0, c.inner.find(':'));
    for (DataMode mode : {DataMode::Integer, DataMode::Uniform}) {
        const vkt::GradCheck r = vkt::checkDataGrad(c.desc, o, 53, mode);
        EXPECT_TRUE(vkt::passed(r));
        EXPECT_NE(r.config.find("then " + inner + " "), std::string::npos) << r.config;
    }
    PlanOptions acc = o;
    acc.accumulate = true;
    EXPECT_TRUE(vkt::passed(vkt::checkDataGrad(c.desc, acc, 54, DataMode::Uniform))) << "accumulate";
    expectPackedMatches(c.desc, o, 55);
}

INSTANTIATE_TEST_SUITE_P(All, DgradPhasesInner, ::testing::Range(0, int(phaseInnerCases().size())),
                         [](const auto& info) {
                             return vkt::sanitizeName(phaseInnerCases()[size_t(info.param)].name);
                         });

// The matrix-unit kernels behind dgrad_phases, on strided layers (16-bit; emulated on lavapipe as
// for dgrad_forward, registration vkconv_tests_dgrad_coopmat_emulated).
std::vector<InnerCase> phaseCoopmatCases() {
    std::vector<InnerCase> v;
    ConvDesc d = base();
    d.c = 32, d.k = 48, d.h = d.w = 13, d.dtype = DType::F16, d.strideH = d.strideW = 2;
    vkt::setNhwcKrsc(d);
    for (const char* inner : {"implicit_gemm_coopmat", "slicedk_coopmat"})
        v.push_back({std::string("nhwc_f16_3x3_s2_") + inner, inner, d});
    ConvDesc k6 = d;
    k6.r = k6.s = 6, k6.pad(2, 2), k6.h = k6.w = 16;
    v.push_back({"nhwc_f16_6x6_s2_halo_coopmat", "halo_coopmat", k6});
    v.push_back({"nhwc_f16_6x6_s2_winograd", "winograd", k6});
    ConvDesc bf = d;
    bf.dtype = DType::BF16, bf.dilationW = 2, bf.padLeft = 2, bf.padRight = 1, bf.strideW = 4;
    v.push_back({"nhwc_bf16_dil2_s2x4_implicit_gemm_coopmat", "implicit_gemm_coopmat", bf});
    ConvDesc pw = d;
    pw.r = pw.s = 1, pw.pad(0, 0), pw.c = 64, pw.h = pw.w = 14;
    v.push_back({"nhwc_f16_1x1_s2_pointwise_coopmat", "pointwise_coopmat", pw});
    ConvDesc nchw = base();
    nchw.c = 32, nchw.k = 48, nchw.h = nchw.w = 13, nchw.dtype = DType::F16, nchw.strideH = nchw.strideW = 2;
    v.push_back({"nchw_f16_s2_coopmat_nhwc", "coopmat_nhwc", nchw});
    ConvDesc grouped = d;
    grouped.c = grouped.k = 32, grouped.groups = 8;
    v.push_back({"nhwc_f16_groups8_s2_grouped_coopmat", "grouped_coopmat", grouped});
    ConvDesc few = d;
    few.k = 3;  // dy's 3 channels: a first layer's shape for the forward convolution of dy
    v.push_back({"nhwc_f16_k3_s2_few_channels_coopmat", "few_channels_coopmat", few});
    return v;
}

class DgradPhasesCoopmat : public vkt::VkconvParamTest<int> {};

TEST_P(DgradPhasesCoopmat, MatchesReference) {
    const InnerCase c = phaseCoopmatCases()[size_t(GetParam())];
    const PlanOptions o = options("dgrad_phases", c.inner);
    if (std::string why = vkt::declineReason(c.desc, o); !why.empty()) GTEST_SKIP() << why;
    const vkt::GradCheck r = vkt::checkDataGrad(c.desc, o, 73, DataMode::Uniform);
    EXPECT_TRUE(vkt::passed(r));
    EXPECT_NE(r.config.find("then " + c.inner + " "), std::string::npos) << r.config;
    PlanOptions acc = o;
    acc.accumulate = true;
    EXPECT_TRUE(vkt::passed(vkt::checkDataGrad(c.desc, acc, 74, DataMode::Uniform))) << "accumulate";
    expectPackedMatches(c.desc, o, 75);
}

INSTANTIATE_TEST_SUITE_P(All, DgradPhasesCoopmat, ::testing::Range(0, int(phaseCoopmatCases().size())),
                         [](const auto& info) {
                             return vkt::sanitizeName(phaseCoopmatCases()[size_t(info.param)].name);
                         });

// Transposed convolutions (the backward-data pass with bias over C, residual and activation on
// dx), including output padding beyond the stride (dy smaller than the forward output).
ConvTransposeDesc transposed(int64_t in, int64_t out, int64_t hw, int64_t k, int64_t stride, int64_t pad) {
    ConvTransposeDesc t;
    t.n = 2, t.inChannels = in, t.outChannels = out, t.h = t.w = hw, t.kernelH = t.kernelW = k;
    t.strideH = t.strideW = stride;
    t.pad(pad, pad);
    return t;
}

struct NamedTransposed {
    std::string name;
    ConvTransposeDesc desc;
};

std::vector<NamedTransposed> transposedCases() {
    std::vector<NamedTransposed> v;
    auto add = [&](const char* name, ConvTransposeDesc t, void (*edit)(ConvTransposeDesc&)) {
        edit(t);
        v.push_back({name, t});
    };
    add("k4_s2_bias_relu", transposed(16, 12, 5, 4, 2, 1),
        [](ConvTransposeDesc& t) { t.hasBias = true, t.activation = Activation::Relu; });
    add("k3_s1_bias_res_gelu", transposed(16, 24, 6, 3, 1, 1),
        [](ConvTransposeDesc& t) { t.hasBias = t.hasResidual = true, t.activation = Activation::Gelu; });
    add("k2_s2_res_nhwc_f16", transposed(24, 16, 4, 2, 2, 0), [](ConvTransposeDesc& t) {
        t.hasResidual = true, t.dtype = DType::F16;
        t.inputLayout = t.outputLayout = TensorLayout::NHWC, t.filterLayout = FilterLayout::KRSC;
    });
    add("opad1_s2_leaky_bf16", transposed(12, 10, 5, 3, 2, 1), [](ConvTransposeDesc& t) {
        t.outputPaddingH = t.outputPaddingW = 1, t.activation = Activation::LeakyRelu, t.activationAlpha = 0.2f;
        t.dtype = DType::BF16, t.hasBias = true;
    });
    add("opad_above_stride_s1_dil3", transposed(12, 16, 4, 3, 1, 0), [](ConvTransposeDesc& t) {
        t.dilationH = 3, t.outputPaddingH = 2, t.hasBias = true, t.activation = Activation::Silu;
    });
    add("opad_above_stride_s2_dil3", transposed(12, 16, 4, 3, 2, 1),
        [](ConvTransposeDesc& t) { t.dilationW = 3, t.outputPaddingW = 2, t.hasResidual = true; });
    add("fcn_k16_s8_p4_bias", transposed(8, 6, 3, 16, 8, 4), [](ConvTransposeDesc& t) { t.hasBias = true; });
    add("audio_h1_k16_s8_nhwc_f16", transposed(16, 8, 5, 16, 8, 4), [](ConvTransposeDesc& t) {
        t.h = 1, t.kernelH = 1, t.strideH = 1, t.padTop = t.padBottom = 0, t.dtype = DType::F16;
        t.inputLayout = t.outputLayout = TensorLayout::NHWC, t.filterLayout = FilterLayout::KRSC;
        t.hasResidual = true, t.activation = Activation::Silu;
    });
    add("unet_k2_s2_groups2_bf16", transposed(16, 8, 5, 2, 2, 0), [](ConvTransposeDesc& t) {
        t.groups = 2, t.dtype = DType::BF16, t.hasBias = true, t.activation = Activation::Relu;
    });
    add("dcgan_k4_s2_p1_opad1_nhwc", transposed(16, 8, 4, 4, 2, 1), [](ConvTransposeDesc& t) {
        t.outputPaddingH = 1, t.inputLayout = TensorLayout::NHWC, t.hasBias = t.hasResidual = true;
    });
    add("groups2_s1_relu6", transposed(16, 16, 5, 3, 1, 1),
        [](ConvTransposeDesc& t) { t.groups = 2, t.hasBias = true, t.activation = Activation::Relu6; });
    add("depthwise_s1_sigmoid", transposed(8, 8, 6, 3, 1, 1),
        [](ConvTransposeDesc& t) { t.groups = 8, t.activation = Activation::Sigmoid, t.hasResidual = true; });
    return v;
}

std::vector<std::tuple<int, std::string>> transposedParams() {
    std::vector<std::tuple<int, std::string>> v;
    for (int i = 0; i < int(transposedCases().size()); ++i)
        for (const char* a : kAlgorithms) v.emplace_back(i, a);
    return v;
}

class DgradKernelTransposed : public vkt::VkconvParamTest<std::tuple<int, std::string>> {};

TEST_P(DgradKernelTransposed, MatchesReference) {
    const auto& [index, algorithm] = GetParam();
    const ConvTransposeDesc t = transposedCases()[size_t(index)].desc;
    PlanOptions o;
    o.algorithm = algorithm;
    try {
        (void)vkconv::Plan::create(vkt::ctx(), t, o);
    } catch (const vkconv::Error& e) {
        ASSERT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
        GTEST_SKIP() << e.what();
    }
    for (DataMode mode : {DataMode::Integer, DataMode::Uniform}) {
        const vkt::GradCheck r = vkt::checkTransposed(t, o, 61, mode);
        EXPECT_TRUE(vkt::passed(r));
        EXPECT_EQ(r.algorithm, algorithm);
    }
}

INSTANTIATE_TEST_SUITE_P(All, DgradKernelTransposed, ::testing::ValuesIn(transposedParams()), [](const auto& info) {
    return vkt::sanitizeName(transposedCases()[size_t(std::get<0>(info.param))].name + "__" + std::get<1>(info.param));
});

// Random descriptors until 100 are accepted per algorithm: every geometry of the edge cases at
// random, more channels than the shared gradient sweep (the wider tiles), and for dgrad_forward
// stride 1 with padding within the filter's extent (what it takes).  fp32 on integer data.
ConvDesc randomDesc(std::mt19937_64& rng, bool strideOne) {
    auto pick = [&](int lo, int hi) { return int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
    for (;;) {
        ConvDesc d;
        d.n = pick(1, 3);
        d.groups = pick(0, 3) == 0 ? pick(2, 4) : 1;
        const int64_t wide = pick(0, 3) == 0 ? 8 : 1;
        d.c = d.groups * pick(1, 9) * wide;
        d.k = d.groups * pick(1, 12) * (pick(0, 3) == 0 ? 4 : 1);
        if (pick(0, 6) == 0) d.c = d.k = d.groups = pick(2, 12);  // depthwise
        d.h = pick(1, 14), d.w = pick(1, 14);
        d.r = pick(1, 5), d.s = pick(1, 5);
        d.strideH = strideOne ? 1 : pick(1, 4), d.strideW = strideOne ? 1 : pick(1, 3);
        d.dilationH = pick(1, 3), d.dilationW = pick(1, 2);
        d.padTop = pick(0, 3), d.padBottom = pick(0, 3), d.padLeft = pick(0, 3), d.padRight = pick(0, 3);
        if (strideOne) {
            d.padTop = std::min(d.padTop, d.dilationH * (d.r - 1)),
            d.padLeft = std::min(d.padLeft, d.dilationW * (d.s - 1));
            d.padBottom = std::min(d.padBottom, d.dilationH * (d.r - 1));
            d.padRight = std::min(d.padRight, d.dilationW * (d.s - 1));
        }
        d.dtype = DType(pick(0, 2));
        d.inputLayout = TensorLayout(pick(0, 1));
        d.outputLayout = TensorLayout(pick(0, 1));
        d.filterLayout = FilterLayout(pick(0, 1));
        try {
            d.validate();
            return d;
        } catch (const vkconv::Error&) {}
    }
}

class DgradKernelSweep : public vkt::VkconvParamTest<std::string> {};

TEST_P(DgradKernelSweep, HundredAcceptedDescriptors) {
    const std::string algorithm = GetParam();
    const bool forward = algorithm == "dgrad_forward";
    std::mt19937_64 rng(forward ? 0xdf01 : algorithm == "dgrad_phases" ? 0xd9a5 : 0xd161);
    const int target = vkt::gradientSweepCount(100);
    int accepted = 0, tries = 0;
    for (; accepted < target && tries < 4 * target; ++tries) {
        const ConvDesc d = randomDesc(rng, forward);
        PlanOptions o = options(algorithm);
        o.accumulate = !forward && tries % 4 == 0;
        const DataMode mode = d.dtype == DType::F32 ? DataMode::Integer : DataMode::Uniform;
        const vkt::GradCheck r = vkt::checkDataGrad(d, o, uint64_t(tries), mode);
        if (r.errorCode == ErrorCode::Unsupported) continue;
        ++accepted;
        ASSERT_TRUE(vkt::passed(r)) << "sweep case " << tries;
    }
    EXPECT_EQ(accepted, target) << "of " << tries << " descriptors";
    RecordProperty("tries", tries);
}

INSTANTIATE_TEST_SUITE_P(Random, DgradKernelSweep,
                         ::testing::Values("dgrad_implicit_gemm", "dgrad_forward", "dgrad_phases"),
                         [](const auto& info) { return info.param; });

class DgradKernelRouting : public vkt::VkconvTest {};

std::string routed(const ConvDesc& d, bool accumulate = false) {
    PlanOptions o;
    o.pass = ConvPass::BackwardData;
    o.accumulate = accumulate;
    return vkconv::Plan::create(vkt::ctx(), d, o).algorithm();
}

// Stride 1 with GEMM-shaped work runs on a forward kernel, strided GEMM-shaped layers on a forward
// kernel per stride phase, accumulating stride-1 layers on the phase GEMM, layers of few channels
// or filters per group and strided depthwise on dgrad_direct.
TEST_F(DgradKernelRouting, Picks) {
    ConvDesc d = base();
    d.c = d.k = 64, d.h = d.w = 28;
    EXPECT_EQ(routed(d), "dgrad_forward");
    EXPECT_EQ(routed(d, true), "dgrad_implicit_gemm");
    ConvDesc s2 = d;
    s2.strideH = s2.strideW = 2;
    EXPECT_EQ(routed(s2), "dgrad_phases");
    EXPECT_EQ(routed(s2, true), "dgrad_phases");
    ConvDesc down = s2;  // a 1x1 stride-2 downsample: one phase of four has a tap
    down.r = down.s = 1, down.pad(0, 0), down.k = 128;
    EXPECT_EQ(routed(down), "dgrad_phases");
    ConvDesc dw = d;
    dw.groups = dw.c;
    EXPECT_EQ(routed(dw), "dgrad_forward");
    dw.strideH = dw.strideW = 2;
    EXPECT_EQ(routed(dw), "dgrad_direct");
    ConvDesc rgb = s2;
    rgb.c = 3;
    EXPECT_EQ(routed(rgb), "dgrad_direct");
    // The route says why.
    PlanOptions o;
    o.pass = ConvPass::BackwardData;
    const auto e = vkconv::Plan::create(vkt::ctx(), s2, o).explain();
    ASSERT_GE(e.rules.size(), 2u);
    EXPECT_EQ(e.rules[0].algorithm, "dgrad_forward");
    EXPECT_EQ(e.rules[0].outcome, "does not apply");
    EXPECT_EQ(e.rules[1].algorithm, "dgrad_phases");
    EXPECT_EQ(e.rules[1].outcome, "chosen");
    EXPECT_NE(e.rules[1].rule.find("stride > 1"), std::string::npos) << e.rules[1].rule;
}

TEST_F(DgradKernelRouting, Declines) {
    auto expectDecline = [](const ConvDesc& d, const PlanOptions& o, const std::string& needle) {
        try {
            (void)vkconv::Plan::create(vkt::ctx(), d, o);
            ADD_FAILURE() << o.algorithm << " accepted " << d.toString();
        } catch (const vkconv::Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    ConvDesc s2 = base();
    s2.strideH = 2;
    expectDecline(s2, options("dgrad_forward"), "stride 2x1");
    PlanOptions acc = options("dgrad_forward");
    acc.accumulate = true;
    expectDecline(base(), acc, "accumulate");
    ConvDesc pad = base();
    pad.padTop = 3;
    expectDecline(pad, options("dgrad_forward"), "negative padding");
    PlanOptions noWs = options("dgrad_forward");
    noWs.workspaceLimit = 0;
    expectDecline(base(), noWs, "flipped filter needs");
    expectDecline(base(), options("dgrad_forward", "no_such_algorithm"), "names no forward algorithm");
    expectDecline(base(), options("dgrad_forward", "gemv"), "gemv declines the forward convolution of dy");
    expectDecline(base(), options("dgrad_implicit_gemm", "64x64"), "no tile '64x64'");
    PlanOptions phasesNoWs = options("dgrad_phases");
    phasesNoWs.workspaceLimit = 4096;
    expectDecline(s2, phasesNoWs, "sub-filters and phase outputs need");
    expectDecline(s2, options("dgrad_phases", "no_such_algorithm"), "names no forward algorithm");
    expectDecline(s2, options("dgrad_phases", "winograd"), "winograd declines phase (0, 0)");
}

}  // namespace
