// "winograd" (F(2x2,3x3) and F(4x4,3x3)): chunked runs with an uneven last chunk, every dtype and
// layout pairing with the fused epilogue, groups, odd output sizes (partial tiles) and asymmetric
// padding, each through both variants; F(2x2) must be exact on integer data in fp32 (its
// transforms only add, subtract and halve), F(4x4) within its amplified tolerance (harness.hpp);
// the workspace stays within the limit; declines name their reason; the router uses it only where
// it is allowed a workspace.  (Edges and Sweep run it too, on every 3x3 stride-1 case.)
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "environment.hpp"
#include "harness.hpp"

using namespace vkt;
using vkconv::Activation;
using vkconv::ConvDesc;
using vkconv::DType;
using vkconv::ErrorCode;
using vkconv::FilterLayout;
using vkconv::TensorLayout;

namespace {

constexpr const char* kAlgo = "winograd";

struct WinoCase {
    std::string name;
    std::string tile;  // "2x2" or "4x4"
    ConvDesc desc;
    uint64_t chunkTiles;  // workspace for this many tiles per chunk (limitFor / limitFor16); 0: the default
    VkDeviceSize taps;
    std::string chunks;  // expected in the config ("" : one chunk)
};

void nhwc(ConvDesc& d) {
    d.inputLayout = d.outputLayout = TensorLayout::NHWC;
    d.filterLayout = FilterLayout::KRSC;
}

// Workspace for `tiles` tiles per chunk: U (taps K C/groups fp32, 256-aligned) + two alignment
// slots + V and M (taps (C + K) fp32 per tile), as algo_winograd.cpp lays it out; taps = (m+2)^2.
VkDeviceSize limitFor(const ConvDesc& d, uint64_t tiles, VkDeviceSize taps = 16) {
    const VkDeviceSize u = roundUp(taps * VkDeviceSize(d.k * d.channelsPerGroup()) * 4, 256);
    return u + 2 * 256 + tiles * taps * VkDeviceSize(d.c + d.k) * 4;
}

// Whether a bf16 plan on the matrix units keeps scaled fp16 V, U and M (algo_winograd.cpp
// winogradScaled): all forced plans but packed-filter ones.
bool scaledBf16(const ConvDesc& d, bool packed = false) { return d.dtype == DType::BF16 && !packed; }

// limitFor with 16-bit V and U (2 bytes) and M 16-bit (fp16; bf16 F(2x2); scaled bf16) or fp32
// (bf16 F(4x4) with bf16 V and U); scaled bf16 adds its scale region: with the range pass 64 + 2 x
// 512 words, per tile (`perTile`) K words, one per tile and one more alignment slot.
VkDeviceSize limitFor16(const ConvDesc& d, uint64_t tiles, VkDeviceSize taps, bool perTile = false) {
    const VkDeviceSize u = roundUp(taps * VkDeviceSize(d.k * d.channelsPerGroup()) * 2, 256);
    const VkDeviceSize mElem = d.dtype == DType::F16 || taps == 16 || scaledBf16(d) ? 2 : 4;
    const VkDeviceSize scale = !scaledBf16(d) ? 0
                               : perTile      ? VkDeviceSize(d.k) * 4 + 256 + tiles * 4
                                              : roundUp((64 + 2 * 512) * 4, 256);
    return u + scale + 2 * 256 + tiles * taps * (VkDeviceSize(d.c) * 2 + VkDeviceSize(d.k) * mElem);
}

std::vector<WinoCase> makeCases() {
    std::vector<WinoCase> v;
    // Each case through both variants (chunked ones: F(2x2) only, their sizes are counted for it).
    auto add = [&](const std::string& name, auto f, uint64_t chunkTiles = 0, std::string chunks = "") {
        ConvDesc d;
        d.c = 16, d.h = 9, d.w = 11, d.k = 12, d.r = d.s = 3;
        d.pad(1, 1);
        f(d);
        v.push_back({"f2_" + name, "2x2", d, chunkTiles, 16, chunks});
        if (!chunkTiles) v.push_back({"f4_" + name, "4x4", d, 0, 36, ""});
    };
    add("base_odd_q", [](ConvDesc&) {});
    add("batch3_odd_p_q_bias_relu",
        [](ConvDesc& d) { d.n = 3, d.h = 7, d.w = 5, d.hasBias = true, d.activation = Activation::Relu; });
    add("valid_no_pad", [](ConvDesc& d) { d.pad(0, 0), d.h = 10, d.w = 6; });
    add("asym_pad_t2b0l0r1", [](ConvDesc& d) { d.padTop = 2, d.padBottom = 0, d.padLeft = 0, d.padRight = 1; });
    add("output_1x1", [](ConvDesc& d) { d.h = d.w = 3, d.pad(0, 0); });
    add("input_1x1_pad1", [](ConvDesc& d) { d.h = d.w = 1; });
    add("grouped4_nhwc", [](ConvDesc& d) { d.c = 32, d.k = 8, d.groups = 4, nhwc(d); });
    add("odd_channels_c7_k5", [](ConvDesc& d) { d.c = 7, d.k = 5; });
    add("nchw_in_nhwc_out_residual", [](ConvDesc& d) {
        d.outputLayout = TensorLayout::NHWC, d.hasBias = d.hasResidual = true, d.activation = Activation::LeakyRelu;
        d.activationAlpha = 0.2f;
    });
    add("fp16_nhwc_bias_residual_silu", [](ConvDesc& d) {
        d.dtype = DType::F16, d.hasBias = d.hasResidual = true, d.activation = Activation::Silu, nhwc(d);
    });
    add("fp16_nchw_gelu", [](ConvDesc& d) { d.dtype = DType::F16, d.hasBias = true, d.activation = Activation::Gelu; });
    add("bf16_nhwc_in_nchw_out_relu6", [](ConvDesc& d) {
        d.dtype = DType::BF16, d.inputLayout = TensorLayout::NHWC, d.filterLayout = FilterLayout::KRSC;
        d.hasBias = d.hasResidual = true, d.activation = Activation::Relu6;
    });
    // NCHW output rows whole and aligned for both variants (Q = 16): the m-wide row stores, over
    // three filter blocks (the last partial), with a residual read beside them.
    add("nchw_q16_k20_bias_residual_relu", [](ConvDesc& d) {
        d.h = 12, d.w = 16, d.k = 20, d.hasBias = d.hasResidual = true, d.activation = Activation::Relu;
    });
    // ... and an NCHW input over several channel blocks (the last partial).
    add("fp16_nchw_c40_q24_k40_residual_silu", [](ConvDesc& d) {
        d.dtype = DType::F16, d.n = 2, d.c = 40, d.h = 8, d.w = 24, d.k = 40, d.hasBias = d.hasResidual = true,
        d.activation = Activation::Silu;
    });
    // 15 x 15 = 225 tiles at most 64 per chunk: 4 balanced chunks of 57, the last 54.
    add(
        "chunked_4x57", [](ConvDesc& d) { d.h = d.w = 29; }, 64, "in 4 chunks of 57");
    add(
        "chunked_fp16_nhwc_residual",
        [](ConvDesc& d) { d.h = d.w = 29, d.dtype = DType::F16, d.hasResidual = true, nhwc(d); }, 64,
        "in 4 chunks of 57");
    // 2 x 25 x 20 = 1000 tiles at most 300 per chunk: 4 chunks rounded up to 256, the last 232.
    add(
        "chunked_aligned_4x256", [](ConvDesc& d) { d.n = 2, d.h = 50, d.w = 40, d.c = 8, d.k = 8; }, 300,
        "in 4 chunks of 256");
    // One tile per chunk (the smallest workspace that works).
    add(
        "chunked_one_tile_each", [](ConvDesc& d) { d.h = 4, d.w = 5; }, 1, "in 6 chunks of 1");
    // F(4x4): 31 x 30 outputs = 8 x 8 tiles (partial last row and column) at most 20 per chunk:
    // 4 chunks of 16; and fp16 NHWC with a residual in 3 chunks of 22 (the last 20).
    ConvDesc f4;
    f4.c = 16, f4.h = 31, f4.w = 30, f4.k = 12, f4.r = f4.s = 3;
    f4.pad(1, 1);
    v.push_back({"f4_chunked_4x16", "4x4", f4, 20, 36, "in 4 chunks of 16"});
    f4.dtype = DType::F16, f4.hasResidual = true, nhwc(f4);
    v.push_back({"f4_chunked_fp16_nhwc_residual", "4x4", f4, 22, 36, "in 3 chunks of 22"});
    return v;
}

const std::vector<WinoCase>& cases() {
    static const auto v = makeCases();
    return v;
}

std::string caseName(const ::testing::TestParamInfo<int>& info) {
    return sanitizeName(cases()[size_t(info.param)].name);
}

vkconv::PlanOptions winoOptions(VkDeviceSize limit, const std::string& tile = "") {
    vkconv::PlanOptions o;
    o.algorithm = kAlgo;
    o.tile = tile;
    if (limit) o.workspaceLimit = limit;
    return o;
}

// Whether a scaled bf16 plan takes each tile's and each filter's exponent inside its transforms
// (no range pass: NHWC input, a tile's and a filter's channel pairs whole workgroup groups),
// asked of a plan with the default workspace (the choice does not depend on it).
bool perTileScale(vkconv::Context& ctx, const ConvDesc& d, const std::string& tile, bool packed = false) {
    if (!scaledBf16(d, packed)) return false;
    auto o = winoOptions(0, tile);
    o.packedFilter = packed;
    return vkconv::Plan::create(ctx, d, o).config().find(" scaled per tile") != std::string::npos;
}

// The case's workspace limit (0: the default).  16-bit layers the matrix units take keep 16-bit V
// and U (and M for fp16 and bf16 F(2x2)) in the workspace.
VkDeviceSize caseLimit(vkconv::Context& ctx, const WinoCase& c) {
    if (!c.chunkTiles) return 0;
    const bool matrix =
        c.desc.dtype != DType::F32 && vkconv::whyUnsupported(ctx, c.desc, "implicit_gemm_coopmat").empty();
    return matrix ? limitFor16(c.desc, c.chunkTiles, c.taps, perTileScale(ctx, c.desc, c.tile))
                  : limitFor(c.desc, c.chunkTiles, c.taps);
}

}  // namespace

