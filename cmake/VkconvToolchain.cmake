# Finds the shader toolchain and the Vulkan headers + volk.  On Debian 12, scripts/setup.sh
# puts Debian 13's into ${VKCONV_TOOLCHAIN}; elsewhere the system's are new enough.
set(_tc_bin "${VKCONV_TOOLCHAIN}/bin")
set(_tc_inc "${VKCONV_TOOLCHAIN}/root/usr/include")

find_program(GLSLANG_VALIDATOR glslangValidator HINTS "${_tc_bin}" NO_DEFAULT_PATH)
find_program(GLSLANG_VALIDATOR glslangValidator REQUIRED)
find_program(SPIRV_VAL spirv-val HINTS "${_tc_bin}" NO_DEFAULT_PATH)
find_program(SPIRV_VAL spirv-val REQUIRED)

if(EXISTS "${_tc_inc}/vulkan/vulkan_core.h")
  set(VKCONV_VULKAN_INCLUDE "${_tc_inc}")
else()
  find_path(VKCONV_VULKAN_INCLUDE vulkan/vulkan_core.h REQUIRED)
endif()
file(STRINGS "${VKCONV_VULKAN_INCLUDE}/vulkan/vulkan_core.h" _hv REGEX "^#define VK_HEADER_VERSION [0-9]+")
string(REGEX MATCH "[0-9]+$" VKCONV_VK_HEADER_VERSION "${_hv}")
if(VKCONV_VK_HEADER_VERSION LESS 255)
  message(FATAL_ERROR "Vulkan headers 1.3.${VKCONV_VK_HEADER_VERSION} predate VK_KHR_cooperative_matrix (need >= 1.3.255): run scripts/setup.sh")
endif()

find_path(VKCONV_VOLK_DIR volk.c HINTS "${_tc_inc}" /usr/include /usr/local/include PATH_SUFFIXES "" volk NO_DEFAULT_PATH)
if(NOT VKCONV_VOLK_DIR)
  message(FATAL_ERROR "volk (volk.c/volk.h) not found: install libvulkan-volk-dev / volk, or run scripts/setup.sh")
endif()

execute_process(COMMAND ${GLSLANG_VALIDATOR} --version OUTPUT_VARIABLE _gv OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX MATCH "Glslang Version: [^\n]*" VKCONV_SHADER_COMPILER "${_gv}")
string(REPLACE "Glslang Version: " "glslang " VKCONV_SHADER_COMPILER "${VKCONV_SHADER_COMPILER}")

# Feature probes: compile a tiny shader using the extension.
function(_vkconv_probe var source)
  set(_f "${CMAKE_BINARY_DIR}/probes/${var}.comp")
  file(WRITE "${_f}" "${source}")
  execute_process(COMMAND ${GLSLANG_VALIDATOR} -V --target-env vulkan1.2 "${_f}" -o "${_f}.spv"
                  RESULT_VARIABLE _r OUTPUT_QUIET ERROR_QUIET)
  if(_r EQUAL 0)
    set(${var} ON PARENT_SCOPE)
  else()
    set(${var} OFF PARENT_SCOPE)
  endif()
endfunction()
_vkconv_probe(VKCONV_HAVE_COOPMAT "#version 460
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x=32) in; layout(binding=0) buffer B { float16_t d[]; };
void main(){ coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a;
coopMatLoad(a, d, 0, 16, gl_CooperativeMatrixLayoutRowMajor); coopMatStore(a, d, 0, 16, gl_CooperativeMatrixLayoutRowMajor); }
")
_vkconv_probe(VKCONV_HAVE_BF16_TYPE "#version 460
#extension GL_EXT_bfloat16 : require
layout(local_size_x=1) in; layout(binding=0) buffer B { bfloat16_t d[]; };
void main(){ d[0] = bfloat16_t(float(d[1]) * 2.0); }
")
message(STATUS "vkconv: shader compiler ${VKCONV_SHADER_COMPILER} (${GLSLANG_VALIDATOR})")
message(STATUS "vkconv: Vulkan headers 1.x.${VKCONV_VK_HEADER_VERSION} in ${VKCONV_VULKAN_INCLUDE}; volk in ${VKCONV_VOLK_DIR}")
message(STATUS "vkconv: cooperative-matrix kernels: ${VKCONV_HAVE_COOPMAT}; native bfloat16 shader type: ${VKCONV_HAVE_BF16_TYPE}"
               " (bf16 is emulated through 16-bit integers where OFF)")
