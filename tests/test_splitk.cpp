// "implicit_gemm_splitk": forced split counts through PlanOptions::tile ("<tile>/s<splits>" or
// "s<splits>") on shapes that exercise even and uneven splits, clamping, both staging modes
// (channel slices, per-element taps), 4-wide loads, groups and the fused epilogue in every dtype;
// workspace size, determinism, declines with their reasons, and the router's choice.
// (Edges and Sweep run it too, with the heuristic's split: at least 2 where there are 2 slices.)
#include <cstdlib>
#include <cstring>
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

constexpr const char* kAlgo = "implicit_gemm_splitk";

struct SplitCase {
    std::string name;
    ConvDesc desc;
    std::string tile;
    uint32_t splits;  // expected split count (after clamping)
};

ConvDesc base() {
    ConvDesc d;
    d.c = 16, d.h = 9, d.w = 11, d.k = 12, d.r = d.s = 3;
    d.pad(1, 1);
    return d;  // reduction 144: 18 slices of 8, 9 of 16
}

std::vector<SplitCase> makeCases() {
    std::vector<SplitCase> v;
    auto add = [&](const std::string& name, const std::string& tile, uint32_t splits, auto f) {
        ConvDesc d = base();
        f(d);
        v.push_back({name, d, tile, splits});
    };
    const auto nhwc = setNhwcKrsc;
    add("s2_split_only", "s2", 2, [](ConvDesc&) {});
    add("s3_even_channel_slices", "64x64x8/4x4/s3", 3, [](ConvDesc&) {});              // 18 slices: 6 each
    add("s4_uneven_channel_slices", "64x64x8/4x4/s4", 4, [](ConvDesc&) {});            // 4,5,4,5
    add("s7_uneven_bk16", "128x64x16/8x4/s7", 7, [](ConvDesc& d) { d.c = 32; });       // 18 slices of 16
    add("s5_uneven_generic_taps", "64x16x8/4x4/s5", 5, [](ConvDesc& d) { d.c = 5; });  // 45: 6 slices
    add("s3_generic_nhwc", "128x32x8/4x4/s3", 3, [=](ConvDesc& d) { d.c = 7, nhwc(d); });
    add("s6_nhwc_vec4", "128x128x8/8x8/s6", 6, [=](ConvDesc& d) { d.c = 24, d.k = 20, nhwc(d); });
    add("s1", "64x64x8/4x4/s1", 1, [](ConvDesc&) {});
    // Past 8 splits (an unrolled reduce would batch its loads by 8), over an even (1188) and an
    // odd (1089) output count.
    add("s12_even_outputs", "64x64x8/4x4/s12", 12, [](ConvDesc&) {});
    add("s18_odd_outputs", "64x64x8/4x4/s18", 18, [](ConvDesc& d) { d.k = 11; });
    add("s18_one_slice_each", "64x64x8/4x4/s18", 18, [](ConvDesc&) {});
    add("s64_clamped_to_18", "64x64x8/4x4/s64", 18, [](ConvDesc&) {});
    add("s9_clamped_to_2_generic", "64x64x8/4x4/s9", 2,
        [](ConvDesc& d) { d.c = 1, d.r = 4, d.s = 3, d.pad(1, 1); });                                // 12 taps
    add("grouped2_s3", "64x16x8/4x4/s3", 3, [](ConvDesc& d) { d.c = 16, d.k = 12, d.groups = 2; });  // 72: 9 slices
    add("grouped4_nhwc_s2", "s2", 2, [=](ConvDesc& d) { d.c = 32, d.k = 8, d.groups = 4, nhwc(d); });
    add("stride2_dil2_asym_pad_s3", "64x64x8/4x4/s3", 3, [](ConvDesc& d) {
        d.h = d.w = 15, d.strideH = d.strideW = 2, d.dilationH = d.dilationW = 2;
        d.padTop = 0, d.padBottom = 3, d.padLeft = 2, d.padRight = 1;
    });
    add("batch3_nchw_in_nhwc_out_s4", "64x64x8/4x4/s4", 4,
        [](ConvDesc& d) { d.n = 3, d.outputLayout = TensorLayout::NHWC, d.hasBias = true; });
    // The epilogue runs in the reduce pass: bias + residual + activation + conversion.
    add("epilogue_f32_relu_s3", "64x64x8/4x4/s3", 3,
        [](ConvDesc& d) { d.hasBias = d.hasResidual = true, d.activation = Activation::Relu; });
    add("epilogue_f32_leaky_nhwc_s4", "s4", 4, [=](ConvDesc& d) {
        d.hasBias = d.hasResidual = true, d.activation = Activation::LeakyRelu, d.activationAlpha = 0.2f, nhwc(d);
    });
    add("epilogue_f16_nhwc_silu_s5", "64x64x8/4x4/s5", 5, [=](ConvDesc& d) {
        d.dtype = DType::F16, d.hasBias = d.hasResidual = true, d.activation = Activation::Silu, nhwc(d);
    });
    add("epilogue_f16_nchw_gelu_s3", "s3", 3,
        [](ConvDesc& d) { d.dtype = DType::F16, d.hasBias = d.hasResidual = true, d.activation = Activation::Gelu; });
    add("epilogue_bf16_relu6_nhwc_out_s4", "64x64x8/4x4/s4", 4, [](ConvDesc& d) {
        d.dtype = DType::BF16, d.hasBias = d.hasResidual = true, d.activation = Activation::Relu6;
        d.outputLayout = TensorLayout::NHWC, d.filterLayout = FilterLayout::KRSC;
    });
    add("epilogue_bf16_sigmoid_nhwc_s7", "128x64x16/8x4/s7", 7, [=](ConvDesc& d) {
        d.c = 32, d.dtype = DType::BF16, d.hasBias = d.hasResidual = true, d.activation = Activation::Sigmoid, nhwc(d);
    });
    // Deep enough for the heuristic's own split (no tile forced): reduction 1152, 1 tile of 49 pixels.
    add("heuristic_deep_c128", "", 0, [](ConvDesc& d) { d.c = 128, d.h = d.w = 7, d.k = 64, d.hasBias = true; });
    return v;
}

