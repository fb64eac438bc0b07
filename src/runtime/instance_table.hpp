// Instance-level entry points of one Context, loaded through the context's own
// vkGetInstanceProcAddr (volk only keeps the loader's global entry points, privately).
#pragma once
#include "runtime/vk.hpp"

namespace vkconv {

struct InstanceTable {
    PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
    PFN_vkDestroyInstance destroyInstance = nullptr;
    PFN_vkEnumeratePhysicalDevices enumeratePhysicalDevices = nullptr;
    PFN_vkGetPhysicalDeviceProperties2 getPhysicalDeviceProperties2 = nullptr;
    PFN_vkGetPhysicalDeviceFeatures2 getPhysicalDeviceFeatures2 = nullptr;
    PFN_vkGetPhysicalDeviceQueueFamilyProperties getPhysicalDeviceQueueFamilyProperties = nullptr;
    PFN_vkGetPhysicalDeviceMemoryProperties getPhysicalDeviceMemoryProperties = nullptr;
    PFN_vkEnumerateDeviceExtensionProperties enumerateDeviceExtensionProperties = nullptr;
    PFN_vkCreateDevice createDevice = nullptr;
    PFN_vkGetDeviceProcAddr getDeviceProcAddr = nullptr;
    PFN_vkCreateDebugUtilsMessengerEXT createDebugUtilsMessenger = nullptr;
    PFN_vkDestroyDebugUtilsMessengerEXT destroyDebugUtilsMessenger = nullptr;
    PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR getCooperativeMatrixProperties = nullptr;

    void load(PFN_vkGetInstanceProcAddr gipa, VkInstance instance);
};

// The loader's global entry point: the caller's if given, else the system libvulkan (loaded
// once through volk, whose globals stay private to this library).
PFN_vkGetInstanceProcAddr loaderEntryPoint(PFN_vkGetInstanceProcAddr callerProvided);

}  // namespace vkconv
