#version 460
// "dgrad_implicit_gemm": backward-data as a tiled implicit GEMM without zero insertion.  dx splits
// into stride phases (h mod strideH, w mod strideW; workgroup z): the rows h = hp + i*strideH of a
// phase are reached only by the taps r with (hp + padT - r*dilH) divisible by strideH, which form
// an arithmetic progression r0 + t*rstep, and tap t reads dy row p = i + base0 - t*dbase: within a
// phase the problem is a stride-1 correlation of dy with that subset of the filter.  Per phase and
// group: GEMM rows = the phase's dx pixels (n, i, j), columns = the group's channels, reduction =
// K/groups x the phase's taps, ordered (tap, k) with k fastest.  A workgroup computes a BM x BN
// tile; the reduction runs in BK slices staged through double-buffered shared memory as in
// implicit_gemm.comp (the next slice's loads are in flight while the current one is multiplied),
// each invocation accumulating a TM x TN fp32 register tile.  dy rows and columns outside
// [0, P) x [0, Q) read zero (one unsigned compare per axis); a phase no tap reaches still runs the
// epilogue on zero.  K_SLICES (K/groups % BK == 0): a slice is one tap, decoded once per slice;
// otherwise every staged element decodes its own (tap, k).
#extension GL_GOOGLE_include_directive : require
// Loops over register tiles must unroll fully or the arrays are demoted to local memory.
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "dgrad_bindings.glsl"
#include "tensor_index.glsl"
#include "dgrad_epilogue.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;  // == (BM/TM)*(BN/TN)
layout(constant_id = 101) const uint BM = 128;       // dx pixels of the phase per tile
layout(constant_id = 102) const uint BN = 128;       // channels per tile
layout(constant_id = 103) const uint BK = 8;         // reduction slice
layout(constant_id = 104) const uint TM = 8;         // rows per invocation (multiple of 4)
layout(constant_id = 105) const uint TN = 8;         // columns per invocation (multiple of 4)
layout(constant_id = 106) const bool K_SLICES = false;
layout(local_size_x_id = 100) in;

const uint NTX = BN / TN, NTY = BM / TM;
const uint NT = NTX * NTY;
const uint A_ITEMS = BM * BK, B_ITEMS = BN * BK;
const uint A_PER_T = (A_ITEMS + NT - 1u) / NT;
const uint B_PER_T = (B_ITEMS + NT - 1u) / NT;
const uint RB = BM * 4u / TM, CB = BN * 4u / TN;  // rows / columns between an invocation's 4-blocks

// [A buf 0|1][B buf 0|1]: As [buf][kk][m], Bs [buf][kk][n], m and n fastest.
shared vec4 smem[2u * BK * (BM + BN) / 4u];
#define As(i) smem[i]
#define Bs(i) smem[2u * BK * BM / 4u + (i)]

// One axis of a stride phase: the dx positions first + i*stride (i < count), the taps t0 + t*tstep
// (t < taps) that reach them, and the dy position i + base0 - t*dbase that tap t reads.
struct Phase {
    uint count, t0, tstep, taps;
    int base0, dbase;
};

