// PlanOptions::packedFilter (constant weights): the filter packed once by Plan::packFilter, then
// read by every call.  Each case runs forced (or routed) with the packed filter on integer and
// uniform data against the float64 reference, the original filter poisoned after packing
// (harness.cpp), and bit for bit against the same plan without packing on the same data; the
// packed form is winograd's transformed filters, coopmat_nhwc's / implicit_gemm_nhwc's KRSC
// transpose, or a copy; the workspace loses what moved into the packed filter; misuse is an error
// that names it.  (Sweep runs every accepting algorithm with packed filters on half its cases.)
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

enum class Packing { Transform, Transpose, Copy };  // what the packed filter is

struct PackedCase {
    std::string name;
    ConvDesc desc;
    std::string algorithm, tile;
    Packing packing;
    VkDeviceSize workspaceLimit = 0;  // 0: the default
    std::string configHas;            // expected in the packed plan's configuration
};

void nhwc(ConvDesc& d) {
    d.inputLayout = d.outputLayout = TensorLayout::NHWC;
    d.filterLayout = FilterLayout::KRSC;
}

std::vector<PackedCase> makeCases() {
    std::vector<PackedCase> v;
    ConvDesc d;
    d.c = 16, d.h = 9, d.w = 11, d.k = 12, d.r = d.s = 3;
    d.pad(1, 1);
    ConvDesc b = d;
    b.hasBias = true, b.activation = Activation::Relu;
    v.push_back({"winograd_f2_fp32_kcrs_bias_relu", b, "winograd", "2x2", Packing::Transform, 0, "U packed"});
    ConvDesc g = d;
    g.n = 2, g.c = 32, g.k = 8, g.groups = 4, nhwc(g);
    v.push_back({"winograd_f4_fp32_grouped_nhwc", g, "winograd", "4x4", Packing::Transform, 0, "U packed"});
    ConvDesc ch = d;
    ch.h = ch.w = 29;  // 225 F(2x2) tiles, at most 64 per chunk: U stays outside the chunks' workspace
    v.push_back({"winograd_f2_chunked", ch, "winograd", "2x2", Packing::Transform, 2 * 256 + 64 * 16 * (16 + 12) * 4,
                 "chunks of 57"});
    ConvDesc h = d;
    h.n = 2, h.c = h.k = 32, h.h = h.w = 12, h.dtype = DType::F16, h.hasResidual = true, nhwc(h);
    v.push_back({"winograd_f4_fp16_nhwc_residual", h, "winograd", "4x4", Packing::Transform, 0, "U packed"});
    ConvDesc bf = d;
    bf.c = bf.k = 32, bf.dtype = DType::BF16;
    v.push_back({"winograd_f4_bf16_nchw_kcrs", bf, "winograd", "4x4", Packing::Transform, 0, "U packed"});
    // 16-bit NCHW behind the transposes: the KRSC transpose packed, or winograd's own U.
    ConvDesc n16 = d;
    n16.c = n16.k = 32, n16.h = n16.w = 12, n16.dtype = DType::F16, n16.hasBias = true;
    v.push_back({"coopmat_nhwc_igemm_fp16_kcrs", n16, "coopmat_nhwc", "implicit_gemm_coopmat", Packing::Transpose, 0,
                 "KCRS->KRSC packed"});
    v.push_back(
        {"coopmat_nhwc_winograd_fp16_kcrs", n16, "coopmat_nhwc", "winograd:4x4", Packing::Transform, 0, "U packed"});
    ConvDesc s2 = d;
    s2.c = 16, s2.k = 24, s2.h = s2.w = 14, s2.strideH = s2.strideW = 2;
    v.push_back(
        {"implicit_gemm_nhwc_fp32_kcrs_s2", s2, "implicit_gemm_nhwc", "", Packing::Transpose, 0, "KCRS->KRSC packed"});
    ConvDesc p1 = s2;
    p1.r = p1.s = 1, p1.pad(0, 0);  // one tap: KCRS is KRSC, nothing to transpose
    v.push_back({"implicit_gemm_nhwc_fp32_1x1_copy", p1, "implicit_gemm_nhwc", "", Packing::Copy, 0, ""});
    ConvDesc odd = d;
    odd.c = 7, odd.k = 5, odd.dtype = DType::F16;  // 315 filter elements: a copy of an odd count of 16-bit values
    v.push_back({"implicit_gemm_fp16_odd_copy", odd, "implicit_gemm", "", Packing::Copy, 0, ""});
    ConvDesc db = d;
    db.dtype = DType::BF16, db.hasBias = true, db.activation = Activation::Silu;
    v.push_back({"direct_bf16_copy", db, "direct", "", Packing::Copy, 0, ""});
    ConvDesc dw = d;
    dw.c = dw.k = dw.groups = 24, nhwc(dw);
    v.push_back({"depthwise_fp32_nhwc_copy", dw, "depthwise", "", Packing::Copy, 0, ""});
    ConvDesc sk = d;
    sk.c = 256, sk.h = sk.w = 4, sk.k = 16;
    v.push_back({"implicit_gemm_splitk_fp32_copy", sk, "implicit_gemm_splitk", "s4", Packing::Copy, 0, ""});
    return v;
}