const std::vector<SplitCase>& cases() {
    static const auto v = makeCases();
    return v;
}

// The split count in a plan's config ("... split 4 ...").
uint32_t configSplit(const std::string& config) {
    auto at = config.find(" split ");
    return at == std::string::npos ? 0 : uint32_t(std::strtoul(config.c_str() + at + 7, nullptr, 10));
}

std::string caseName(const ::testing::TestParamInfo<int>& info) {
    return sanitizeName(cases()[size_t(info.param)].name);
}

vkconv::PlanOptions splitOptions(const std::string& tile) {
    vkconv::PlanOptions o;
    o.algorithm = kAlgo;
    o.tile = tile;
    return o;
}

ConvDesc resnetLayer4() {  // ResNet-50 layer4 3x3 at batch 1
    ConvDesc d;
    d.c = 512, d.h = d.w = 7, d.k = 512, d.r = d.s = 3;
    d.pad(1, 1);
    return d;
}

}  // namespace

class SplitK : public VkconvParamTest<int> {};

TEST_P(SplitK, ForcedSplitMatchesReference) {
    const auto& c = cases()[size_t(GetParam())];
    const auto o = splitOptions(c.tile);
    const std::string why = vkconv::whyUnsupported(ctx(), c.desc, kAlgo);
    ASSERT_EQ(why, "") << c.desc.toString();
    const vkconv::Plan plan = vkconv::Plan::create(ctx(), c.desc, o);
    const uint32_t split = configSplit(plan.config());
    if (c.splits)
        EXPECT_EQ(split, c.splits) << plan.config();
    else
        EXPECT_GE(split, 2u) << plan.config();
    EXPECT_EQ(plan.workspaceSize(), uint64_t(split) * uint64_t(c.desc.outputElements()) * 4) << plan.config();
    const auto slash = c.tile.rfind("/s");
    if (slash != std::string::npos && std::stoul(c.tile.substr(slash + 2)) != c.splits) {  // clamped, and says so
        EXPECT_NE(plan.config().find("asked " + c.tile.substr(slash + 2)), std::string::npos) << plan.config();
    }
    // Integer data where the result must be exact (fp32, piecewise-linear activation): a lost or
    // double-counted split shows as any difference at all.
    const DataMode mode = requiresExact(c.desc, DataMode::Integer) ? DataMode::Integer : DataMode::Uniform;
    const auto r = runAndCheck(ctx(), c.desc, o, 5000 + uint64_t(GetParam()), mode);
    EXPECT_EQ(r.algorithm, kAlgo);
    EXPECT_TRUE(passed(r)) << "case " << c.name;
    RecordProperty("chosen", r.algorithm + " " + r.config);
}

