// The "few_channels_coopmat" kernel (first layers on the matrix units): the heuristic's tile and
// forced tiles ("TPxTQxBN/SGQxSGN[pSTEPS]") on shapes that exercise the column-expanded halo
// (strides, row dilation, asymmetric padding, ragged rows and columns, a window of one column),
// the overlapping last chunk, partial filter tiles, groups, both layouts, fp16 and bf16, the
// 16-byte and element-wise output paths, the 16-byte staging of eight-channel groups, the halo
// expanded from raw input rows (a last partial 16-byte word of the input on the odd-sized cases)
// and the epilogue; then the router and the declines.
// Test names contain "coopmat": the emulated runs (the coopmat_emulate test hook, lavapipe) take them,
// and on devices without matrix units the plain runs skip them with the algorithm's reason.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/test_hooks.hpp"
#include "environment.hpp"
#include "harness.hpp"

using namespace vkt;
using vkconv::Activation;
using vkconv::ConvDesc;
using vkconv::DType;
using vkconv::FilterLayout;
using vkconv::TensorLayout;

namespace {

constexpr const char* kAlgo = "few_channels_coopmat";

using FcCase = NamedDesc;

std::vector<FcCase> makeFcCases() {
    std::vector<FcCase> v;
    const auto nhwc = setNhwcKrsc;
    auto add = [&](const std::string& name, auto f) {
        ConvDesc d;
        d.c = 3, d.h = 13, d.w = 37, d.k = 32, d.r = d.s = 3, d.pad(1, 1), d.dtype = DType::F16;
        nhwc(d);
        f(d);
        v.push_back({name, d});
    };
    add("c3_3x3", [](ConvDesc&) {});
    add("stem_7x7_s2_n2_bias_relu", [](ConvDesc& d) {
        d.n = 2, d.h = 19, d.w = 45, d.k = 64, d.r = d.s = 7, d.pad(3, 3), d.strideH = d.strideW = 2, d.hasBias = true,
        d.activation = Activation::Relu;
    });
    add("c4_k40_res", [](ConvDesc& d) { d.c = 4, d.k = 40, d.hasResidual = true; });
    add("nchw_c1_5x3_dil2x1_asym", [](ConvDesc& d) {
        d.c = 1, d.r = 5, d.dilationH = 2, d.padTop = 0, d.padBottom = 5, d.padLeft = 2, d.padRight = 0;
        d.inputLayout = d.outputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS;
    });
    add("c2_s3x2_nhwc_in_nchw_out_bias", [](ConvDesc& d) {
        d.c = 2, d.strideH = 3, d.strideW = 2, d.outputLayout = TensorLayout::NCHW, d.hasBias = true;
    });
    // NCHW runs of 8 columns (an even output width): 36 per row, so odd rows start 8-byte aligned
    // (16- and 8-byte stores) and each row ends in a run of 4; a residual read per value.
    add("c3_w36_nchw_out_res",
        [](ConvDesc& d) { d.n = 2, d.h = 7, d.w = 36, d.outputLayout = TensorLayout::NCHW, d.hasResidual = true; });
    add("groups3_c6_k48_kcrs",
        [](ConvDesc& d) { d.c = 6, d.groups = 3, d.k = 48, d.filterLayout = FilterLayout::KCRS; });
    add("c8_1x1_s2_nchw_in_nhwc_out", [](ConvDesc& d) {
        d.c = 8, d.r = d.s = 1, d.pad(0, 0), d.strideH = d.strideW = 2, d.k = 24, d.inputLayout = TensorLayout::NCHW;
    });
    // Eight channels per group: 16-byte halo and filter words (ggml's 4x4 cases), with groups the
    // group's channel base, with bf16 a stride, a row dilation and an NCHW output.
    add("c8_4x4_valid_n3_k40",
        [](ConvDesc& d) { d.n = 3, d.c = 8, d.h = 9, d.w = 21, d.r = d.s = 4, d.pad(0, 0), d.k = 40; });
    add("groups2_c16_k48_bias", [](ConvDesc& d) { d.c = 16, d.groups = 2, d.k = 48, d.hasBias = true; });
    add("bf16_c8_2x3_s2_dil2x1_nchw_out", [](ConvDesc& d) {
        d.dtype = DType::BF16, d.c = 8, d.r = 2, d.s = 3, d.strideH = d.strideW = 2, d.dilationH = 2, d.pad(1, 1);
        d.outputLayout = TensorLayout::NCHW;
    });
    add("k70_relu6", [](ConvDesc& d) { d.k = 70, d.activation = Activation::Relu6; });
    add("bf16_s2_res_silu", [](ConvDesc& d) {
        d.dtype = DType::BF16, d.strideH = d.strideW = 2, d.hasResidual = true, d.hasBias = true,
        d.activation = Activation::Silu;
    });
    add("bf16_nchw_c5_2x5_kernel_wider_than_input", [](ConvDesc& d) {
        d.dtype = DType::BF16, d.c = 5, d.h = 4, d.w = 3, d.r = 2, d.s = 5, d.pad(2, 3), d.k = 17;
        d.inputLayout = d.outputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS;
    });
    // Raw rows of an NCHW input of two groups (a segment per row and channel from the group's
    // channel base), the input's last 16-byte word partial (13 x 37 x 4 values, 1924).
    add("nchw_groups2_c4_k32", [](ConvDesc& d) {
        d.c = 4, d.groups = 2;
        d.inputLayout = d.outputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS;
    });
    // 40 values per column x 11 columns: 28 chunks, too many fragments to hold: B stays in shared
    // memory (the other cases hold theirs in registers with most tiles).
    add("c3_11x11_b_in_shared", [](ConvDesc& d) { d.r = d.s = 11, d.pad(5, 5), d.h = 9; });
    return v;
}

const std::vector<FcCase>& fcCases() {
    static const auto v = makeFcCases();
    return v;
}

// "" is the heuristic's pick; then one row of single fragments, two column subgroups, two filter
// subgroups with row steps (a ragged last step on most cases), and wide blocks.
const std::vector<std::string> kTiles = {
    "", "1x16x16/1x1", "2x32x32/2x1", "1x32x64/1x2p3", "2x64x32/1x1p2", "1x128x16/2x1"};

// Whether a plan's subgroups hold their filter fragments in registers, as the host decides it
// (algo_few_channels_coopmat.cpp: on NVIDIA, or as the few_coopmat_breg hook says; at most 4
// rows, chunks x filter fragments per subgroup <= 24), from the shape and the configuration's
// tile "TPxTQxBN/SGQxSGN".
bool expectRegisterB(const vkconv::Context& ctx, const ConvDesc& d, const std::string& config) {
    unsigned tp = 0, tq = 0, bn = 0, sgq = 0, sgn = 0;
    size_t at = config.find("tile ");
    if (at == std::string::npos ||
        std::sscanf(config.c_str() + at, "tile %ux%ux%u/%ux%u", &tp, &tq, &bn, &sgq, &sgn) != 5) {
        ADD_FAILURE() << "no tile in '" << config << "'";
        return false;
    }
    uint64_t cpr = (uint64_t(d.r) * (d.c / d.groups) + 7) / 8 * 8;
    while (uint64_t(d.s) * cpr < 16) cpr += 8;
    uint64_t chunks = (uint64_t(d.s) * cpr + 15) / 16, nq = bn / (sgn * 16);
    const bool on = vkconv::testHook("few_coopmat_breg").value_or(ctx.caps().vendorId == 0x10DE);
    return on && tp <= 4 && chunks * nq <= 24;
}

// Whether a plan expands its halo from raw input rows (" raw"), as the host decides it
// (algo_few_channels_coopmat.cpp): 16-byte aligned views (the harness's), an NHWC input of one
// group or an NCHW one at stride 1, not eight channels staged in 16-byte words already ("vec8I"),
// and the rows fit in shared memory beside the plan's tile.
bool expectRawRows(const vkconv::Context& ctx, const ConvDesc& d, const std::string& config) {
    if (config.find("vec8I") != std::string::npos || (d.inputLayout == TensorLayout::NHWC && d.groups != 1) ||
        (d.inputLayout == TensorLayout::NCHW && (d.strideH != 1 || d.strideW != 1)))
        return false;
    unsigned tp = 0, tq = 0, bn = 0, sgq = 0, sgn = 0;
    size_t at = config.find("tile ");
    if (at == std::string::npos ||
        std::sscanf(config.c_str() + at, "tile %ux%ux%u/%ux%u", &tp, &tq, &bn, &sgq, &sgn) != 5) {
        ADD_FAILURE() << "no tile in '" << config << "'";
        return false;
    }
    const uint64_t cg = d.c / d.groups;
    uint64_t cpr = (uint64_t(d.r) * cg + 7) / 8 * 8;
    while (uint64_t(d.s) * cpr < 16) cpr += 8;
    const uint64_t x = (tq - 1ull) * d.strideW + d.s, chunks = (d.s * cpr + 15) / 16;
    const uint64_t halo = std::max<uint64_t>(tp * x * (cpr / 8), uint64_t(tp) * sgq * sgn * 64), b = chunks * bn * 3;
    const uint64_t rows = (tp - 1ull) * d.strideH + (d.r - 1ull) * d.dilationH + 1;
    const bool nchw = d.inputLayout == TensorLayout::NCHW;
    const uint64_t raw = (nchw ? rows * cg : rows) * (((nchw ? x : x * cg) + 14) / 8) + 1;
    const bool overlaid = config.find(" breg") != std::string::npos && config.find("EMULATED") == std::string::npos;
    const uint64_t bytes = 16 * (overlaid ? std::max(std::max(halo, b), halo + raw) : halo + b + raw);
    return bytes <= ctx.caps().maxSharedMemory;
}

using Param = std::tuple<int, std::string>;
std::string paramName(const ::testing::TestParamInfo<Param>& info) { return caseTileName(fcCases(), info.param); }

}  // namespace

