#include "runtime/vk.hpp"

namespace vkconv {

const char* vkResultString(VkResult r) {
    switch (r) {
#define CASE(x) \
    case x: return #x
        CASE(VK_SUCCESS);
        CASE(VK_NOT_READY);
        CASE(VK_TIMEOUT);
        CASE(VK_INCOMPLETE);
        CASE(VK_ERROR_OUT_OF_HOST_MEMORY);
        CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY);
        CASE(VK_ERROR_INITIALIZATION_FAILED);
        CASE(VK_ERROR_DEVICE_LOST);
        CASE(VK_ERROR_MEMORY_MAP_FAILED);
        CASE(VK_ERROR_LAYER_NOT_PRESENT);
        CASE(VK_ERROR_EXTENSION_NOT_PRESENT);
        CASE(VK_ERROR_FEATURE_NOT_PRESENT);
        CASE(VK_ERROR_INCOMPATIBLE_DRIVER);
        CASE(VK_ERROR_TOO_MANY_OBJECTS);
        CASE(VK_ERROR_FORMAT_NOT_SUPPORTED);
        CASE(VK_ERROR_FRAGMENTED_POOL);
        CASE(VK_ERROR_UNKNOWN);
        CASE(VK_ERROR_OUT_OF_POOL_MEMORY);
        CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE);
        CASE(VK_ERROR_FRAGMENTATION);
        CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS);
        CASE(VK_PIPELINE_COMPILE_REQUIRED);
        CASE(VK_ERROR_INVALID_SHADER_NV);
#undef CASE
        default: return "VkResult(unknown)";
    }
}

void throwVk(VkResult r, const char* call) {
    throw Error(ErrorCode::Vulkan, std::string(call) + " failed with " + vkResultString(r));
}

}  // namespace vkconv
