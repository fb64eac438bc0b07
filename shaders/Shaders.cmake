# Every shipped SPIR-V variant: vkconv_add_shader(NAME SOURCE DEFINES REQUIRES).
# Names follow <family>_<dtype>[_<variant>]; src/conv looks them up by that name.
foreach(dt f32 f16 bf16)
  string(TOUPPER ${dt} DT)
  vkconv_add_shader(NAME direct_${dt} SOURCE direct.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME direct_blocked_${dt} SOURCE direct_blocked.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME direct_tiled_${dt} SOURCE direct_tiled.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME direct_few_channels_${dt} SOURCE direct_few_channels.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME direct_few_filters_${dt} SOURCE direct_few_filters.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME gemv_${dt} SOURCE gemv.comp DEFINES DTYPE_${DT}=1)
endforeach()

# The benchmark's peak probes (FMA rate, cooperative-matrix rate, copy bandwidth).
include(${CMAKE_CURRENT_LIST_DIR}/peak/Peak.cmake OPTIONAL)

foreach(dt f32 f16 bf16)
  string(TOUPPER ${dt} DT)
  vkconv_add_shader(NAME implicit_gemm_${dt} SOURCE implicit_gemm.comp DEFINES DTYPE_${DT}=1)
  # Split-K: the same kernel writing fp32 partial sums, and the pass that adds them (epilogue).
  vkconv_add_shader(NAME implicit_gemm_splitk_${dt} SOURCE implicit_gemm.comp DEFINES DTYPE_${DT}=1 SPLIT_K=1)
  # 4-wide staging (VEC_A / VEC_AM / VEC_B) with its own address arithmetic (implicit_gemm.comp).
  vkconv_add_shader(NAME implicit_gemm_vec_${dt} SOURCE implicit_gemm.comp DEFINES DTYPE_${DT}=1 VEC_STAGING=1)
  vkconv_add_shader(NAME implicit_gemm_splitk_vec_${dt} SOURCE implicit_gemm.comp DEFINES DTYPE_${DT}=1 SPLIT_K=1 VEC_STAGING=1)
  # Per-element taps (C/groups not a multiple of BK) read from a shared-memory table (implicit_gemm.comp).
  vkconv_add_shader(NAME implicit_gemm_tap_${dt} SOURCE implicit_gemm.comp DEFINES DTYPE_${DT}=1 TAP_TABLE=1)
  vkconv_add_shader(NAME implicit_gemm_splitk_tap_${dt} SOURCE implicit_gemm.comp DEFINES DTYPE_${DT}=1 SPLIT_K=1 TAP_TABLE=1)
  vkconv_add_shader(NAME splitk_reduce_${dt} SOURCE splitk_reduce.comp DEFINES DTYPE_${DT}=1)
endforeach()

foreach(dt f32 f16 bf16)
  string(TOUPPER ${dt} DT)
  # NCHW -> NHWC and KCRS -> KRSC ahead of the NHWC kernels (implicit_gemm_nhwc).
  vkconv_add_shader(NAME layout_transpose_${dt} SOURCE layout_transpose.comp DEFINES DTYPE_${DT}=1)
  if(NOT dt STREQUAL "f32")  # 16-bit activations in 32-bit words of two elements
    vkconv_add_shader(NAME layout_transpose_pairs_${dt} SOURCE layout_transpose.comp DEFINES DTYPE_${DT}=1 PAIRS=1)
  endif()
  # Plan::recordPackFilter for plans that read the filter as given.
  vkconv_add_shader(NAME tensor_copy_${dt} SOURCE tensor_copy.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME depthwise_${dt} SOURCE depthwise.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME depthwise_tiled_${dt} SOURCE depthwise_tiled.comp DEFINES DTYPE_${DT}=1)
endforeach()

# Cooperative-matrix implicit GEMM (16-bit operands, fp32 accumulation).  The bf16 variant needs a
# glslang with GL_EXT_bfloat16 (VkconvToolchain.cmake); TRY keeps a shader edit that breaks only it
# from breaking the build (bf16 then stays on the emulated kernels, with a configure warning).
vkconv_add_shader(NAME implicit_gemm_coopmat_f16 SOURCE implicit_gemm_coopmat.comp DEFINES DTYPE_F16=1 REQUIRES COOPMAT)
vkconv_add_shader(NAME implicit_gemm_coopmat_bf16 SOURCE implicit_gemm_coopmat.comp DEFINES DTYPE_BF16=1
                  REQUIRES COOPMAT BF16_COOPMAT TRY)
# Split-K pass 1 (pass 2 is splitk_reduce_*).
vkconv_add_shader(NAME implicit_gemm_coopmat_splitk_f16 SOURCE implicit_gemm_coopmat.comp DEFINES DTYPE_F16=1 SPLIT_K=1
                  REQUIRES COOPMAT)
vkconv_add_shader(NAME implicit_gemm_coopmat_splitk_bf16 SOURCE implicit_gemm_coopmat.comp DEFINES DTYPE_BF16=1 SPLIT_K=1
                  REQUIRES COOPMAT BF16_COOPMAT TRY)
