# vkconv_add_shader(NAME <variant> SOURCE <file.comp> [DEFINES A=1 ...] [REQUIRES COOPMAT|BF16_COOPMAT ...] [TRY])
# compiles one SPIR-V variant at build time, validates it with spirv-val and queues it for
# embedding.  SPIR-V 1.5 (Vulkan 1.2 environment): local_size_x_id then uses the WorkgroupSize
# spec constant rather than 1.6's LocalSizeId, which would need maintenance4 enabled on adopted
# devices.  Variants whose REQUIRES the compiler lacks are skipped (said at configure time).
# REQUIRES BF16_COOPMAT variants are compiled and validated by the toolchain that passed the bf16
# probe (VkconvToolchain.cmake: VKCONV_BF16_GLSLANG / VKCONV_BF16_SPIRV_VAL, maybe Debian forky's).
# Every variant is also validated by the newest spirv-val at hand (VKCONV_SPIRV_VAL_NEWEST).
# TRY: compile and validate the variant once at configure time and skip it (with a warning) if
# that fails, so that an optional variant never breaks the build of the ones sharing its source.
# VKCONV_EMBEDDED_SHADERS: another build's generated/embedded_shaders.cpp, of this same source tree,
# compiled in place of compiling and embedding the shaders again (scripts/test.sh's sanitizer
# build: ~100 s of its ~250 on a 2-core machine).  Empty (the default): this build makes its own.
set(VKCONV_EMBEDDED_SHADERS "" CACHE FILEPATH "Reuse this embedded_shaders.cpp instead of compiling the shaders")
# glslang writes into these but does not create them, and only Ninja makes a rule's output
# directory by itself: made here, every generator (Unix Makefiles too) finds them.
file(MAKE_DIRECTORY "${PROJECT_BINARY_DIR}/spirv" "${PROJECT_BINARY_DIR}/probes" "${PROJECT_BINARY_DIR}/generated")
set_property(GLOBAL PROPERTY VKCONV_SHADER_NAMES "")
set_property(GLOBAL PROPERTY VKCONV_SHADER_SPVS "")
file(GLOB VKCONV_SHADER_INCLUDES CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/shaders/include/*.glsl")

function(vkconv_add_shader)
  cmake_parse_arguments(A "TRY" "NAME;SOURCE" "DEFINES;REQUIRES" ${ARGN})
  set(_glslang ${GLSLANG_VALIDATOR})
  set(_val ${SPIRV_VAL})
  foreach(req ${A_REQUIRES})
    if(NOT VKCONV_HAVE_${req})
      message(STATUS "vkconv: skipping shader ${A_NAME} (compiler lacks ${req})")
      return()
    endif()
    if(req STREQUAL "BF16_COOPMAT")
      set(_glslang ${VKCONV_BF16_GLSLANG})
      set(_val ${VKCONV_BF16_SPIRV_VAL})
    endif()
  endforeach()
  if(VKCONV_EMBEDDED_SHADERS)
    return()
  endif()
  set(_src "${PROJECT_SOURCE_DIR}/shaders/${A_SOURCE}")
  set(_spv "${PROJECT_BINARY_DIR}/spirv/${A_NAME}.spv")
  set(_defs "")
  foreach(d ${A_DEFINES})
    list(APPEND _defs "-D${d}")
  endforeach()
  set(_compile ${_glslang} -V --target-env vulkan1.2 --quiet -I${PROJECT_SOURCE_DIR}/shaders/include ${_defs} "${_src}")
  if(A_TRY)
    set(_probe "${PROJECT_BINARY_DIR}/probes/${A_NAME}.spv")
    execute_process(COMMAND ${_compile} -o "${_probe}" RESULT_VARIABLE _r OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
    if(_r EQUAL 0)
      execute_process(COMMAND ${_val} --target-env vulkan1.2 "${_probe}" RESULT_VARIABLE _r OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
    endif()
    if(NOT _r EQUAL 0)
      message(WARNING "vkconv: skipping shader ${A_NAME}: it does not compile or validate with ${_glslang}:\n${_out}")
      return()
    endif()
  endif()
  # The newest spirv-val too, where it is not this variant's own (VkconvToolchain.cmake).
  set(_newest_val "")
  if(VKCONV_SPIRV_VAL_NEWEST AND NOT VKCONV_SPIRV_VAL_NEWEST STREQUAL _val)
    set(_newest_val COMMAND ${VKCONV_SPIRV_VAL_NEWEST} --target-env vulkan1.2 "${_spv}")
  endif()
  add_custom_command(
    OUTPUT "${_spv}"
    COMMAND ${_compile} -o "${_spv}"
    COMMAND ${_val} --target-env vulkan1.2 "${_spv}"
    ${_newest_val}
    DEPENDS "${_src}" ${VKCONV_SHADER_INCLUDES}
    COMMENT "glslang + spirv-val: ${A_NAME}"
    VERBATIM)
  set_property(GLOBAL APPEND PROPERTY VKCONV_SHADER_NAMES "${A_NAME}")
  set_property(GLOBAL APPEND PROPERTY VKCONV_SHADER_SPVS "${_spv}")
endfunction()

# Generates one .cpp holding every compiled variant as a word array plus a lookup table
# (cmake/embed_spirv.cpp, a host tool built first).
function(vkconv_embed_shaders target)
  if(VKCONV_EMBEDDED_SHADERS)
    if(NOT EXISTS "${VKCONV_EMBEDDED_SHADERS}")
      message(FATAL_ERROR "VKCONV_EMBEDDED_SHADERS=${VKCONV_EMBEDDED_SHADERS} does not exist (build that tree first)")
    endif()
    add_library(${target} OBJECT "${VKCONV_EMBEDDED_SHADERS}")
    target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}/src")
    return()
  endif()
  get_property(_names GLOBAL PROPERTY VKCONV_SHADER_NAMES)
  get_property(_spvs GLOBAL PROPERTY VKCONV_SHADER_SPVS)
  set(_args "")
  foreach(_name _spv IN ZIP_LISTS _names _spvs)
    list(APPEND _args "${_name}" "${_spv}")
  endforeach()
  add_executable(vkconv_embed_spirv "${PROJECT_SOURCE_DIR}/cmake/embed_spirv.cpp")
  set(_out "${PROJECT_BINARY_DIR}/generated/embedded_shaders.cpp")
  add_custom_command(
    OUTPUT "${_out}"
    COMMAND vkconv_embed_spirv "${_out}" ${_args}
    DEPENDS ${_spvs} vkconv_embed_spirv
    COMMENT "Embedding SPIR-V"
    VERBATIM)
  add_library(${target} OBJECT "${_out}")
  target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}/src")
endfunction()
