// Everything vkconv needs to know about a device, gathered once when a Context is made.
#pragma once
#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <string>
#include <vector>

#include "vkconv/export.hpp"

namespace vkconv {

enum class AmdArch : uint32_t { None = 0, GCN, RDNA1, RDNA2, RDNA3, RDNA4 };
VKCONV_API const char* toString(AmdArch a);

// One VkCooperativeMatrixPropertiesKHR.  The component types and the scope hold the values of
// VkComponentTypeKHR and VkScopeKHR (compare with VK_COMPONENT_TYPE_*_KHR, VK_SCOPE_*_KHR) as
// plain integers, so that these headers build against any Vulkan 1.3 headers, including those
// older than VK_KHR_cooperative_matrix (1.3.255; Debian 12 ships 1.3.239).
struct VKCONV_API CoopMatConfig {
    uint32_t m = 0, n = 0, k = 0;
    uint32_t a = 0, b = 0, c = 0, result = 0;  // VkComponentTypeKHR
    bool saturatingAccumulation = false;
    uint32_t scope = 0;            // VkScopeKHR
    std::string toString() const;  // "16x16x16 f16*f16+f32->f32 subgroup"
};

struct VKCONV_API DeviceCaps {
    // Identity
    uint32_t vendorId = 0, deviceId = 0;
    std::string deviceName, driverName, driverInfo;
    VkDriverId driverId{};
    uint32_t driverVersion = 0, apiVersion = 0;
    VkPhysicalDeviceType deviceType{};
    uint8_t pipelineCacheUUID[VK_UUID_SIZE]{};
    AmdArch amdArch = AmdArch::None;

    // Compute limits
    uint32_t subgroupSize = 0, minSubgroupSize = 0, maxSubgroupSize = 0;
    bool subgroupSizeControl = false;  // compute pipelines may require a subgroup size
    bool computeFullSubgroups = false;
    // A workgroup under a required subgroup size holds at most that size x this many invocations.
    uint32_t maxComputeWorkgroupSubgroups = 0;
    uint32_t maxSharedMemory = 0, maxWorkgroupInvocations = 0;
    // Streaming multiprocessors / compute units, where the driver reports them
    // (VK_NV_shader_sm_builtins, VK_AMD_shader_core_properties); 0 when unknown.  The routers
    // size grids against it (how many workgroups fill the device).
    uint32_t computeUnits = 0;
    uint32_t maxWorkgroupSize[3]{}, maxWorkgroupCount[3]{};
    uint64_t maxStorageBufferRange = 0;
    uint32_t maxPushConstantsSize = 0;
    uint32_t minStorageBufferOffsetAlignment = 0;

    // Arithmetic and storage types (features that vkconv enabled on the device)
    bool shaderFloat16 = false, shaderInt8 = false, shaderInt16 = false, shaderInt64 = false;
    bool storageBuffer16BitAccess = false, storageBuffer8BitAccess = false;
    bool bfloat16Type = false, bfloat16CooperativeMatrix = false;  // VK_KHR_shader_bfloat16
    bool subgroupArithmetic = false, subgroupShuffle = false;
    bool vulkanMemoryModel = false;

    // Cooperative matrix (VK_KHR_cooperative_matrix), as reported by the device
    bool cooperativeMatrix = false;
    std::vector<CoopMatConfig> coopMatConfigs;

    // Timing
    bool timestamps = false;       // the compute queue can write timestamps
    float timestampPeriod = 0.0f;  // ns per tick
    uint32_t timestampValidBits = 0;
    uint64_t timestampMask = 0;  // mask applied to raw query results

    // Extensions vkconv uses
    bool pushDescriptor = false;
    bool pipelineExecutableInfo = false;  // VK_KHR_pipeline_executable_properties
    bool shaderClock = false;             // VK_KHR_shader_clock, subgroup and device clocks (profiling traces)

    std::string apiVersionString() const;
    std::string driverVersionString() const;  // vendor-specific encoding decoded
    std::string deviceTypeString() const;
    std::string vendorString() const;  // "AMD", "NVIDIA", "Intel", ... from vendorId
    std::string toText() const;
    // A JSON object (compact, no trailing newline) that fromJson reads back to the same caps.
    std::string toJson() const;
    // Reads back what toJson (or `vkconv-info --json`) wrote: a device profile for
    // Context::createOffline.  The text is treated as untrusted: anything that is not JSON, nests
    // too deep, misses a field or holds one of the wrong type or out of range throws
    // Error(InvalidArgument) whose message names the problem (and the field).
    static DeviceCaps fromJson(const std::string& json);
};

}  // namespace vkconv