# Profiling-only (vkconv-bench --trace): the one-pass kernel reading its
# clocks at each phase into the workspace (shaders/include/coopmat_trace.glsl); the emulated one
# lets CI check the trace's layout on lavapipe.
vkconv_add_shader(NAME implicit_gemm_coopmat_trace_f16 SOURCE implicit_gemm_coopmat.comp DEFINES DTYPE_F16=1 CM_TRACE=1
                  REQUIRES COOPMAT)
vkconv_add_shader(NAME implicit_gemm_coopmat_emu_trace_f16 SOURCE implicit_gemm_coopmat.comp DEFINES DTYPE_F16=1 CM_EMULATE=1
                  CM_TRACE=1)
# Test-only: the same kernel with the matrix products emulated (test hook coopmat_emulate, CI on
# lavapipe); any glslang builds them, bf16 included.
vkconv_add_shader(NAME implicit_gemm_coopmat_emu_f16 SOURCE implicit_gemm_coopmat.comp DEFINES DTYPE_F16=1 CM_EMULATE=1)
vkconv_add_shader(NAME implicit_gemm_coopmat_emu_bf16 SOURCE implicit_gemm_coopmat.comp DEFINES DTYPE_BF16=1 CM_EMULATE=1)
vkconv_add_shader(NAME implicit_gemm_coopmat_emu_splitk_f16 SOURCE implicit_gemm_coopmat.comp DEFINES DTYPE_F16=1 CM_EMULATE=1 SPLIT_K=1)
vkconv_add_shader(NAME implicit_gemm_coopmat_emu_splitk_bf16 SOURCE implicit_gemm_coopmat.comp DEFINES DTYPE_BF16=1 CM_EMULATE=1 SPLIT_K=1)

# Winograd F(2x2,3x3) and F(4x4,3x3): the input, filter and output transforms around a batched
# GEMM that runs through the other algorithms (a grouped 1x1 convolution).
foreach(dt f32 f16 bf16)
  string(TOUPPER ${dt} DT)
  foreach(m 2 4)
    foreach(pass input filter output)
      vkconv_add_shader(NAME winograd${m}_${pass}_${dt} SOURCE winograd_${pass}.comp DEFINES DTYPE_${DT}=1 WINO_M=${m})
    endforeach()
  endforeach()
endforeach()
# Scaled bf16 with per-tile exponents (LOCAL_SCALE) on devices with subgroup arithmetic: the
# groups' maxima through subgroupMax (shaders/include/winograd_scale.glsl WINO_SUBGROUP_MAX).
foreach(m 2 4)
  foreach(pass input filter)
    vkconv_add_shader(NAME winograd${m}_${pass}_bf16_sg SOURCE winograd_${pass}.comp DEFINES DTYPE_BF16=1 WINO_M=${m} WINO_SUBGROUP_MAX=1)
  endforeach()
endforeach()
# Scaled fp16 operands for bf16 layers: the inputs' and filters' largest magnitudes, then the
# transforms' power-of-two scales (winograd_range.comp; any 16-bit dtype, decoded by a spec constant).
vkconv_add_shader(NAME winograd_range SOURCE winograd_range.comp)

# First layers (C/groups <= 8) on the matrix units: a column-expanded halo makes each pixel's
# reduction one contiguous window (few_channels_coopmat.comp).  Same build rules as above.
vkconv_add_shader(NAME few_channels_coopmat_f16 SOURCE few_channels_coopmat.comp DEFINES DTYPE_F16=1 REQUIRES COOPMAT)
vkconv_add_shader(NAME few_channels_coopmat_bf16 SOURCE few_channels_coopmat.comp DEFINES DTYPE_BF16=1
                  REQUIRES COOPMAT BF16_COOPMAT TRY)
vkconv_add_shader(NAME few_channels_coopmat_emu_f16 SOURCE few_channels_coopmat.comp DEFINES DTYPE_F16=1 CM_EMULATE=1)
vkconv_add_shader(NAME few_channels_coopmat_emu_bf16 SOURCE few_channels_coopmat.comp DEFINES DTYPE_BF16=1 CM_EMULATE=1)

# 1x1 stride-1 layers of few channels on the matrix units: filters staged once, subgroups
# streaming their pixel blocks (pointwise_coopmat.comp).  Same build rules as above.
vkconv_add_shader(NAME pointwise_coopmat_f16 SOURCE pointwise_coopmat.comp DEFINES DTYPE_F16=1 REQUIRES COOPMAT)
vkconv_add_shader(NAME pointwise_coopmat_bf16 SOURCE pointwise_coopmat.comp DEFINES DTYPE_BF16=1
                  REQUIRES COOPMAT BF16_COOPMAT TRY)
vkconv_add_shader(NAME pointwise_coopmat_emu_f16 SOURCE pointwise_coopmat.comp DEFINES DTYPE_F16=1 CM_EMULATE=1)
vkconv_add_shader(NAME pointwise_coopmat_emu_bf16 SOURCE pointwise_coopmat.comp DEFINES DTYPE_BF16=1 CM_EMULATE=1)

