// DeviceCaps as text (vkconv-info) and JSON (vkconv-info --json, benchmark output, and the
// device profiles DeviceCaps::fromJson reads back: device_caps_profile.cpp).
#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "util/json.hpp"
#include "runtime/vk_compat.hpp"
#include "vkconv/device_caps.hpp"

namespace vkconv {

const char* toString(AmdArch a) {
    switch (a) {
        case AmdArch::None: return "none";
        case AmdArch::GCN: return "GCN";
        case AmdArch::RDNA1: return "RDNA1";
        case AmdArch::RDNA2: return "RDNA2";
        case AmdArch::RDNA3: return "RDNA3";
        case AmdArch::RDNA4: return "RDNA4";
    }
    return "?";
}

const char* componentName(uint32_t t) {                      // a VkComponentTypeKHR value
    if (t == VK_COMPONENT_TYPE_BFLOAT16_KHR) return "bf16";  // may be outside the header's enum
    switch (t) {
        case VK_COMPONENT_TYPE_FLOAT16_KHR: return "f16";
        case VK_COMPONENT_TYPE_FLOAT32_KHR: return "f32";
        case VK_COMPONENT_TYPE_FLOAT64_KHR: return "f64";
        case VK_COMPONENT_TYPE_SINT8_KHR: return "s8";
        case VK_COMPONENT_TYPE_SINT16_KHR: return "s16";
        case VK_COMPONENT_TYPE_SINT32_KHR: return "s32";
        case VK_COMPONENT_TYPE_SINT64_KHR: return "s64";
        case VK_COMPONENT_TYPE_UINT8_KHR: return "u8";
        case VK_COMPONENT_TYPE_UINT16_KHR: return "u16";
        case VK_COMPONENT_TYPE_UINT32_KHR: return "u32";
        case VK_COMPONENT_TYPE_UINT64_KHR: return "u64";
        default: break;
    }
    switch (int(t)) {  // VK_EXT_shader_float8 (newer than some headers)
        case 1000491002: return "e4m3";
        case 1000491003: return "e5m2";
        default: return "other";
    }
}

std::string CoopMatConfig::toString() const {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%ux%ux%u %s*%s+%s->%s %s%s", m, n, k, componentName(a), componentName(b),
                  componentName(c), componentName(result), scope == VK_SCOPE_SUBGROUP_KHR ? "subgroup" : "workgroup",
                  saturatingAccumulation ? " sat" : "");
    return buf;
}

std::string DeviceCaps::apiVersionString() const {
    return std::to_string(VK_API_VERSION_MAJOR(apiVersion)) + "." + std::to_string(VK_API_VERSION_MINOR(apiVersion)) +
           "." + std::to_string(VK_API_VERSION_PATCH(apiVersion));
}

std::string DeviceCaps::driverVersionString() const {
    uint32_t v = driverVersion;
    char buf[64];
    if (vendorId == 0x10DE)  // NVIDIA: 10.8.8.6 bits
        std::snprintf(buf, sizeof buf, "%u.%u.%u.%u", v >> 22, (v >> 14) & 0xFF, (v >> 6) & 0xFF, v & 0x3F);
    else
        std::snprintf(buf, sizeof buf, "%u.%u.%u", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v),
                      VK_API_VERSION_PATCH(v));
    return buf;
}

std::string DeviceCaps::deviceTypeString() const {
    switch (deviceType) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
        default: return "other";
    }
}

static const char* vendorName(uint32_t id) {  // PCI / Khronos vendor ids
    switch (id) {
        case 0x1002: return "AMD";
        case 0x10DE: return "NVIDIA";
        case 0x8086: return "Intel";
        case 0x13B5: return "ARM";
        case 0x5143: return "Qualcomm";
        case 0x106B: return "Apple";
        case 0x10005: return "Mesa";
        default: return "unknown";
    }
}

std::string DeviceCaps::vendorString() const { return vendorName(vendorId); }

