#version 460
// "dgrad_forward"'s filter pass (src/conv/algo_dgrad_forward.cpp): the filter of the forward
// convolution whose output is dx.  Per group g, w'[g*Cg + c][kl][r][s] = w[g*Kg + kl][c][R-1-r][S-1-s]:
// flipped in both taps, filters and channels exchanged.  One invocation per element of w', a copy
// in the storage type.  Reads binding 1 (w, in FILTER_LAYOUT), writes binding 4 (w', in
// DST_LAYOUT); the push constants are the backward problem's (C, K, R, S, groups).
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
    if (linear >= pc.C * Kg * pc.R * pc.S) return;
    // w' has C filters of Kg channels each.
    uint c, kl, r, s, rest = linear;
    if (DST_LAYOUT == 0u) {
        s = rest % pc.S; rest /= pc.S;
        r = rest % pc.R; rest /= pc.R;
        kl = rest % Kg; c = rest / Kg;
    } else {
        kl = rest % Kg; rest /= Kg;
        s = rest % pc.S; rest /= pc.S;
        r = rest % pc.R; c = rest / pc.R;
    }
    uint g = c / Cg;
    y_[linear] = w_[filterOffset(FILTER_LAYOUT, g * Kg + kl, c % Cg, pc.R - 1u - r, pc.S - 1u - s, Cg, pc.R, pc.S)];
}
