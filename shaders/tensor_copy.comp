#version 460
// Element-for-element copy in the storage type (loads and stores only, so the bits are kept):
// the packed filter of plans whose algorithm reads the filter as given (src/conv/packed_filter.cpp).
// Reads binding 0, writes binding 4; pc.aux0 elements.
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(local_size_x_id = 100) in;

void main() {
    uint i = globalLinearIndex(WG_SIZE);
    if (i < pc.aux0) y_[i] = x_[i];
}