class Winograd : public VkconvParamTest<int> {};

TEST_P(Winograd, MatchesReference) {
    const auto& c = cases()[size_t(GetParam())];
    if (c.desc.dtype != DType::F32 && !ctx().caps().storageBuffer16BitAccess)
        GTEST_SKIP() << "no 16-bit storage on this device";
    const auto o = winoOptions(caseLimit(ctx(), c), c.tile);
    const vkconv::Plan plan = vkconv::Plan::create(ctx(), c.desc, o);
    EXPECT_LE(plan.workspaceSize(), o.workspaceLimit) << plan.config();
    EXPECT_EQ(plan.config().rfind("F(" + c.tile + ",3x3) ", 0), 0u) << plan.config();
    if (c.chunks.empty())
        EXPECT_EQ(plan.config().find("chunks"), std::string::npos) << plan.config();
    else
        EXPECT_NE(plan.config().find(c.chunks), std::string::npos) << plan.config();
    // fp32 F(2x2) with integer data and a piecewise-linear activation must be exact; the rest
    // within the direct kernels' tolerance (the transforms run in fp32 whatever the storage
    // dtype), amplified for F(4x4); integer data through both variants as well.
    const auto r = runAndCheck(ctx(), c.desc, o, 7000 + uint64_t(GetParam()), DataMode::Uniform);
    EXPECT_EQ(r.algorithm, kAlgo);
    EXPECT_TRUE(passed(r)) << "case " << c.name;
    const auto e = runAndCheck(ctx(), c.desc, o, 7100 + uint64_t(GetParam()), DataMode::Integer);
    EXPECT_TRUE(passed(e)) << "case " << c.name << " (integer data)";
    EXPECT_EQ(e.exact, c.tile == "2x2" && requiresExact(c.desc, DataMode::Integer)) << c.name;
    RecordProperty("chosen", r.algorithm + " " + r.config);
}

