// The backward passes and the transposed convolution: every algorithm of each pass on edge cases
// and a seeded sweep against the float64 references, the three passes' inner-product identities,
// bit-for-bit repeatability, and the named errors of invalid requests.
#include <gtest/gtest.h>
#include <vkconv/vkconv.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "support/environment.hpp"
#include "support/gradient_check.hpp"
#include "support/tensors.hpp"

namespace {

using vkconv::ConvDesc;
using vkconv::ConvPass;
using vkconv::ConvTransposeDesc;
using vkconv::DType;
using vkconv::ErrorCode;
using vkconv::PlanOptions;
using vkt::DataMode;
using vkt::gradientBase;
using vkt::squareTransposed;

// Edge cases of both gradients: stride above the kernel, output phases no tap reaches, dilation
// with stride, kernels wider than the input, groups and depthwise, every layout and dtype.
const std::vector<vkt::NamedDesc>& gradCases() {
    static const std::vector<vkt::NamedDesc> cases = vkt::editedCases(
        gradientBase(), {{"base", [](ConvDesc&) {}},
                 {"stride2", [](ConvDesc& d) { d.strideH = d.strideW = 2; }},
                 {"stride3_over_k2", [](ConvDesc& d) { d.r = d.s = 2, d.strideH = d.strideW = 3, d.pad(0, 0); }},
                 {"pointwise_stride2", [](ConvDesc& d) { d.r = d.s = 1, d.strideH = d.strideW = 2, d.pad(0, 0); }},
                 {"dilation2_stride2", [](ConvDesc& d) { d.dilationH = d.dilationW = 2, d.strideH = 2, d.pad(2, 2); }},
                 {"asym_pad", [](ConvDesc& d) { d.padTop = 0, d.padBottom = 2, d.padLeft = 2, d.padRight = 1; }},
                 {"kernel_over_input", [](ConvDesc& d) { d.h = 2, d.w = 3, d.r = d.s = 5, d.pad(2, 2); }},
                 {"k7_stride2_pad3", [](ConvDesc& d) { d.h = d.w = 13, d.r = d.s = 7, d.strideH = d.strideW = 2, d.pad(3, 3); }},
                 {"groups3", [](ConvDesc& d) { d.c = 6, d.k = 9, d.groups = 3; }},
                 {"depthwise", [](ConvDesc& d) { d.c = d.k = d.groups = 8; }},
                 {"depthwise_mult2_s2", [](ConvDesc& d) { d.c = 4, d.k = 8, d.groups = 4, d.strideH = d.strideW = 2; }},
                 {"pointwise", [](ConvDesc& d) { d.r = d.s = 1, d.pad(0, 0), d.c = 16, d.k = 24; }},
                 {"rect_1x7", [](ConvDesc& d) { d.r = 1, d.s = 7, d.padTop = d.padBottom = 0, d.padLeft = d.padRight = 3; }},
                 {"n1_odd", [](ConvDesc& d) { d.n = 1, d.c = 3, d.k = 7, d.h = 11, d.w = 5; }},
                 {"nhwc_krsc", [](ConvDesc& d) { vkt::setNhwcKrsc(d); }},
                 {"nhwc_s2", [](ConvDesc& d) { vkt::setNhwcKrsc(d), d.strideH = d.strideW = 2, d.c = 16, d.k = 8; }},
                 {"nchw_in_nhwc_out", [](ConvDesc& d) { d.outputLayout = vkconv::TensorLayout::NHWC; }},
                 {"f16_nhwc", [](ConvDesc& d) { vkt::setNhwcKrsc(d), d.dtype = DType::F16, d.c = 16, d.k = 16; }},
                 {"bf16_s2", [](ConvDesc& d) { d.dtype = DType::BF16, d.strideH = d.strideW = 2, d.c = 8; }},
                 {"f16_groups2_krsc", [](ConvDesc& d) { d.dtype = DType::F16, d.groups = 2, d.c = 8, d.k = 6,
                                                        d.filterLayout = vkconv::FilterLayout::KRSC; }},
                 {"bias", [](ConvDesc& d) { d.hasBias = true; }},
                 {"bias_f16_long", [](ConvDesc& d) { d.hasBias = true, d.dtype = DType::F16, d.n = 4, d.h = d.w = 20; }}});
    return cases;
}

// (case, pass, algorithm) for "auto" and the pass's direct reference; each faster kernel has its
// own edge cases, forced, in its test file (test_dgrad_kernels, test_wgrad_kernels).
std::vector<std::tuple<int, ConvPass, std::string>> gradParams() {
    std::vector<std::tuple<int, ConvPass, std::string>> v;
    for (ConvPass pass : {ConvPass::BackwardData, ConvPass::BackwardWeight}) {
        const std::vector<std::string> names = {"auto",
                                                pass == ConvPass::BackwardData ? "dgrad_direct" : "wgrad_direct"};
        for (int i = 0; i < int(gradCases().size()); ++i)
            for (const auto& a : names) v.emplace_back(i, pass, a);
    }
    return v;
}

vkt::GradCheck runPass(ConvPass pass, const ConvDesc& d, const PlanOptions& o, uint64_t seed, DataMode mode) {
    return pass == ConvPass::BackwardData ? vkt::checkDataGrad(d, o, seed, mode)
                                          : vkt::checkWeightGrad(d, o, seed, mode);
}

class GradientEdges : public vkt::VkconvParamTest<std::tuple<int, ConvPass, std::string>> {};

TEST_P(GradientEdges, MatchesReference) {
    const auto& [index, pass, algorithm] = GetParam();
    const ConvDesc& d = gradCases()[size_t(index)].desc;
    PlanOptions o;
    o.algorithm = algorithm;
    o.pass = pass;
    if (algorithm != "auto") {
        try {
            (void)vkconv::Plan::create(vkt::ctx(), d, o);
        } catch (const vkconv::Error& e) {
            ASSERT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
            GTEST_SKIP() << e.what();
        }
    }
    // Integer data: fp32 sums of small integers are exact, so any index error shows exactly.
    for (DataMode mode : {DataMode::Integer, DataMode::Uniform}) {
        EXPECT_TRUE(vkt::passed(runPass(pass, d, o, 11, mode)));
        PlanOptions acc = o;
        acc.accumulate = true;
        // A named algorithm may decline accumulate (dgrad_forward: the forward kernels overwrite).
        const vkt::GradCheck r = runPass(pass, d, acc, 12, mode);
        if (algorithm == "auto" || r.errorCode != ErrorCode::Unsupported) {
            EXPECT_TRUE(vkt::passed(r)) << "accumulate";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(All, GradientEdges, ::testing::ValuesIn(gradParams()), [](const auto& info) {
    return vkt::sanitizeName(gradCases()[size_t(std::get<0>(info.param))].name + "__" +
                             (std::get<1>(info.param) == ConvPass::BackwardData ? "data" : "weight") + "__" +
                             std::get<2>(info.param));
});

// Transposed convolutions of real decoders and their edge cases.
struct NamedTransposed {
    std::string name;
    ConvTransposeDesc desc;
};

const std::vector<NamedTransposed>& transposedCases() {
    static const std::vector<NamedTransposed> cases = [] {
        std::vector<NamedTransposed> v;
        auto add = [&](const char* name, ConvTransposeDesc t, void (*edit)(ConvTransposeDesc&)) {
            edit(t);
            v.push_back({name, t});
        };
        add("dcgan_first", squareTransposed(16, 8, 1, 4, 1, 0), [](ConvTransposeDesc&) {});
        add("dcgan_k4_s2", squareTransposed(8, 4, 5, 4, 2, 1), [](ConvTransposeDesc& t) { t.n = 2; });
        add("unet_k2_s2", squareTransposed(8, 4, 6, 2, 2, 0), [](ConvTransposeDesc& t) {
            t.hasBias = true;
            t.activation = vkconv::Activation::Relu;
        });
        add("fcn_k16_s8", squareTransposed(3, 3, 3, 16, 8, 4), [](ConvTransposeDesc&) {});
        add("opad1_s2", squareTransposed(6, 5, 5, 3, 2, 1),
            [](ConvTransposeDesc& t) { t.outputPaddingH = t.outputPaddingW = 1; });
        add("opad_above_stride", squareTransposed(4, 3, 4, 3, 1, 0), [](ConvTransposeDesc& t) {
            t.dilationH = 3, t.outputPaddingH = 2;  // output padding >= stride, < dilation
        });
        add("audio_k16_s8_h1", squareTransposed(8, 4, 1, 1, 1, 0),
            [](ConvTransposeDesc& t) { t.w = 9, t.kernelW = 16, t.strideW = 8, t.padLeft = t.padRight = 4; });
        add("groups2_res_silu_nhwc", squareTransposed(8, 6, 5, 3, 2, 1), [](ConvTransposeDesc& t) {
            t.groups = 2, t.hasResidual = true, t.hasBias = true, t.activation = vkconv::Activation::Silu;
            t.inputLayout = t.outputLayout = vkconv::TensorLayout::NHWC;
            t.filterLayout = vkconv::FilterLayout::KRSC;
        });
        add("depthwise_f16", squareTransposed(8, 8, 6, 3, 2, 1),
            [](ConvTransposeDesc& t) { t.groups = 8, t.dtype = DType::F16, t.outputPaddingH = 1; });
        add("bf16_asym_pad", squareTransposed(5, 7, 6, 4, 2, 0),
            [](ConvTransposeDesc& t) { t.dtype = DType::BF16, t.padTop = 2, t.padLeft = 1, t.hasBias = true; });
        return v;
    }();
    return cases;
}

class TransposedConv : public vkt::VkconvParamTest<std::tuple<int, std::string>> {};

TEST_P(TransposedConv, MatchesReference) {
    const auto& [index, algorithm] = GetParam();
    const ConvTransposeDesc& t = transposedCases()[size_t(index)].desc;
    PlanOptions o;
    o.algorithm = algorithm;
    if (algorithm != "auto") {
        try {
            (void)vkconv::Plan::create(vkt::ctx(), t, o);
        } catch (const vkconv::Error& e) {
            ASSERT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
            GTEST_SKIP() << e.what();
        }
    }
    for (DataMode mode : {DataMode::Integer, DataMode::Uniform})
        EXPECT_TRUE(vkt::passed(vkt::checkTransposed(t, o, 21, mode)));
    // Constant weights packed once (the original filter poisoned after packing).
    PlanOptions packed = o;
    packed.packedFilter = true;
    EXPECT_TRUE(vkt::passed(vkt::checkTransposed(t, packed, 22, DataMode::Uniform))) << "packed filter";
}

std::vector<std::tuple<int, std::string>> transposedParams() {
    std::vector<std::string> names = vkconv::algorithmNames(ConvPass::BackwardData);
    names.insert(names.begin(), "auto");
    std::vector<std::tuple<int, std::string>> v;
    for (int i = 0; i < int(transposedCases().size()); ++i)
        for (const auto& a : names) v.emplace_back(i, a);
    return v;
}

INSTANTIATE_TEST_SUITE_P(All, TransposedConv, ::testing::ValuesIn(transposedParams()), [](const auto& info) {
    return vkt::sanitizeName(transposedCases()[size_t(std::get<0>(info.param))].name + "__" + std::get<1>(info.param));
});

// Random descriptors through "auto" (whatever the router picks for them) and the pass's direct
// reference, on integer data for fp32 (exact) and uniform data otherwise.  200 per pass (fewer
// in CI's shards: gradientSweepCount); each
// faster kernel has its own seeded sweep beside its tests (test_dgrad_kernels, test_wgrad_kernels).
ConvDesc randomDesc(std::mt19937_64& rng) {
    auto pick = [&](int lo, int hi) { return int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
    for (;;) {
        ConvDesc d;
        d.n = pick(1, 3);
        d.groups = pick(0, 3) == 0 ? pick(2, 4) : 1;
        d.c = d.groups * pick(1, 6);
        d.k = d.groups * pick(1, 6);
        if (pick(0, 5) == 0) d.c = d.k = d.groups = pick(2, 8);  // depthwise
        d.h = pick(1, 12), d.w = pick(1, 12);
        d.r = pick(1, 5), d.s = pick(1, 5);
        d.strideH = pick(1, 3), d.strideW = pick(1, 3);
        d.dilationH = pick(1, 2), d.dilationW = pick(1, 2);
        d.padTop = pick(0, 3), d.padBottom = pick(0, 3), d.padLeft = pick(0, 3), d.padRight = pick(0, 3);
        d.dtype = DType(pick(0, 2));
        d.inputLayout = vkconv::TensorLayout(pick(0, 1));
        d.outputLayout = vkconv::TensorLayout(pick(0, 1));
        d.filterLayout = vkconv::FilterLayout(pick(0, 1));
        d.hasBias = pick(0, 2) == 0;
        try {
            d.validate();
            return d;
        } catch (const vkconv::Error&) {}
    }
}

class GradientSweep : public vkt::VkconvParamTest<ConvPass> {};

TEST_P(GradientSweep, EveryAlgorithmMatchesReference) {
    const ConvPass pass = GetParam();
    std::mt19937_64 rng(pass == ConvPass::BackwardData ? 0x6472 : 0x7772);
    const int count = vkt::gradientSweepCount(200);
    std::map<std::string, int> ran;
    for (int i = 0; i < count; ++i) {
        const ConvDesc d = randomDesc(rng);
        const DataMode mode = d.dtype == DType::F32 ? DataMode::Integer : DataMode::Uniform;
        for (const std::string a : {"auto", pass == ConvPass::BackwardData ? "dgrad_direct" : "wgrad_direct"}) {
            PlanOptions o;
            o.algorithm = a;
            o.pass = pass;
            o.accumulate = i % 5 == 0;
            const vkt::GradCheck r = runPass(pass, d, o, uint64_t(i), mode);
            if (r.errorCode == ErrorCode::Unsupported) continue;
            ++ran[a];
            ASSERT_TRUE(vkt::passed(r)) << "sweep case " << i;
        }
    }
    for (const auto& [a, n] : ran) RecordProperty(a, n);
    EXPECT_EQ(ran["auto"], count);
}

INSTANTIATE_TEST_SUITE_P(Random, GradientSweep, ::testing::Values(ConvPass::BackwardData, ConvPass::BackwardWeight),
                         [](const auto& info) { return info.param == ConvPass::BackwardData ? "data" : "weight"; });

// The passes agree with each other: for y = conv(x, w) and any dy,
// <dy, y> = <dx, x> = <dw, w>, with dx and dw from the GPU's backward passes and y from its
// forward pass, on one set of random data.
TEST(GradientIdentity, InnerProductsAgree) {
    std::mt19937_64 rng(0x1d);
    for (int i = 0; i < 12; ++i) {
        ConvDesc d = randomDesc(rng);
        d.hasBias = false;
        const auto x = vkt::randomTensor(size_t(d.inputElements()), d.dtype, 100 + i, DataMode::Uniform);
        const auto w = vkt::randomTensor(size_t(d.filterElements()), d.dtype, 200 + i, DataMode::Uniform);
        const auto dy = vkt::randomTensor(size_t(d.outputElements()), d.dtype, 300 + i, DataMode::Uniform);
        auto up = [&](const std::vector<float>& v, const vkt::Dims& dims, bool last) {
            const auto bytes = vkt::pack(v, dims, last, d.dtype);
            auto b = vkconv::Buffer::create(vkt::ctx(), (bytes.size() + 3) / 4 * 4);
            b.upload(bytes.data(), bytes.size());
            return b;
        };
        const bool xl = d.inputLayout == vkconv::TensorLayout::NHWC, yl = d.outputLayout == vkconv::TensorLayout::NHWC,
                   wl = d.filterLayout == vkconv::FilterLayout::KRSC;
        auto xb = up(x, vkt::inputDims(d), xl), wb = up(w, vkt::filterDims(d), wl),
             dyb = up(dy, vkt::outputDims(d), yl);
        auto yb = vkconv::Buffer::create(vkt::ctx(), (size_t(d.outputBytes()) + 3) / 4 * 4);
        auto dxb = vkconv::Buffer::create(vkt::ctx(), (size_t(d.inputBytes()) + 3) / 4 * 4);
        auto dwb = vkconv::Buffer::create(vkt::ctx(), (size_t(d.filterBytes()) + 3) / 4 * 4);
        auto withWorkspace = [&](const vkconv::Plan& p, auto& tensors, vkconv::Buffer& ws) {
            if (p.workspaceSize()) {
                ws = vkconv::Buffer::create(vkt::ctx(), p.workspaceSize());
                tensors.workspace = ws.view(0, p.workspaceSize());
            }
        };
        vkconv::Buffer ws1, ws2, ws3;
        PlanOptions o;
        const auto fwd = vkconv::Plan::create(vkt::ctx(), d, o);
        vkconv::ConvTensors ft{
            xb.view(0, d.inputBytes()), wb.view(0, d.filterBytes()), {}, {}, yb.view(0, d.outputBytes()), {}};
        withWorkspace(fwd, ft, ws1);
        fwd.run(ft);
        o.pass = ConvPass::BackwardData;
        const auto bd = vkconv::Plan::create(vkt::ctx(), d, o);
        vkconv::BackwardDataTensors dt{
            dyb.view(0, d.outputBytes()), wb.view(0, d.filterBytes()), dxb.view(0, d.inputBytes()), {}};
        withWorkspace(bd, dt, ws2);
        bd.run(dt);
        o.pass = ConvPass::BackwardWeight;
        const auto bw = vkconv::Plan::create(vkt::ctx(), d, o);
        vkconv::BackwardWeightTensors wt{
            xb.view(0, d.inputBytes()), dyb.view(0, d.outputBytes()), dwb.view(0, d.filterBytes()), {}, {}};
        withWorkspace(bw, wt, ws3);
        bw.run(wt);
        auto down = [&](const vkconv::Buffer& b, const vkt::Dims& dims, bool last) {
            std::vector<uint8_t> bytes(size_t(dims[0] * dims[1] * dims[2] * dims[3]) * vkconv::dtypeSize(d.dtype));
            b.download(bytes.data(), bytes.size());
            return vkt::unpack(bytes.data(), dims, last, d.dtype);
        };
        const auto y = down(yb, vkt::outputDims(d), yl), dx = down(dxb, vkt::inputDims(d), xl),
                   dw = down(dwb, vkt::filterDims(d), wl);
        auto dot = [](const std::vector<float>& a, const std::vector<float>& b, double& abs) {
            double s = 0;
            abs = 0;
            for (size_t j = 0; j < a.size(); ++j) s += double(a[j]) * b[j], abs += std::fabs(double(a[j]) * b[j]);
            return s;
        };
        double a1, a2, a3;
        const double yy = dot(dy, y, a1), xx = dot(dx, x, a2), ww = dot(dw, w, a3);
        // Each side rounds every gradient element once to the storage type and sums in fp32
        // before that: the bound is the storage spacing (plus fp32 sums) of the magnitudes.
        const double u = d.dtype == DType::F32   ? std::ldexp(1.0, -20)
                         : d.dtype == DType::F16 ? std::ldexp(1.0, -9)
                                                 : std::ldexp(1.0, -6);
        double absAll = 0;
        {
            // sum |dy| |x| |w| over every product: bounds each side's rounding of intermediate values.
            std::vector<double> ref, abs;
            vkt::referenceDataGrad(d, d.outH(), d.outW(), dy, w, ref, abs);
            for (size_t j = 0; j < abs.size(); ++j) absAll += abs[j] * std::fabs(x[j]);
        }
        const double tol = u * (absAll + a1 + a2 + a3);
        EXPECT_NEAR(yy, xx, tol) << d.toString();
        EXPECT_NEAR(yy, ww, tol) << d.toString();
        EXPECT_NEAR(xx, ww, tol) << d.toString();
    }
}

// The same inputs give the same bits: no floating-point atomics, no order that depends on
// scheduling.
TEST(GradientDeterminism, RepeatedRunsAreBitIdentical) {
    ConvDesc d = gradientBase();
    d.n = 4, d.c = 16, d.k = 16, d.h = d.w = 24, d.hasBias = true, d.dtype = DType::F16;
    for (ConvPass pass : {ConvPass::BackwardData, ConvPass::BackwardWeight})
        for (const std::string a : {"auto", pass == ConvPass::BackwardData ? "dgrad_direct" : "wgrad_direct"}) {
            PlanOptions o;
            o.algorithm = a, o.pass = pass;
            std::vector<float> first;
            for (int run = 0; run < 3; ++run) {
                // Same seed: the same data each run.
                const vkt::GradCheck r = runPass(pass, d, o, 5, DataMode::Uniform);
                if (r.errorCode == ErrorCode::Unsupported) break;
                ASSERT_TRUE(vkt::passed(r));
                if (run == 0) first = {float(r.worst.gpu), float(r.worst.index)};
                EXPECT_EQ(first, (std::vector<float>{float(r.worst.gpu), float(r.worst.index)})) << a;
            }
        }
}

// find times each backward pass's algorithms, and "auto" then runs the recorded winner.
class GradientFind : public vkt::VkconvTest {};

TEST_F(GradientFind, TimesThePassAndAutoRunsItsWinner) {
    vkt::TempDir dir("vkconv_grad_find_");
    auto info = vkt::testContextInfo();
    info.pipelineCacheDir = dir.path.string();
    vkconv::Context c = vkconv::Context::create(info);
    vkconv::FindOptions quick;
    quick.rounds = 2, quick.warmupMs = 0, quick.minIntervalUs = 0;
    ConvDesc d = gradientBase();
    d.hasBias = true;
    for (ConvPass pass : {ConvPass::BackwardData, ConvPass::BackwardWeight}) {
        PlanOptions o;
        o.pass = pass;
        const auto ranked = vkconv::findAlgorithms(c, d, o, quick);
        ASSERT_FALSE(ranked.empty());
        bool router = false;
        for (const auto& r : ranked) {
            EXPECT_TRUE(r.error.empty()) << r.algorithm << ": " << r.error;
            EXPECT_GT(r.microseconds, 0.0) << r.algorithm;
            EXPECT_EQ(r.options.pass, pass);
            const auto names = vkconv::algorithmNames(pass);
            EXPECT_NE(std::find(names.begin(), names.end(), r.algorithm), names.end()) << r.algorithm;
            router |= r.router;
        }
        EXPECT_TRUE(router);
        const vkconv::Plan p = vkconv::Plan::create(c, d, o);
        EXPECT_EQ(p.explain().chosenBy, "find database");
        EXPECT_EQ(p.algorithm() + " " + p.config(), ranked.front().algorithm + " " + ranked.front().config);
        EXPECT_EQ(p.pass(), pass);
        PlanOptions other = o;
        other.accumulate = true;  // another key: nothing recorded for it
        EXPECT_EQ(vkconv::Plan::create(c, d, other).explain().chosenBy, "router");
    }

    // A transposed convolution's records are its own: its epilogue and its output padding are part
    // of the key, and the backward-data pass of its convDesc() does not read them.
    ConvTransposeDesc t = squareTransposed(6, 5, 5, 3, 2, 1);
    t.outputPaddingH = 1, t.hasBias = true, t.activation = vkconv::Activation::Relu;
    const auto ranked = vkconv::findAlgorithms(c, t, {}, quick);
    ASSERT_FALSE(ranked.empty());
    for (const auto& r : ranked) {
        EXPECT_TRUE(r.error.empty()) << r.algorithm << ": " << r.error;
        EXPECT_EQ(r.algorithm.rfind("dgrad_", 0), 0u) << r.algorithm;
        EXPECT_EQ(r.options.pass, ConvPass::BackwardData);
    }
    const vkconv::Plan p = vkconv::Plan::create(c, t);
    EXPECT_EQ(p.explain().chosenBy, "find database");
    EXPECT_TRUE(p.transposed());
    EXPECT_EQ(p.algorithm() + " " + p.config(), ranked.front().algorithm + " " + ranked.front().config);
    const vkconv::Plan found = vkconv::findPlan(c, t, {}, quick);
    EXPECT_TRUE(found.transposed());
    EXPECT_EQ(found.algorithm() + " " + found.config(), p.algorithm() + " " + p.config());
    ConvTransposeDesc plain = t;
    plain.activation = vkconv::Activation::None;
    EXPECT_EQ(vkconv::Plan::create(c, plain).explain().chosenBy, "router");
    PlanOptions data;
    data.pass = ConvPass::BackwardData;
    EXPECT_EQ(vkconv::Plan::create(c, t.convDesc(), data).explain().chosenBy, "router");
    PlanOptions weight;
    weight.pass = ConvPass::BackwardWeight;
    EXPECT_THROW((void)vkconv::findAlgorithms(c, t, weight, quick), vkconv::Error);
}

}  // namespace
