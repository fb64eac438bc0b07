#include "runtime/instance_table.hpp"

#include <mutex>

namespace vkconv {

template <typename T>
static void loadInto(T& fn, PFN_vkGetInstanceProcAddr gipa, VkInstance instance, const char* name) {
    fn = reinterpret_cast<T>(gipa(instance, name));
}

void InstanceTable::load(PFN_vkGetInstanceProcAddr gipa, VkInstance instance) {
    getInstanceProcAddr = gipa;
    loadInto(destroyInstance, gipa, instance, "vkDestroyInstance");
    loadInto(enumeratePhysicalDevices, gipa, instance, "vkEnumeratePhysicalDevices");
    loadInto(getPhysicalDeviceProperties2, gipa, instance, "vkGetPhysicalDeviceProperties2");
    loadInto(getPhysicalDeviceFeatures2, gipa, instance, "vkGetPhysicalDeviceFeatures2");
    loadInto(getPhysicalDeviceQueueFamilyProperties, gipa, instance, "vkGetPhysicalDeviceQueueFamilyProperties");
    loadInto(getPhysicalDeviceMemoryProperties, gipa, instance, "vkGetPhysicalDeviceMemoryProperties");
    loadInto(enumerateDeviceExtensionProperties, gipa, instance, "vkEnumerateDeviceExtensionProperties");
    loadInto(createDevice, gipa, instance, "vkCreateDevice");
    loadInto(getDeviceProcAddr, gipa, instance, "vkGetDeviceProcAddr");
    loadInto(createDebugUtilsMessenger, gipa, instance, "vkCreateDebugUtilsMessengerEXT");
    loadInto(destroyDebugUtilsMessenger, gipa, instance, "vkDestroyDebugUtilsMessengerEXT");
    loadInto(getCooperativeMatrixProperties, gipa, instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
    if (!getPhysicalDeviceProperties2 || !createDevice || !getDeviceProcAddr)
        throw Error(ErrorCode::Vulkan, "the Vulkan loader lacks core 1.1+ instance functions (instance too old?)");
}

PFN_vkGetInstanceProcAddr loaderEntryPoint(PFN_vkGetInstanceProcAddr callerProvided) {
    if (callerProvided) return callerProvided;
    static std::once_flag once;
    static VkResult initResult = VK_ERROR_INITIALIZATION_FAILED;
    std::call_once(once, [] { initResult = volkInitialize(); });
    if (initResult != VK_SUCCESS || !vkGetInstanceProcAddr)
        throw Error(ErrorCode::NoDevice, "no Vulkan loader found (libvulkan.so.1 could not be loaded)");
    return vkGetInstanceProcAddr;
}

}  // namespace vkconv
