// The "gemv" kernel (at most 32 output pixels over contiguous reductions): squeeze-excitation
// shapes (C and K of 1, 3, 8, 48, 1152, one 3840 x 960), N of 1, 2, 7 and 32, a few pixels per
// image (NCHW: strided staging), every dtype, both activation layouts, every epilogue, rows that
// are not a multiple of the 16-byte word (element loads), groups, whole-input windows, forced
// tiles (teams smaller than, equal to and larger than a subgroup), a seeded sweep, then the router
// and the declines.  Each case: fresh random data, poisoned outputs, every element against the
// float64 reference (tolerance growing with the reduction); fp32 on integer data exactly.
#include <random>
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

constexpr const char* kAlgo = "gemv";

ConvDesc se(int64_t c, int64_t k, int64_t n, DType t, bool nhwc) {
    ConvDesc d;
    d.n = n, d.c = c, d.k = k, d.dtype = t;
    if (nhwc) setNhwcKrsc(d);
    return d;
}

std::vector<NamedDesc> makeCases() {
    std::vector<NamedDesc> v;
    auto add = [&](const std::string& name, ConvDesc d) { v.push_back({name, d}); };
    ConvDesc d;
    // EfficientNet's deepest SE pair: one long row per filter, then many short rows.
    d = se(1152, 48, 1, DType::F16, true), d.hasBias = true, d.activation = Activation::Silu;
    add("f16_nhwc_c1152_k48_bias_silu", d);
    d = se(48, 1152, 1, DType::F16, false), d.hasBias = true, d.activation = Activation::Sigmoid;
    add("f16_nchw_c48_k1152_bias_sigmoid", d);
    d = se(1152, 48, 2, DType::BF16, false), d.hasResidual = true, d.activation = Activation::Relu;
    add("bf16_nchw_c1152_k48_n2_res_relu", d);
    d = se(48, 1152, 7, DType::F32, true), d.hasBias = true, d.activation = Activation::Relu6;
    add("f32_nhwc_c48_k1152_n7_bias_relu6", d);
    // A large pair's worth: 3840 values per row (several words per lane), 960 rows.
    d = se(3840, 960, 1, DType::F16, true), d.hasBias = true;
    add("f16_nhwc_c3840_k960_bias", d);
    // 32 pixels (the most), staged in several chunks of the row.
    d = se(1152, 48, 32, DType::F32, true), d.hasBias = d.hasResidual = true;
    add("f32_nhwc_c1152_k48_n32_bias_res", d);
    d = se(48, 8, 32, DType::BF16, false), d.activation = Activation::Gelu;
    add("bf16_nchw_c48_k8_n32_gelu", d);
    // Tiny reductions and filter counts; rows not a multiple of the word (element loads).
    add("f32_c1_k1", se(1, 1, 1, DType::F32, false));
    d = se(3, 1152, 2, DType::F16, true), d.activation = Activation::LeakyRelu, d.activationAlpha = 0.25f;
    add("f16_nhwc_c3_k1152_n2_leaky", d);
    d = se(1152, 3, 7, DType::BF16, true), d.hasBias = true, d.activation = Activation::Sigmoid;
    add("bf16_nhwc_c1152_k3_n7_bias_sigmoid", d);
    d = se(8, 3, 2, DType::F32, false), d.hasResidual = true;
    add("f32_nchw_c8_k3_n2_res", d);
    d = se(3, 8, 1, DType::BF16, false), d.hasBias = true, d.activation = Activation::Silu;
    add("bf16_nchw_c3_k8_bias_silu", d);
    d = se(10, 240, 1, DType::F16, false), d.hasBias = true, d.activation = Activation::Sigmoid;
    add("f16_nchw_c10_k240_bias_sigmoid", d);
    d = se(67, 33, 3, DType::F16, true), d.hasBias = d.hasResidual = true, d.activation = Activation::Relu;
    add("f16_nhwc_c67_k33_n3_tail_bias_res_relu", d);
    d = se(1, 48, 7, DType::F16, true), d.hasResidual = true;
    add("f16_nhwc_c1_k48_n7_res", d);
    // A few pixels per image: NCHW reads each reduction value H*W apart; 1x1 with strides.
    d = se(64, 32, 1, DType::F16, false), d.h = 2, d.w = 3, d.hasResidual = true, d.activation = Activation::Gelu;
    add("f16_nchw_c64_k32_2x3_res_gelu", d);
    d = se(1280, 100, 2, DType::F32, false), d.h = d.w = 2, d.hasBias = true;
    add("f32_nchw_c1280_k100_n2_2x2_bias", d);
    d = se(24, 40, 2, DType::BF16, true), d.h = d.w = 3, d.strideH = d.strideW = 2, d.outputLayout = TensorLayout::NCHW;
    add("bf16_nhwc_in_nchw_out_c24_k40_3x3_s2", d);
    d = se(48, 20, 1, DType::F16, false), d.h = 5, d.w = 1, d.strideH = 4, d.outputLayout = TensorLayout::NHWC;
    add("f16_nchw_in_nhwc_out_c48_k20_5x1_s4", d);
    // Groups: each workgroup column stages its group's channels.
    d = se(48, 32, 2, DType::F32, false), d.groups = 4, d.hasBias = true, d.activation = Activation::Relu;
    add("f32_nchw_groups4_c48_k32_n2_bias_relu", d);
    d = se(24, 9, 1, DType::F16, true), d.groups = 3, d.h = d.w = 2, d.hasResidual = true;
    add("f16_nhwc_groups3_c24_k9_2x2_res", d);
    // A filter over the whole input: the reduction is C*R*S in the activations' order.
    d = se(16, 24, 2, DType::F32, false), d.h = d.w = d.r = d.s = 3, d.groups = 2, d.hasBias = true;
    add("f32_nchw_kcrs_whole_3x3_c16_k24_groups2_bias", d);
    d = se(8, 5, 3, DType::BF16, true), d.h = d.r = 3, d.w = d.s = 2, d.activation = Activation::Relu6;
    add("bf16_nhwc_krsc_whole_3x2_c8_k5_n3_relu6", d);
    // Few long rows: the team spans several subgroups (sums through shared memory).
    d = se(3840, 4, 1, DType::F32, true), d.hasBias = true;
    add("f32_nhwc_c3840_k4_bias", d);
    return v;
}

