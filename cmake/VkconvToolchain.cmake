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

# JSON (device profiles, the benchmark's reports): header-only, used by the library's sources and
# the tools, never by an installed header, so the installed package does not depend on it.
find_package(nlohmann_json 3.10 REQUIRED)

find_path(VKCONV_VOLK_DIR volk.c HINTS "${_tc_inc}" /usr/include /usr/local/include PATH_SUFFIXES "" volk NO_DEFAULT_PATH)
if(NOT VKCONV_VOLK_DIR)
  message(FATAL_ERROR "volk (volk.c/volk.h) not found: install libvulkan-volk-dev / volk, or run scripts/setup.sh")
endif()

function(_vkconv_compiler_name var glslang)
  execute_process(COMMAND ${glslang} --version OUTPUT_VARIABLE _gv OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  string(REGEX MATCH "Glslang Version: [^\n]*" _name "${_gv}")
  string(REPLACE "Glslang Version: " "glslang " _name "${_name}")
  set(${var} "${_name}" PARENT_SCOPE)
endfunction()
_vkconv_compiler_name(VKCONV_SHADER_COMPILER ${GLSLANG_VALIDATOR})

# Feature probes: compile a tiny shader using the extension and validate it, with the main
# glslang + spirv-val unless GLSLANG / SPIRV_VAL name another toolchain.
function(_vkconv_probe var source)
  cmake_parse_arguments(A "" "GLSLANG;SPIRV_VAL" "" ${ARGN})
  if(NOT A_GLSLANG)
    set(A_GLSLANG ${GLSLANG_VALIDATOR})
    set(A_SPIRV_VAL ${SPIRV_VAL})
  endif()
  set(_f "${PROJECT_BINARY_DIR}/probes/${var}.comp")
  file(WRITE "${_f}" "${source}")
  execute_process(COMMAND ${A_GLSLANG} -V --target-env vulkan1.2 "${_f}" -o "${_f}.spv"
                  RESULT_VARIABLE _r OUTPUT_QUIET ERROR_QUIET)
  if(_r EQUAL 0)
    execute_process(COMMAND ${A_SPIRV_VAL} --target-env vulkan1.2 "${_f}.spv" RESULT_VARIABLE _r OUTPUT_QUIET ERROR_QUIET)
  endif()
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

# bf16 cooperative matrices (GL_EXT_bfloat16 -> SPV_KHR_bfloat16; glslang >= 15.3 and a spirv-val
# that knows the extension).  The main toolchain where it can; else Debian forky's, which
# scripts/setup.sh puts in ${VKCONV_TOOLCHAIN}/forky on Debian 12 (Debian 13's glslang 15.2 cannot).
# The bf16 variants (REQUIRES BF16_COOPMAT) are compiled and validated by the toolchain that passed:
# VKCONV_BF16_GLSLANG / VKCONV_BF16_SPIRV_VAL.  Where none does, bf16 stays on the emulated kernels.
set(_bf16_probe "#version 460
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_bfloat16 : require
layout(local_size_x=32) in; layout(binding=0) buffer B { bfloat16_t d[]; };
void main(){ coopmat<bfloat16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a;
coopMatLoad(a, d, 0, 16, gl_CooperativeMatrixLayoutRowMajor); coopMatStore(a, d, 0, 16, gl_CooperativeMatrixLayoutRowMajor); }
")
set(VKCONV_BF16_GLSLANG "")
set(VKCONV_BF16_SPIRV_VAL "")
set(VKCONV_BF16_SHADER_COMPILER "")
_vkconv_probe(VKCONV_HAVE_BF16_COOPMAT "${_bf16_probe}")
if(VKCONV_HAVE_BF16_COOPMAT)
  set(VKCONV_BF16_GLSLANG ${GLSLANG_VALIDATOR})
  set(VKCONV_BF16_SPIRV_VAL ${SPIRV_VAL})
  set(VKCONV_BF16_SHADER_COMPILER "${VKCONV_SHADER_COMPILER}")
elseif(EXISTS "${VKCONV_TOOLCHAIN}/forky/bin/glslangValidator" AND EXISTS "${VKCONV_TOOLCHAIN}/forky/bin/spirv-val")
  _vkconv_probe(VKCONV_HAVE_BF16_COOPMAT "${_bf16_probe}"
                GLSLANG "${VKCONV_TOOLCHAIN}/forky/bin/glslangValidator" SPIRV_VAL "${VKCONV_TOOLCHAIN}/forky/bin/spirv-val")
  if(VKCONV_HAVE_BF16_COOPMAT)
    set(VKCONV_BF16_GLSLANG "${VKCONV_TOOLCHAIN}/forky/bin/glslangValidator")
    set(VKCONV_BF16_SPIRV_VAL "${VKCONV_TOOLCHAIN}/forky/bin/spirv-val")
    _vkconv_compiler_name(VKCONV_BF16_SHADER_COMPILER ${VKCONV_BF16_GLSLANG})
    # What the library reports as its shader compiler names both.
    string(APPEND VKCONV_SHADER_COMPILER " + ${VKCONV_BF16_SHADER_COMPILER} (bf16)")
  endif()
endif()
if(NOT VKCONV_HAVE_COOPMAT)
  set(VKCONV_HAVE_BF16_COOPMAT OFF)  # no cooperative-matrix kernels at all
endif()

# Every variant is validated, besides by its own toolchain's spirv-val, by the newest one at hand
# (VKCONV_SPIRV_VAL_NEWEST, or none where that is its own): drivers' validation layers check rules
# older SPIRV-Tools do not, and a shader that breaks one would fail on the device, not here
# (VUID-StandaloneSpirv-MemorySemantics-10871, a relaxed atomic naming WorkgroupMemory: Debian
# 13's SPIRV-Tools 2025.1 passed it, the H200's layer 1.4.363 and forky's 2026.4 reject it).
function(_vkconv_spirv_val_version var exe)
  execute_process(COMMAND ${exe} --version OUTPUT_VARIABLE _v ERROR_QUIET)
  string(REGEX MATCH "v([0-9]+\\.[0-9]+)" _m "${_v}")
  set(${var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()
set(VKCONV_SPIRV_VAL_NEWEST "")
_vkconv_spirv_val_version(_main_val_version ${SPIRV_VAL})
set(_newest_version "${_main_val_version}")
foreach(_cand "${VKCONV_BF16_SPIRV_VAL}" "${VKCONV_TOOLCHAIN}/forky/bin/spirv-val")
  if(_cand AND EXISTS "${_cand}")
    _vkconv_spirv_val_version(_cand_version ${_cand})
    if(_cand_version AND (NOT _newest_version OR _cand_version VERSION_GREATER _newest_version))
      set(VKCONV_SPIRV_VAL_NEWEST "${_cand}")
      set(_newest_version "${_cand_version}")
    endif()
  endif()
endforeach()
if(VKCONV_SPIRV_VAL_NEWEST)
  message(STATUS "vkconv: every shader also validated by spirv-val ${_newest_version} (${VKCONV_SPIRV_VAL_NEWEST})")
endif()

message(STATUS "vkconv: shader compiler ${VKCONV_SHADER_COMPILER} (${GLSLANG_VALIDATOR})")
message(STATUS "vkconv: Vulkan headers 1.x.${VKCONV_VK_HEADER_VERSION} in ${VKCONV_VULKAN_INCLUDE}; volk in ${VKCONV_VOLK_DIR}")
message(STATUS "vkconv: cooperative-matrix kernels: ${VKCONV_HAVE_COOPMAT}")
if(VKCONV_HAVE_BF16_COOPMAT)
  message(STATUS "vkconv: bf16 cooperative-matrix kernels: ON (${VKCONV_BF16_GLSLANG} + ${VKCONV_BF16_SPIRV_VAL})")
else()
  message(STATUS "vkconv: bf16 cooperative-matrix kernels: OFF (no glslang here compiles GL_EXT_bfloat16 cooperative "
                 "matrices; on Debian 12 scripts/setup.sh fetches one into ${VKCONV_TOOLCHAIN}/forky): bf16 is emulated")
endif()
