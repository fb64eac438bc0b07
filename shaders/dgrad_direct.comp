#version 460
// "dgrad_direct": one invocation per dx element.  dx[n,c,h,w] sums dy[n,k,p,q] * w[k,c,r,s] over
// the filters k of c's group and the taps whose position p*stride - pad + r*dil lands on h: the
// taps of other stride phases are skipped, not multiplied by inserted zeros.  Every dtype, layout,
// padding, stride, dilation and group count; the GPU reference of the backward-data pass.
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "dgrad_bindings.glsl"
#include "tensor_index.glsl"
#include "dgrad_epilogue.glsl"

layout(constant_id = 100) const uint WG_SIZE = 64;
layout(local_size_x_id = 100) in;

// The dy index along one axis that tap t reaches from input position i, or -1.
int tapSource(uint i, uint t, uint pad, uint stride, uint dil, uint extent) {
    int num = int(i) + int(pad) - int(t * dil);
    if (num < 0 || num % int(stride) != 0) return -1;
    int o = num / int(stride);
    return o < int(extent) ? o : -1;
}

void main() {
    uint linear = globalLinearIndex(WG_SIZE);
    if (linear >= pc.N * pc.C * pc.H * pc.W) return;
    uvec4 i = decodeOutput(IN_LAYOUT, linear, pc.C, pc.H, pc.W);
    uint n = i.x, c = i.y, h = i.z, w = i.w;

    uint Cg = pc.C / pc.groups;
    uint Kg = pc.K / pc.groups;
    uint kBase = (c / Cg) * Kg;
    uint cl = c % Cg;
    float acc = 0.0;
    for (uint r = 0u; r < pc.R; ++r) {
        int p = tapSource(h, r, pc.padT, pc.strideH, pc.dilH, pc.P);
        if (p < 0) continue;
        for (uint s = 0u; s < pc.S; ++s) {
            int q = tapSource(w, s, pc.padL, pc.strideW, pc.dilW, pc.Q);
            if (q < 0) continue;
            for (uint kk = 0u; kk < Kg; ++kk) {
                uint k = kBase + kk;
                float dyv = toF32(dy_[activationOffset(OUT_LAYOUT, n, k, uint(p), uint(q), pc.K, pc.P, pc.Q)]);
                float wv = toF32(w_[filterOffset(FILTER_LAYOUT, k, cl, r, s, Cg, pc.R, pc.S)]);
                acc = fma(dyv, wv, acc);
            }
        }
    }
    storeGradInput(linear, c, acc);
}
