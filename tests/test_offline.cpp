// Device profiles and planning-only contexts: DeviceCaps::toJson -> fromJson keeps every field,
// a malformed profile names its field, Context::createOffline plans exactly as the device it
// describes (checked against this machine's own device) and refuses device work, and the fp16
// epilogue scratch follows the profile's accumulator types.  The recorded H200 profile's plans are
// checked against the device's in CI by bench/plans_check.sh.
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>

#include "environment.hpp"
#include "harness.hpp"
#include "util/test_hooks.hpp"
#include "vkconv/buffer.hpp"

using namespace vkt;
using vkconv::ConvDesc;
using vkconv::DType;
using vkconv::TensorLayout;

namespace {

// Replaces `"key":value` (value up to the next ',' or '}' outside brackets) in a compact JSON text.
std::string withField(const std::string& json, const std::string& key, const std::string& value) {
    const std::string k = "\"" + key + "\":";
    size_t at = json.find(k);
    EXPECT_NE(at, std::string::npos) << key;
    size_t b = at + k.size(), e = b;
    int depth = 0;
    for (; e < json.size(); ++e) {
        char ch = json[e];
        if (ch == '[' || ch == '{')
            ++depth;
        else if ((ch == ']' || ch == '}') && depth > 0)
            --depth;
        else if ((ch == ',' || ch == '}') && depth == 0)
            break;
    }
    return value.empty() ? json.substr(0, at) + json.substr(e + (json[e] == ',' ? 1 : 0))  // drop the field
                         : json.substr(0, b) + value + json.substr(e);
}

std::string errorOf(const std::function<void()>& f, vkconv::ErrorCode* code = nullptr) {
    try {
        f();
    } catch (const vkconv::Error& e) {
        if (code) *code = e.code();
        return e.what();
    }
    return "";
}

ConvDesc layer(int64_t n, int64_t c, int64_t hw, int64_t k, int64_t rs, int64_t stride, DType dt, TensorLayout lay) {
    ConvDesc d;
    d.n = n, d.c = c, d.h = d.w = hw, d.k = k, d.r = d.s = rs;
    d.pad(rs / 2, rs / 2);
    d.strideH = d.strideW = stride;
    d.dtype = dt;
    d.inputLayout = d.outputLayout = lay;
    d.filterLayout = lay == TensorLayout::NHWC ? vkconv::FilterLayout::KRSC : vkconv::FilterLayout::KCRS;
    return d;
}

// The H200's recorded profile (bench/profiles/nvidia_h200.json), "" where it cannot be read.
std::string h200ProfilePath() { return std::string(VKCONV_PROFILES_DIR) + "/nvidia_h200.json"; }
std::string h200Profile() {
    std::ifstream f(h200ProfilePath());
    std::stringstream text;
    text << f.rdbuf();
    return text.str();
}
// The emulated matrix products offer every configuration, whatever a profile says.
bool coopmatEmulated() { return vkconv::testHookOr("coopmat_emulate", false); }

}  // namespace

class OfflineTest : public VkconvTest {};

TEST_F(OfflineTest, ProfileRoundTripKeepsEveryField) {
    const auto& c = ctx().caps();
    const std::string json = c.toJson();
    const vkconv::DeviceCaps back = vkconv::DeviceCaps::fromJson(json);
    EXPECT_EQ(back.toJson(), json);
    EXPECT_EQ(back.toText(), c.toText());
    EXPECT_EQ(back.maxComputeWorkgroupSubgroups, c.maxComputeWorkgroupSubgroups);
    EXPECT_EQ(back.minStorageBufferOffsetAlignment, c.minStorageBufferOffsetAlignment);
    EXPECT_EQ(back.maxPushConstantsSize, c.maxPushConstantsSize);
    EXPECT_EQ(back.timestampMask, c.timestampMask);
    EXPECT_EQ(back.driverId, c.driverId);
    EXPECT_EQ(0, std::memcmp(back.pipelineCacheUUID, c.pipelineCacheUUID, VK_UUID_SIZE));
    ASSERT_EQ(back.coopMatConfigs.size(), c.coopMatConfigs.size());
    for (size_t i = 0; i < c.coopMatConfigs.size(); ++i)
        EXPECT_EQ(back.coopMatConfigs[i].toString(), c.coopMatConfigs[i].toString());
    // vkconv-info --json wraps the record: {"vkconv": {...}, "device": {...}}.
    EXPECT_EQ(vkconv::DeviceCaps::fromJson("{\"vkconv\":{},\"device\":" + json + "}").toJson(), json);
}

