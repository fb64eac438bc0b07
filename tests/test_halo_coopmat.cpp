// The "halo_coopmat" kernel (stride-1 layers on the matrix units, one staged halo slice for every
// filter tap): the heuristic's tile and forced tiles / strip widths ("BMxBN/WMxWN[/q<columns>]")
// on shapes that exercise the flattened strip (ragged last strips and flat tiles, strips narrower
// than the filter's reach, dilation, asymmetric padding, a kernel wider than the input), partial
// filter tiles, groups, several channel slices, KCRS filters, NCHW output, fp16 and bf16, the
// 16-byte and element-wise paths and the epilogue; then the router and the declines.
// Test names contain "coopmat": the emulated runs (the coopmat_emulate test hook, lavapipe) take them,
// and on devices without matrix units the plain runs skip them with the algorithm's reason.
#include <algorithm>
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

constexpr const char* kAlgo = "halo_coopmat";

std::vector<NamedDesc> makeHaloCases() {
    std::vector<NamedDesc> v;
    auto add = [&](const std::string& name, auto f) {
        ConvDesc d;
        d.c = 32, d.h = 11, d.w = 13, d.k = 48, d.r = d.s = 3, d.pad(1, 1), d.dtype = DType::F16;
        setNhwcKrsc(d);
        f(d);
        v.push_back({name, d});
    };
    add("c32_3x3_bias_relu", [](ConvDesc& d) { d.hasBias = true, d.activation = Activation::Relu; });
    add("n2_c48_k80_wide", [](ConvDesc& d) { d.n = 2, d.c = 48, d.w = 41, d.k = 80; });
    add("dil2_asym_pad_2x5", [](ConvDesc& d) {
        d.r = 2, d.s = 5, d.dilationH = d.dilationW = 2, d.padTop = 0, d.padBottom = 2, d.padLeft = 3, d.padRight = 1;
    });
    add("groups2_c64_k42_nchw_out",
        [](ConvDesc& d) { d.c = 64, d.groups = 2, d.k = 42, d.outputLayout = TensorLayout::NCHW, d.hasBias = true; });
    // NCHW runs of 8 flat positions: 24 columns, so strips of 24 + 2 padding columns shift each
    // row's alignment (16-, 8- and 4-byte stores), and runs that cross into the next strip row.
    add("nchw_out_w24_n2_bias_res", [](ConvDesc& d) {
        d.n = 2, d.h = 6, d.w = 24, d.k = 32, d.outputLayout = TensorLayout::NCHW, d.hasBias = d.hasResidual = true;
    });
    add("kcrs_c16_k16_res_silu", [](ConvDesc& d) {
        d.c = 16, d.k = 16, d.filterLayout = FilterLayout::KCRS, d.hasResidual = true, d.activation = Activation::Silu;
    });
    add("bf16_c32_k64_res",
        [](ConvDesc& d) { d.dtype = DType::BF16, d.k = 64, d.hasResidual = true, d.hasBias = true; });
    add("kernel_wider_than_input", [](ConvDesc& d) { d.h = 2, d.w = 2, d.r = 2, d.s = 3, d.pad(1, 1); });
    add("1x1_no_pad", [](ConvDesc& d) { d.r = d.s = 1, d.pad(0, 0), d.h = 9, d.w = 20; });
    add("valid_no_pad_bf16_k20",
        [](ConvDesc& d) { d.dtype = DType::BF16, d.pad(0, 0), d.k = 20, d.activation = Activation::Relu6; });
    add("k3_rgb_out_bias", [](ConvDesc& d) { d.k = 3, d.hasBias = true; });
    // fp16 NCHW with Q % 8 == 0: strips of a multiple of 8 columns, X padded to a multiple of 8
    // (every run one aligned 16-byte store); 40 columns: several strips, a ragged last one.
    add("nchw_out_w40_k40_res", [](ConvDesc& d) {
        d.n = 2, d.h = 5, d.w = 40, d.k = 40, d.outputLayout = TensorLayout::NCHW, d.hasResidual = true;
    });
    add("nchw_out_w32_k12_bias", [](ConvDesc& d) {
        d.h = 7, d.w = 32, d.k = 12, d.outputLayout = TensorLayout::NCHW, d.hasBias = true,
        d.activation = Activation::Relu;
    });
    // 4 or 2 is the most of 8, 4 and 2 that divides K/groups (RetinaNet's 36-filter box heads;
    // 18 and 42 filters): 8-byte stores of 4 through the fp16 scratch (nothing fused) or the fp32
    // one (bias, groups), 4-byte stores of 2 through the fp32 one always (fp16 and bf16).  Last:
    // the suites below name cases by index.
    add("k36_out4", [](ConvDesc& d) { d.k = 36; });
    add("groups2_kg12_out4_bias", [](ConvDesc& d) { d.c = 64, d.groups = 2, d.k = 24, d.hasBias = true; });
    add("k18_out2", [](ConvDesc& d) { d.k = 18; });
    add("bf16_k42_out2_bias_relu",
        [](ConvDesc& d) { d.dtype = DType::BF16, d.k = 42, d.hasBias = true, d.activation = Activation::Relu; });
    return v;
}

