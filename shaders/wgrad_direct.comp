#version 460
// "wgrad_direct": one invocation per dw element.  dw[k,c,r,s] sums dy[n,k,p,q] *
// x[n, g*C/groups + c, p*stride - pad + r*dil, ...] over n, p and q in a fixed order, in fp32.
// Every dtype, layout, padding, stride, dilation and group count; the GPU reference of the
// backward-weight pass.
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "wgrad_bindings.glsl"
#include "tensor_index.glsl"

layout(constant_id = 100) const uint WG_SIZE = 64;
layout(local_size_x_id = 100) in;

void main() {
    uint linear = globalLinearIndex(WG_SIZE);
    uint Cg = pc.C / pc.groups;
    if (linear >= pc.K * Cg * pc.R * pc.S) return;
    uint k, c, r, s, t = linear;
    if (FILTER_LAYOUT == 0u) {
        s = t % pc.S; t /= pc.S;
        r = t % pc.R; t /= pc.R;
        c = t % Cg; k = t / Cg;
    } else {
        c = t % Cg; t /= Cg;
        s = t % pc.S; t /= pc.S;
        r = t % pc.R; k = t / pc.R;
    }
    uint cIn = (k / (pc.K / pc.groups)) * Cg + c;
    float acc = 0.0;
    for (uint n = 0u; n < pc.N; ++n)
        for (uint p = 0u; p < pc.P; ++p) {
            int ih = int(p * pc.strideH + r * pc.dilH) - int(pc.padT);
            if (ih < 0 || ih >= int(pc.H)) continue;
            for (uint q = 0u; q < pc.Q; ++q) {
                int iw = int(q * pc.strideW + s * pc.dilW) - int(pc.padL);
                if (iw < 0 || iw >= int(pc.W)) continue;
                float dyv = toF32(dy_[activationOffset(OUT_LAYOUT, n, k, p, q, pc.K, pc.P, pc.Q)]);
                float xv = toF32(x_[activationOffset(IN_LAYOUT, n, cIn, uint(ih), uint(iw), pc.C, pc.H, pc.W)]);
                acc = fma(dyv, xv, acc);
            }
        }
    if (ACCUMULATE) acc += toF32(dw_[linear]);
    dw_[linear] = fromF32(acc);
}