INSTANTIATE_TEST_SUITE_P(winograd, Winograd, ::testing::Range(0, int(cases().size())), caseName);

// The NCHW output transform's other two paths on every case with an NCHW output: element stores
// (test hook winograd_nchw_narrow: the path of a view not aligned to m elements, which devices
// with 4-byte storage buffer offsets may pass) and two output rows per shared-memory round (test
// hook winograd_nchw_rb2: the path of devices with 16 KiB of it).
TEST_P(Winograd, NchwOutputPaths) {
    const auto& c = cases()[size_t(GetParam())];
    if (c.desc.outputLayout != TensorLayout::NCHW) GTEST_SKIP() << "NHWC output";
    if (c.desc.dtype != DType::F32 && !ctx().caps().storageBuffer16BitAccess)
        GTEST_SKIP() << "no 16-bit storage on this device";
    const VkDeviceSize limit = caseLimit(ctx(), c);
    for (const char* hook : {"winograd_nchw_narrow", "winograd_nchw_rb2"}) {
        SCOPED_TRACE(hook);
        EnvOverride on("VKCONV_TEST_HOOKS", withTestHook(hook));
        const auto r =
            runAndCheck(ctx(), c.desc, winoOptions(limit, c.tile), 7200 + uint64_t(GetParam()), DataMode::Uniform);
        EXPECT_EQ(r.algorithm, kAlgo);
        EXPECT_TRUE(passed(r)) << "case " << c.name;
    }
}

