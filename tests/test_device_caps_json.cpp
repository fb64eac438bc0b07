// Device profiles as untrusted input: DeviceCaps::toJson -> fromJson gives back the same caps
// (the recorded profiles and synthetic extremes), and every malformed profile (not JSON,
// truncated, nested too deep, a field missing, of the wrong type or out of range) throws
// vkconv::Error(InvalidArgument) whose message names the problem.  No device needed.
#include <gtest/gtest.h>

#include <cfloat>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "vkconv/device_caps.hpp"
#include "vkconv/error.hpp"

namespace {

using Json = nlohmann::ordered_json;

std::string readFile(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream text;
    text << f.rdbuf();
    return text.str();
}

// fromJson's error message ("" when it accepts the text); fails the test on any other exception.
std::string errorOf(const std::string& text, vkconv::ErrorCode* code = nullptr) {
    try {
        (void)vkconv::DeviceCaps::fromJson(text);
    } catch (const vkconv::Error& e) {
        if (code) *code = e.code();
        return e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "not a vkconv::Error: " << e.what();
        return e.what();
    }
    return "";
}

// Every field of the caps, so that a round trip that drops one fails here.
void expectSameCaps(const vkconv::DeviceCaps& a, const vkconv::DeviceCaps& b) {
    EXPECT_EQ(a.deviceName, b.deviceName);
    EXPECT_EQ(a.vendorId, b.vendorId);
    EXPECT_EQ(a.deviceId, b.deviceId);
    EXPECT_EQ(a.deviceType, b.deviceType);
    EXPECT_EQ(a.driverName, b.driverName);
    EXPECT_EQ(a.driverInfo, b.driverInfo);
    EXPECT_EQ(a.driverId, b.driverId);
    EXPECT_EQ(a.driverVersion, b.driverVersion);
    EXPECT_EQ(a.apiVersion, b.apiVersion);
    EXPECT_EQ(0, std::memcmp(a.pipelineCacheUUID, b.pipelineCacheUUID, VK_UUID_SIZE));
    EXPECT_EQ(a.amdArch, b.amdArch);
    EXPECT_EQ(a.subgroupSize, b.subgroupSize);
    EXPECT_EQ(a.minSubgroupSize, b.minSubgroupSize);
    EXPECT_EQ(a.maxSubgroupSize, b.maxSubgroupSize);
    EXPECT_EQ(a.subgroupSizeControl, b.subgroupSizeControl);
    EXPECT_EQ(a.computeFullSubgroups, b.computeFullSubgroups);
    EXPECT_EQ(a.maxComputeWorkgroupSubgroups, b.maxComputeWorkgroupSubgroups);
    EXPECT_EQ(a.maxSharedMemory, b.maxSharedMemory);
    EXPECT_EQ(a.maxWorkgroupInvocations, b.maxWorkgroupInvocations);
    EXPECT_EQ(a.computeUnits, b.computeUnits);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(a.maxWorkgroupSize[i], b.maxWorkgroupSize[i]);
        EXPECT_EQ(a.maxWorkgroupCount[i], b.maxWorkgroupCount[i]);
    }
    EXPECT_EQ(a.maxStorageBufferRange, b.maxStorageBufferRange);
    EXPECT_EQ(a.maxPushConstantsSize, b.maxPushConstantsSize);
    EXPECT_EQ(a.minStorageBufferOffsetAlignment, b.minStorageBufferOffsetAlignment);
    EXPECT_EQ(a.shaderFloat16, b.shaderFloat16);
    EXPECT_EQ(a.shaderInt8, b.shaderInt8);
    EXPECT_EQ(a.shaderInt16, b.shaderInt16);
    EXPECT_EQ(a.shaderInt64, b.shaderInt64);
    EXPECT_EQ(a.storageBuffer16BitAccess, b.storageBuffer16BitAccess);
    EXPECT_EQ(a.storageBuffer8BitAccess, b.storageBuffer8BitAccess);
    EXPECT_EQ(a.bfloat16Type, b.bfloat16Type);
    EXPECT_EQ(a.bfloat16CooperativeMatrix, b.bfloat16CooperativeMatrix);
    EXPECT_EQ(a.subgroupArithmetic, b.subgroupArithmetic);
    EXPECT_EQ(a.subgroupShuffle, b.subgroupShuffle);
    EXPECT_EQ(a.vulkanMemoryModel, b.vulkanMemoryModel);
    EXPECT_EQ(a.cooperativeMatrix, b.cooperativeMatrix);
    ASSERT_EQ(a.coopMatConfigs.size(), b.coopMatConfigs.size());
    for (size_t i = 0; i < a.coopMatConfigs.size(); ++i) {
        const auto &x = a.coopMatConfigs[i], &y = b.coopMatConfigs[i];
        EXPECT_EQ(x.toString(), y.toString());
        EXPECT_TRUE(x.m == y.m && x.n == y.n && x.k == y.k && x.a == y.a && x.b == y.b && x.c == y.c &&
                    x.result == y.result && x.scope == y.scope && x.saturatingAccumulation == y.saturatingAccumulation)
            << x.toString();
    }
    EXPECT_EQ(a.timestamps, b.timestamps);
    EXPECT_EQ(a.timestampPeriod, b.timestampPeriod);  // exactly: the float's shortest decimal reads back
    EXPECT_EQ(a.timestampValidBits, b.timestampValidBits);
    EXPECT_EQ(a.timestampMask, b.timestampMask);
    EXPECT_EQ(a.pushDescriptor, b.pushDescriptor);
    EXPECT_EQ(a.pipelineExecutableInfo, b.pipelineExecutableInfo);
    EXPECT_EQ(a.shaderClock, b.shaderClock);
    EXPECT_EQ(a.toText(), b.toText());
}