const std::vector<PackedCase>& cases() {
    static const auto v = makeCases();
    return v;
}

std::string caseName(const ::testing::TestParamInfo<int>& info) {
    return sanitizeName(cases()[size_t(info.param)].name);
}

vkconv::PlanOptions options(const PackedCase& c, bool packed) {
    vkconv::PlanOptions o;
    o.algorithm = c.algorithm;
    o.tile = c.tile;
    if (c.workspaceLimit) o.workspaceLimit = c.workspaceLimit;
    o.packedFilter = packed;
    return o;
}

// The output bytes of `plan` on `data`, reading the filter packed (packed plans) or as given.
std::vector<uint8_t> outputBytes(const vkconv::Plan& plan, const ConvDesc& d, const ConvData& data) {
    DeviceConv dev = uploadConv(ctx(), d, packConv(d, data), plan.workspaceSize());
    poison(dev, d.dtype);
    vkconv::ConvTensors t = dev.tensors(d);
    const vkconv::Buffer packed = packFilterInto(ctx(), plan, dev, t, d.dtype);
    plan.run(t);
    plan.run(t);  // a second call reads the same packed filter
    std::vector<uint8_t> out(size_t(d.outputBytes()));
    dev.output.download(out.data(), out.size());
    return out;
}

}  // namespace

class PackedFilter : public VkconvParamTest<int> {};

TEST_P(PackedFilter, MatchesReferenceAndUnpacked) {
    const auto& c = cases()[size_t(GetParam())];
    if (c.desc.dtype != DType::F32 && !ctx().caps().storageBuffer16BitAccess)
        GTEST_SKIP() << "no 16-bit storage on this device";
    const std::string why = planDeclines(ctx(), c.desc, options(c, false));
    if (!why.empty())
        GTEST_SKIP() << c.algorithm << " '" << c.tile << "' declines " << c.desc.toString() << ": " << why;
    const vkconv::Plan plain = vkconv::Plan::create(ctx(), c.desc, options(c, false));
    const vkconv::Plan packed = vkconv::Plan::create(ctx(), c.desc, options(c, true));
    // bf16 winograd on the matrix units: the unpacked plan scales fp16 V, U and M where the packed
    // one keeps bf16 V and U (algo_winograd.cpp winogradScaled), so neither the workspaces nor the
    // bits compare; each is checked against the reference.
    const bool sameOperands = plain.config().find(" scaled") == std::string::npos;
    EXPECT_EQ(plain.packedFilterSize(), 0u);
    EXPECT_EQ(packed.algorithm(), plain.algorithm());
    if (!c.configHas.empty()) {
        EXPECT_NE(packed.config().find(c.configHas), std::string::npos) << packed.config();
    }
    EXPECT_EQ(packed.config().find("packed") != std::string::npos, c.packing != Packing::Copy) << packed.config();
    EXPECT_EQ(plain.config().find("packed"), std::string::npos) << plain.config();
    switch (c.packing) {
        case Packing::Transform:  // U: (m+2)^2 x K x C/groups values, more than the filter's 9
            EXPECT_GT(packed.packedFilterSize(), VkDeviceSize(c.desc.filterBytes()));
            if (sameOperands) {
                EXPECT_LE(packed.workspaceSize() + packed.packedFilterSize(), plain.workspaceSize()) << packed.config();
            }
            break;
        case Packing::Transpose:
            EXPECT_EQ(packed.packedFilterSize(), VkDeviceSize(c.desc.filterBytes()));
            EXPECT_LE(packed.workspaceSize() + packed.packedFilterSize(), plain.workspaceSize()) << packed.config();
            break;
        case Packing::Copy:
            EXPECT_EQ(packed.packedFilterSize(), VkDeviceSize(c.desc.filterBytes()));
            EXPECT_EQ(packed.workspaceSize(), plain.workspaceSize());
            break;
    }
    const auto rs = checkIntegerThenUniform(ctx(), c.desc, options(c, true), 9100 + uint64_t(GetParam()), c.name);
    for (const auto& r : rs) EXPECT_EQ(r.algorithm, plain.algorithm());
    // The same plan with and without packing: the same bits (the pack runs the per-call pass once).
    if (!sameOperands) return;
    const ConvData data = makeConvData(c.desc, 9200 + uint64_t(GetParam()), DataMode::Uniform);
    EXPECT_EQ(outputBytes(packed, c.desc, data), outputBytes(plain, c.desc, data)) << packed.config();
}

