#pragma once
// The library is built with hidden visibility; only what carries VKCONV_API is exported.
// Keeping everything else hidden also keeps the library's private volk function pointers
// from ever interposing the application's own Vulkan symbols.
#if defined(_WIN32)
#define VKCONV_API
#else
#define VKCONV_API __attribute__((visibility("default")))
#endif