// Caps with values at the edges of their types and strings that need escaping.
vkconv::DeviceCaps extremeCaps() {
    vkconv::DeviceCaps c;
    c.deviceName = "Quote \" backslash \\ tab \t newline \n bell \x07 \xc3\xa9\xe2\x82\xac";
    c.vendorId = 0xFFFFFFFFu;
    c.deviceId = 0;
    c.deviceType = VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
    c.driverName = "driver/with/slashes";
    c.driverInfo = "";
    c.driverId = VK_DRIVER_ID_MESA_RADV;
    c.driverVersion = 0xFFFFFFFFu;
    c.apiVersion = VK_MAKE_API_VERSION(0, 1, 4, 305);
    for (uint8_t i = 0; i < VK_UUID_SIZE; ++i) c.pipelineCacheUUID[i] = uint8_t(i * 17 + 3);
    c.amdArch = vkconv::AmdArch::RDNA3;
    c.subgroupSize = 64, c.minSubgroupSize = 32, c.maxSubgroupSize = 64;
    c.subgroupSizeControl = true;
    c.maxComputeWorkgroupSubgroups = 16;
    c.maxSharedMemory = 65536, c.maxWorkgroupInvocations = 1024, c.computeUnits = 96;
    c.maxWorkgroupSize[0] = 1024, c.maxWorkgroupSize[1] = 1024, c.maxWorkgroupSize[2] = 1024;
    c.maxWorkgroupCount[0] = 0xFFFFFFFFu, c.maxWorkgroupCount[1] = 65535, c.maxWorkgroupCount[2] = 65535;
    c.maxStorageBufferRange = ~0ull;  // exact only as an integer: as a double it would be 2^64
    c.maxPushConstantsSize = 256, c.minStorageBufferOffsetAlignment = 4;
    c.shaderFloat16 = c.shaderInt8 = c.storageBuffer16BitAccess = c.bfloat16Type = c.vulkanMemoryModel = true;
    c.cooperativeMatrix = true;
    vkconv::CoopMatConfig cm;
    cm.m = 16, cm.n = 16, cm.k = 16;
    cm.a = cm.b = VK_COMPONENT_TYPE_FLOAT16_KHR;
    cm.c = cm.result = VK_COMPONENT_TYPE_FLOAT32_KHR;
    cm.scope = VK_SCOPE_SUBGROUP_KHR;
    c.coopMatConfigs.push_back(cm);
    cm.a = cm.b = VK_COMPONENT_TYPE_SINT8_KHR;
    cm.c = cm.result = VK_COMPONENT_TYPE_SINT32_KHR;
    cm.saturatingAccumulation = true;
    cm.scope = VK_SCOPE_WORKGROUP_KHR;
    c.coopMatConfigs.push_back(cm);
    c.timestamps = true;
    c.timestampPeriod = 52.083332f;  // needs more than 6 digits to read back as the same float
    c.timestampValidBits = 64;
    c.timestampMask = ~0ull;
    c.pushDescriptor = c.shaderClock = true;
    return c;
}

