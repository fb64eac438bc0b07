#include "runtime/shader_registry.hpp"

namespace vkconv::shaders {

const EmbeddedShader* find(std::string_view name) {
    for (size_t i = 0; i < kEmbeddedCount; ++i)
        if (name == kEmbedded[i].name) return &kEmbedded[i];
    return nullptr;
}

}  // namespace vkconv::shaders