std::string DeviceCaps::toText() const {
    std::ostringstream o;
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%04x / 0x%04x", vendorId, deviceId);
    o << "device              : " << deviceName << " (" << deviceTypeString() << ")\n"
      << "vendor / device id  : " << hex << " (" << vendorName(vendorId) << ")\n"
      << "driver              : " << driverName << " " << driverVersionString() << " (" << driverInfo << ")\n"
      << "Vulkan API          : " << apiVersionString() << "\n"
      << "AMD architecture    : " << vkconv::toString(amdArch) << "\n"
      << "subgroup size       : " << subgroupSize << " (min " << minSubgroupSize << ", max " << maxSubgroupSize
      << "; compute can require a size: " << (subgroupSizeControl ? "yes" : "no")
      << ", full subgroups: " << (computeFullSubgroups ? "yes" : "no") << ")\n"
      << "shared memory       : " << maxSharedMemory << " bytes per workgroup\n"
      << "compute units       : " << (computeUnits ? std::to_string(computeUnits) : std::string("not reported")) << "\n"
      << "workgroup           : " << maxWorkgroupInvocations << " invocations, size " << maxWorkgroupSize[0] << "x"
      << maxWorkgroupSize[1] << "x" << maxWorkgroupSize[2] << ", count " << maxWorkgroupCount[0] << "x"
      << maxWorkgroupCount[1] << "x" << maxWorkgroupCount[2] << "\n"
      << "maxStorageBufferRange: " << maxStorageBufferRange << "\n"
      << "types               : fp16 arithmetic " << shaderFloat16 << ", 16-bit storage " << storageBuffer16BitAccess
      << ", int8 " << shaderInt8 << ", 8-bit storage " << storageBuffer8BitAccess << ", bf16 type " << bfloat16Type
      << ", bf16 coopmat " << bfloat16CooperativeMatrix << " (bf16 runs the emulated kernels when 0)\n"
      << "push descriptors    : " << pushDescriptor << ", pipeline executable info " << pipelineExecutableInfo
      << ", shader clock " << shaderClock << "\n"
      << "timestamps          : " << (timestamps ? "yes" : "no") << ", period " << timestampPeriod << " ns, valid bits "
      << timestampValidBits << "\n"
      << "cooperative matrix  : " << (cooperativeMatrix ? "yes" : "no") << ", " << coopMatConfigs.size()
      << " configurations\n";
    for (auto& cm : coopMatConfigs) o << "    " << cm.toString() << "\n";
    return o.str();
}

std::string DeviceCaps::toJson() const {
    char hex[16];
    std::string uuid;
    for (auto b : pipelineCacheUUID) {
        std::snprintf(hex, sizeof hex, "%02x", b);
        uuid += hex;
    }
    // The period in the float's shortest form, which reads back as the same float: a 6-digit
    // rounding would not (52.083332 ns on some Intel parts).
    char period[32];
    const auto written = std::to_chars(period, period + sizeof period, timestampPeriod);
    const Json periodNs = std::isfinite(timestampPeriod)
                              ? jsonDecimal(std::string_view(period, size_t(written.ptr - period)))
                              : Json(nullptr);
    Json coopmats = Json::array();
    for (auto& cm : coopMatConfigs) coopmats.push_back(cm.toString());
    Json j = {
        {"name", deviceName},
        {"vendor", vendorName(vendorId)},
        {"vendor_id", vendorId},
        {"device_id", deviceId},
        {"type", deviceTypeString()},
        {"driver", driverName + " " + driverVersionString()},
        {"driver_name", driverName},
        {"driver_info", driverInfo},
        {"driver_id", uint32_t(driverId)},
        {"driver_version_raw", driverVersion},
        {"api_version", apiVersionString()},
        {"api_version_raw", apiVersion},
        {"pipeline_cache_uuid", uuid},
        {"amd_arch", amdArch == AmdArch::None ? Json(nullptr) : Json(vkconv::toString(amdArch))},
        {"subgroup_size", subgroupSize},
        {"subgroup_sizes", {minSubgroupSize, maxSubgroupSize}},
        {"subgroup_size_control", subgroupSizeControl},
        {"compute_full_subgroups", computeFullSubgroups},
        {"max_compute_workgroup_subgroups", maxComputeWorkgroupSubgroups},
        {"compute_units", computeUnits},
        {"max_shared_memory", maxSharedMemory},
        {"max_workgroup_invocations", maxWorkgroupInvocations},
        {"max_workgroup_size", {maxWorkgroupSize[0], maxWorkgroupSize[1], maxWorkgroupSize[2]}},
        {"max_workgroup_count", {maxWorkgroupCount[0], maxWorkgroupCount[1], maxWorkgroupCount[2]}},
        {"max_storage_buffer_range", maxStorageBufferRange},
        {"max_push_constants_size", maxPushConstantsSize},
        {"min_storage_buffer_offset_alignment", minStorageBufferOffsetAlignment},
        {"shader_float16", shaderFloat16},
        {"storage_buffer_16bit", storageBuffer16BitAccess},
        {"shader_int8", shaderInt8},
        {"storage_buffer_8bit", storageBuffer8BitAccess},
        {"shader_int16", shaderInt16},
        {"shader_int64", shaderInt64},
        {"subgroup_arithmetic", subgroupArithmetic},
        {"subgroup_shuffle", subgroupShuffle},
        {"vulkan_memory_model", vulkanMemoryModel},
        {"bfloat16_type", bfloat16Type},
        {"bfloat16_coopmat", bfloat16CooperativeMatrix},
        {"push_descriptor", pushDescriptor},
        {"pipeline_executable_info", pipelineExecutableInfo},
        {"shader_clock", shaderClock},
        {"timestamps", timestamps},
        {"timestamp_period_ns", periodNs},
        {"timestamp_valid_bits", timestampValidBits},
        {"coopmat", cooperativeMatrix},
        {"coopmat_configs", std::move(coopmats)},
    };
    return dumpJson(j);
}

}  // namespace vkconv
