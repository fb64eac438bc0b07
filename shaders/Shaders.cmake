# Every shipped SPIR-V variant: vkconv_add_shader(NAME SOURCE DEFINES REQUIRES).
# Names follow <family>_<dtype>[_<variant>]; src/conv looks them up by that name.
foreach(dt f32 f16 bf16)
  string(TOUPPER ${dt} DT)
  vkconv_add_shader(NAME direct_${dt} SOURCE direct.comp DEFINES DTYPE_${DT}=1)
endforeach()

# The benchmark's peak probes (FMA rate, cooperative-matrix rate, copy bandwidth).
include(${CMAKE_CURRENT_LIST_DIR}/peak/Peak.cmake OPTIONAL)

foreach(dt f32 f16 bf16)
  string(TOUPPER ${dt} DT)
  vkconv_add_shader(NAME implicit_gemm_${dt} SOURCE implicit_gemm.comp DEFINES DTYPE_${DT}=1)
  # Split-K: the same kernel writing fp32 partial sums, and the pass that adds them (epilogue).
  vkconv_add_shader(NAME implicit_gemm_splitk_${dt} SOURCE implicit_gemm.comp DEFINES DTYPE_${DT}=1 SPLIT_K=1)
  vkconv_add_shader(NAME splitk_reduce_${dt} SOURCE splitk_reduce.comp DEFINES DTYPE_${DT}=1)
endforeach()

foreach(dt f32 f16 bf16)
  string(TOUPPER ${dt} DT)
  vkconv_add_shader(NAME depthwise_${dt} SOURCE depthwise.comp DEFINES DTYPE_${DT}=1)
endforeach()

# Cooperative-matrix implicit GEMM (16-bit operands, fp32 accumulation).  The bf16 variant needs
# GL_EXT_bfloat16 and is added only when this very shader compiles with it (as the bf16 peak probe).
vkconv_add_shader(NAME implicit_gemm_coopmat_f16 SOURCE implicit_gemm_coopmat.comp DEFINES DTYPE_F16=1 REQUIRES COOPMAT)
# Test-only: the same kernel with the matrix products emulated (VKCONV_COOPMAT_EMULATE=1, CI on lavapipe).
vkconv_add_shader(NAME implicit_gemm_coopmat_emu_f16 SOURCE implicit_gemm_coopmat.comp DEFINES DTYPE_F16=1 CM_EMULATE=1)
if(VKCONV_HAVE_COOPMAT AND VKCONV_HAVE_BF16_TYPE)
  execute_process(COMMAND ${GLSLANG_VALIDATOR} -V --target-env vulkan1.2 -I${CMAKE_CURRENT_LIST_DIR}/include -DDTYPE_BF16=1
                          "${CMAKE_CURRENT_LIST_DIR}/implicit_gemm_coopmat.comp" -o "${CMAKE_BINARY_DIR}/probes/igemm_cm_bf16.spv"
                  RESULT_VARIABLE _igemm_cm_bf16 OUTPUT_QUIET ERROR_QUIET)
  if(_igemm_cm_bf16 EQUAL 0)
    vkconv_add_shader(NAME implicit_gemm_coopmat_bf16 SOURCE implicit_gemm_coopmat.comp DEFINES DTYPE_BF16=1
                      REQUIRES COOPMAT BF16_TYPE)
  else()
    message(STATUS "vkconv: skipping shader implicit_gemm_coopmat_bf16 (the compiler rejects it)")
  endif()
endif()