class WinogradPlan : public VkconvTest {};

TEST_F(WinogradPlan, winograd_Declines) {
    auto declines = [&](const ConvDesc& d, const vkconv::PlanOptions& o, const std::string& mentions) {
        SCOPED_TRACE(d.toString() + " tile '" + o.tile + "' workspaceLimit " + std::to_string(o.workspaceLimit));
        try {
            vkconv::Plan::create(ctx(), d, o);
            ADD_FAILURE() << "accepted";
        } catch (const vkconv::Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
            EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
        }
    };
    ConvDesc d;
    d.c = 16, d.h = d.w = 12, d.k = 16, d.r = d.s = 3;
    d.pad(1, 1);
    ConvDesc five = d;
    five.r = five.s = 5;
    declines(five, winoOptions(0), "3x3");
    ConvDesc rect = d;
    rect.s = 1;
    declines(rect, winoOptions(0), "3x3");
    ConvDesc strided = d;
    strided.strideW = 2;
    declines(strided, winoOptions(0), "stride 1");
    ConvDesc dilated = d;
    dilated.dilationH = 2;
    declines(dilated, winoOptions(0), "dilation 1");
    declines(d, winoOptions(0, "128x128x8/8x8"), "tile");
    declines(d, winoOptions(0, "3x3"), "tile");
    auto none = winoOptions(0);
    none.workspaceLimit = 0;
    declines(d, none, "workspaceLimit is 0");
    declines(d, winoOptions(limitFor(d, 1) - 1, "2x2"), "workspaceLimit");
    EXPECT_NO_THROW(vkconv::Plan::create(ctx(), d, winoOptions(limitFor(d, 1), "2x2")));  // exactly one tile per chunk
    declines(d, winoOptions(limitFor(d, 1, 36) - 1, "4x4"), "workspaceLimit");
    EXPECT_NO_THROW(vkconv::Plan::create(ctx(), d, winoOptions(limitFor(d, 1, 36), "4x4")));
    // The heuristic takes whichever variant fits: F(2x2) within F(4x4)'s shortfall.
    const vkconv::Plan small = vkconv::Plan::create(ctx(), d, winoOptions(limitFor(d, 1, 36) - 1));
    EXPECT_EQ(small.config().rfind("F(2x2,3x3)", 0), 0u) << small.config();
}

// "auto" never takes winograd without a workspace, nor for shapes it cannot run.
TEST_F(WinogradPlan, winograd_RouterNeedsWorkspace) {
    ConvDesc d;
    d.c = 256, d.h = d.w = 28, d.k = 256, d.r = d.s = 3;
    d.pad(1, 1);
    vkconv::PlanOptions o;
    o.workspaceLimit = 0;
    EXPECT_NE(vkconv::Plan::create(ctx(), d, o).algorithm(), kAlgo);
    o = {};
    const vkconv::Plan p = vkconv::Plan::create(ctx(), d, o);
    EXPECT_LE(p.workspaceSize(), o.workspaceLimit) << p.algorithm() << " " << p.config();
    ConvDesc strided = d;
    strided.strideH = strided.strideW = 2;
    EXPECT_NE(vkconv::Plan::create(ctx(), strided, o).algorithm(), kAlgo);
    std::cout << "[ info ] auto on " << d.toString() << ": " << p.algorithm() << " [" << p.config() << "]" << std::endl;
}

