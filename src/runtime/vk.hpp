// Vulkan declarations for the library's own translation units: volk's (private, hidden)
// prototypes-free headers, plus a checked-call helper that turns a VkResult into vkconv::Error.
#pragma once
#include <volk.h>

#include "runtime/vk_compat.hpp"

#include <string>

#include "vkconv/error.hpp"

namespace vkconv {

const char* vkResultString(VkResult r);

[[noreturn]] void throwVk(VkResult r, const char* call);

inline void vkCheck(VkResult r, const char* call) {
    if (r != VK_SUCCESS) throwVk(r, call);
}

}  // namespace vkconv

#define VKCONV_CHECK(expr) ::vkconv::vkCheck((expr), #expr)