TEST_F(OfflineTest, CoopmatConfigsParseBack) {
    vkconv::DeviceCaps c = ctx().caps();
    vkconv::CoopMatConfig a;
    a.m = 16, a.n = 8, a.k = 16;
    a.a = a.b = VK_COMPONENT_TYPE_FLOAT16_KHR;
    a.c = a.result = VK_COMPONENT_TYPE_FLOAT32_KHR;
    a.scope = VK_SCOPE_SUBGROUP_KHR;
    vkconv::CoopMatConfig b = a;
    b.a = b.b = VK_COMPONENT_TYPE_SINT8_KHR;
    b.c = b.result = VK_COMPONENT_TYPE_SINT32_KHR;
    b.saturatingAccumulation = true;
    b.scope = VK_SCOPE_WORKGROUP_KHR;
    c.cooperativeMatrix = true;
    c.coopMatConfigs = {a, b};
    const auto back = vkconv::DeviceCaps::fromJson(c.toJson());
    ASSERT_EQ(back.coopMatConfigs.size(), 2u);
    EXPECT_EQ(back.coopMatConfigs[0].toString(), "16x8x16 f16*f16+f32->f32 subgroup");
    EXPECT_EQ(back.coopMatConfigs[1].toString(), "16x8x16 s8*s8+s32->s32 workgroup sat");
    EXPECT_EQ(back.coopMatConfigs[1].a, VK_COMPONENT_TYPE_SINT8_KHR);
    EXPECT_TRUE(back.coopMatConfigs[1].saturatingAccumulation);
}

TEST_F(OfflineTest, MalformedProfilesNameTheProblem) {
    const std::string json = ctx().caps().toJson();
    struct Case {
        const char* key;
        const char* value;
        const char* expect;
    } cases[] = {
        {"max_shared_memory", "", "'max_shared_memory' is missing"},
        {"compute_units", "\"40\"", "'compute_units' has the wrong type"},
        {"compute_units", "-1", "'compute_units' is not an integer"},
        {"max_workgroup_count", "[65535,65535]", "'max_workgroup_count' needs 3 values"},
        {"amd_arch", "\"RDNA9\"", "no known architecture: 'RDNA9'"},
        {"pipeline_cache_uuid", "\"00\"", "'pipeline_cache_uuid' needs 32 hex digits"},
        {"coopmat_configs", "[\"16x16 f16\"]", "coopmat config '16x16 f16'"},
        {"coopmat_configs", "[\"16x16x16 f17*f16+f32->f32 subgroup\"]", "unknown component type 'f17'"},
        {"subgroup_sizes", "[64,32]", "subgroup sizes are inconsistent"},
    };
    for (const auto& c : cases) {
        vkconv::ErrorCode code{};
        std::string what = errorOf([&] { (void)vkconv::DeviceCaps::fromJson(withField(json, c.key, c.value)); }, &code);
        EXPECT_EQ(code, vkconv::ErrorCode::InvalidArgument) << c.key << ": " << what;
        EXPECT_NE(what.find(c.expect), std::string::npos) << c.key << ": " << what;
        EXPECT_NE(what.find("vkconv-info --json"), std::string::npos) << what;
    }
    EXPECT_NE(errorOf([] { (void)vkconv::DeviceCaps::fromJson("{\"name\":"); }).find("not JSON"), std::string::npos);
    EXPECT_NE(errorOf([] { (void)vkconv::DeviceCaps::fromJson("[1,2]"); }).find("not a JSON object"),
              std::string::npos);
}