// The keys fromJson requires (the informational "vendor", "driver", "api_version" and the
// optional "shader_clock" aside).
const char* const kRequired[] = {"name",
                                 "vendor_id",
                                 "device_id",
                                 "driver_name",
                                 "driver_info",
                                 "driver_id",
                                 "driver_version_raw",
                                 "api_version_raw",
                                 "type",
                                 "pipeline_cache_uuid",
                                 "amd_arch",
                                 "subgroup_size",
                                 "subgroup_sizes",
                                 "subgroup_size_control",
                                 "compute_full_subgroups",
                                 "max_compute_workgroup_subgroups",
                                 "compute_units",
                                 "max_shared_memory",
                                 "max_workgroup_invocations",
                                 "max_workgroup_size",
                                 "max_workgroup_count",
                                 "max_storage_buffer_range",
                                 "max_push_constants_size",
                                 "min_storage_buffer_offset_alignment",
                                 "shader_float16",
                                 "storage_buffer_16bit",
                                 "shader_int8",
                                 "storage_buffer_8bit",
                                 "shader_int16",
                                 "shader_int64",
                                 "bfloat16_type",
                                 "bfloat16_coopmat",
                                 "subgroup_arithmetic",
                                 "subgroup_shuffle",
                                 "vulkan_memory_model",
                                 "push_descriptor",
                                 "pipeline_executable_info",
                                 "timestamps",
                                 "timestamp_period_ns",
                                 "timestamp_valid_bits",
                                 "coopmat",
                                 "coopmat_configs"};

// The profile with one field set to `value` (JSON text).
std::string withField(const char* key, const std::string& value) {
    Json j = Json::parse(extremeCaps().toJson());
    j[key] = Json::parse(value);
    return j.dump();
}

}  // namespace

TEST(DeviceCapsJson, RecordedProfilesRoundTrip) {
    int profiles = 0;
    for (const auto& entry : std::filesystem::directory_iterator(VKCONV_PROFILES_DIR)) {
        if (entry.path().extension() != ".json") continue;
        SCOPED_TRACE(entry.path().string());
        ++profiles;
        const vkconv::DeviceCaps recorded = vkconv::DeviceCaps::fromJson(readFile(entry.path()));
        const std::string json = recorded.toJson();
        const vkconv::DeviceCaps back = vkconv::DeviceCaps::fromJson(json);
        expectSameCaps(recorded, back);
        EXPECT_EQ(back.toJson(), json);
        // The record is compact JSON whose keys keep toJson's order.
        const Json parsed = Json::parse(json);
        EXPECT_EQ(parsed.dump(), json);
        EXPECT_EQ(parsed.begin().key(), "name");
    }
    EXPECT_GE(profiles, 4);
}

TEST(DeviceCapsJson, ExtremeValuesRoundTrip) {
    const vkconv::DeviceCaps c = extremeCaps();
    const std::string json = c.toJson();
    const vkconv::DeviceCaps back = vkconv::DeviceCaps::fromJson(json);
    expectSameCaps(c, back);
    EXPECT_EQ(back.toJson(), json);
    EXPECT_NE(json.find("\"max_storage_buffer_range\":18446744073709551615"), std::string::npos) << json;
    EXPECT_NE(json.find("\"timestamp_period_ns\":52.083332"), std::string::npos) << json;
    // vkconv-info --json wraps the record: {"vkconv": {...}, "device": {...}}.
    expectSameCaps(c, vkconv::DeviceCaps::fromJson("{\"vkconv\":{\"version\":\"0\"},\"device\":" + json + "}"));
    // No period (RADV's null device) is written as null and read back as 0.
    vkconv::DeviceCaps none = c;
    none.timestampPeriod = 0;
    expectSameCaps(none, vkconv::DeviceCaps::fromJson(withField("timestamp_period_ns", "null")));
    // An integer written as a double with no fraction (another tool's profile) is that integer.
    EXPECT_EQ(vkconv::DeviceCaps::fromJson(withField("compute_units", "96.0")).computeUnits, 96u);
    // shader_clock is optional (older profiles lack it).
    Json j = Json::parse(json);
    j.erase("shader_clock");
    EXPECT_FALSE(vkconv::DeviceCaps::fromJson(j.dump()).shaderClock);
}

TEST(DeviceCapsJson, MissingFieldsAreNamed) {
    for (const char* key : kRequired) {
        Json j = Json::parse(extremeCaps().toJson());
        ASSERT_EQ(j.erase(key), 1u) << key;
        vkconv::ErrorCode code{};
        const std::string what = errorOf(j.dump(), &code);
        EXPECT_EQ(code, vkconv::ErrorCode::InvalidArgument) << key << ": " << what;
        EXPECT_NE(what.find(std::string("'") + key + "'"), std::string::npos) << key << ": " << what;
        EXPECT_NE(what.find("missing"), std::string::npos) << key << ": " << what;
    }
}

