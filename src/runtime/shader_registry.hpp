// SPIR-V compiled at build time and embedded in the library (build/generated/embedded_shaders.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace vkconv::shaders {

struct EmbeddedShader {
    const char* name;
    const uint32_t* code;
    size_t bytes;
};

extern const EmbeddedShader kEmbedded[];
extern const size_t kEmbeddedCount;

const EmbeddedShader* find(std::string_view name);  // null when not built (e.g. compiler lacked a feature)

}  // namespace vkconv::shaders
