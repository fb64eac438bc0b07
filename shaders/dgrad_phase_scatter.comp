#version 460
// "dgrad_phases"' scatter pass (src/conv/algo_dgrad_phases.cpp): one stride phase's dx pixels
// (h = i*strideH + a, w = j*strideW + b) from that phase's dense forward output in the workspace
// (binding 0, in dy's layout OUT_LAYOUT, C x Ho x Wo, its row i at i + shiftH), through dx's
// epilogue (the old dx with accumulate, a transposed convolution's bias, residual, activation).
// A phase no filter tap reaches has no forward output: its pixels get the epilogue of zero.  One
// invocation per phase pixel, in dx's layout order.  Push constants: N, C, H, W = dx's; K, R = the
// phase's pixel rows and columns (Ha, Wa); P, Q = the forward output's (Ho, Wo); strideH, strideW;
// padT, padL = the phase (a, b); dilH, dilW = shiftH, shiftW; aux0 = 1 where taps reach it.
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "dgrad_bindings.glsl"
#include "tensor_index.glsl"
#include "dgrad_epilogue.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(local_size_x_id = 100) in;

void main() {
    uint linear = globalLinearIndex(WG_SIZE);
    uint Ha = pc.K, Wa = pc.R;
    if (linear >= pc.N * pc.C * Ha * Wa) return;
    uvec4 i = decodeOutput(IN_LAYOUT, linear, pc.C, Ha, Wa);
    uint n = i.x, c = i.y;
    float acc = 0.0;
    if (pc.aux0 != 0u)
        acc = toF32(dy_[activationOffset(OUT_LAYOUT, n, c, i.z + pc.dilH, i.w + pc.dilW, pc.C, pc.P, pc.Q)]);
    uint h = i.z * pc.strideH + pc.padT, w = i.w * pc.strideW + pc.padL;
    storeGradInput(activationOffset(IN_LAYOUT, n, c, h, w, pc.C, pc.H, pc.W), c, acc);
}
