#version 460
// Level 1, "direct_blocked": direct convolution with large workgroups (256 invocations) and a
// register block per invocation: KT filters x QT consecutive output columns of one output row.
// Per filter tap an invocation loads its QT inputs and KT weights once and does KT*QT FMAs from
// registers: each input feeds KT filters, each weight QT columns (direct: 2 loads per FMA).
// When strideW == dilationW (SLIDE: 3x3 stride 1, ...) tap s+1 reads the columns of tap s shifted
// by one output column, so after the first tap of a row an invocation loads one new input per
// tap: every input under the block's row window is loaded once.
// Runtime loops over (c, r, s) as in direct: any filter, stride, dilation, padding, group count,
// layout, dtype and epilogue.  Tails: filters past K/groups re-read the group's last filter and
// columns past Q compute on in-bounds or zeroed inputs; neither is stored.
#extension GL_GOOGLE_include_directive : require
// The register block must stay in registers: unroll every loop over it (see implicit_gemm.comp).
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "epilogue.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(constant_id = 101) const uint KT = 4;         // filters per invocation
layout(constant_id = 102) const uint QT = 4;         // output columns per invocation
layout(constant_id = 103) const bool SLIDE = false;  // strideW == dilationW
layout(local_size_x_id = 100) in;

// Input (n, c, ih, column iw) of the row starting at rowOff, zero outside the input (padding).
float loadInput(uint rowOff, int iw, uint colStride) {
    bool ok = iw >= 0 && iw < int(pc.W);
    float v = toF32(x_[ok ? rowOff + uint(iw) * colStride : 0u]);
    return ok ? v : 0.0;
}

void main() {
    uint Cg = pc.C / pc.groups, Kg = pc.K / pc.groups;
    uint QB = (pc.Q + QT - 1u) / QT, KB = (Kg + KT - 1u) / KT;
    // Neighbouring invocations take neighbouring column blocks of one output row: they read
    // neighbouring inputs (contiguous in NCHW) and the same weights.
    uint linear = globalLinearIndex(WG_SIZE);
    uint qb = linear % QB; uint t = linear / QB;
    uint p = t % pc.P; t /= pc.P;
    uint kb = t % KB; t /= KB;
    uint g = t % pc.groups; uint n = t / pc.groups;
    if (n >= pc.N) return;

    uint kn0 = kb * KT, q0 = qb * QT;
    uint kLast = min(KT, Kg - kn0) - 1u;
    uint CgRS = Cg * pc.R * pc.S;
    uint wBase[KT];
    [[unroll]] for (uint i = 0u; i < KT; ++i) wBase[i] = (g * Kg + kn0 + min(i, kLast)) * CgRS;
    uint sStride = FILTER_LAYOUT == 0u ? 1u : Cg;      // filter offset step from tap s to s+1
    uint colStride = IN_LAYOUT == 0u ? 1u : pc.C;      // input offset step from column iw to iw+1
    int ih0 = int(p * pc.strideH) - int(pc.padT);
    int iw0 = int(q0 * pc.strideW) - int(pc.padL);

    float acc[KT][QT];
    [[unroll]] for (uint i = 0u; i < KT; ++i)
        [[unroll]] for (uint j = 0u; j < QT; ++j) acc[i][j] = 0.0;

    for (uint c = 0u; c < Cg; ++c) {
        for (uint r = 0u; r < pc.R; ++r) {
            int ih = ih0 + int(r * pc.dilH);
            if (ih < 0 || ih >= int(pc.H)) continue;
            uint rowOff = activationOffset(IN_LAYOUT, n, g * Cg + c, uint(ih), 0u, pc.C, pc.H, pc.W);
            uint wTap = filterOffset(FILTER_LAYOUT, 0u, c, r, 0u, Cg, pc.R, pc.S);
            float xr[QT];
            for (uint s = 0u; s < pc.S; ++s, wTap += sStride) {
                int iw = iw0 + int(s * pc.dilW);
                if (SLIDE && s > 0u) {
                    [[unroll]] for (uint j = 0u; j + 1u < QT; ++j) xr[j] = xr[j + 1u];
                    xr[QT - 1u] = loadInput(rowOff, iw + int((QT - 1u) * pc.strideW), colStride);
                } else {
                    [[unroll]] for (uint j = 0u; j < QT; ++j) xr[j] = loadInput(rowOff, iw + int(j * pc.strideW), colStride);
                }
                float wv[KT];
                [[unroll]] for (uint i = 0u; i < KT; ++i) wv[i] = toF32(w_[wBase[i] + wTap]);
                [[unroll]] for (uint i = 0u; i < KT; ++i)
                    [[unroll]] for (uint j = 0u; j < QT; ++j) acc[i][j] = fma(wv[i], xr[j], acc[i][j]);
            }
        }
    }

    // Each store inside its own condition, no `continue`: with the filter tail skipped by a
    // `continue` of the outer loop, Mesa 26.1's lavapipe (LLVM 21, 8 lanes) stored the skipped
    // filters too (fp16 NHWC: over the next pixel's first channels), and Mesa 26.1.6 got the inner
    // loop's `continue` wrong as well (the random sweep's case 7, fp16 NHWC with a residual: 108
    // of 264 outputs); Mesa 25, 4 lanes and the H200 did not.
    [[unroll]] for (uint i = 0u; i < KT; ++i) {
        uint k = g * Kg + kn0 + i;
        [[unroll]] for (uint j = 0u; j < QT; ++j) {
            uint q = q0 + j;
            if (i <= kLast && q < pc.Q) {
                uint off = OUT_LAYOUT == 0u ? ((n * pc.K + k) * pc.P + p) * pc.Q + q : ((n * pc.P + p) * pc.Q + q) * pc.K + k;
                storeOutput(off, k, acc[i][j]);
            }
        }
    }
}