class FewChannelsCoopmatTiles : public VkconvParamTest<Param> {};

// Integer data (16-bit exact, fp32 sums exact): a wrong window value, chunk or filter word shows
// as an exact mismatch, not a tolerance miss; then uniform data against the 16-bit tolerance.
TEST_P(FewChannelsCoopmatTiles, MatchesReference) {
    const auto& [i, tile] = GetParam();
    const FcCase& c = fcCases()[size_t(i)];
    vkconv::PlanOptions o;
    VKT_FORCE_TILE_OR_SKIP(ctx(), kAlgo, c.desc, tile, o);  // a forced tile may exceed shared memory
    for (const auto& r : checkIntegerThenUniform(ctx(), c.desc, o, 7500 + uint64_t(i), c.name)) {
        if (!tile.empty()) {
            EXPECT_NE(r.config.find("tile " + tile + " "), std::string::npos) << r.config;
        }
        // The fp16 scratch where nothing is fused (fp16 NHWC outputs in 16-byte words).
        expectHalfScratch(ctx(), c.desc, r.config);
        EXPECT_EQ(r.config.find(" breg") != std::string::npos, expectRegisterB(ctx(), c.desc, r.config)) << r.config;
        EXPECT_EQ(r.config.find(" raw") != std::string::npos, expectRawRows(ctx(), c.desc, r.config)) << r.config;
    }
}