INSTANTIATE_TEST_SUITE_P(packed, PackedFilter, ::testing::Range(0, int(cases().size())), caseName);

class PackedFilterApi : public VkconvTest {};

// "auto" with packed filters on 3x3 layers winograd may take: correct whichever it picks.
TEST_F(PackedFilterApi, AutoRoutes) {
    for (DType t : {DType::F32, DType::F16}) {
        for (bool channelsLast : {false, true}) {
            if (t != DType::F32 && !ctx().caps().storageBuffer16BitAccess) continue;
            ConvDesc d;
            d.n = 2, d.c = d.k = 64, d.h = d.w = 20, d.r = d.s = 3, d.dtype = t, d.hasBias = true;
            d.pad(1, 1);
            if (channelsLast) nhwc(d);
            vkconv::PlanOptions o;
            o.packedFilter = true;
            const auto r = runAndCheck(ctx(), d, o, 9300, DataMode::Uniform);
            EXPECT_TRUE(passed(r)) << d.toString();
            RecordProperty("chosen_" + d.toString(), r.algorithm + " " + r.config);
        }
    }
}

TEST_F(PackedFilterApi, MisuseIsAnError) {
    ConvDesc d;
    d.c = 16, d.h = d.w = 10, d.k = 16, d.r = d.s = 3;
    d.pad(1, 1);
    auto filter = vkconv::Buffer::create(ctx(), VkDeviceSize(d.filterBytes()));
    auto big = vkconv::Buffer::create(ctx(), VkDeviceSize(1) << 20);
    auto expectError = [](auto f, ErrorCode code, const std::string& mentions) {
        try {
            f();
            ADD_FAILURE() << "no error (expected one naming '" << mentions << "')";
        } catch (const vkconv::Error& e) {
            EXPECT_EQ(e.code(), code) << e.what();
            EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
        }
    };
    const vkconv::Plan plain = vkconv::Plan::create(ctx(), d, vkconv::PlanOptions{"winograd", 0, "4x4"});
    EXPECT_EQ(plain.packedFilterSize(), 0u);
    expectError([&] { plain.packFilter(filter.view(), big.view()); }, ErrorCode::InvalidArgument, "packedFilter");
    vkconv::PlanOptions o{"winograd", 0, "4x4"};
    o.packedFilter = true;
    const vkconv::Plan p = vkconv::Plan::create(ctx(), d, o);
    const VkDeviceSize n = p.packedFilterSize();
    ASSERT_GT(n, VkDeviceSize(d.filterBytes()));
    expectError([&] { p.packFilter(filter.view(), big.view(0, n - 4)); }, ErrorCode::BufferTooSmall, "packed filter");
    expectError([&] { p.packFilter(filter.view(0, VkDeviceSize(d.filterBytes()) - 4), big.view(0, n)); },
                ErrorCode::BufferTooSmall, "filter");
    expectError([&] { p.packFilter(big.view(0, VkDeviceSize(d.filterBytes())), big.view(0, n)); },
                ErrorCode::InvalidArgument, "overlaps");
    // record() with the unpacked filter (smaller than the packed one) where a packed one is due.
    auto in = vkconv::Buffer::create(ctx(), VkDeviceSize(d.inputBytes()));
    auto out = vkconv::Buffer::create(ctx(), VkDeviceSize(d.outputBytes()));
    auto ws = vkconv::Buffer::create(ctx(), std::max<VkDeviceSize>(p.workspaceSize(), 4));
    vkconv::ConvTensors t;
    t.input = in.view(), t.filter = filter.view(), t.output = out.view(), t.workspace = ws.view(0, p.workspaceSize());
    expectError([&] { p.run(t); }, ErrorCode::BufferTooSmall, "packed filter");
}