const std::vector<NamedDesc>& haloCases() {
    static const auto v = makeHaloCases();
    return v;
}

// "" is the heuristic's pick; then the tiles that fit 32 KiB of shared memory on 3x3 (lavapipe),
// with strips narrower than Q (several strips, a ragged last one) and one column per strip.
const std::vector<std::string> kTiles = {"", "256x32/4x1", "64x64/1x2", "256x32/4x1/q5", "64x64/1x2/q1", "q7"};

using Param = std::tuple<int, std::string>;
std::string paramName(const ::testing::TestParamInfo<Param>& info) { return caseTileName(haloCases(), info.param); }

}  // namespace

class HaloCoopmatTiles : public VkconvParamTest<Param> {};

// Integer data (16-bit exact, fp32 sums exact): a wrong halo pixel, tap offset or filter word
// shows as an exact mismatch, not a tolerance miss; then uniform data against the 16-bit tolerance.
TEST_P(HaloCoopmatTiles, MatchesReference) {
    const auto& [i, tile] = GetParam();
    const NamedDesc& c = haloCases()[size_t(i)];
    vkconv::PlanOptions o;
    VKT_FORCE_TILE_OR_SKIP(ctx(), kAlgo, c.desc, tile, o);  // a forced tile may exceed shared memory
    for (const auto& r : checkIntegerThenUniform(ctx(), c.desc, o, 8100 + uint64_t(i), c.name)) {
        if (const size_t q = tile.find('q'); q != std::string::npos) {  // a strip at most Q wide
            const int64_t tq = std::min<int64_t>(std::stoll(tile.substr(q + 1)), c.desc.outW());
            EXPECT_NE(r.config.find(" q" + std::to_string(tq) + " "), std::string::npos) << r.config;
        } else if (!tile.empty()) {
            EXPECT_NE(r.config.find("tile " + tile + " "), std::string::npos) << r.config;
        }
        // The fp16 scratch where nothing is fused (fp16 NHWC outputs in 16- or 8-byte words).
        expectHalfScratch(ctx(), c.desc, r.config, true, 4);
        expectNhwcOutWord(c.desc, r.config);
    }
}

INSTANTIATE_TEST_SUITE_P(coopmat, HaloCoopmatTiles,
                         ::testing::Combine(::testing::Range(0, int(haloCases().size())), ::testing::ValuesIn(kTiles)),
                         paramName);
// The one-fragment-column tiles (few filters): a ragged strip, a partial and several filter tiles.
INSTANTIATE_TEST_SUITE_P(coopmat_narrow, HaloCoopmatTiles,
                         ::testing::Combine(::testing::Values(0, 1, 8, 9),
                                            ::testing::Values(std::string("256x16/4x1"), std::string("256x16/4x1/q5"),
                                                              std::string("768x16/12x1/q3"))),
                         paramName);

// The three-fragment-column tile (48 filters): one exact filter tile (k48), partial ones (k80,
// k20, groups of 21), a ragged strip.  Its 3x3 halo needs more than lavapipe's 32 KiB: there
// only the 2x3 and 1x1 cases run.
INSTANTIATE_TEST_SUITE_P(coopmat_48, HaloCoopmatTiles,
                         ::testing::Combine(::testing::Values(0, 1, 3, 7, 8, 9),
                                            ::testing::Values(std::string("256x48/4x1"), std::string("256x48/4x1/q5"))),
                         paramName);

// The padded strips on several strip widths and the one-column tiles.
INSTANTIATE_TEST_SUITE_P(coopmat_nchw_strips, HaloCoopmatTiles,
                         ::testing::Combine(::testing::Values(11, 12),
                                            ::testing::Values(std::string("q16"), std::string("256x32/4x1/q8"),
                                                              std::string("64x64/1x2/q24"),
                                                              std::string("256x16/4x1/q8"), std::string("q13"))),
                         paramName);

// The padding is taken where it applies (the plan names the padded strip width), and only there:
// strips a multiple of 8 wide, fp16, NCHW output, tiles wider than one fragment column.
class HaloCoopmatStrips : public VkconvTest {};