// The offline context plans what this machine's device plans, layer by layer, in every dtype
// and layout the device takes, with the routers' choice (auto) and each named algorithm.
TEST_F(OfflineTest, PlansMatchTheDeviceTheProfileCameFrom) {
    vkconv::Context offline = vkconv::Context::createOffline(vkconv::DeviceCaps::fromJson(ctx().caps().toJson()));
    EXPECT_TRUE(offline.offline());
    EXPECT_FALSE(ctx().offline());
    int compared = 0;
    for (DType dt : {DType::F32, DType::F16})
        for (TensorLayout lay : {TensorLayout::NCHW, TensorLayout::NHWC})
            for (const ConvDesc& d : {layer(1, 64, 56, 64, 3, 1, dt, lay), layer(2, 256, 14, 512, 1, 2, dt, lay),
                                      layer(1, 3, 112, 32, 7, 2, dt, lay)}) {
                for (const std::string& algo :
                     std::vector<std::string>{"auto", "implicit_gemm", "implicit_gemm_coopmat"}) {
                    if (!vkconv::whyUnsupported(ctx(), d, algo).empty()) {
                        EXPECT_FALSE(vkconv::whyUnsupported(offline, d, algo).empty()) << d.toString() << " " << algo;
                        continue;
                    }
                    vkconv::PlanOptions o;
                    o.algorithm = algo;
                    vkconv::Plan online = vkconv::Plan::create(ctx(), d, o);
                    vkconv::Plan planned = vkconv::Plan::create(offline, d, o);
                    EXPECT_EQ(planned.algorithm(), online.algorithm()) << d.toString() << " " << algo;
                    EXPECT_EQ(planned.config(), online.config()) << d.toString() << " " << algo;
                    EXPECT_EQ(planned.workspaceSize(), online.workspaceSize()) << d.toString() << " " << algo;
                    ++compared;
                }
            }
    EXPECT_GE(compared, 16);
}

TEST_F(OfflineTest, DeviceWorkThrowsAndNamesTheProfile) {
    vkconv::Context offline = vkconv::Context::createOffline(vkconv::DeviceCaps::fromJson(ctx().caps().toJson()));
    EXPECT_EQ(offline.device(), VK_NULL_HANDLE);
    EXPECT_EQ(offline.queue(), VK_NULL_HANDLE);
    EXPECT_FALSE(offline.ownsDevice());
    const ConvDesc d = layer(1, 16, 8, 16, 3, 1, DType::F32, TensorLayout::NCHW);
    vkconv::Plan plan = vkconv::Plan::create(offline, d);
    EXPECT_FALSE(plan.algorithm().empty());
    for (auto& f : std::vector<std::function<void()>>{[&] { (void)vkconv::Buffer::create(offline, 256); },
                                                      [&] { offline.submitAndWait([](VkCommandBuffer) {}); },
                                                      [&] { plan.record(VK_NULL_HANDLE, vkconv::ConvTensors{}); },
                                                      [&] { plan.run(vkconv::ConvTensors{}); }}) {
        vkconv::ErrorCode code{};
        std::string what = errorOf(f, &code);
        EXPECT_EQ(code, vkconv::ErrorCode::Unsupported) << what;
        EXPECT_NE(what.find("Context::createOffline"), std::string::npos) << what;
        EXPECT_NE(what.find(ctx().caps().deviceName), std::string::npos) << what;
    }
    offline.savePipelineCache();  // nothing to save: no throw
}

TEST_F(OfflineTest, ProfileLimitsStillRejectBadProblems) {
    vkconv::DeviceCaps caps = vkconv::DeviceCaps::fromJson(ctx().caps().toJson());
    caps.maxStorageBufferRange = uint64_t(1) << 20;  // a 1 MiB device
    caps.storageBuffer16BitAccess = false;
    vkconv::Context offline = vkconv::Context::createOffline(caps);
    vkconv::ErrorCode code{};
    std::string what = errorOf(
        [&] { (void)vkconv::Plan::create(offline, layer(1, 64, 128, 64, 3, 1, DType::F32, TensorLayout::NCHW)); },
        &code);
    EXPECT_EQ(code, vkconv::ErrorCode::IndexOverflow) << what;
    EXPECT_NE(what.find("maxStorageBufferRange"), std::string::npos) << what;
    what = errorOf(
        [&] { (void)vkconv::Plan::create(offline, layer(1, 8, 8, 8, 3, 1, DType::F16, TensorLayout::NHWC)); }, &code);
    EXPECT_EQ(code, vkconv::ErrorCode::Unsupported) << what;
    EXPECT_NE(what.find("storageBuffer16BitAccess"), std::string::npos) << what;

    vkconv::DeviceCaps empty;
    what = errorOf([&] { (void)vkconv::Context::createOffline(empty); }, &code);
    EXPECT_EQ(code, vkconv::ErrorCode::InvalidArgument) << what;
}