# 1x1 stride-1 layers of few pixels and deep reductions: the subgroups of a workgroup split the
# reduction and add their partial tiles (slicedk_coopmat.comp).  Same build rules as above.
vkconv_add_shader(NAME slicedk_coopmat_f16 SOURCE slicedk_coopmat.comp DEFINES DTYPE_F16=1 REQUIRES COOPMAT)
vkconv_add_shader(NAME slicedk_coopmat_bf16 SOURCE slicedk_coopmat.comp DEFINES DTYPE_BF16=1
                  REQUIRES COOPMAT BF16_COOPMAT TRY)
vkconv_add_shader(NAME slicedk_coopmat_emu_f16 SOURCE slicedk_coopmat.comp DEFINES DTYPE_F16=1 CM_EMULATE=1)
vkconv_add_shader(NAME slicedk_coopmat_emu_bf16 SOURCE slicedk_coopmat.comp DEFINES DTYPE_BF16=1 CM_EMULATE=1)

# Stride-1 layers on the matrix units: one staged channel slice of the input halo serves every
# filter tap (halo_coopmat.comp).  Same build rules as above.
vkconv_add_shader(NAME halo_coopmat_f16 SOURCE halo_coopmat.comp DEFINES DTYPE_F16=1 REQUIRES COOPMAT)
vkconv_add_shader(NAME halo_coopmat_bf16 SOURCE halo_coopmat.comp DEFINES DTYPE_BF16=1 REQUIRES COOPMAT BF16_COOPMAT TRY)
vkconv_add_shader(NAME halo_coopmat_emu_f16 SOURCE halo_coopmat.comp DEFINES DTYPE_F16=1 CM_EMULATE=1)
vkconv_add_shader(NAME halo_coopmat_emu_bf16 SOURCE halo_coopmat.comp DEFINES DTYPE_BF16=1 CM_EMULATE=1)

# Grouped layers of few channels per group on the matrix units: a tile of consecutive groups as
# one block-diagonal GEMM over their contiguous channels (grouped_coopmat.comp).  Same build rules
# as above.
vkconv_add_shader(NAME grouped_coopmat_f16 SOURCE grouped_coopmat.comp DEFINES DTYPE_F16=1 REQUIRES COOPMAT)
vkconv_add_shader(NAME grouped_coopmat_bf16 SOURCE grouped_coopmat.comp DEFINES DTYPE_BF16=1 REQUIRES COOPMAT BF16_COOPMAT TRY)
vkconv_add_shader(NAME grouped_coopmat_emu_f16 SOURCE grouped_coopmat.comp DEFINES DTYPE_F16=1 CM_EMULATE=1)
vkconv_add_shader(NAME grouped_coopmat_emu_bf16 SOURCE grouped_coopmat.comp DEFINES DTYPE_BF16=1 CM_EMULATE=1)

# The backward passes: backward-data (dgrad_*: dx from dy and the filter; a transposed
# convolution) and backward-weight (wgrad_*: dw and the bias gradient from x and dy).
foreach(dt f32 f16 bf16)
  string(TOUPPER ${dt} DT)
  vkconv_add_shader(NAME dgrad_direct_${dt} SOURCE dgrad_direct.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME dgrad_implicit_gemm_${dt} SOURCE dgrad_implicit_gemm.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME dgrad_filter_flip_${dt} SOURCE dgrad_filter_flip.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME dgrad_phase_filter_${dt} SOURCE dgrad_phase_filter.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME dgrad_phase_scatter_${dt} SOURCE dgrad_phase_scatter.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME wgrad_direct_${dt} SOURCE wgrad_direct.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME wgrad_bias_${dt} SOURCE wgrad_bias.comp DEFINES DTYPE_${DT}=1)
  # The implicit GEMM and the depthwise kernel of the weight gradient, and their split reduction.
  vkconv_add_shader(NAME wgrad_implicit_gemm_${dt} SOURCE wgrad_implicit_gemm.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME wgrad_depthwise_${dt} SOURCE wgrad_depthwise.comp DEFINES DTYPE_${DT}=1)
  vkconv_add_shader(NAME wgrad_reduce_${dt} SOURCE wgrad_reduce.comp DEFINES DTYPE_${DT}=1)
endforeach()
# The weight gradient's implicit GEMM on the matrix units, and its emulated test-only builds.
vkconv_add_shader(NAME wgrad_coopmat_f16 SOURCE wgrad_coopmat.comp DEFINES DTYPE_F16=1 REQUIRES COOPMAT)
vkconv_add_shader(NAME wgrad_coopmat_bf16 SOURCE wgrad_coopmat.comp DEFINES DTYPE_BF16=1 REQUIRES COOPMAT BF16_COOPMAT TRY)
vkconv_add_shader(NAME wgrad_coopmat_emu_f16 SOURCE wgrad_coopmat.comp DEFINES DTYPE_F16=1 CM_EMULATE=1)
vkconv_add_shader(NAME wgrad_coopmat_emu_bf16 SOURCE wgrad_coopmat.comp DEFINES DTYPE_BF16=1 CM_EMULATE=1)
