# vkconv-bench --peak probes (bench/peak.cpp): FMA rate, copy bandwidth, cooperative-matrix rate.
# Included by shaders/Shaders.cmake.  Coopmat variants are named peak_cm_<A>_<B>_<C> with the
# component names of CoopMatConfig::toString() (f16, bf16, s8, u8, f16, f32, s32, u32).
vkconv_add_shader(NAME peak_fma_f32 SOURCE peak/fma.comp)
vkconv_add_shader(NAME peak_fma_f16 SOURCE peak/fma.comp DEFINES PEAK_F16=1)
vkconv_add_shader(NAME peak_copy SOURCE peak/copy.comp)
vkconv_add_shader(NAME peak_cache_read SOURCE peak/cache_read.comp)

foreach(c f16 f32)
  string(TOUPPER ${c} C)
  vkconv_add_shader(NAME peak_cm_f16_f16_${c} SOURCE peak/coopmat.comp DEFINES A_F16=1 B_F16=1 C_${C}=1 REQUIRES COOPMAT)
endforeach()
# bf16 needs a glslang with GL_EXT_bfloat16 (VkconvToolchain.cmake: maybe Debian forky's).
vkconv_add_shader(NAME peak_cm_bf16_bf16_f32 SOURCE peak/coopmat.comp DEFINES A_BF16=1 B_BF16=1 C_F32=1
                  REQUIRES COOPMAT BF16_COOPMAT TRY)
foreach(a s8 u8)
  foreach(b s8 u8)
    foreach(c s32 u32)
      string(TOUPPER "${a};${b};${c}" U)
      list(GET U 0 A)
      list(GET U 1 B)
      list(GET U 2 C)
      vkconv_add_shader(NAME peak_cm_${a}_${b}_${c} SOURCE peak/coopmat.comp DEFINES A_${A}=1 B_${B}=1 C_${C}=1 REQUIRES COOPMAT)
    endforeach()
  endforeach()
endforeach()
# The slice loop of the matrix kernels alone: fragments from shared memory (bench/peak.cpp).
vkconv_add_shader(NAME peak_cm_smem_f16 SOURCE peak/coopmat_smem.comp REQUIRES COOPMAT)