INSTANTIATE_TEST_SUITE_P(coopmat, FewChannelsCoopmatTiles,
                         ::testing::Combine(::testing::Range(0, int(fcCases().size())), ::testing::ValuesIn(kTiles)),
                         paramName);

class FewChannelsCoopmatRouting : public VkconvTest {};

// Where the kernel runs, the router takes 16-bit first layers (C/groups <= 8, 16+ filters; at
// C/groups <= 4 from 2^21 outputs, 64 values per output, or 64 filters per group in NHWC) to it and fp32 ones to
// direct_few_channels; bad tile names and what it cannot do are declined with a reason.
TEST_F(FewChannelsCoopmatRouting, coopmat_ChoosesAndDeclines) {
    ConvDesc stem;  // 3.2M outputs: above the router's 2^21
    stem.n = 4, stem.c = 3, stem.h = stem.w = 224, stem.k = 64, stem.r = stem.s = 7, stem.pad(3, 3),
    stem.strideH = stem.strideW = 2;
    stem.dtype = DType::F16;
    const std::string why = vkconv::whyUnsupported(ctx(), stem, kAlgo);
    std::cout << "[ info ] " << kAlgo << " on " << ctx().caps().deviceName << ": "
              << (why.empty() ? "accepts fp16 first layers" : why) << std::endl;
    ConvDesc f32 = stem;
    f32.dtype = DType::F32;
    EXPECT_EQ(vkconv::Plan::create(ctx(), f32).algorithm(), "direct_few_channels");
    EXPECT_NE(vkconv::whyUnsupported(ctx(), f32, kAlgo).find("fp32"), std::string::npos);
    if (!why.empty()) {
        EXPECT_NE(vkconv::Plan::create(ctx(), stem).algorithm(), kAlgo);
        return;
    }
    EXPECT_EQ(vkconv::Plan::create(ctx(), stem).algorithm(), kAlgo);
    ConvDesc small = stem;  // 0.8M outputs, but 147 values per output: this kernel
    small.n = 1;
    EXPECT_EQ(vkconv::Plan::create(ctx(), small).algorithm(), kAlgo);
    small.r = small.s = 3, small.pad(1, 1);  // 27 values below 2^21 outputs: direct_few_channels in NCHW ...
    EXPECT_EQ(vkconv::Plan::create(ctx(), small).algorithm(), "direct_few_channels");
    ConvDesc smallNhwc = small;  // ... this kernel in NHWC with 64 filters, not with 32
    smallNhwc.inputLayout = smallNhwc.outputLayout = TensorLayout::NHWC;
    EXPECT_EQ(vkconv::Plan::create(ctx(), smallNhwc).algorithm(), kAlgo);
    smallNhwc.k = 32;
    EXPECT_EQ(vkconv::Plan::create(ctx(), smallNhwc).algorithm(), "direct_few_channels");
    ConvDesc c8 = small;  // C/groups > 4: direct_few_channels is not routed; this kernel at any size
    c8.c = 8, c8.r = c8.s = 3, c8.pad(1, 1);
    EXPECT_EQ(vkconv::Plan::create(ctx(), c8).algorithm(), kAlgo);
    ConvDesc deep = c8;
    deep.c = 9;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), deep, kAlgo).find("few channels"), std::string::npos);
    ConvDesc dil = c8;
    dil.dilationW = 2;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), dil, kAlgo).find("column dilation"), std::string::npos);
    for (const char* bad : {"4x64x64", "4x64x64/1x1p", "4x48x64/2x1", "4x64x40/1x1", "4x128x64/1x1", "9x16x16/1x1",
                            "4x64x64/1x1p2x", "0x16x16/1x1"}) {
        vkconv::PlanOptions o;
        o.algorithm = kAlgo;
        o.tile = bad;
        EXPECT_THROW(vkconv::Plan::create(ctx(), c8, o), vkconv::Error) << "tile '" << bad << "'";
    }
    // An 11x11 filter of 8 channels: 88 values per column, 55 chunks x 64 filters of B alone.
    ConvDesc huge = c8;
    huge.r = huge.s = 11, huge.pad(5, 5);
    vkconv::PlanOptions o;
    o.algorithm = kAlgo;
    o.tile = "4x64x64/1x1";
    try {
        (void)vkconv::Plan::create(ctx(), huge, o);
        ADD_FAILURE() << "tile 4x64x64/1x1 of " << huge.toString() << " was accepted";
    } catch (const vkconv::Error& e) {
        EXPECT_NE(std::string(e.what()).find("shared memory"), std::string::npos) << e.what();
    }
}
