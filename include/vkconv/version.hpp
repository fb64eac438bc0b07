#pragma once
#include "vkconv/export.hpp"
namespace vkconv {
VKCONV_API const char* versionString();   // "0.1.0"
VKCONV_API const char* gitRevision();     // short hash at build time, or "unknown"
VKCONV_API const char* shaderCompiler();  // glslang version used to build the shaders
}  // namespace vkconv
