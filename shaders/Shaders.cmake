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
endforeach()