TEST(DeviceCapsJson, WrongTypesAreNamed) {
    // Each of an object, a string, an array and a boolean is the wrong type for every field but
    // those of its own type (where it may be accepted: an empty coopmat_configs, any device name).
    const Json good = Json::parse(extremeCaps().toJson());
    for (const char* key : kRequired) {
        for (const char* value : {"{}", "\"7\"", "[]", "true"}) {
            const std::string what = errorOf(withField(key, value));
            if (what.empty()) {
                EXPECT_STREQ(Json::parse(value).type_name(), good[key].type_name())
                    << key << " = " << value << " was accepted";
                continue;
            }
            EXPECT_NE(what.find(std::string("'") + key + "'"), std::string::npos)
                << key << " = " << value << ": " << what;
        }
    }
    EXPECT_NE(errorOf(withField("shader_clock", "1")).find("'shader_clock' has the wrong type"), std::string::npos);
    EXPECT_NE(errorOf(withField("coopmat_configs", "[1]")).find("'coopmat_configs' holds a number"), std::string::npos);
    EXPECT_NE(errorOf(withField("max_workgroup_size", "[1,2,\"3\"]")).find("'max_workgroup_size' holds a value"),
              std::string::npos);
    EXPECT_NE(errorOf(withField("subgroup_sizes", "[null,64]")).find("'subgroup_sizes' holds a value"),
              std::string::npos);
}

TEST(DeviceCapsJson, OutOfRangeValuesAreNamed) {
    struct Case {
        const char* key;
        const char* value;
        const char* expect;
    } cases[] = {
        {"compute_units", "-1", "'compute_units' is not an integer in range"},
        {"max_shared_memory", "-65536", "'max_shared_memory' is not an integer in range"},
        {"max_shared_memory", "4294967296", "'max_shared_memory' is not an integer in range"},
        {"vendor_id", "1e300", "'vendor_id' is not an integer in range"},
        {"subgroup_size", "32.5", "'subgroup_size' is not an integer in range"},
        {"max_storage_buffer_range", "18446744073709551616", "'max_storage_buffer_range' is not an integer in range"},
        {"max_storage_buffer_range", "-1", "'max_storage_buffer_range' is not an integer in range"},
        {"max_workgroup_count", "[65535,-1,65535]", "'max_workgroup_count' holds a value that is not an integer"},
        {"max_workgroup_size", "[1024,1024,1e12]", "'max_workgroup_size' holds a value that is not an integer"},
        {"max_workgroup_count", "[65535,65535]", "'max_workgroup_count' needs 3 values"},
        {"subgroup_sizes", "[32,64,128]", "'subgroup_sizes' needs 2 values"},
        {"subgroup_sizes", "[8,-8]", "'subgroup_sizes' holds a value that is not an integer"},
        {"subgroup_sizes", "[64,32]", "subgroup sizes are inconsistent"},
        {"subgroup_size", "0", "subgroup sizes are inconsistent"},
        {"timestamp_period_ns", "-1", "'timestamp_period_ns' is out of range"},
        {"timestamp_period_ns", "1e39", "'timestamp_period_ns' is out of range"},
        {"timestamp_period_ns", "\"1\"", "'timestamp_period_ns' is missing or not a number"},
        {"timestamp_valid_bits", "65", "'timestamp_valid_bits' is out of range"},
        {"amd_arch", "\"RDNA9\"", "no known architecture: 'RDNA9'"},
        {"pipeline_cache_uuid", "\"00\"", "'pipeline_cache_uuid' needs 32 hex digits"},
        {"pipeline_cache_uuid", "\"0z0102030405060708090a0b0c0d0e0f\"", "'pipeline_cache_uuid' needs 32 hex digits"},
        {"coopmat_configs", "[\"16x16 f16\"]", "coopmat config '16x16 f16'"},
        {"coopmat_configs", "[\"16x16x16 f17*f16+f32->f32 subgroup\"]", "unknown component type 'f17'"},
        {"coopmat_configs", "[\"16x16x16 f16*f16+f32->f32 galaxy\"]", "unknown scope 'galaxy'"},
        {"coopmat_configs", "[\"0x16x16 f16*f16+f32->f32 subgroup\"]", "is not 'MxNxK a*b+c->r scope'"},
    };
    for (const auto& c : cases) {
        vkconv::ErrorCode code{};
        const std::string what = errorOf(withField(c.key, c.value), &code);
        EXPECT_EQ(code, vkconv::ErrorCode::InvalidArgument) << c.key << " = " << c.value << ": " << what;
        EXPECT_NE(what.find(c.expect), std::string::npos) << c.key << " = " << c.value << ": " << what;
        EXPECT_NE(what.find("device profile"), std::string::npos) << what;
    }
}