// The matrix kernels' fp16 epilogue scratch (" epi16") follows the profile: the H200's has the
// 16x16 f16+f16->f16 accumulator it converts to, so fp16 NHWC layers with nothing fused take it;
// a fused bias, an NCHW output or bf16 keep the fp32 scratch; and with the fp16-accumulator
// configurations taken out of the profile no plan asks for that type (it would be a validation
// error on such a device).
TEST_F(OfflineTest, HalfScratchFollowsTheProfilesAccumulators) {
    if (coopmatEmulated()) GTEST_SKIP() << "the emulation has every configuration";
    const std::string profile = h200Profile();
    ASSERT_FALSE(profile.empty()) << h200ProfilePath();
    vkconv::DeviceCaps caps = vkconv::DeviceCaps::fromJson(profile);
    vkconv::Context h200 = vkconv::Context::createOffline(caps);
    const ConvDesc d = layer(8, 64, 56, 64, 3, 1, DType::F16, TensorLayout::NHWC);
    ConvDesc pw = layer(8, 16, 56, 96, 1, 1, DType::F16, TensorLayout::NHWC);
    for (const char* algo : {"implicit_gemm_coopmat", "halo_coopmat"})
        if (const std::string why = vkconv::whyUnsupported(h200, d, algo); !why.empty())
            GTEST_SKIP() << algo << ": " << why;
    auto config = [](vkconv::Context& c, const ConvDesc& x, const char* algo) {
        vkconv::PlanOptions o;
        o.algorithm = algo;
        return vkconv::Plan::create(c, x, o).config();
    };
    auto epi16 = [&](vkconv::Context& c, const ConvDesc& x, const char* algo) {
        return config(c, x, algo).find(" epi16") != std::string::npos;
    };
    for (const char* algo : {"implicit_gemm_coopmat", "halo_coopmat"}) {
        EXPECT_TRUE(epi16(h200, d, algo)) << config(h200, d, algo);
        ConvDesc biased = d, nchwOut = d, bf = d;
        biased.hasBias = true;
        nchwOut.outputLayout = TensorLayout::NCHW;
        bf.dtype = DType::BF16;
        EXPECT_FALSE(epi16(h200, biased, algo)) << config(h200, biased, algo);
        EXPECT_FALSE(epi16(h200, nchwOut, algo)) << config(h200, nchwOut, algo);
        if (vkconv::whyUnsupported(h200, bf, algo).empty()) {
            EXPECT_FALSE(epi16(h200, bf, algo)) << config(h200, bf, algo);
        }
    }
    EXPECT_TRUE(epi16(h200, pw, "pointwise_coopmat")) << config(h200, pw, "pointwise_coopmat");

    std::erase_if(caps.coopMatConfigs,
                  [](const vkconv::CoopMatConfig& c) { return c.result == VK_COMPONENT_TYPE_FLOAT16_KHR; });
    ASSERT_FALSE(caps.coopMatConfigs.empty());
    vkconv::Context noHalfAccumulator = vkconv::Context::createOffline(caps);
    for (const char* algo : {"implicit_gemm_coopmat", "halo_coopmat"})
        EXPECT_FALSE(epi16(noHalfAccumulator, d, algo)) << config(noHalfAccumulator, d, algo);
    EXPECT_FALSE(epi16(noHalfAccumulator, pw, "pointwise_coopmat"))
        << config(noHalfAccumulator, pw, "pointwise_coopmat");
}

