// The VkPhysicalDeviceFeatures2 chain of every feature vkconv can enable, in one place for both
// of its uses: asking a device what it has (chooseFeatures) and creating the device with what was
// chosen (createDevice).  Extension structs are linked only where the extension is in the list.
#pragma once
#include "runtime/context_impl.hpp"

namespace vkconv {

struct DeviceFeatureChain {
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR cm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR};
    VkPhysicalDeviceShaderBfloat16FeaturesKHR bf{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR};
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pe{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    VkPhysicalDeviceShaderClockFeaturesKHR sc{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};

    // Links the core structs and those of e.extensions' extensions (the flags are all false).
    explicit DeviceFeatureChain(const EnabledDeviceFeatures& e);
    DeviceFeatureChain(const DeviceFeatureChain&) = delete;  // the chain points into itself
    DeviceFeatureChain& operator=(const DeviceFeatureChain&) = delete;

    // Every flag of the chain into e (after vkGetPhysicalDeviceFeatures2 on it).
    void copyTo(EnabledDeviceFeatures& e) const;
    // e's flags into the chain (for vkCreateDevice), plus synchronization2, which Vulkan 1.3 requires.
    void copyFrom(const EnabledDeviceFeatures& e);
};

}  // namespace vkconv
