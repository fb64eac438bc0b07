#version 460
// "dgrad_phases"' filter pass (src/conv/algo_dgrad_phases.cpp): one stride phase's sub-filter,
// the forward filter of that phase's convolution of dy.  The phase's taps along an axis are
// rLast, rLast - step, ..., M of them; sub-filter tap j is rLast - j*step (so flipped), and per
// group w'[g*Cg + c][kl][j][l] = w[g*Kg + kl][c][rLastH - j*stepH][rLastW - l*stepW] (filters and
// channels exchanged).  One invocation per element of w', a copy in the storage type.  Reads
// binding 1 (w, in FILTER_LAYOUT), writes binding 4 (w', in DST_LAYOUT).  Push constants: the
// backward problem's C, K, R, S and groups; P, Q = the sub-filter's taps (Mh, Mw); padT, padL =
// rLastH, rLastW; strideH, strideW = stepH, stepW.
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(constant_id = 101) const uint DST_LAYOUT = 0;  // 0 KCRS, 1 KRSC
layout(local_size_x_id = 100) in;

void main() {
    uint linear = globalLinearIndex(WG_SIZE);
    uint Cg = pc.C / pc.groups, Kg = pc.K / pc.groups;
    uint Mh = pc.P, Mw = pc.Q;
    if (linear >= pc.C * Kg * Mh * Mw) return;
    // w' has C filters of Kg channels each, Mh x Mw taps.
    uint c, kl, j, l, rest = linear;
    if (DST_LAYOUT == 0u) {
        l = rest % Mw; rest /= Mw;
        j = rest % Mh; rest /= Mh;
        kl = rest % Kg; c = rest / Kg;
    } else {
        kl = rest % Kg; rest /= Kg;
        l = rest % Mw; rest /= Mw;
        j = rest % Mh; c = rest / Mh;
    }
    uint g = c / Cg;
    uint r = pc.padT - j * pc.strideH, s = pc.padL - l * pc.strideW;
    y_[linear] = w_[filterOffset(FILTER_LAYOUT, g * Kg + kl, c % Cg, r, s, Cg, pc.R, pc.S)];
}
