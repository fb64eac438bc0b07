#version 460
// Split-K, pass 2 (splitk.glsl): one invocation per output element, in the output's memory
// order (so workspace reads and output writes are contiguous in every layout).  Adds the
// pc.splitK fp32 partials in a fixed order (z = 0, 1, ...: deterministic, no atomics), then runs
// the fused epilogue (bias, residual, activation, conversion) once.
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "epilogue.glsl"
#include "splitk.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(local_size_x_id = 100) in;

void main() {
    uint total = outputElements();
    uint off = globalLinearIndex(WG_SIZE);
    if (off >= total) return;
    float acc = ws_[off];
    for (uint z = 1u; z < pc.splitK; ++z) acc += ws_[z * total + off];
    storeOutput(off, decodeOutput(OUT_LAYOUT, off, pc.K, pc.P, pc.Q).y, acc);
}
