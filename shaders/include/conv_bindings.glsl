// The descriptor bindings every convolution kernel shares (src/conv/bindings.hpp).
// Bias and residual are always bound (to a dummy when absent), so kernels may reference them
// under spec-constant branches.
#ifndef VKCONV_CONV_BINDINGS_GLSL
#define VKCONV_CONV_BINDINGS_GLSL
#include "dtype.glsl"

layout(set = 0, binding = 0, std430) readonly buffer InputBuf { ELEM_T x_[]; };
layout(set = 0, binding = 1, std430) readonly buffer FilterBuf { ELEM_T w_[]; };
layout(set = 0, binding = 2, std430) readonly buffer BiasBuf { ELEM_T bias_[]; };
layout(set = 0, binding = 3, std430) readonly buffer ResidualBuf { ELEM_T res_[]; };
layout(set = 0, binding = 4, std430) writeonly buffer OutputBuf { ELEM_T y_[]; };

// 4-wide views of the same input and filter bindings, for kernels that load four consecutive
// channels at once (offsets in units of 4 elements; the host guarantees the alignment).
layout(set = 0, binding = 0, std430) readonly buffer InputBuf4 { VEC4_T x4_[]; };
layout(set = 0, binding = 1, std430) readonly buffer FilterBuf4 { VEC4_T w4_[]; };

#endif
