#version 460
// Level 0, "direct": one invocation per output element, every dtype/layout/padding/stride/
// dilation/group count/epilogue.  It is the GPU reference every faster kernel is checked
// against and the fallback when they all decline, so it favours obviousness over speed.
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "epilogue.glsl"

layout(constant_id = 100) const uint WG_SIZE = 64;
layout(local_size_x_id = 100) in;

void main() {
    uint linear = globalLinearIndex(WG_SIZE);
    if (linear >= pc.N * pc.K * pc.P * pc.Q) return;
    uvec4 o = decodeOutput(OUT_LAYOUT, linear, pc.K, pc.P, pc.Q);
    uint n = o.x, k = o.y, p = o.z, q = o.w;

    uint Cg = pc.C / pc.groups;
    uint Kg = pc.K / pc.groups;
    uint cBase = (k / Kg) * Cg;
    float acc = 0.0;
    for (uint r = 0u; r < pc.R; ++r) {
        int ih = int(p * pc.strideH + r * pc.dilH) - int(pc.padT);
        if (ih < 0 || ih >= int(pc.H)) continue;
        for (uint s = 0u; s < pc.S; ++s) {
            int iw = int(q * pc.strideW + s * pc.dilW) - int(pc.padL);
            if (iw < 0 || iw >= int(pc.W)) continue;
            for (uint c = 0u; c < Cg; ++c) {
                float xv = toF32(x_[activationOffset(IN_LAYOUT, n, cBase + c, uint(ih), uint(iw), pc.C, pc.H, pc.W)]);
                float wv = toF32(w_[filterOffset(FILTER_LAYOUT, k, c, r, s, Cg, pc.R, pc.S)]);
                acc = fma(xv, wv, acc);
            }
        }
    }
    storeOutput(linear, k, acc);
}