// Winograd with its batched GEMM on the matrix units: 16-bit storage where implicit_gemm_coopmat
// takes the layer's C/groups (H200, RDNA3/4; lavapipe with the emulated matrix units); the input
// and filter transforms then store V and U in the 16-bit type, and the GEMM writes M in the
// 16-bit type (fp16; bf16 F(2x2)) or raw fp32 M (bf16 F(4x4)).
// Elsewhere each case is skipped with implicit_gemm_coopmat's reason.  Both variants; partial
// tiles, NCHW and NHWC transforms, groups, ragged filter counts, the fused epilogue and chunks;
// the tolerance adds Plan::operandRounding() per element and bounds the RMS (harness.cpp).
namespace {

struct WinoCmCase {
    std::string name;
    std::string tile;
    ConvDesc desc;
    uint64_t chunkTiles = 0;  // workspace for this many tiles per chunk (0: the default limit)
    std::string chunks;
    bool packed = false;  // PlanOptions::packedFilter (bf16: V and U stay bf16)
};

std::vector<WinoCmCase> makeCmCases() {
    std::vector<WinoCmCase> v;
    auto add = [&](const std::string& name, auto f) {
        ConvDesc d;
        d.c = 32, d.h = 13, d.w = 11, d.k = 24, d.r = d.s = 3;
        d.pad(1, 1);
        d.dtype = DType::F16;
        nhwc(d);
        f(d);
        v.push_back({"f4_" + name, "4x4", d});
        v.push_back({"f2_" + name, "2x2", d});
    };
    add("fp16_nhwc_bias_relu", [](ConvDesc& d) { d.hasBias = true, d.activation = Activation::Relu; });
    add("bf16_nhwc_residual_silu",
        [](ConvDesc& d) { d.dtype = DType::BF16, d.hasBias = d.hasResidual = true, d.activation = Activation::Silu; });
    add("fp16_nchw_kcrs_n2_k20", [](ConvDesc& d) {
        d.inputLayout = d.outputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS, d.n = 2, d.k = 20;
    });
    add("bf16_nchw_in_nhwc_out_asym_pad", [](ConvDesc& d) {
        d.dtype = DType::BF16, d.inputLayout = TensorLayout::NCHW, d.filterLayout = FilterLayout::KCRS;
        d.padTop = 2, d.padBottom = 0, d.padLeft = 0, d.padRight = 1;
    });
    add("grouped2_c64_k48", [](ConvDesc& d) { d.c = 64, d.k = 48, d.groups = 2; });
    add("c16_input_1x1_pad1", [](ConvDesc& d) { d.c = 16, d.h = d.w = 1; });
    add("c48_k72_9x9_valid", [](ConvDesc& d) { d.c = 48, d.k = 72, d.h = d.w = 9, d.pad(0, 0); });
    // 40 channels: the batched GEMM's zero-filled slice tail (C/groups % 16 == 8).
    add("c40_slice_tail", [](ConvDesc& d) { d.c = 40; });
    // An odd filter count: the output transform one filter per invocation, the input's in pairs.
    add("fp16_nhwc_k21_bias", [](ConvDesc& d) { d.k = 21, d.hasBias = true; });
    // F(4x4): 31 x 30 outputs = 8 x 8 tiles at most 20 per chunk: 4 chunks of 16.
    ConvDesc f4;
    f4.c = 32, f4.h = 31, f4.w = 30, f4.k = 16, f4.r = f4.s = 3, f4.dtype = DType::F16, f4.hasResidual = true;
    f4.pad(1, 1);
    nhwc(f4);
    v.push_back({"f4_chunked_4x16", "4x4", f4, 20, "in 4 chunks of 16"});
    // Interior and border patches of the NHWC input transform: two 64-channel blocks at batch 3,
    // asymmetric padding, and chunks that end inside an image (2 x 8 x 8 F(4x4) tiles in chunks
    // of 43; 2 x 16 x 15 F(2x2) tiles in chunks of 96).
    add("c128_n3_bf16", [](ConvDesc& d) { d.c = 128, d.n = 3, d.dtype = DType::BF16; });
    add("c64_asym_pad_bias", [](ConvDesc& d) {
        d.c = 64, d.h = d.w = 17, d.hasBias = true;
        d.padTop = 2, d.padBottom = 0, d.padLeft = 0, d.padRight = 1;
    });
    ConvDesc tc = f4;
    tc.c = 64, tc.n = 2, tc.k = 24;
    v.push_back({"f4_chunked_n2", "4x4", tc, 50, "in 3 chunks of 43"});
    v.push_back({"f2_chunked_n2", "2x2", tc, 100, "in 5 chunks of 96"});
    // bf16 with a packed filter: bf16 V and U (M bf16 for F(2x2), raw fp32 for F(4x4)).
    ConvDesc pb = v.front().desc;
    pb.dtype = DType::BF16, pb.hasResidual = true;
    v.push_back({"f4_bf16_packed", "4x4", pb, 0, "", true});
    v.push_back({"f2_bf16_packed", "2x2", pb, 0, "", true});
    return v;
}

const std::vector<WinoCmCase>& cmCases() {
    static const auto v = makeCmCases();
    return v;
}

std::string cmCaseName(const ::testing::TestParamInfo<int>& info) {
    return sanitizeName(cmCases()[size_t(info.param)].name);
}

}  // namespace

