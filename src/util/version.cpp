#include "git_revision.h"  // generated at build time (cmake/GitRevision.cmake)
#include "vkconv/version.hpp"

namespace vkconv {
const char* versionString() { return VKCONV_VERSION; }
const char* gitRevision() { return VKCONV_GIT_REVISION; }
const char* shaderCompiler() { return VKCONV_SHADER_COMPILER_NAME; }
}  // namespace vkconv
