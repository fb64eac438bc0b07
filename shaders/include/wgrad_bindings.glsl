// The bindings of every backward-weight kernel (src/conv/gradient.hpp WeightGradTensors): x, dy,
// the bias gradient and dw (both read before writing with PlanOptions::accumulate), and the
// workspace of fp32 partial sums.
#ifndef VKCONV_WGRAD_BINDINGS_GLSL
#define VKCONV_WGRAD_BINDINGS_GLSL
#include "dtype.glsl"

layout(set = 0, binding = 0, std430) readonly buffer InputBuf { ELEM_T x_[]; };
layout(set = 0, binding = 1, std430) readonly buffer GradOutputBuf { ELEM_T dy_[]; };
layout(set = 0, binding = 2, std430) buffer GradBiasBuf { ELEM_T db_[]; };
layout(set = 0, binding = 4, std430) buffer GradFilterBuf { ELEM_T dw_[]; };
layout(set = 0, binding = 5, std430) buffer WorkspaceBuf { float ws_[]; };

#endif