INSTANTIATE_TEST_SUITE_P(splitk, SplitK, ::testing::Range(0, int(cases().size())), caseName);

class SplitKPlan : public VkconvTest {};

// The partials are added in a fixed order: the same plan on the same data gives the same bits.
TEST_F(SplitKPlan, splitk_Deterministic) {
    ConvDesc d = base();
    d.c = 32, d.hasBias = true, d.activation = Activation::Gelu;
    const vkconv::Plan plan = vkconv::Plan::create(ctx(), d, splitOptions("64x64x8/4x4/s7"));
    const ConvData data = makeConvData(d, 77, DataMode::Uniform);
    DeviceConv dev = uploadConv(ctx(), d, packConv(d, data), plan.workspaceSize());
    std::vector<float> first;
    for (int run = 0; run < 3; ++run) {
        poison(dev, d.dtype);
        plan.run(dev.tensors(d));
        std::vector<float> out = downloadOutput(d, dev.output);
        if (run == 0)
            first = out;
        else
            EXPECT_EQ(std::memcmp(first.data(), out.data(), first.size() * sizeof(float)), 0) << "run " << run;
    }
}

TEST_F(SplitKPlan, splitk_Declines) {
    auto declines = [&](const ConvDesc& d, const vkconv::PlanOptions& o, const std::string& mentions) {
        SCOPED_TRACE("tile '" + o.tile + "' workspaceLimit " + std::to_string(o.workspaceLimit) + " on " +
                     d.toString());
        try {
            vkconv::Plan::create(ctx(), d, o);
            ADD_FAILURE() << "accepted";
        } catch (const vkconv::Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
            EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
        }
    };
    const ConvDesc d = base();
    for (const char* bad : {"s0", "64x64x8/4x4/s", "64x64x8/4x4/s0", "nonsense/s2", "s2/64x64x8/4x4", "64x64x8/4x4/sx"})
        declines(d, splitOptions(bad), "tile");
    auto o = splitOptions("s2");
    o.workspaceLimit = 0;
    declines(d, o, "workspaceLimit");
    const VkDeviceSize perSplit = VkDeviceSize(d.outputElements()) * 4;
    o = splitOptions("64x64x8/4x4/s4");
    o.workspaceLimit = 3 * perSplit;
    declines(d, o, "workspaceLimit");
    o.workspaceLimit = 4 * perSplit;  // exactly enough
    EXPECT_NO_THROW(vkconv::Plan::create(ctx(), d, o));
    o = splitOptions("");  // the heuristic lowers its split to the limit, down to 1
    o.workspaceLimit = perSplit;
    EXPECT_EQ(vkconv::Plan::create(ctx(), d, o).workspaceSize(), perSplit);
    o.workspaceLimit = perSplit - 1;
    declines(d, o, "workspaceLimit");
    // Splits x output elements past 32-bit indexing (and, on small-range devices,
    // maxStorageBufferRange): declined by Plan::create before anything is allocated.
    // 1x1, 1024 channels in (128 slices of 8), 2^14 filters, 32x32: 2^24 output elements x 128.
    ConvDesc big;
    big.c = 1024, big.h = big.w = 32, big.k = int64_t(1) << 14;
    o = splitOptions("64x64x8/4x4/s128");
    o.workspaceLimit = ~VkDeviceSize(0);
    SCOPED_TRACE("2^24 output elements x 128 splits");
    try {
        vkconv::Plan::create(ctx(), big, o);
        ADD_FAILURE() << "accepted";
    } catch (const vkconv::Error& e) {
        const std::string what = e.what();
        EXPECT_EQ(e.code(), ErrorCode::Unsupported) << what;
        EXPECT_TRUE(what.find("32-bit") != std::string::npos || what.find("maxStorageBufferRange") != std::string::npos)
            << what;
    }
}