TEST_F(HaloCoopmatStrips, NchwStripsPadToEight) {
    ConvDesc d = haloCases()[11].desc;
    ASSERT_EQ(d.outW(), 40);
    const std::string why = vkconv::whyUnsupported(ctx(), d, kAlgo);
    if (!why.empty()) GTEST_SKIP() << kAlgo << " declines " << d.toString() << ": " << why;
    auto config = [&](const ConvDesc& e, const char* tile) {
        vkconv::PlanOptions o;
        o.algorithm = kAlgo;
        o.tile = tile;
        return vkconv::Plan::create(ctx(), e, o).config();
    };
    EXPECT_NE(config(d, "q16").find(" q16 x24 "), std::string::npos) << config(d, "q16");  // 16 + 2, padded to 24
    EXPECT_NE(config(d, "").find(" q40 x48 "), std::string::npos) << config(d, "");        // the whole row, 42 -> 48
    EXPECT_EQ(config(d, "q13").find(" x"), std::string::npos) << config(d, "q13");         // not a multiple of 8
    ConvDesc nhwc = d;
    nhwc.outputLayout = TensorLayout::NHWC;
    EXPECT_EQ(config(nhwc, "q16").find(" x"), std::string::npos) << config(nhwc, "q16");
    ConvDesc few = haloCases()[12].desc;  // 12 filters: the one-column tiles keep their strips
    ASSERT_EQ(few.outW(), 32);
    EXPECT_EQ(config(few, "256x16/4x1/q8").find(" x"), std::string::npos) << config(few, "256x16/4x1/q8");
    ConvDesc bf = d;
    bf.dtype = DType::BF16;
    if (vkconv::whyUnsupported(ctx(), bf, kAlgo).empty()) {
        EXPECT_EQ(config(bf, "q16").find(" x"), std::string::npos) << config(bf, "q16");
    }
}

class HaloCoopmatDeclines : public VkconvTest {};

// What the kernel cannot do is declined with a reason naming it; bad tile names are errors.
TEST_F(HaloCoopmatDeclines, coopmat_Reasons) {
    ConvDesc d;
    d.c = 32, d.h = d.w = 14, d.k = 64, d.r = d.s = 3, d.pad(1, 1), d.dtype = DType::F16;
    setNhwcKrsc(d);
    const std::string why = vkconv::whyUnsupported(ctx(), d, kAlgo);
    std::cout << "[ info ] " << kAlgo << " on " << ctx().caps().deviceName << ": "
              << (why.empty() ? "accepts fp16 3x3" : why) << std::endl;
    ConvDesc f32 = d;
    f32.dtype = DType::F32;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), f32, kAlgo), "");
    if (!why.empty()) return;
    ConvDesc s2 = d;
    s2.strideH = s2.strideW = 2;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), s2, kAlgo).find("stride"), std::string::npos);
    ConvDesc nchw = d;
    nchw.inputLayout = TensorLayout::NCHW;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), nchw, kAlgo).find("NCHW"), std::string::npos);
    ConvDesc c24 = d;
    c24.c = 24;
    EXPECT_NE(vkconv::whyUnsupported(ctx(), c24, kAlgo).find("multiple of 16"), std::string::npos);
    ConvDesc big = d;  // 11x11 taps x 32 filters of B alone exceed any shared memory the tiles fit
    big.r = big.s = 11, big.pad(5, 5);
    EXPECT_NE(vkconv::whyUnsupported(ctx(), big, kAlgo).find("shared memory"), std::string::npos);
    for (const char* bad : {"256x64", "256x64/4x2/q", "256x64/4x2/q0", "q", "128x128/2x4", "256x64/4x2q8x"}) {
        vkconv::PlanOptions o;
        o.algorithm = kAlgo;
        o.tile = bad;
        EXPECT_THROW(vkconv::Plan::create(ctx(), d, o), vkconv::Error) << "tile '" << bad << "'";
    }
}

class HaloCoopmatRouting : public VkconvTest {};

// At most 16 filters per group take the one-column tiles (16 filters wide), more take the wide
// ones, forced or by choice; the router sends a big RGB output layer (the SD-VAE decoder's last)
// to them on NVIDIA, where they are measured, and keeps it elsewhere.  (Plans only.)
TEST_F(HaloCoopmatRouting, coopmat_FewFiltersTakeOneColumn) {
    ConvDesc d;
    d.c = 128, d.h = d.w = 512, d.k = 3, d.r = d.s = 3, d.pad(1, 1), d.dtype = DType::F16;
    setNhwcKrsc(d);
    const std::string why = vkconv::whyUnsupported(ctx(), d, kAlgo);
    if (!why.empty()) GTEST_SKIP() << kAlgo << " declines " << d.toString() << ": " << why;
    vkconv::PlanOptions o;
    o.algorithm = kAlgo;
    for (int64_t k : {1, 3, 16, 17, 64}) {
        ConvDesc e = d;
        e.k = k;
        const std::string config = vkconv::Plan::create(ctx(), e, o).config();
        EXPECT_EQ(config.find("x16/") != std::string::npos, k <= 16) << e.toString() << ": " << config;
    }
    const vkconv::Plan chosen = vkconv::Plan::create(ctx(), d);
    if (ctx().caps().vendorId == 0x10DE) {
        EXPECT_EQ(chosen.algorithm(), kAlgo) << d.toString();
        EXPECT_NE(chosen.config().find("x16/"), std::string::npos) << chosen.config();
    } else {
        EXPECT_NE(chosen.algorithm(), kAlgo) << d.toString();
    }
    ConvDesc small = d;  // a few workgroups: not half a wave of the one-column tiles
    small.h = small.w = 32;
    EXPECT_NE(vkconv::Plan::create(ctx(), small).algorithm(), kAlgo) << small.toString();
}
