#version 460
// Winograd F(m x m, 3x3), the filter transform as a pass of its own
// (shaders/include/winograd_filter_transform.glsl), writing U to binding 5 (fp32, or 16-bit
// under WS16).  Recorded on every call where the input transform's dispatch does not take it
// (the filters are the caller's buffer and may change between calls), and by Plan::packFilter.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "winograd.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(local_size_x_id = 100) in;
#include "winograd_scale.glsl"

#define U_STORE(i, v) WS_STORE(i, v)
#define U2_STORE(i, v) WS2_STORE(i, v)
#define U_PAIRS PAIRS
#include "winograd_filter_transform.glsl"

void main() { filterTransform(globalLinearIndex(WG_SIZE)); }
