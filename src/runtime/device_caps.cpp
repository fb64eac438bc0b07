// Gathering DeviceCaps and choosing which optional features a vkconv-created device enables.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "runtime/context_impl.hpp"
#include "runtime/feature_chain.hpp"

namespace vkconv {

bool EnabledDeviceFeatures::hasExtension(const char* name) const {
    return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

static std::vector<std::string> deviceExtensions(const InstanceTable& it, VkPhysicalDevice pd) {
    uint32_t n = 0;
    it.enumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> props(n);
    it.enumerateDeviceExtensionProperties(pd, nullptr, &n, props.data());
    std::vector<std::string> names;
    for (auto& p : props) names.emplace_back(p.extensionName);
    return names;
}

EnabledDeviceFeatures chooseFeatures(const InstanceTable& it, VkPhysicalDevice pd) {
    EnabledDeviceFeatures e;
    auto available = deviceExtensions(it, pd);
    auto has = [&](const char* n) { return std::find(available.begin(), available.end(), n) != available.end(); };
    // Only what this build's shaders use (VK_KHR_shader_clock: the matrix kernel's profiling build
    // alone): VK_KHR_shader_bfloat16 only when this build has the bf16 cooperative-matrix shaders
    // (otherwise bf16 is emulated and the extension would be dead weight).
    std::vector<const char*> wanted = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME,
                                       VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME,
                                       VK_KHR_SHADER_CLOCK_EXTENSION_NAME};
#if VKCONV_HAVE_BF16_COOPMAT
    wanted.push_back(VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME);
#endif
    for (const char* ext : wanted)
        if (has(ext)) e.extensions.emplace_back(ext);

    DeviceFeatureChain chain(e);
    it.getPhysicalDeviceFeatures2(pd, &chain.f2);
    chain.copyTo(e);
    if (!e.shaderSubgroupClock || !e.shaderDeviceClock) {  // the trace reads both; else not enabled
        auto& x = e.extensions;
        x.erase(std::remove(x.begin(), x.end(), VK_KHR_SHADER_CLOCK_EXTENSION_NAME), x.end());
        e.shaderSubgroupClock = e.shaderDeviceClock = false;
    }
    // The bf16 kernels are cooperative-matrix kernels (shaderBFloat16DotProduct is never used):
    // both features with cooperative matrices, or the extension is not enabled at all.
    if (!(e.bfloat16Type && e.bfloat16CooperativeMatrix && e.cooperativeMatrix)) {
        auto& x = e.extensions;
        x.erase(std::remove(x.begin(), x.end(), VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME), x.end());
        e.bfloat16Type = e.bfloat16CooperativeMatrix = false;
    }
    return e;
}

// RADV names the chip in parentheses ("AMD Radeon RX 5700 XT (RADV NAVI10)"); other drivers
// are told apart by PCI device id.
static AmdArch amdArchitecture(uint32_t vendorId, uint32_t deviceId, const std::string& name) {
    if (vendorId != 0x1002) return AmdArch::None;
    std::string up = name;
    std::transform(up.begin(), up.end(), up.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    auto pos = up.find("(RADV ");
    if (pos != std::string::npos) {
        std::string chip = up.substr(pos + 6);
        chip = chip.substr(0, chip.find(')'));
        auto starts = [&](const char* p) { return chip.rfind(p, 0) == 0; };
        if (starts("NAVI1")) return AmdArch::RDNA1;
        if (starts("NAVI2") || starts("VANGOGH") || starts("REMBRANDT") || starts("RAPHAEL") || starts("MENDOCINO") ||
            starts("GFX1013") || starts("GFX103"))
            return AmdArch::RDNA2;
        if (starts("NAVI3") || starts("PHOENIX") || starts("HAWK") || starts("GFX110") || starts("GFX115") ||
            starts("STRIX"))
            return AmdArch::RDNA3;
        if (starts("GFX12") || starts("NAVI4")) return AmdArch::RDNA4;
        return AmdArch::GCN;
    }
    if (deviceId == 0x731F || deviceId == 0x7310 || deviceId == 0x7312 || deviceId == 0x7340 || deviceId == 0x7341 ||
        deviceId == 0x7347 || deviceId == 0x734F || deviceId == 0x7360 || deviceId == 0x7362)
        return AmdArch::RDNA1;
    if (deviceId >= 0x73A0 && deviceId <= 0x743F) return AmdArch::RDNA2;
    if (deviceId >= 0x7440 && deviceId <= 0x74FF) return AmdArch::RDNA3;
    if (deviceId >= 0x7550 && deviceId <= 0x75FF) return AmdArch::RDNA4;
    return AmdArch::GCN;
}

// SMs (NVIDIA) or CUs (AMD) from the vendor property structs; reading them needs the extension
// to be supported, not enabled.
static uint32_t computeUnitCount(const InstanceTable& it, VkPhysicalDevice pd) {
    auto ext = deviceExtensions(it, pd);
    auto has = [&](const char* n) { return std::find(ext.begin(), ext.end(), n) != ext.end(); };
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV nv{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
    VkPhysicalDeviceShaderCorePropertiesAMD amd{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
    if (has(VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME))
        p2.pNext = &nv;
    else if (has(VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME))
        p2.pNext = &amd;
    else
        return 0;
    it.getPhysicalDeviceProperties2(pd, &p2);
    if (p2.pNext == &nv) return nv.shaderSMCount;
    return amd.shaderEngineCount * amd.shaderArraysPerEngineCount * amd.computeUnitsPerShaderArray;
}

DeviceCaps queryDeviceCaps(const InstanceTable& it, VkPhysicalDevice pd, uint32_t queueFamily,
                           const EnabledDeviceFeatures& en) {
    DeviceCaps c;
    VkPhysicalDeviceVulkan13Properties p13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
    VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
    VkPhysicalDeviceVulkan11Properties p11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &p11;
    p11.pNext = &p12;
    p12.pNext = &p13;
    it.getPhysicalDeviceProperties2(pd, &p2);
    const auto& p = p2.properties;
    c.vendorId = p.vendorID;
    c.computeUnits = computeUnitCount(it, pd);
    c.deviceId = p.deviceID;
    c.deviceName = p.deviceName;
    c.driverName = p12.driverName;
    c.driverInfo = p12.driverInfo;
    c.driverId = p12.driverID;
    c.driverVersion = p.driverVersion;
    c.apiVersion = p.apiVersion;
    c.deviceType = p.deviceType;
    std::memcpy(c.pipelineCacheUUID, p.pipelineCacheUUID, VK_UUID_SIZE);
    c.amdArch = amdArchitecture(c.vendorId, c.deviceId, c.deviceName);

    c.subgroupSize = p11.subgroupSize;
    c.minSubgroupSize = p13.minSubgroupSize ? p13.minSubgroupSize : p11.subgroupSize;
    c.maxSubgroupSize = p13.maxSubgroupSize ? p13.maxSubgroupSize : p11.subgroupSize;
    c.subgroupSizeControl = en.subgroupSizeControl && (p13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
    c.computeFullSubgroups = en.computeFullSubgroups;
    c.maxComputeWorkgroupSubgroups = p13.maxComputeWorkgroupSubgroups;
    c.subgroupArithmetic = (p11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) &&
                           (p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT);
    c.subgroupShuffle = (p11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT) &&
                        (p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT);
    c.maxSharedMemory = p.limits.maxComputeSharedMemorySize;
    c.maxWorkgroupInvocations = p.limits.maxComputeWorkGroupInvocations;
    for (int i = 0; i < 3; ++i) {
        c.maxWorkgroupSize[i] = p.limits.maxComputeWorkGroupSize[i];
        c.maxWorkgroupCount[i] = p.limits.maxComputeWorkGroupCount[i];
    }
    c.maxStorageBufferRange = p.limits.maxStorageBufferRange;
    c.maxPushConstantsSize = p.limits.maxPushConstantsSize;
    c.minStorageBufferOffsetAlignment = uint32_t(p.limits.minStorageBufferOffsetAlignment);

    c.shaderFloat16 = en.shaderFloat16;
    c.shaderInt8 = en.shaderInt8;
    c.shaderInt16 = en.shaderInt16;
    c.shaderInt64 = en.shaderInt64;
    c.storageBuffer16BitAccess = en.storageBuffer16BitAccess;
    c.storageBuffer8BitAccess = en.storageBuffer8BitAccess;
    c.vulkanMemoryModel = en.vulkanMemoryModel;
    c.bfloat16Type = en.bfloat16Type && en.hasExtension(VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME);
    c.bfloat16CooperativeMatrix = en.bfloat16CooperativeMatrix && c.bfloat16Type && en.cooperativeMatrix;
    c.pushDescriptor = en.hasExtension(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    c.pipelineExecutableInfo =
        en.pipelineExecutableInfo && en.hasExtension(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    c.shaderClock =
        en.shaderSubgroupClock && en.shaderDeviceClock && en.hasExtension(VK_KHR_SHADER_CLOCK_EXTENSION_NAME);

    c.cooperativeMatrix = en.cooperativeMatrix && en.hasExtension(VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME) &&
                          it.getCooperativeMatrixProperties;
    if (c.cooperativeMatrix) {
        uint32_t n = 0;
        it.getCooperativeMatrixProperties(pd, &n, nullptr);
        std::vector<VkCooperativeMatrixPropertiesKHR> props(n, {VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR});
        it.getCooperativeMatrixProperties(pd, &n, props.data());
        for (auto& cp : props) {
            CoopMatConfig cfg;
            cfg.m = cp.MSize;
            cfg.n = cp.NSize;
            cfg.k = cp.KSize;
            cfg.a = cp.AType;
            cfg.b = cp.BType;
            cfg.c = cp.CType;
            cfg.result = cp.ResultType;
            cfg.saturatingAccumulation = cp.saturatingAccumulation;
            cfg.scope = cp.scope;
            c.coopMatConfigs.push_back(cfg);
        }
    }

    uint32_t nq = 0;
    it.getPhysicalDeviceQueueFamilyProperties(pd, &nq, nullptr);
    std::vector<VkQueueFamilyProperties> qf(nq);
    it.getPhysicalDeviceQueueFamilyProperties(pd, &nq, qf.data());
    c.timestampValidBits = queueFamily < nq ? qf[queueFamily].timestampValidBits : 0;
    c.timestampPeriod = p.limits.timestampPeriod;
    c.timestamps = c.timestampValidBits > 0 && c.timestampPeriod > 0.0f;
    c.timestampMask = c.timestampValidBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << c.timestampValidBits) - 1;
    return c;
}

}  // namespace vkconv