const std::vector<NamedDesc>& cases() {
    static const auto v = makeCases();
    return v;
}

// Cases with 16-bit storage run on uniform data against the tolerance; fp32 on integer data too,
// which must then be exact (fp32 sums of small integers do not round).
void check(const ConvDesc& d, const vkconv::PlanOptions& o, uint64_t seed, const std::string& name) {
    ASSERT_EQ(vkconv::whyUnsupported(ctx(), d, kAlgo), "") << d.toString();
    const auto r = runAndCheck(ctx(), d, o, seed, DataMode::Uniform);
    EXPECT_TRUE(passed(r)) << "case " << name;
    EXPECT_EQ(r.algorithm, kAlgo);
    if (!o.tile.empty()) {
        EXPECT_NE(r.config.find("tile " + o.tile), std::string::npos) << r.config;
    }
    if (requiresExact(d, DataMode::Integer)) {
        const auto e = runAndCheck(ctx(), d, o, seed + 1, DataMode::Integer);
        EXPECT_TRUE(passed(e)) << "case " << name << " (integer data)";
        EXPECT_TRUE(e.exact) << e.config;
    }
    ::testing::Test::RecordProperty("chosen", r.algorithm + " " + r.config);
}

}  // namespace

class GemvCases : public VkconvParamTest<int> {};

TEST_P(GemvCases, MatchesReference) {
    const int i = GetParam();
    vkconv::PlanOptions o;
    o.algorithm = kAlgo;
    check(cases()[size_t(i)].desc, o, 8100 + uint64_t(i), cases()[size_t(i)].name);
}

INSTANTIATE_TEST_SUITE_P(All, GemvCases, ::testing::Range(0, int(cases().size())),
                         [](const ::testing::TestParamInfo<int>& info) { return cases()[size_t(info.param)].name; });

// Forced tiles: one lane per row (256 rows per workgroup), teams of 8 and 64 lanes (below, at or
// above the subgroup, by device), on a long-row case and a short-row one with 7 pixels.
class GemvTiles : public VkconvParamTest<std::tuple<int, std::string>> {};

TEST_P(GemvTiles, MatchesReference) {
    const auto& [i, tile] = GetParam();
    vkconv::PlanOptions o;
    o.algorithm = kAlgo;
    o.tile = tile;
    check(cases()[size_t(i)].desc, o, 8200 + uint64_t(i), cases()[size_t(i)].name);
}

INSTANTIATE_TEST_SUITE_P(All, GemvTiles,
                         ::testing::Combine(::testing::Values(0, 3),
                                            ::testing::Values(std::string("256x1"), std::string("64x8"),
                                                              std::string("128x64"))),
                         [](const auto& info) { return caseTileName(cases(), info.param); });