class WinogradCoopmat : public VkconvParamTest<int> {};

TEST_P(WinogradCoopmat, MatchesReference) {
    const auto& c = cmCases()[size_t(GetParam())];
    const std::string why = vkconv::whyUnsupported(ctx(), c.desc, "implicit_gemm_coopmat");
    if (!why.empty()) GTEST_SKIP() << "implicit_gemm_coopmat declines " << c.desc.toString() << ": " << why;
    const VkDeviceSize taps = c.tile == "4x4" ? 36 : 16;
    auto o = winoOptions(
        c.chunkTiles ? limitFor16(c.desc, c.chunkTiles, taps, perTileScale(ctx(), c.desc, c.tile, c.packed)) : 0,
        c.tile);
    o.packedFilter = c.packed;
    const vkconv::Plan plan = vkconv::Plan::create(ctx(), c.desc, o);
    EXPECT_LE(plan.workspaceSize(), o.workspaceLimit) << plan.config();
    // fp16, scaled bf16 (fp16 V, U and M) and bf16 F(2x2) store M in a 16-bit type (the GEMM an
    // ordinary grouped 1x1 convolution); bf16 F(4x4) with bf16 V and U in fp32 (raw products of
    // one split-K pass-1 dispatch).
    const bool scaled = scaledBf16(c.desc, c.packed);
    const bool f16 = c.desc.dtype == DType::F16 || scaled, m16 = f16 || c.tile == "2x2";
    EXPECT_NE(plan.config().find("implicit_gemm_coopmat"), std::string::npos) << plan.config();
    EXPECT_EQ(plan.config().find("raw-f32") != std::string::npos, !m16) << plan.config();
    EXPECT_NE(plan.config().find(f16   ? "V/U f16 M f16"
                                 : m16 ? "V/U bf16 M bf16"
                                       : "V/U bf16 M f32"),
              std::string::npos)
        << plan.config();
    EXPECT_EQ(plan.config().find(" scaled") != std::string::npos, scaled) << plan.config();
    if (c.chunks.empty())
        EXPECT_EQ(plan.config().find("chunks"), std::string::npos) << plan.config();
    else
        EXPECT_NE(plan.config().find(c.chunks), std::string::npos) << plan.config();
    EXPECT_GT(plan.operandRounding(), 0.0);
    // The transforms move two channels (filters) per invocation where they pair up: KRSC filters
    // with an even C/groups, NHWC input with an even C, NHWC output with an even K and 16-bit M.
    const bool fPairs = c.desc.filterLayout == FilterLayout::KRSC && c.desc.channelsPerGroup() % 2 == 0;
    const bool inPairs = c.desc.inputLayout == TensorLayout::NHWC && c.desc.c % 2 == 0;
    const bool outPairs = m16 && c.desc.outputLayout == TensorLayout::NHWC && c.desc.k % 2 == 0;
    const std::string pairs = !fPairs && !inPairs && !outPairs ? ""
                                                               : std::string(" pairs ") + (fPairs ? "f" : "") +
                                                                     (inPairs ? "in" : "") + (outPairs ? "out" : "");
    if (pairs.empty())
        EXPECT_EQ(plan.config().find(" pairs"), std::string::npos) << plan.config();
    else
        EXPECT_NE(plan.config().find(pairs), std::string::npos) << plan.config();
    for (auto mode : {DataMode::Uniform, DataMode::Integer}) {
        const auto r = runAndCheck(ctx(), c.desc, o, 7200 + uint64_t(GetParam()), mode);
        EXPECT_EQ(r.algorithm, kAlgo);
        EXPECT_TRUE(passed(r)) << "case " << c.name << " (" << toString(mode) << " data)";
        EXPECT_FALSE(r.exact);
        RecordProperty("chosen", r.algorithm + " " + r.config);
    }
}

INSTANTIATE_TEST_SUITE_P(winograd_coopmat, WinogradCoopmat, ::testing::Range(0, int(cmCases().size())), cmCaseName);

