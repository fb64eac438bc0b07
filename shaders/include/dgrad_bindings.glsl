// The bindings of every backward-data kernel (src/conv/gradient.hpp DataGradTensors): dy, the
// filter, dx's epilogue operands (a transposed convolution's bias over C and residual), and dx,
// which PlanOptions::accumulate reads before writing.
#ifndef VKCONV_DGRAD_BINDINGS_GLSL
#define VKCONV_DGRAD_BINDINGS_GLSL
#include "dtype.glsl"

layout(set = 0, binding = 0, std430) readonly buffer GradOutputBuf { ELEM_T dy_[]; };
layout(set = 0, binding = 1, std430) readonly buffer FilterBuf { ELEM_T w_[]; };
layout(set = 0, binding = 2, std430) readonly buffer BiasBuf { ELEM_T bias_[]; };
layout(set = 0, binding = 3, std430) readonly buffer ResidualBuf { ELEM_T res_[]; };
layout(set = 0, binding = 4, std430) buffer GradInputBuf { ELEM_T dx_[]; };

#endif
