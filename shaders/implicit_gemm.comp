#version 460
// Level 4 "implicit_gemm": tiled implicit GEMM without im2col.  A workgroup computes a
// BM x BN tile (pixels x filters) of one group; the reduction runs in BK slices staged through
// double-buffered shared memory (the next slice's global loads are in flight while the current
// one is multiplied); each invocation accumulates a TM x TN register tile in fp32.
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "epilogue.glsl"
#include "igemm_problem.glsl"
#include "activation_tile_iterator.glsl"

layout(constant_id = 101) const uint BM = 128;  // pixels per tile
layout(constant_id = 102) const uint BN = 128;  // filters per tile
layout(constant_id = 103) const uint BK = 8;    // reduction slice
layout(constant_id = 104) const uint TM = 8;    // per-invocation rows
layout(constant_id = 105) const uint TN = 8;    // per-invocation columns
layout(local_size_x_id = 100) in;               // must equal (BM/TM)*(BN/TN)

const uint NT = (BM / TM) * (BN / TN);
const uint A_PER_T = (BM * BK + NT - 1) / NT;   // A elements each invocation stages per slice
const uint B_PER_T = (BN * BK + NT - 1) / NT;

shared float As[2 * BK * BM];  // [buf][kk][m]
shared float Bs[2 * BK * BN];  // [buf][kk][n]

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint M = pc.N * pc.P * pc.Q;
    uint Cg = pc.C / pc.groups, Kg = pc.K / pc.groups;
    uint Kred = Cg * pc.R * pc.S;
    uint tilesN = (Kg + BN - 1u) / BN;
    uint g = gl_WorkGroupID.y / tilesN;
    uint n0 = (gl_WorkGroupID.y % tilesN) * BN;   // first filter of the tile within the group
    uint m0 = gl_WorkGroupID.x * BM;
    uint cBase = g * Cg, kBase = g * Kg;

    // Staging assignment.  NHWC: consecutive invocations walk the reduction (contiguous
    // channels); NCHW: they walk pixels (contiguous along a row).  Fixed for the whole loop,
    // so each staged pixel row is decoded once, with its padding masks.
    PixelRow rows[A_PER_T];
    uint aM[A_PER_T], aK[A_PER_T];
    for (uint i = 0u; i < A_PER_T; ++i) {
        uint e = tid + i * NT;
        if (IN_LAYOUT == 1u) { aK[i] = e % BK; aM[i] = e / BK; }
        else { aM[i] = e % BM; aK[i] = e / BM; }
        rows[i] = makePixelRow(m0 + aM[i], (e < BM * BK) ? M : 0u);
    }
    uint bN[B_PER_T], bK[B_PER_T];
    for (uint i = 0u; i < B_PER_T; ++i) {
        uint e = tid + i * NT;
        bK[i] = e % BK; bN[i] = e / BK;
    }

    float aReg[A_PER_T], bReg[B_PER_T];
    // Global -> registers for the slice starting at k0.
#define LOAD_SLICE(k0)                                                                         \
    for (uint i = 0u; i < A_PER_T; ++i) {                                                      \
        uint kidx = (k0) + aK[i];                                                              \
        aReg[i] = 0.0;                                                                         \
        if (kidx < Kred && aM[i] < BM) aReg[i] = loadActivation(rows[i], decodeTap(kidx, Cg), cBase); \
    }                                                                                          \
    for (uint i = 0u; i < B_PER_T; ++i) {                                                      \
        uint kidx = (k0) + bK[i], kn = n0 + bN[i];                                             \
        bReg[i] = 0.0;                                                                         \
        if (kidx < Kred && kn < Kg && bN[i] < BN)                                              \
            bReg[i] = toF32(w_[filterTapOffset(kBase + kn, kidx, decodeTap(kidx, Cg), Cg, Kred)]); \
    }
#define STORE_SLICE(buf)                                                                       \
    for (uint i = 0u; i < A_PER_T; ++i) if (aM[i] < BM) As[(buf) * BK * BM + aK[i] * BM + aM[i]] = aReg[i]; \
    for (uint i = 0u; i < B_PER_T; ++i) if (bN[i] < BN) Bs[(buf) * BK * BN + bK[i] * BN + bN[i]] = bReg[i];

    uint tx = tid % (BN / TN), ty = tid / (BN / TN);
    float acc[TM][TN];
    for (uint i = 0u; i < TM; ++i)
        for (uint j = 0u; j < TN; ++j) acc[i][j] = 0.0;

    uint slices = (Kred + BK - 1u) / BK;
    LOAD_SLICE(0u)
    STORE_SLICE(0u)
    barrier();
    for (uint sl = 0u; sl < slices; ++sl) {
        uint cur = sl & 1u;
        bool more = sl + 1u < slices;
        if (more) { LOAD_SLICE((sl + 1u) * BK) }
        for (uint kk = 0u; kk < BK; ++kk) {
            float a[TM], b[TN];
            // Rows/columns are interleaved by the invocation grid (stride BM/TM, BN/TN) so that
            // neighbouring invocations read neighbouring shared words (no bank conflicts).
            for (uint i = 0u; i < TM; ++i) a[i] = As[cur * BK * BM + kk * BM + ty + i * (BM / TM)];
            for (uint j = 0u; j < TN; ++j) b[j] = Bs[cur * BK * BN + kk * BN + tx + j * (BN / TN)];
            for (uint i = 0u; i < TM; ++i)
                for (uint j = 0u; j < TN; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
        }
        if (more) { STORE_SLICE(cur ^ 1u) }
        barrier();
    }

    // Epilogue: bias, residual, activation, conversion; each output written once.
    uint PQ = pc.P * pc.Q;
    for (uint i = 0u; i < TM; ++i) {
        uint m = m0 + ty + i * (BM / TM);
        if (m >= M) continue;
        uint n = m / PQ, pq = m % PQ;
        for (uint j = 0u; j < TN; ++j) {
            uint kn = n0 + tx + j * (BN / TN);
            if (kn >= Kg) continue;
            uint k = kBase + kn;
            uint off = OUT_LAYOUT == 0u ? (n * pc.K + k) * PQ + pq : (n * PQ + pq) * pc.K + k;
            storeOutput(off, k, acc[i][j]);
        }
    }
}