// ResNet-50 layer4's 3x3 at batch 1: 49 output pixels x 512 filters is a handful of tiles over a
// 4608-long reduction, so "auto" splits it, within PlanOptions::workspaceLimit only.
TEST_F(SplitKPlan, splitk_RouterPicksSplitKForResnetLayer4Batch1) {
    for (DType t : {DType::F32, DType::F16, DType::BF16}) {
        ConvDesc d = resnetLayer4();
        d.dtype = t;
        if (t != DType::F32) d.inputLayout = d.outputLayout = TensorLayout::NHWC, d.filterLayout = FilterLayout::KRSC;
        SCOPED_TRACE(d.toString());
        if (!vkconv::whyUnsupported(ctx(), d, "auto").empty()) continue;                  // dtype not on this device
        if (vkconv::whyUnsupported(ctx(), d, "implicit_gemm_coopmat").empty()) continue;  // matrix units win
        vkconv::PlanOptions o;
        const vkconv::Plan split = vkconv::Plan::create(ctx(), d, o);
        EXPECT_EQ(split.algorithm(), kAlgo) << split.config();
        EXPECT_GE(configSplit(split.config()), 2u) << split.config();
        EXPECT_GT(split.workspaceSize(), 0u);
        EXPECT_LE(split.workspaceSize(), o.workspaceLimit);
        const VkDeviceSize perSplit = VkDeviceSize(d.outputElements()) * 4;
        o.workspaceLimit = 0;  // no workspace: the one-pass kernel
        EXPECT_EQ(vkconv::Plan::create(ctx(), d, o).algorithm(), "implicit_gemm");
        o.workspaceLimit = 2 * perSplit - 1;  // not even 2 splits
        EXPECT_EQ(vkconv::Plan::create(ctx(), d, o).algorithm(), "implicit_gemm");
        o.workspaceLimit = 3 * perSplit;  // fewer splits than the heuristic wants, still worth it
        const vkconv::Plan few = vkconv::Plan::create(ctx(), d, o);
        EXPECT_EQ(few.algorithm(), kAlgo);
        EXPECT_LE(few.workspaceSize(), o.workspaceLimit) << few.config();
        EXPECT_GE(configSplit(few.config()), 2u) << few.config();
    }
    // And it runs correctly (fp32, through "auto").
    const auto r = runAndCheck(ctx(), resnetLayer4(), {}, 4444, DataMode::Uniform);
    EXPECT_EQ(r.algorithm, kAlgo);
    EXPECT_TRUE(passed(r));
}

// Where the output tiles fill the GPU, or the reduction is short, "auto" does not split.
// ResNet-50 layer4 at batch 32 (1568 pixels x 512 filters) splits too: its one-pass grids leave a
// ragged last wave, and split-K measured about 2x faster on the H200.  The
// stride-2 layer4.0.conv2 (the same output and reduction), which winograd cannot take: the
// stride-1 ones may go to winograd, whose GEMM the router plans the same way.
// Where the NCHW layer goes to the NHWC kernel behind a transpose (implicit_gemm_nhwc), its GEMM splits.
static bool splits(const vkconv::Plan& p) {
    return p.algorithm() == "implicit_gemm_splitk" ||
           (p.algorithm() == "implicit_gemm_nhwc" && p.config().find("implicit_gemm_splitk [") != std::string::npos);
}

TEST_F(SplitKPlan, splitk_RouterSplitsLayer4AtBatch32) {
    ConvDesc batch32 = resnetLayer4();
    batch32.n = 32, batch32.h = batch32.w = 14, batch32.strideH = batch32.strideW = 2;
    const vkconv::Plan p = vkconv::Plan::create(ctx(), batch32);
    EXPECT_TRUE(splits(p)) << p.algorithm() << " " << p.config();
}

// Underfilled grids split even on reductions of a few hundred: ResNet-50 layer1's 3x3 at batch 1
// (3136 pixels x 64 filters, reduction 576) and layer4's 1x1 512 -> 2048 (49 pixels, reduction
// 512) each ran about twice as fast in four splits as in one pass on the H200.  Where the device's
// model prefers it, layer1's 3x3 goes to winograd instead (faster still): never to the one pass.
TEST_F(SplitKPlan, splitk_RouterSplitsUnderfilledShallowReductions) {
    ConvDesc layer1;
    layer1.c = layer1.k = 64, layer1.h = layer1.w = 56, layer1.r = layer1.s = 3, layer1.pad(1, 1);
    ConvDesc expand;
    expand.c = 512, expand.k = 2048, expand.h = expand.w = 7;
    for (const ConvDesc& d : {layer1, expand}) {
        SCOPED_TRACE(d.toString());
        const vkconv::Plan p = vkconv::Plan::create(ctx(), d);
        if (d.r == 3 && p.algorithm() == "winograd") continue;
        EXPECT_TRUE(splits(p)) << p.algorithm() << " " << p.config();
    }
}