// bf16 winograd on the H200's profile: RetinaNet cls_50 at b1, where bf16 F(2x2) on bf16 operands
// is modelled cheaper than the scaled path but misses its 0.80 margin against the direct kernels,
// runs scaled F(2x2) (fp16 V and U, fp16's margins) rather than a direct kernel.
TEST_F(OfflineTest, Bf16WinogradFallsBackToTheScaledPath) {
    if (coopmatEmulated()) GTEST_SKIP() << "the emulation has every configuration";
    const std::string profile = h200Profile();
    ASSERT_FALSE(profile.empty()) << h200ProfilePath();
    vkconv::Context h200 = vkconv::Context::createOffline(vkconv::DeviceCaps::fromJson(profile));
    const ConvDesc cls50 = layer(1, 256, 50, 256, 3, 1, DType::BF16, TensorLayout::NHWC);
    const vkconv::Plan now = vkconv::Plan::create(h200, cls50);
    EXPECT_EQ(now.algorithm(), "winograd") << now.config();
    EXPECT_NE(now.config().find("F(2x2,3x3)"), std::string::npos) << now.config();
    EXPECT_NE(now.config().find(" scaled"), std::string::npos) << now.config();
}

// The matrix kernels' split count is refined between its power-of-two neighbours for the tile
// the model chose: ResNet-50 layer4.0.conv2 at b32 (26 tiles of 128x256 on
// 132 SMs) takes 5 splits, one wave, where powers of two gave 4; the tile stays, and so does the
// modelled cost winograd compares against (RetinaNet cls_50 bf16 b1 stays on winograd).
TEST_F(OfflineTest, CoopmatSplitCountFillsTheWave) {
    if (coopmatEmulated()) GTEST_SKIP() << "the emulation has every configuration";
    const std::string profile = h200Profile();
    ASSERT_FALSE(profile.empty()) << h200ProfilePath();
    vkconv::Context h200 = vkconv::Context::createOffline(vkconv::DeviceCaps::fromJson(profile));
    const ConvDesc l402 = layer(32, 512, 14, 512, 3, 2, DType::F16, TensorLayout::NHWC);
    const std::string now = vkconv::Plan::create(h200, l402).config();
    EXPECT_NE(now.find("tile 128x256x32/2x4s1 "), std::string::npos) << now;
    EXPECT_NE(now.find(" split 5 "), std::string::npos) << now;
    // A forced split is taken as asked.
    vkconv::PlanOptions forced;
    forced.algorithm = "implicit_gemm_coopmat";
    forced.tile = "128x256x32/2x4s1/s4";
    EXPECT_NE(vkconv::Plan::create(h200, l402, forced).config().find(" split 4 "), std::string::npos);
    const ConvDesc cls50 = layer(1, 256, 50, 256, 3, 1, DType::BF16, TensorLayout::NHWC);
    EXPECT_EQ(vkconv::Plan::create(h200, cls50).algorithm(), "winograd");
}

// A profile without bf16 cooperative matrices (RADV 25 on RDNA3): the matrix kernels decline bf16
// with the reason, and "auto" plans it on the scalar kernels.  This asked the offline context's
// missing instance whether an adopted device could enable them, and crashed (found by PlanFuzz).
TEST_F(OfflineTest, Bf16WithoutBf16MatricesDeclinesOffline) {
    if (coopmatEmulated()) GTEST_SKIP() << "the emulation has every configuration";
    std::ifstream in(std::string(VKCONV_PROFILES_DIR) + "/radv_null_navi31.json");
    std::stringstream text;
    text << in.rdbuf();
    ASSERT_FALSE(text.str().empty());
    vkconv::Context navi31 = vkconv::Context::createOffline(vkconv::DeviceCaps::fromJson(text.str()));
    ASSERT_FALSE(navi31.caps().bfloat16CooperativeMatrix);
    const ConvDesc d = layer(1, 64, 56, 64, 3, 1, DType::BF16, TensorLayout::NHWC);
    const std::string why = vkconv::whyUnsupported(navi31, d, "implicit_gemm_coopmat");
    EXPECT_NE(why.find("bf16"), std::string::npos) << why;  // the device, or a build without the bf16 shaders
    EXPECT_NE(vkconv::Plan::create(navi31, d).algorithm(), "implicit_gemm_coopmat");
    // fp16 takes the matrix units on the same profile.
    const ConvDesc h = layer(1, 64, 56, 64, 3, 1, DType::F16, TensorLayout::NHWC);
    EXPECT_EQ(vkconv::whyUnsupported(navi31, h, "implicit_gemm_coopmat"), "");
}