TEST(DeviceCapsJson, TextThatIsNotAProfile) {
    const std::string good = extremeCaps().toJson();
    auto expectError = [](const std::string& text, const std::string& expect) {
        vkconv::ErrorCode code{};
        const std::string what = errorOf(text, &code);
        EXPECT_EQ(code, vkconv::ErrorCode::InvalidArgument) << text.substr(0, 80) << ": " << what;
        EXPECT_NE(what.find(expect), std::string::npos) << text.substr(0, 80) << ": " << what;
    };
    expectError("", "not JSON");
    expectError("device profile", "not JSON");
    expectError(good + "x", "not JSON");
    expectError(good + good, "not JSON");
    expectError("{\"name\":", "not JSON");
    std::string nan = good;
    const size_t units = nan.find("\"compute_units\":") + 16;
    nan.replace(units, nan.find(',', units) - units, "NaN");
    expectError(nan, "not JSON");
    expectError("{\"compute_units\":Infinity}", "not JSON");
    expectError("{\"compute_units\":1e400}", "number overflow");
    expectError("{\"name\":\"\xff\"}", "not JSON");     // not UTF-8
    expectError("{\"name\":\"\\ud800\"}", "not JSON");  // a lone surrogate
    expectError("[1,2]", "not a JSON object");
    expectError("null", "not a JSON object");
    expectError("42", "not a JSON object");
    expectError("\"profile\"", "not a JSON object");
    expectError("{\"device\":5}", "not a JSON object");
    expectError("{\"device\":[]}", "not a JSON object");
    expectError("{}", "'name' is missing");
    // Every truncation of a good profile: an error, never a crash or another exception.
    for (size_t n = 0; n < good.size(); ++n) {
        const std::string what = errorOf(good.substr(0, n));
        ASSERT_NE(what.find("device profile"), std::string::npos) << n << ": " << what;
    }
}

TEST(DeviceCapsJson, DeepNestingIsRejected) {
    const std::string deep = "nesting deeper than 64 levels";
    // 30,000 levels, closed, unclosed, as the document and as a field's value, arrays and objects.
    EXPECT_NE(errorOf(std::string(30000, '[') + std::string(30000, ']')).find(deep), std::string::npos);
    EXPECT_NE(errorOf(std::string(30000, '[')).find(deep), std::string::npos);
    std::string objects;
    for (int i = 0; i < 30000; ++i) objects += "{\"a\":";
    EXPECT_NE(errorOf(objects).find(deep), std::string::npos);
    std::string inField = extremeCaps().toJson();
    inField.insert(inField.find("\"coopmat_configs\":") + 18, std::string(30000, '['));
    EXPECT_NE(errorOf(inField).find(deep), std::string::npos);
    // The limit is 64 levels: 64 parse (and are not a profile), 65 do not.
    EXPECT_NE(errorOf(std::string(64, '[') + std::string(64, ']')).find("not a JSON object"), std::string::npos);
    EXPECT_NE(errorOf(std::string(65, '[') + std::string(65, ']')).find(deep), std::string::npos);
}

// Random byte edits of a good profile: each is read or rejected with a vkconv::Error, nothing else.
TEST(DeviceCapsJson, RandomEditsNeverEscapeAsOtherErrors) {
    const std::string good = extremeCaps().toJson();
    std::mt19937 rng(12345);
    const char alphabet[] = "{}[]\",:0123456789-+.eE \\tfalsenul\x01\x80";
    int rejected = 0;
    for (int i = 0; i < 3000; ++i) {
        std::string text = good;
        for (int edits = 1 + int(rng() % 3); edits > 0; --edits) {
            size_t at = rng() % text.size();
            switch (rng() % 3) {
                case 0: text[at] = alphabet[rng() % (sizeof alphabet - 1)]; break;
                case 1: text.erase(at, 1 + rng() % 8); break;
                default: text.insert(at, 1, alphabet[rng() % (sizeof alphabet - 1)]);
            }
            if (text.empty()) text = "{";
        }
        rejected += !errorOf(text).empty();  // errorOf fails the test on anything but vkconv::Error
    }
    EXPECT_GT(rejected, 500);
}