// fp16 on the matrix units: inputs of ~2^12 overflow F(4x4)'s fp16 V (up to 49x the input) and,
// at 2^14, F(2x2)'s (4x); the output transform must then sum those tiles directly (a non-finite M
// value), not write Inf.  The filters are small enough (2^-8) that the true outputs fit fp16.
// The NHWC transform in pairs (even K), one filter per invocation (odd K) and the NCHW one.
TEST_F(WinogradPlan, winograd_coopmat_Fp16Overflow) {
    for (int layout = 0; layout < 3; ++layout) {
        ConvDesc d;
        d.c = 32, d.h = 13, d.w = 11, d.k = layout == 1 ? 21 : 24, d.r = d.s = 3, d.dtype = DType::F16;
        d.pad(1, 1);
        d.hasBias = true;
        if (layout < 2) nhwc(d);
        const std::string why = vkconv::whyUnsupported(ctx(), d, "implicit_gemm_coopmat");
        if (!why.empty()) GTEST_SKIP() << "implicit_gemm_coopmat declines " << d.toString() << ": " << why;
        for (const char* tile : {"4x4", "2x2"}) {
            const auto o = winoOptions(0, tile);
            EXPECT_NE(vkconv::Plan::create(ctx(), d, o).config().find("V/U f16 M f16"), std::string::npos);
            const double x = std::ldexp(1.0, std::string(tile) == "4x4" ? 12 : 14);
            const auto r =
                runAndCheckScaled(ctx(), d, o, 7500 + uint64_t(layout), DataMode::Uniform, x, std::ldexp(1.0, -8));
            EXPECT_TRUE(passed(r)) << "layout " << layout << " " << tile;
            EXPECT_EQ(r.nonFinite, 0) << "layout " << layout << " " << tile;
        }
    }
}

// Scaled bf16 (fp16 V, U and M): data far outside fp16's range, both ways, must come out as the
// direct sum does.  Inputs of ~2^20 (V up to 49 x that) overflow unscaled fp16 V; inputs of ~2^-30
// and filters of ~2^-24 underflow it; 2^60 x 2^50 spans most of bf16's exponents; an all-zero
// input leaves the bias and the residual; "spread" puts pixels, channels and filters up to 2^20
// apart (per-tile and per-filter exponents must take every channel's largest value and stay with
// their own tile and filter; every output is checked against its own magnitude).
// Both variants, through the range pass (48 channels: their pairs do not divide a workgroup; NCHW
// input) and per tile (64 channels; the groups' maxima through subgroupMax and, under the test
// hook winograd_no_subgroup_max as on a device without subgroup arithmetic, through shared
// atomics alone).
TEST_F(WinogradPlan, winograd_coopmat_ScaledRange) {
    struct Scale {
        const char* name;
        double x, w;
        int spread;
    };
    const Scale scales[] = {{"x2^20", std::ldexp(1.0, 20), 1.0, 0},
                            {"x2^-30_w2^-24", std::ldexp(1.0, -30), std::ldexp(1.0, -24), 0},
                            {"x2^60_w2^50", std::ldexp(1.0, 60), std::ldexp(1.0, 50), 0},
                            {"x0", 0.0, 1.0, 0},
                            {"spread", 1.0, 1.0, 10}};
    struct Shape {
        const char* name;
        int c;
        bool nchw, perTile;
        const char* hook;
    };
    const Shape shapes[] = {{"nhwc_c48", 48, false, false, nullptr},
                            {"nchw_c48", 48, true, false, nullptr},
                            {"nhwc_c64", 64, false, true, nullptr},
                            {"nhwc_c64_no_subgroup_max", 64, false, true, "winograd_no_subgroup_max"}};
    for (const Shape& sh : shapes) {
        std::optional<EnvOverride> hook;
        if (sh.hook) hook.emplace("VKCONV_TEST_HOOKS", withTestHook(sh.hook));
        ConvDesc d;
        d.c = sh.c, d.h = 13, d.w = 11, d.k = 24, d.r = d.s = 3, d.dtype = DType::BF16;
        d.pad(1, 1);
        d.hasBias = d.hasResidual = true;
        if (!sh.nchw) nhwc(d);
        // The scaled path's GEMM is fp16: fp16 matrix units are all it needs (bf16 ones or not).
        ConvDesc g = d;
        g.dtype = DType::F16;
        const std::string why = vkconv::whyUnsupported(ctx(), g, "implicit_gemm_coopmat");
        if (!why.empty()) GTEST_SKIP() << "implicit_gemm_coopmat declines " << g.toString() << ": " << why;
        for (const char* tile : {"4x4", "2x2"}) {
            const auto o = winoOptions(0, tile);
            const vkconv::Plan plan = vkconv::Plan::create(ctx(), d, o);
            EXPECT_NE(plan.config().find(" scaled"), std::string::npos) << plan.config();
            EXPECT_EQ(plan.config().find(" scaled per tile") != std::string::npos, sh.perTile)
                << sh.name << ": " << plan.config();
            for (size_t i = 0; i < std::size(scales); ++i) {
                // One scale for the whole call keeps fp16's ~2^30 between the largest V (U) and
                // the smallest that still counts: 2^+-2 (products 2^16 apart) there, 2^+-10 per tile.
                const int spread = scales[i].spread && !sh.perTile ? 2 : scales[i].spread;
                const auto r =
                    runAndCheckScaled(ctx(), d, o, 7400 + i, DataMode::Uniform, scales[i].x, scales[i].w, spread);
                EXPECT_TRUE(passed(r)) << sh.name << " " << tile << " " << scales[i].name;
                EXPECT_EQ(r.nonFinite, 0) << sh.name << " " << tile << " " << scales[i].name;
            }
        }
    }
}

