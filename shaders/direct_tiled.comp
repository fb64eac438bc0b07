#version 460
// Level 2, "direct_tiled": classic shared-memory tiled direct convolution.  A workgroup owns a
// TP x TQ output tile of one image and BK filters of one group.  For each chunk of CC input
// channels it stages in shared memory
//   * the tile's input halo: HT = (TP-1)*SH + (R-1)*DH + 1 rows x WT = (TQ-1)*SW + (S-1)*DW + 1
//     columns, zero-filled outside the input (padding is applied here, at load time), and
//   * the BK x CC x R x S filter chunk,
// then each invocation accumulates KT filters x QT pixels from shared memory; two barriers per
// chunk (staging is single-buffered).  Invocation (px, kg) owns pixels px + j*(TP*TQ/QT): neighbours
// read neighbouring shared words of the halo, and every invocation of a subgroup reads the same
// KT filters (a broadcast vec4).  The filter shape, strides and dilations are specialization
// constants, so the halo and the shared arrays have exact compile-time sizes and the staging
// index arithmetic divides by constants (the host declines shapes whose tiles do not fit).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "epilogue.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;  // == (TP*TQ/QT) * (BK/KT)
layout(constant_id = 101) const uint TP = 8;         // output rows per tile
layout(constant_id = 102) const uint TQ = 16;        // output columns per tile
layout(constant_id = 103) const uint BK = 32;        // filters per tile
layout(constant_id = 104) const uint CC = 8;         // input channels per chunk
layout(constant_id = 105) const uint KT = 4;         // filters per invocation (multiple of 4)
layout(constant_id = 106) const uint QT = 4;         // pixels per invocation
layout(constant_id = 107) const uint FR = 3;         // filter rows == pc.R
layout(constant_id = 108) const uint FS = 3;         // filter columns == pc.S
layout(constant_id = 109) const uint SH = 1;         // stride
layout(constant_id = 110) const uint SW = 1;
layout(constant_id = 111) const uint DH = 1;         // dilation
layout(constant_id = 112) const uint DW = 1;
layout(local_size_x_id = 100) in;

const uint HT = (TP - 1u) * SH + (FR - 1u) * DH + 1u;  // halo rows
const uint WT = (TQ - 1u) * SW + (FS - 1u) * DW + 1u;  // halo columns
const uint RS = FR * FS;
const uint XS = CC * HT * WT;
const uint WS = CC * RS * BK;
const uint PXL = TP * TQ / QT;  // invocations across the pixels of the tile

shared float xs[XS];      // [cc][y][x]
shared vec4 ws[WS / 4u];  // [cc][r][s][k], k fastest

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint Cg = pc.C / pc.groups, Kg = pc.K / pc.groups;
    uint tilesQ = (pc.Q + TQ - 1u) / TQ, tilesP = (pc.P + TP - 1u) / TP, tilesK = (Kg + BK - 1u) / BK;
    uint tq = gl_WorkGroupID.x % tilesQ; uint t = gl_WorkGroupID.x / tilesQ;
    uint tp = t % tilesP; uint n = t / tilesP;
    uint g = gl_WorkGroupID.y / tilesK, n0 = (gl_WorkGroupID.y % tilesK) * BK;
    uint p0 = tp * TP, q0 = tq * TQ;
    uint cBase = g * Cg, kBase = g * Kg;
    int ih0 = int(p0 * SH) - int(pc.padT), iw0 = int(q0 * SW) - int(pc.padL);

    uint px = tid % PXL, kg = tid / PXL;
    uint xOff[QT];  // halo offset of each owned pixel's tap (0, 0)
    [[unroll]] for (uint j = 0u; j < QT; ++j) {
        uint pix = px + j * PXL;
        xOff[j] = (pix / TQ) * SH * WT + (pix % TQ) * SW;
    }
    float acc[KT][QT];
    [[unroll]] for (uint i = 0u; i < KT; ++i)
        [[unroll]] for (uint j = 0u; j < QT; ++j) acc[i][j] = 0.0;

    uint chunks = (Cg + CC - 1u) / CC;
    for (uint ch = 0u; ch < chunks; ++ch) {
        uint c0 = ch * CC;
        if (ch > 0u) barrier();  // the previous chunk is consumed
        // Halo: neighbouring invocations load neighbouring elements of the input's layout.
        for (uint e = tid; e < XS; e += WG_SIZE) {
            uint cc, y, x;
            if (IN_LAYOUT == 1u) { cc = e % CC; uint pix = e / CC; x = pix % WT; y = pix / WT; }
            else { x = e % WT; uint r = e / WT; y = r % HT; cc = r / HT; }
            int ih = ih0 + int(y), iw = iw0 + int(x);
            bool ok = c0 + cc < Cg && ih >= 0 && ih < int(pc.H) && iw >= 0 && iw < int(pc.W);
            uint off = activationOffset(IN_LAYOUT, n, cBase + c0 + cc, uint(ih), uint(iw), pc.C, pc.H, pc.W);
            float v = toF32(x_[ok ? off : 0u]);
            xs[(cc * HT + y) * WT + x] = ok ? v : 0.0;
        }
        // Filter chunk, in the filter layout's order; zero past the group's filters and channels.
        for (uint e = tid; e < WS; e += WG_SIZE) {
            uint cc, rs, kl;
            if (FILTER_LAYOUT == 1u) { cc = e % CC; uint r = e / CC; rs = r % RS; kl = r / RS; }
            else { rs = e % RS; uint r = e / RS; cc = r % CC; kl = r / CC; }
            uint c = c0 + cc, kn = n0 + kl;
            bool ok = c < Cg && kn < Kg;
            uint off = FILTER_LAYOUT == 1u ? ((kBase + kn) * RS + rs) * Cg + c : ((kBase + kn) * Cg + c) * RS + rs;
            float v = toF32(w_[ok ? off : 0u]);
            uint idx = (cc * RS + rs) * BK + kl;
            ws[idx >> 2][idx & 3u] = ok ? v : 0.0;
        }
        barrier();

        for (uint cc = 0u; cc < CC; ++cc)
            for (uint r = 0u; r < FR; ++r)
                for (uint s = 0u; s < FS; ++s) {
                    uint tap = (cc * HT + r * DH) * WT + s * DW;
                    uint w4 = ((cc * RS + r * FS + s) * BK + kg * KT) / 4u;
                    vec4 wv[KT / 4u];
                    [[unroll]] for (uint h = 0u; h < KT / 4u; ++h) wv[h] = ws[w4 + h];
                    float xv[QT];
                    [[unroll]] for (uint j = 0u; j < QT; ++j) xv[j] = xs[tap + xOff[j]];
                    [[unroll]] for (uint i = 0u; i < KT; ++i)
                        [[unroll]] for (uint j = 0u; j < QT; ++j) acc[i][j] = fma(wv[i >> 2][i & 3u], xv[j], acc[i][j]);
                }
    }

    [[unroll]] for (uint j = 0u; j < QT; ++j) {
        uint pix = px + j * PXL;
        uint p = p0 + pix / TQ, q = q0 + pix % TQ;
        if (p >= pc.P || q >= pc.Q) continue;
        [[unroll]] for (uint i = 0u; i < KT; ++i) {
            uint kn = n0 + kg * KT + i;
            if (kn >= Kg) continue;
            uint k = kBase + kn;
            uint off = OUT_LAYOUT == 0u ? ((n * pc.K + k) * pc.P + p) * pc.Q + q : ((n * pc.P + p) * pc.Q + q) * pc.K + k;
            storeOutput(off, k, acc[i][j]);
        }
    }
}