// Where the output tiles fill the GPU, or the reduction is short, "auto" does not split.
TEST_F(SplitKPlan, splitk_RouterKeepsOnePassElsewhere) {
    ConvDesc full;  // ResNet-50 layer1 3x3 at batch 32: 100352 pixels
    full.n = 32, full.c = full.k = 64, full.h = full.w = 56, full.r = full.s = 3, full.pad(1, 1);
    ConvDesc shallow;  // a 64-deep reduction (below kSplitMinReduction) on a small grid
    shallow.c = 64, shallow.k = 256, shallow.h = shallow.w = 14;
    for (const ConvDesc& d : {full, shallow}) {
        SCOPED_TRACE(d.toString());
        const std::string a = vkconv::Plan::create(ctx(), d).algorithm();
        if (d.r == 3 && a == "winograd") continue;  // the 3x3 may go to winograd, never to split-K
        EXPECT_EQ(a, "implicit_gemm");
    }
}

// Small grids of the 4-pixel 1x1 layers (fewer workgroups than 3/4 of the compute units; lavapipe
// reports none, so the model's 64): the 64x16 tile, one pass up to 128 deep, split from 192;
// a grid that fills the units keeps the model's tile.  (MobileNetV2 features.8 at batch 1.)
TEST_F(SplitKPlan, splitk_SmallGridsTakeTheSmallTile) {
    auto layer = [](int64_t c, int64_t k, int64_t hw) {
        ConvDesc d;
        d.c = c, d.k = k, d.h = d.w = hw;
        return d;
    };
    const vkconv::Plan shallow = vkconv::Plan::create(ctx(), layer(64, 384, 14), {});  // grid 2 x 6 at 128x64
    EXPECT_EQ(shallow.algorithm(), "implicit_gemm");
    EXPECT_NE(shallow.config().find("tile 64x16x8/4x4 vec4AmB"), std::string::npos) << shallow.config();
    const vkconv::Plan deep = vkconv::Plan::create(ctx(), layer(384, 64, 14), {});
    EXPECT_EQ(deep.algorithm(), kAlgo);
    EXPECT_NE(deep.config().find("tile 64x16x8/4x4 vec4AmB split"), std::string::npos) << deep.config();
    const vkconv::Plan wide = vkconv::Plan::create(ctx(), layer(64, 384, 112), {});  // 98 x 6 tiles: full
    EXPECT_EQ(wide.config().find("64x16x8/4x4"), std::string::npos) << wide.config();
    ConvDesc strided = layer(64, 384, 14);
    strided.strideH = strided.strideW = 2;  // scalar staging: the model's tile
    EXPECT_EQ(vkconv::Plan::create(ctx(), strided, {}).config().find("64x16x8/4x4"), std::string::npos);
    const auto r = runAndCheck(ctx(), layer(384, 64, 14), {}, 4545, DataMode::Integer);
    EXPECT_TRUE(passed(r)) << r.config;
}

// Outputs of at most 64K elements split down to 32 reduction values per split (their partials are
// small; MobileNetV2's batch-1 1x1 layers ran 0.6-0.8x with 6-16 splits against the 2-4 that 128
// per split allowed); larger outputs keep 128 per split.
TEST_F(SplitKPlan, splitk_SmallOutputsSplitFiner) {
    auto splits = [](const vkconv::Plan& p) {
        const std::string c = p.config();
        const size_t at = c.find(" split ");
        return at == std::string::npos ? 0 : std::stoi(c.substr(at + 7));
    };
    ConvDesc small;  // 384 deep, 14x14 x 64 = 12544 outputs: at most 3 splits at 128 per split
    small.c = 384, small.k = 64, small.h = small.w = 14;
    const vkconv::Plan p = vkconv::Plan::create(ctx(), small, {});
    EXPECT_GT(splits(p), 3) << p.algorithm() << " " << p.config();
    ConvDesc large = small;  // 28x28 x 128 = 100352 outputs
    large.k = 128, large.h = large.w = 28;
    const vkconv::Plan q = vkconv::Plan::create(ctx(), large, {});
    EXPECT_LE(splits(q), 3) << q.algorithm() << " " << q.config();
    const auto r = runAndCheck(ctx(), small, {}, 4546, DataMode::Integer);
    EXPECT_TRUE(passed(r)) << r.config;
}
