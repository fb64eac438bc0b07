// DeviceCaps::fromJson: a device profile (what `vkconv-info --json` or DeviceCaps::toJson wrote)
// read back, for planning-only contexts (Context::createOffline).  Every field a router or a
// pipeline check reads is required, so an old record fails with the field's name rather than
// planning for a device with zeroed limits.
#include <cstdio>
#include <cstring>

#include "util/json_read.hpp"
#include "runtime/vk_compat.hpp"
#include "vkconv/device_caps.hpp"
#include "vkconv/error.hpp"

namespace vkconv {

const char* componentName(uint32_t t);  // device_caps_format.cpp (a VkComponentTypeKHR value)

namespace {

[[noreturn]] void bad(const std::string& what) {
    throw Error(ErrorCode::InvalidArgument, "device profile: " + what +
                                                " (record the profile with this version's `vkconv-info --json`)");
}

class Reader {
public:
    explicit Reader(const JsonValue& o) : o_(o) {}
    const JsonValue& need(const char* key, JsonValue::Type type) const {
        const JsonValue* v = o_.get(key);
        if (!v) bad(std::string("field '") + key + "' is missing");
        if (v->type != type) bad(std::string("field '") + key + "' has the wrong type");
        return *v;
    }
    uint64_t u64(const char* key, uint64_t max) const {
        double d = need(key, JsonValue::Type::Number).number;
        if (!(d >= 0) || d > double(max) || d != double(uint64_t(d))) bad(std::string("field '") + key + "' is not an integer in range");
        return uint64_t(d);
    }
    uint32_t u32(const char* key) const { return uint32_t(u64(key, 0xFFFFFFFFull)); }
    bool flag(const char* key) const { return need(key, JsonValue::Type::Bool).boolean; }
    std::string str(const char* key) const { return need(key, JsonValue::Type::String).string; }
    void u32x3(const char* key, uint32_t (&out)[3]) const {
        const auto& a = need(key, JsonValue::Type::Array).array;
        if (a.size() != 3) bad(std::string("field '") + key + "' needs 3 values");
        for (size_t i = 0; i < 3; ++i) {
            if (a[i].type != JsonValue::Type::Number || a[i].number < 0 || a[i].number > 4294967295.0)
                bad(std::string("field '") + key + "' holds a value out of range");
            out[i] = uint32_t(a[i].number);
        }
    }

private:
    const JsonValue& o_;
};

VkComponentTypeKHR componentFromName(const std::string& name, const std::string& config) {
    // Every name componentName() writes, by trying the enum values it knows.
    const int candidates[] = {VK_COMPONENT_TYPE_FLOAT16_KHR, VK_COMPONENT_TYPE_FLOAT32_KHR, VK_COMPONENT_TYPE_FLOAT64_KHR,
                              VK_COMPONENT_TYPE_SINT8_KHR,   VK_COMPONENT_TYPE_SINT16_KHR,  VK_COMPONENT_TYPE_SINT32_KHR,
                              VK_COMPONENT_TYPE_SINT64_KHR,  VK_COMPONENT_TYPE_UINT8_KHR,   VK_COMPONENT_TYPE_UINT16_KHR,
                              VK_COMPONENT_TYPE_UINT32_KHR,  VK_COMPONENT_TYPE_UINT64_KHR,  int(VK_COMPONENT_TYPE_BFLOAT16_KHR),
                              1000491002,                    1000491003};
    for (int c : candidates)
        if (name == componentName(uint32_t(c))) return VkComponentTypeKHR(c);
    bad("coopmat config '" + config + "': unknown component type '" + name + "'");
}

// "16x16x16 f16*f16+f32->f32 subgroup[ sat]", as CoopMatConfig::toString writes it.
CoopMatConfig parseConfig(const std::string& text) {
    CoopMatConfig cm;
    char a[16], b[16], c[16], r[16], scope[16], sat[8] = "";
    int n = std::sscanf(text.c_str(), "%ux%ux%u %15[^*]*%15[^+]+%15[^-]->%15s %15s %7s", &cm.m, &cm.n, &cm.k, a, b, c, r, scope, sat);
    if (n < 8 || cm.m == 0 || cm.n == 0 || cm.k == 0) bad("coopmat config '" + text + "' is not 'MxNxK a*b+c->r scope'");
    cm.a = componentFromName(a, text);
    cm.b = componentFromName(b, text);
    cm.c = componentFromName(c, text);
    cm.result = componentFromName(r, text);
    if (!std::strcmp(scope, "subgroup")) cm.scope = VK_SCOPE_SUBGROUP_KHR;
    else if (!std::strcmp(scope, "workgroup")) cm.scope = VK_SCOPE_WORKGROUP_KHR;
    else bad("coopmat config '" + text + "': unknown scope '" + scope + "'");
    cm.saturatingAccumulation = n == 9 && !std::strcmp(sat, "sat");
    return cm;
}

}  // namespace

DeviceCaps DeviceCaps::fromJson(const std::string& text) {
    std::string err;
    auto doc = parseJson(text, &err);
    if (!doc) bad("not JSON: " + err);
    // vkconv-info --json wraps the record as {"vkconv": ..., "device": {...}}.
    const JsonValue* obj = doc->get("device") ? doc->get("device") : &*doc;
    if (obj->type != JsonValue::Type::Object) bad("not a JSON object");
    Reader in(*obj);
    DeviceCaps c;
    c.deviceName = in.str("name");
    c.vendorId = in.u32("vendor_id");
    c.deviceId = in.u32("device_id");
    c.driverName = in.str("driver_name");
    c.driverInfo = in.str("driver_info");
    c.driverId = VkDriverId(in.u32("driver_id"));
    c.driverVersion = in.u32("driver_version_raw");
    c.apiVersion = in.u32("api_version_raw");
    const std::string type = in.str("type");
    c.deviceType = type == "discrete"     ? VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU
                   : type == "integrated" ? VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU
                   : type == "virtual"    ? VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU
                   : type == "cpu"        ? VK_PHYSICAL_DEVICE_TYPE_CPU
                                          : VK_PHYSICAL_DEVICE_TYPE_OTHER;
    const std::string uuid = in.str("pipeline_cache_uuid");
    if (uuid.size() != 2 * VK_UUID_SIZE) bad("field 'pipeline_cache_uuid' needs 32 hex digits");
    for (size_t i = 0; i < VK_UUID_SIZE; ++i) {
        unsigned byte = 0;
        if (std::sscanf(uuid.c_str() + 2 * i, "%2x", &byte) != 1) bad("field 'pipeline_cache_uuid' needs 32 hex digits");
        c.pipelineCacheUUID[i] = uint8_t(byte);
    }
    const JsonValue* arch = obj->get("amd_arch");
    if (!arch) bad("field 'amd_arch' is missing");
    if (arch->type == JsonValue::Type::String) {
        bool known = false;
        for (AmdArch a : {AmdArch::GCN, AmdArch::RDNA1, AmdArch::RDNA2, AmdArch::RDNA3, AmdArch::RDNA4})
            if (arch->string == vkconv::toString(a)) c.amdArch = a, known = true;
        if (!known) bad("field 'amd_arch' names no known architecture: '" + arch->string + "'");
    } else if (arch->type != JsonValue::Type::Null) {
        bad("field 'amd_arch' has the wrong type");
    }

    c.subgroupSize = in.u32("subgroup_size");
    const auto& range = in.need("subgroup_sizes", JsonValue::Type::Array).array;
    if (range.size() != 2 || range[0].type != JsonValue::Type::Number || range[1].type != JsonValue::Type::Number)
        bad("field 'subgroup_sizes' needs [min, max]");
    c.minSubgroupSize = uint32_t(range[0].number);
    c.maxSubgroupSize = uint32_t(range[1].number);
    c.subgroupSizeControl = in.flag("subgroup_size_control");
    c.computeFullSubgroups = in.flag("compute_full_subgroups");
    c.maxComputeWorkgroupSubgroups = in.u32("max_compute_workgroup_subgroups");
    c.computeUnits = in.u32("compute_units");
    c.maxSharedMemory = in.u32("max_shared_memory");
    c.maxWorkgroupInvocations = in.u32("max_workgroup_invocations");
    in.u32x3("max_workgroup_size", c.maxWorkgroupSize);
    in.u32x3("max_workgroup_count", c.maxWorkgroupCount);
    c.maxStorageBufferRange = in.u64("max_storage_buffer_range", ~0ull);
    c.maxPushConstantsSize = in.u32("max_push_constants_size");
    c.minStorageBufferOffsetAlignment = in.u32("min_storage_buffer_offset_alignment");

    c.shaderFloat16 = in.flag("shader_float16");
    c.storageBuffer16BitAccess = in.flag("storage_buffer_16bit");
    c.shaderInt8 = in.flag("shader_int8");
    c.storageBuffer8BitAccess = in.flag("storage_buffer_8bit");
    c.shaderInt16 = in.flag("shader_int16");
    c.shaderInt64 = in.flag("shader_int64");
    c.bfloat16Type = in.flag("bfloat16_type");
    c.bfloat16CooperativeMatrix = in.flag("bfloat16_coopmat");
    c.subgroupArithmetic = in.flag("subgroup_arithmetic");
    c.subgroupShuffle = in.flag("subgroup_shuffle");
    c.vulkanMemoryModel = in.flag("vulkan_memory_model");
    c.pushDescriptor = in.flag("push_descriptor");
    c.pipelineExecutableInfo = in.flag("pipeline_executable_info");
    // Optional (profiles written before it was reported lack it); nothing offline reads clocks.
    if (const JsonValue* sc = obj->get("shader_clock"); sc && sc->type == JsonValue::Type::Bool) c.shaderClock = sc->boolean;
    c.timestamps = in.flag("timestamps");
    // null where the driver reports no finite period (RADV's null device).
    const JsonValue* period = obj->get("timestamp_period_ns");
    if (!period || (period->type != JsonValue::Type::Number && period->type != JsonValue::Type::Null))
        bad("field 'timestamp_period_ns' is missing or not a number");
    c.timestampPeriod = period->type == JsonValue::Type::Number ? float(period->number) : 0.0f;
    c.timestampValidBits = in.u32("timestamp_valid_bits");
    c.timestampMask = c.timestampValidBits >= 64 ? ~0ull : (1ull << c.timestampValidBits) - 1;
    c.cooperativeMatrix = in.flag("coopmat");
    for (const auto& v : in.need("coopmat_configs", JsonValue::Type::Array).array) {
        if (v.type != JsonValue::Type::String) bad("field 'coopmat_configs' holds a non-string");
        c.coopMatConfigs.push_back(parseConfig(v.string));
    }
    if (c.subgroupSize == 0 || c.minSubgroupSize == 0 || c.minSubgroupSize > c.maxSubgroupSize)
        bad("subgroup sizes are inconsistent");
    return c;
}

}  // namespace vkconv
