// DeviceCaps::fromJson: a device profile (what `vkconv-info --json` or DeviceCaps::toJson wrote)
// read back, for planning-only contexts (Context::createOffline).  Every field a router or a
// pipeline check reads is required, so an old record fails with the field's name rather than
// planning for a device with zeroed limits.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>

#include "util/json.hpp"
#include "runtime/vk_compat.hpp"
#include "vkconv/device_caps.hpp"
#include "vkconv/error.hpp"

namespace vkconv {

const char* componentName(uint32_t t);  // device_caps_format.cpp (a VkComponentTypeKHR value)

namespace {

[[noreturn]] void bad(const std::string& what) {
    throw Error(ErrorCode::InvalidArgument,
                "device profile: " + what + " (record the profile with this version's `vkconv-info --json`)");
}

std::string field(const char* key) { return std::string("field '") + key + "'"; }

// A non-negative integer no larger than max, from a JSON number: an integer, or a double with no
// fraction (a profile edited by hand or written by another tool may say 32.0).
std::optional<uint64_t> unsignedOf(const JsonDoc& v, uint64_t max) {
    if (v.is_number_unsigned()) {
        uint64_t u = v.get<uint64_t>();
        return u <= max ? std::optional<uint64_t>(u) : std::nullopt;
    }
    if (v.is_number_float()) {
        double d = v.get<double>();
        // 2^64 itself does not fit; the comparison also rejects NaN.
        if (!(d >= 0 && d < 18446744073709551616.0) || d != std::floor(d)) return std::nullopt;
        uint64_t u = uint64_t(d);
        return u <= max ? std::optional<uint64_t>(u) : std::nullopt;
    }
    return std::nullopt;  // negative integers, and everything that is not a number
}

enum class Kind { Number, Bool, String, Array };

class Reader {
public:
    explicit Reader(const JsonDoc& o) : o_(o) {}
    const JsonDoc* find(const char* key) const {
        auto it = o_.find(key);
        return it == o_.end() ? nullptr : &*it;
    }
    const JsonDoc& need(const char* key, Kind kind) const {
        const JsonDoc* v = find(key);
        if (!v) bad(field(key) + " is missing");
        static const char* const names[] = {"number", "boolean", "string", "array"};
        const bool ok = kind == Kind::Number   ? v->is_number()
                        : kind == Kind::Bool   ? v->is_boolean()
                        : kind == Kind::String ? v->is_string()
                                               : v->is_array();
        if (!ok) bad(field(key) + " has the wrong type (" + v->type_name() + ", not " + names[int(kind)] + ")");
        return *v;
    }
    uint64_t u64(const char* key, uint64_t max) const {
        auto u = unsignedOf(need(key, Kind::Number), max);
        if (!u) bad(field(key) + " is not an integer in range [0, " + std::to_string(max) + "]");
        return *u;
    }
    uint32_t u32(const char* key) const { return uint32_t(u64(key, 0xFFFFFFFFull)); }
    bool flag(const char* key) const { return need(key, Kind::Bool).get<bool>(); }
    std::string str(const char* key) const { return need(key, Kind::String).get<std::string>(); }
    // An array of exactly n integers in [0, 2^32).
    void u32s(const char* key, uint32_t* out, size_t n) const {
        const auto& a = need(key, Kind::Array);
        if (a.size() != n) bad(field(key) + " needs " + std::to_string(n) + " values");
        for (size_t i = 0; i < n; ++i) {
            auto u = unsignedOf(a[i], 0xFFFFFFFFull);
            if (!u) bad(field(key) + " holds a value that is not an integer in range [0, 4294967295]");
            out[i] = uint32_t(*u);
        }
    }

private:
    const JsonDoc& o_;
};

VkComponentTypeKHR componentFromName(const std::string& name, const std::string& config) {
    // Every name componentName() writes, by trying the enum values it knows.
    const int candidates[] = {VK_COMPONENT_TYPE_FLOAT16_KHR,
                              VK_COMPONENT_TYPE_FLOAT32_KHR,
                              VK_COMPONENT_TYPE_FLOAT64_KHR,
                              VK_COMPONENT_TYPE_SINT8_KHR,
                              VK_COMPONENT_TYPE_SINT16_KHR,
                              VK_COMPONENT_TYPE_SINT32_KHR,
                              VK_COMPONENT_TYPE_SINT64_KHR,
                              VK_COMPONENT_TYPE_UINT8_KHR,
                              VK_COMPONENT_TYPE_UINT16_KHR,
                              VK_COMPONENT_TYPE_UINT32_KHR,
                              VK_COMPONENT_TYPE_UINT64_KHR,
                              int(VK_COMPONENT_TYPE_BFLOAT16_KHR),
                              1000491002,
                              1000491003};
    for (int c : candidates)
        if (name == componentName(uint32_t(c))) return VkComponentTypeKHR(c);
    bad("coopmat config '" + config + "': unknown component type '" + name + "'");
}

// "16x16x16 f16*f16+f32->f32 subgroup[ sat]", as CoopMatConfig::toString writes it.
CoopMatConfig parseConfig(const std::string& text) {
    CoopMatConfig cm;
    char a[16], b[16], c[16], r[16], scope[16], sat[8] = "";
    int n = std::sscanf(text.c_str(), "%ux%ux%u %15[^*]*%15[^+]+%15[^-]->%15s %15s %7s", &cm.m, &cm.n, &cm.k, a, b, c,
                        r, scope, sat);
    if (n < 8 || cm.m == 0 || cm.n == 0 || cm.k == 0)
        bad("coopmat config '" + text + "' is not 'MxNxK a*b+c->r scope'");
    cm.a = componentFromName(a, text);
    cm.b = componentFromName(b, text);
    cm.c = componentFromName(c, text);
    cm.result = componentFromName(r, text);
    if (!std::strcmp(scope, "subgroup"))
        cm.scope = VK_SCOPE_SUBGROUP_KHR;
    else if (!std::strcmp(scope, "workgroup"))
        cm.scope = VK_SCOPE_WORKGROUP_KHR;
    else
        bad("coopmat config '" + text + "': unknown scope '" + scope + "'");
    cm.saturatingAccumulation = n == 9 && !std::strcmp(sat, "sat");
    return cm;
}

}  // namespace

DeviceCaps DeviceCaps::fromJson(const std::string& text) {
    std::string err;
    auto doc = parseJson(text, &err);
    if (!doc) bad("not JSON: " + err);
    // vkconv-info --json wraps the record as {"vkconv": ..., "device": {...}}.
    const JsonDoc* obj = &*doc;
    if (doc->is_object())
        if (auto it = doc->find("device"); it != doc->end()) obj = &*it;
    if (!obj->is_object()) bad("not a JSON object");
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
    if (uuid.size() != 2 * VK_UUID_SIZE || uuid.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        bad("field 'pipeline_cache_uuid' needs 32 hex digits");
    for (size_t i = 0; i < VK_UUID_SIZE; ++i)
        c.pipelineCacheUUID[i] = uint8_t(std::stoul(uuid.substr(2 * i, 2), nullptr, 16));
    const JsonDoc* arch = in.find("amd_arch");
    if (!arch) bad("field 'amd_arch' is missing");
    if (arch->is_string()) {
        bool known = false;
        for (AmdArch a : {AmdArch::GCN, AmdArch::RDNA1, AmdArch::RDNA2, AmdArch::RDNA3, AmdArch::RDNA4})
            if (arch->get<std::string>() == vkconv::toString(a)) c.amdArch = a, known = true;
        if (!known) bad("field 'amd_arch' names no known architecture: '" + arch->get<std::string>() + "'");
    } else if (!arch->is_null()) {
        bad("field 'amd_arch' has the wrong type (" + std::string(arch->type_name()) + ")");
    }

    c.subgroupSize = in.u32("subgroup_size");
    uint32_t range[2];
    in.u32s("subgroup_sizes", range, 2);  // [min, max]
    c.minSubgroupSize = range[0];
    c.maxSubgroupSize = range[1];
    c.subgroupSizeControl = in.flag("subgroup_size_control");
    c.computeFullSubgroups = in.flag("compute_full_subgroups");
    c.maxComputeWorkgroupSubgroups = in.u32("max_compute_workgroup_subgroups");
    c.computeUnits = in.u32("compute_units");
    c.maxSharedMemory = in.u32("max_shared_memory");
    c.maxWorkgroupInvocations = in.u32("max_workgroup_invocations");
    in.u32s("max_workgroup_size", c.maxWorkgroupSize, 3);
    in.u32s("max_workgroup_count", c.maxWorkgroupCount, 3);
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
    if (const JsonDoc* sc = in.find("shader_clock")) {
        if (!sc->is_boolean()) bad("field 'shader_clock' has the wrong type (" + std::string(sc->type_name()) + ")");
        c.shaderClock = sc->get<bool>();
    }
    c.timestamps = in.flag("timestamps");
    // null where the driver reports no finite period (RADV's null device).
    const JsonDoc* period = in.find("timestamp_period_ns");
    if (!period || (!period->is_number() && !period->is_null()))
        bad("field 'timestamp_period_ns' is missing or not a number");
    if (period->is_number()) {
        double ns = period->get<double>();
        if (!(ns >= 0 && ns <= double(std::numeric_limits<float>::max())))
            bad("field 'timestamp_period_ns' is out of range (a non-negative float)");
        c.timestampPeriod = float(ns);
    }
    c.timestampValidBits = in.u32("timestamp_valid_bits");
    if (c.timestampValidBits > 64) bad("field 'timestamp_valid_bits' is out of range [0, 64]");
    c.timestampMask = c.timestampValidBits >= 64 ? ~0ull : (1ull << c.timestampValidBits) - 1;
    c.cooperativeMatrix = in.flag("coopmat");
    for (const auto& v : in.need("coopmat_configs", Kind::Array)) {
        if (!v.is_string()) bad("field 'coopmat_configs' holds a " + std::string(v.type_name()) + ", not a string");
        c.coopMatConfigs.push_back(parseConfig(v.get<std::string>()));
    }
    if (c.subgroupSize == 0 || c.minSubgroupSize == 0 || c.minSubgroupSize > c.maxSubgroupSize)
        bad("subgroup sizes are inconsistent");
    return c;
}

}  // namespace vkconv
