#include "runtime/feature_chain.hpp"

namespace vkconv {

DeviceFeatureChain::DeviceFeatureChain(const EnabledDeviceFeatures& e) {
    f2.pNext = &v11;
    v11.pNext = &v12;
    v12.pNext = &v13;
    void** tail = &v13.pNext;
    auto link = [&](const char* ext, auto& s) {
        if (!e.hasExtension(ext)) return;
        *tail = &s;
        tail = &s.pNext;
    };
    link(VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, cm);
    link(VK_KHR_SHADER_CLOCK_EXTENSION_NAME, sc);
    link(VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME, bf);
    link(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME, pe);
}

void DeviceFeatureChain::copyTo(EnabledDeviceFeatures& e) const {
    e.shaderInt16 = f2.features.shaderInt16;
    e.shaderInt64 = f2.features.shaderInt64;
    e.storageBuffer16BitAccess = v11.storageBuffer16BitAccess;
    e.shaderFloat16 = v12.shaderFloat16;
    e.shaderInt8 = v12.shaderInt8;
    e.storageBuffer8BitAccess = v12.storageBuffer8BitAccess;
    e.vulkanMemoryModel = v12.vulkanMemoryModel;
    e.subgroupSizeControl = v13.subgroupSizeControl;
    e.computeFullSubgroups = v13.computeFullSubgroups;
    e.cooperativeMatrix = cm.cooperativeMatrix;
    e.bfloat16Type = bf.shaderBFloat16Type;
    e.bfloat16CooperativeMatrix = bf.shaderBFloat16CooperativeMatrix;
    e.pipelineExecutableInfo = pe.pipelineExecutableInfo;
    e.shaderSubgroupClock = sc.shaderSubgroupClock;
    e.shaderDeviceClock = sc.shaderDeviceClock;
}

void DeviceFeatureChain::copyFrom(const EnabledDeviceFeatures& e) {
    f2.features.shaderInt16 = e.shaderInt16;
    f2.features.shaderInt64 = e.shaderInt64;
    v11.storageBuffer16BitAccess = e.storageBuffer16BitAccess;
    v12.shaderFloat16 = e.shaderFloat16;
    v12.shaderInt8 = e.shaderInt8;
    v12.storageBuffer8BitAccess = e.storageBuffer8BitAccess;
    v12.vulkanMemoryModel = e.vulkanMemoryModel;
    v13.subgroupSizeControl = e.subgroupSizeControl;
    v13.computeFullSubgroups = e.computeFullSubgroups;
    v13.synchronization2 = VK_TRUE;
    cm.cooperativeMatrix = e.cooperativeMatrix;
    bf.shaderBFloat16Type = e.bfloat16Type;
    bf.shaderBFloat16CooperativeMatrix = e.bfloat16CooperativeMatrix;
    pe.pipelineExecutableInfo = e.pipelineExecutableInfo;
    sc.shaderSubgroupClock = e.shaderSubgroupClock;
    sc.shaderDeviceClock = e.shaderDeviceClock;
}

}  // namespace vkconv