// A seeded sweep over the SE grid: C and K of 1, 3, 8, 48 and 1152, N of 1, 2, 7 and 32, each
// dtype, layouts, bias / residual / activation drawn at random.
TEST(GemvSweep, SeededShapes) {
    ValidationGuard guard;
    std::mt19937_64 rng(20261207);
    const int64_t sizes[] = {1, 3, 8, 48, 1152};
    const int64_t batches[] = {1, 2, 7, 32};
    for (int i = 0; i < 5; ++i) {
        ConvDesc d = se(sizes[rng() % 5], sizes[rng() % 5], batches[rng() % 4], DType(rng() % 3), rng() % 2 == 0);
        if (rng() % 2) d.outputLayout = d.outputLayout == TensorLayout::NHWC ? TensorLayout::NCHW : TensorLayout::NHWC;
        d.hasBias = rng() % 2;
        d.hasResidual = rng() % 2;
        d.activation = Activation(rng() % 7);
        vkconv::PlanOptions o;
        o.algorithm = kAlgo;
        SCOPED_TRACE("sweep case " + std::to_string(i) + ": " + d.toString());
        check(d, o, 8300 + uint64_t(i), "sweep " + std::to_string(i));
    }
    guard.check();
}

class GemvRouting : public VkconvTest {};

// The router sends layers of at most 8 output pixels here, in either layout and dtype, and keeps
// larger ones on the GEMM kernels; the kernel declines what it cannot read as contiguous runs,
// more than 32 pixels and bad tile names, each with a reason.
TEST_F(GemvRouting, ChoosesAndDeclines) {
    for (DType t : {DType::F32, DType::F16, DType::BF16})
        for (bool nhwc : {false, true}) {
            ConvDesc d = se(1152, 48, 1, t, nhwc);
            EXPECT_EQ(vkconv::Plan::create(ctx(), d).algorithm(), kAlgo) << d.toString();
            d = se(48, 1152, 8, t, nhwc);
            EXPECT_EQ(vkconv::Plan::create(ctx(), d).algorithm(), kAlgo) << d.toString();
            d.n = 9;
            EXPECT_NE(vkconv::Plan::create(ctx(), d).algorithm(), kAlgo) << d.toString();
        }
    ConvDesc classifier = se(1280, 1000, 1, DType::F16, false);
    classifier.h = classifier.w = 2;
    EXPECT_EQ(vkconv::Plan::create(ctx(), classifier).algorithm(), kAlgo);
    // Depthwise layers keep their kernel.
    ConvDesc dw = se(48, 48, 1, DType::F32, false);
    dw.groups = 48, dw.r = dw.s = 3, dw.h = dw.w = 3, dw.pad(1, 1);
    EXPECT_NE(vkconv::Plan::create(ctx(), dw).algorithm(), kAlgo);

    auto why = [&](const ConvDesc& d) { return vkconv::whyUnsupported(ctx(), d, kAlgo); };
    ConvDesc many = se(48, 8, 33, DType::F32, false);
    EXPECT_NE(why(many).find("33 output pixels"), std::string::npos) << why(many);
    ConvDesc padded = se(48, 8, 1, DType::F32, false);
    padded.pad(1, 1), padded.r = padded.s = 3;
    EXPECT_NE(why(padded).find("neither 1x1"), std::string::npos) << why(padded);
    ConvDesc mixed = se(8, 5, 1, DType::F32, false);
    mixed.h = mixed.w = mixed.r = mixed.s = 2, mixed.filterLayout = FilterLayout::KRSC;
    EXPECT_NE(why(mixed).find("needs KCRS"), std::string::npos) << why(mixed);
    mixed.inputLayout = TensorLayout::NHWC, mixed.filterLayout = FilterLayout::KCRS;
    EXPECT_NE(why(mixed).find("needs KRSC"), std::string::npos) << why(mixed);
    mixed.filterLayout = FilterLayout::KRSC, mixed.groups = 2, mixed.k = 6;
    EXPECT_NE(why(mixed).find("groups = 2"), std::string::npos) << why(mixed);
    for (const char* bad : {"256", "96x8", "256x3", "64x128", "256x8x", "x8", "0256x8"}) {
        vkconv::PlanOptions o;
        o.algorithm = kAlgo;
        o.tile = bad;
        EXPECT_THROW(vkconv::Plan::create(ctx(), se(48, 8, 1, DType::F32, false), o), vkconv::Error)
            << "tile '" << bad << "'";
    }
}