// The router: a large, deep 3x3 stride-1 fp16 layer goes to winograd on the matrix units (modelled
// at under half the direct GEMM's time; at 128 channels the transforms' traffic still outweighs
// the products saved); PlanOptions::allowWinograd = false keeps it on the direct
// implicit_gemm_coopmat, and so does a stride-2 layer.  (Plans only: nothing runs.)
TEST_F(WinogradPlan, winograd_coopmat_Router) {
    ConvDesc d;
    d.n = 8, d.c = d.k = 512, d.h = d.w = 28, d.r = d.s = 3, d.dtype = DType::F16;
    d.pad(1, 1);
    nhwc(d);
    const std::string why = vkconv::whyUnsupported(ctx(), d, "implicit_gemm_coopmat");
    if (!why.empty()) GTEST_SKIP() << "implicit_gemm_coopmat declines " << d.toString() << ": " << why;
    vkconv::PlanOptions o;
    const vkconv::Plan p = vkconv::Plan::create(ctx(), d, o);
    EXPECT_EQ(p.algorithm(), kAlgo) << p.config();
    EXPECT_NE(p.config().find("V/U f16"), std::string::npos) << p.config();
    // bf16 on the matrix units: scaled fp16 V, U and M, routed as fp16 is (both variants); with
    // a packed filter bf16 V and U, F(2x2) only, routed or forced without a tile (bf16 F(4x4)'s
    // errors reach ~3 % of the largest output; F(4x4) there only where PlanOptions::tile asks).
    ConvDesc b = d;
    b.dtype = DType::BF16;
    const vkconv::Plan pb = vkconv::Plan::create(ctx(), b, {});
    if (scaledBf16(b)) {
        EXPECT_EQ(pb.algorithm(), kAlgo) << pb.config();
        EXPECT_NE(pb.config().find("V/U f16 M f16 scaled"), std::string::npos) << pb.config();
    }
    std::cout << "[ info ] auto on " << b.toString() << ": " << pb.algorithm() << " [" << pb.config() << "]"
              << std::endl;
    // (bf16 V and U need bf16 matrix units: without them, as on Mesa 26's lavapipe, the packed
    // plan's GEMM is the scalar one, whose F(4x4) rounds in fp32.)
    if (vkconv::whyUnsupported(ctx(), b, "implicit_gemm_coopmat").empty()) {
        vkconv::PlanOptions fb;
        fb.algorithm = kAlgo;
        fb.packedFilter = true;
        EXPECT_EQ(vkconv::Plan::create(ctx(), b, fb).config().rfind("F(2x2,3x3) ", 0), 0u);
        vkconv::PlanOptions rb;
        rb.packedFilter = true;
        const vkconv::Plan pbp = vkconv::Plan::create(ctx(), b, rb);
        if (pbp.algorithm() == kAlgo) {
            EXPECT_EQ(pbp.config().rfind("F(2x2,3x3) ", 0), 0u) << pbp.config();
        }
    }
    o.allowWinograd = false;
    const vkconv::Plan direct = vkconv::Plan::create(ctx(), d, o);
    EXPECT_EQ(direct.algorithm(), "implicit_gemm_coopmat") << direct.config();
    EXPECT_EQ(direct.operandRounding(), 0.0);
    ConvDesc strided = d;
    strided.strideH = strided.strideW = 2;
    EXPECT_EQ(vkconv::Plan::create(ctx(), strided, {}).algorithm(), "implicit_gemm_coopmat");
    std::cout << "[ info ] auto on " << d.toString() << ": " << p.algorithm() << " [" << p.config() << "]" << std::endl;
}