Phase makePhase(uint first, uint extent, uint stride, uint pad, uint dil, uint taps) {
    Phase ph;
    ph.count = first < extent ? (extent - first + stride - 1u) / stride : 0u;
    ph.tstep = stride;  // the smallest t with t*dil divisible by the stride
    for (uint t = 1u; t < stride; ++t)
        if ((t * dil) % stride == 0u) { ph.tstep = t; break; }
    // first + pad - r*dil == first + pad + r*dil*(stride-1) (mod stride): no negative operands.
    ph.t0 = taps;
    for (uint r = 0u; r < ph.tstep && r < taps; ++r)
        if ((first + pad + r * dil * (stride - 1u)) % stride == 0u) { ph.t0 = r; break; }
    ph.taps = ph.t0 < taps ? (taps - 1u - ph.t0) / ph.tstep + 1u : 0u;
    int v = int(first + pad) - int(ph.t0 * dil);  // divisible by the stride
    ph.base0 = v >= 0 ? v / int(stride) : -((-v) / int(stride));
    ph.dbase = int(ph.tstep * dil / stride);
    return ph;
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint phH = gl_WorkGroupID.z / pc.strideW, phW = gl_WorkGroupID.z % pc.strideW;
    Phase ah = makePhase(phH, pc.H, pc.strideH, pc.padT, pc.dilH, pc.R);
    Phase aw = makePhase(phW, pc.W, pc.strideW, pc.padL, pc.dilW, pc.S);
    uint HWp = ah.count * aw.count;
    uint M = pc.N * HWp;
    uint m0 = gl_WorkGroupID.x * BM;
    if (m0 >= M) return;  // the grid covers the largest phase; uniform per workgroup

    uint Cg = pc.C / pc.groups, Kg = pc.K / pc.groups;
    uint taps = ah.taps * aw.taps;
    uint Kred = Kg * taps;
    uint tilesN = (Cg + BN - 1u) / BN;
    uint g = gl_WorkGroupID.y / tilesN;
    uint n0 = (gl_WorkGroupID.y % tilesN) * BN;
    uint cBase = g * Cg, kBase = g * Kg;
    uint PQ = pc.P * pc.Q;

    // Staging assignment, fixed for the whole reduction.  NCHW dy: neighbouring invocations walk
    // pixels (contiguous along a row of the phase at stride 1); NHWC: filters (contiguous).  The
    // filter's channels are its shorter stride in both layouts (1 KRSC, R*S KCRS).
    uint aM[A_PER_T], aK[A_PER_T], aI[A_PER_T], aJ[A_PER_T];
    uint aBase[A_PER_T];  // n's offset into dy plus the group's first filter
    bool aOk[A_PER_T];    // a row of the phase (else staged as zero)
    [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) {
        uint e = tid + i * NT;
        if (OUT_LAYOUT == 1u) { aK[i] = e % BK; aM[i] = e / BK; }
        else { aM[i] = e % BM; aK[i] = e / BM; }
        uint m = m0 + aM[i];
        aOk[i] = e < A_ITEMS && m < M;
        uint n = m / HWp, ij = m % HWp;
        aI[i] = ij / aw.count; aJ[i] = ij % aw.count;
        aBase[i] = n * pc.K * PQ + (OUT_LAYOUT == 1u ? kBase : kBase * PQ);
    }
    uint bN[B_PER_T], bK[B_PER_T];
    [[unroll]] for (uint i = 0u; i < B_PER_T; ++i) {
        uint e = tid + i * NT;
        bN[i] = e % BN; bK[i] = e / BN;
        if (e >= B_ITEMS) bN[i] = BN;
    }

    vec4 aReg[A_PER_T], bReg[B_PER_T];
    // dy at (item i, tap (tr, ts), filter kl of the group), zero outside dy.
#define LOAD_A(i, tr, ts, kl)                                                                   \
    {                                                                                           \
        int p = int(aI[i]) + ah.base0 - int(tr) * ah.dbase;                                     \
        int q = int(aJ[i]) + aw.base0 - int(ts) * aw.dbase;                                     \
        if (uint(p) < pc.P && uint(q) < pc.Q) {                                                 \
            uint pix = uint(p) * pc.Q + uint(q);                                                \
            aReg[i].x = toF32(dy_[aBase[i] + (OUT_LAYOUT == 1u ? pix * pc.K + (kl) : (kl) * PQ + pix)]); \
        }                                                                                       \
    }
    // The filter at (filter kl of the group, channel cn of the group, tap (tr, ts)).
#define LOAD_B(i, tr, ts, kl, cn)                                                               \
    bReg[i].x = toF32(w_[filterOffset(FILTER_LAYOUT, kBase + (kl), cn, ah.t0 + (tr) * ah.tstep, \
                                      aw.t0 + (ts) * aw.tstep, Cg, pc.R, pc.S)])
    // Global -> registers for the slice at reduction index k0 = tap * Kg + kl.
#define LOAD_SLICE(k0)                                                                          \
    if (K_SLICES) {                                                                             \
        uint tap = (k0) / Kg, kl0 = (k0) % Kg, tr = tap / aw.taps, ts = tap % aw.taps;          \
        [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) {                                        \
            aReg[i] = vec4(0.0);                                                                \
            if (aOk[i]) LOAD_A(i, tr, ts, kl0 + aK[i])                                      \
        }                                                                                       \
        [[unroll]] for (uint i = 0u; i < B_PER_T; ++i) {                                        \
            bReg[i] = vec4(0.0);                                                                \
            uint cn = n0 + bN[i];                                                               \
            if (bN[i] < BN && cn < Cg) LOAD_B(i, tr, ts, kl0 + bK[i], cn);                      \
        }                                                                                       \
    } else {                                                                                    \
        [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) {                                        \
            aReg[i] = vec4(0.0);                                                                \
            uint kidx = (k0) + aK[i];                                                           \
            if (aOk[i] && kidx < Kred) {                                                    \
                uint tap = kidx / Kg, kl = kidx % Kg;                                           \
                LOAD_A(i, tap / aw.taps, tap % aw.taps, kl)                                     \
            }                                                                                   \
        }                                                                                       \
        [[unroll]] for (uint i = 0u; i < B_PER_T; ++i) {                                        \
            bReg[i] = vec4(0.0);                                                                \
            uint kidx = (k0) + bK[i], cn = n0 + bN[i];                                          \
            if (bN[i] < BN && cn < Cg && kidx < Kred) {                                         \
                uint tap = kidx / Kg, kl = kidx % Kg;                                           \
                LOAD_B(i, tap / aw.taps, tap % aw.taps, kl, cn);                                \
            }                                                                                   \
        }                                                                                       \
    }
#define STORE_SLICE(buf)                                                                        \
    [[unroll]] for (uint i = 0u; i < A_PER_T; ++i)                                              \
        if (tid + i * NT < A_ITEMS) {                                                           \
            uint idx = ((buf) * BK + aK[i]) * BM + aM[i];                                       \
            As(idx >> 2)[idx & 3u] = aReg[i].x;                                                 \
        }                                                                                       \
    [[unroll]] for (uint i = 0u; i < B_PER_T; ++i)                                              \
        if (bN[i] < BN) {                                                                       \
            uint idx = ((buf) * BK + bK[i]) * BN + bN[i];                                       \
            Bs(idx >> 2)[idx & 3u] = bReg[i].x;                                                 \
        }

    // Invocation (tx, ty) owns rows ty*4 + {0..3} of each of the TM/4 row blocks (and the same for
    // columns): neighbouring invocations read neighbouring 16-byte shared words.
    uint tx = tid % NTX, ty = tid / NTX;
    float acc[TM][TN];
    [[unroll]] for (uint i = 0u; i < TM; ++i)
        [[unroll]] for (uint j = 0u; j < TN; ++j) acc[i][j] = 0.0;

    uint nsl = (Kred + BK - 1u) / BK;  // 0 where no tap reaches the phase: the epilogue alone
    if (nsl > 0u) {
        LOAD_SLICE(0u)
        STORE_SLICE(0u)
    }
    barrier();
    for (uint sl = 0u; sl < nsl; ++sl) {
        uint cur = sl & 1u;
        bool more = sl + 1u < nsl;
        if (more) { LOAD_SLICE((sl + 1u) * BK) }
        [[unroll]] for (uint kk = 0u; kk < BK; ++kk) {
            vec4 a[TM / 4u], b[TN / 4u];
            [[unroll]] for (uint h = 0u; h < TM / 4u; ++h) a[h] = As(((cur * BK + kk) * BM + h * RB + ty * 4u) >> 2);
            [[unroll]] for (uint h = 0u; h < TN / 4u; ++h) b[h] = Bs(((cur * BK + kk) * BN + h * CB + tx * 4u) >> 2);
            [[unroll]] for (uint i = 0u; i < TM; ++i)
                [[unroll]] for (uint j = 0u; j < TN; ++j) acc[i][j] = fma(a[i >> 2][i & 3u], b[j >> 2][j & 3u], acc[i][j]);
        }
        if (more) { STORE_SLICE(cur ^ 1u) }
        barrier();
    }

    // Epilogue: each dx element of the tile written once, straight from the registers.
    [[unroll]] for (uint i = 0u; i < TM; ++i) {
        uint m = m0 + (i >> 2) * RB + ty * 4u + (i & 3u);
        if (m >= M) continue;
        uint n = m / HWp, ij = m % HWp;
        uint h = phH + (ij / aw.count) * pc.strideH, w = phW + (ij % aw.count) * pc.strideW;
        [[unroll]] for (uint j = 0u; j < TN; ++j) {
            uint cn = n0 + (j >> 2) * CB + tx * 4u + (j & 3u);
            if (cn >= Cg) continue;
            uint c = cBase + cn;
            storeGradInput(activationOffset(IN_LAYOUT, n, c, h, w, pc.C, pc.H, pc.W), c, acc[i][j]);
        }
    }
}
