#version 460
// "wgrad_implicit_gemm": dw as an implicit GEMM per group, dy^T x im2col(x), the im2col matrix
// never formed.  Rows: the group's K/groups filters; columns: its C/groups x R x S taps in x's
// channel order (wgrad_partials.glsl); reduction: the N x P x Q output pixels.  A workgroup
// computes a BM x BN tile over its split of the reduction (gl_WorkGroupID.z of pc.splitK) in
// BK-pixel slices staged through double-buffered shared memory (the next slice's global loads in
// flight while the current one is multiplied); each invocation accumulates a TM x TN fp32
// register tile, reading shared memory four values at a time.
// Staging: each operand is loaded along its contiguous dimension, the pixels for NCHW (one pixel
// per invocation and slice, several filters / taps) and the filters / channels for NHWC (one
// filter / tap, several pixels).  Every staged pixel's (n, p, q) is carried from slice to slice
// by additions (no divisions in the loop); a tap's (c, r, s) is decoded once.  x outside the
// padded input, and pixels past N x P x Q, stage zeros.  POINTWISE (1x1, stride 1, unpadded):
// x's pixel is dy's pixel, no bounds arithmetic.
// The bias gradient rides along: the workgroups of the first column tile also sum their rows of
// the staged dy tile.  SPLIT_OUT: fp32 partials to the workspace (wgrad_reduce.comp finishes);
// otherwise dw and db are written here, in the storage dtype.
#extension GL_GOOGLE_include_directive : require
// Loops over register tiles must unroll fully or the arrays are demoted to local memory.
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "wgrad_bindings.glsl"
#include "tensor_index.glsl"
#include "wgrad_partials.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;  // == (BM/TM)*(BN/TN)
layout(constant_id = 101) const uint BM = 64;        // filters per tile
layout(constant_id = 102) const uint BN = 64;        // taps per tile
layout(constant_id = 103) const uint BK = 16;        // output pixels per reduction slice
layout(constant_id = 104) const uint TM = 4;         // rows per invocation (4 or 8)
layout(constant_id = 105) const uint TN = 4;         // columns per invocation (4 or 8)
layout(constant_id = 108) const bool POINTWISE = false;
layout(constant_id = 109) const bool SPLIT_OUT = false;
layout(local_size_x_id = 100) in;

const uint NTX = BN / TN, NTY = BM / TM, NT = NTX * NTY;
const uint RB = BM * 4u / TM, CB = BN * 4u / TN;  // row / column blocks of the register tile
// Staged elements per invocation and slice (the host's tiles divide exactly: NT is a multiple of
// BK, BM and BN, and BK*BM, BK*BN multiples of NT).
const uint EA = BK * BM / NT, EB = BK * BN / NT;
// Distinct pixels among an invocation's staged elements: one along the pixels (NCHW), else one each.
// (Arithmetic rather than ?: keeps these specialization-constant expressions.)
const uint PA = (1u - OUT_LAYOUT) + OUT_LAYOUT * EA;
const uint PB = (1u - IN_LAYOUT) + IN_LAYOUT * EB;
// Tap columns of an invocation's x elements: several along the pixels (NCHW), else one.
const uint TB = (1u - IN_LAYOUT) * EB + IN_LAYOUT;
// Lines padded by one 16-byte word: the pixel-walking stores hit different banks.
const uint LDA = BM + 4u, LDB = BN + 4u;
shared vec4 As[2u * BK * LDA / 4u];  // [buf][kk][row]
shared vec4 Bs[2u * BK * LDB / 4u];  // [buf][kk][col]

// An output pixel (n, p, q), walked BK pixels a slice.
struct Pix {
    uint n, p, q;
};
Pix pixelOf(uint m) {
    uint pq = pc.P * pc.Q;
    uint rem = m % pq;
    return Pix(m / pq, rem / pc.Q, rem % pc.Q);
}
// Adds d = (dn, dp, dq) (dp < P, dq < Q): at most one carry per digit.
void advance(inout Pix x, uvec3 d) {
    x.q += d.z;
    if (x.q >= pc.Q) { x.q -= pc.Q; x.p += 1u; }
    x.p += d.y;
    if (x.p >= pc.P) { x.p -= pc.P; x.n += 1u; }
    x.n += d.x;
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint Cg = pc.C / pc.groups, Kg = pc.K / pc.groups;
    uint taps = Cg * pc.R * pc.S;
    uint M = pc.N * pc.P * pc.Q;
    uint rowTiles = (Kg + BM - 1u) / BM;
    uint g = gl_WorkGroupID.y / rowTiles;
    uint row0 = (gl_WorkGroupID.y % rowTiles) * BM;
    uint col0 = gl_WorkGroupID.x * BN;
    uint kBase = g * Kg, cBase = g * Cg;
    bool biasTile = HAS_BIAS && gl_WorkGroupID.x == 0u;

    // This split's slices [sl0, sl0 + nsl), balanced.
    uint slices = (M + BK - 1u) / BK;
    uint z = gl_WorkGroupID.z;
    uint sl0 = z * slices / pc.splitK, nsl = (z + 1u) * slices / pc.splitK - sl0;
    uvec3 step = uvec3(BK / (pc.P * pc.Q), (BK / pc.Q) % pc.P, BK % pc.Q);

    // dy staging: element e at (kk, row).
    uint aRow[EA], aKK[PA];
    [[unroll]] for (uint e = 0u; e < EA; ++e)
        aRow[e] = OUT_LAYOUT == 0u ? tid / BK + e * (NT / BK) : tid % BM;
    [[unroll]] for (uint i = 0u; i < PA; ++i)
        aKK[i] = OUT_LAYOUT == 0u ? tid % BK : tid / BM + i * (NT / BM);
    // x staging: element e at (kk, col); the taps decoded once.
    uint bCol[EB], bKK[PB];
    [[unroll]] for (uint e = 0u; e < EB; ++e)
        bCol[e] = IN_LAYOUT == 0u ? tid / BK + e * (NT / BK) : tid % BN;
    [[unroll]] for (uint i = 0u; i < PB; ++i)
        bKK[i] = IN_LAYOUT == 0u ? tid % BK : tid / BN + i * (NT / BN);
    uint tapChan[TB];  // x's channel offset of the tap (NCHW: c*H*W; NHWC: c)
    int tapH[TB], tapW[TB];  // r*dilH - padT, s*dilW - padL
    bool tapOk[TB];
    [[unroll]] for (uint t = 0u; t < TB; ++t) {
        uint j = col0 + bCol[t];
        uvec3 tap = wgradColumnTap(min(j, taps - 1u));
        tapOk[t] = j < taps;
        tapChan[t] = IN_LAYOUT == 0u ? (cBase + tap.x) * pc.H * pc.W : cBase + tap.x;
        tapH[t] = int(tap.y * pc.dilH) - int(pc.padT);
        tapW[t] = int(tap.z * pc.dilW) - int(pc.padL);
    }
    Pix pa[PA], pb[PB];
    [[unroll]] for (uint i = 0u; i < PA; ++i) pa[i] = pixelOf(sl0 * BK + aKK[i]);
    [[unroll]] for (uint i = 0u; i < PB; ++i) pb[i] = pixelOf(sl0 * BK + bKK[i]);

    float aReg[EA], bReg[EB];
#define LOAD_SLICE()                                                                            \
    [[unroll]] for (uint e = 0u; e < EA; ++e) {                                                 \
        Pix x = pa[OUT_LAYOUT == 0u ? 0u : e];                                                  \
        uint kg = row0 + aRow[e];                                                               \
        aReg[e] = 0.0;                                                                          \
        if (x.n < pc.N && kg < Kg) {                                                            \
            uint k = kBase + kg;                                                                \
            uint off = OUT_LAYOUT == 0u ? ((x.n * pc.K + k) * pc.P + x.p) * pc.Q + x.q          \
                                        : ((x.n * pc.P + x.p) * pc.Q + x.q) * pc.K + k;         \
            aReg[e] = toF32(dy_[off]);                                                          \
        }                                                                                       \
    }                                                                                           \
    [[unroll]] for (uint e = 0u; e < EB; ++e) {                                                 \
        Pix x = pb[IN_LAYOUT == 0u ? 0u : e];                                                   \
        uint t = IN_LAYOUT == 0u ? e : 0u;                                                      \
        int ih = POINTWISE ? int(x.p) : int(x.p * pc.strideH) + tapH[t];                        \
        int iw = POINTWISE ? int(x.q) : int(x.q * pc.strideW) + tapW[t];                        \
        bReg[e] = 0.0;                                                                          \
        if (x.n < pc.N && tapOk[t] && (POINTWISE || (uint(ih) < pc.H && uint(iw) < pc.W))) {    \
            uint off = IN_LAYOUT == 0u ? x.n * pc.C * pc.H * pc.W + tapChan[t] + uint(ih) * pc.W + uint(iw) \
                                       : ((x.n * pc.H + uint(ih)) * pc.W + uint(iw)) * pc.C + tapChan[t]; \
            bReg[e] = toF32(x_[off]);                                                           \
        }                                                                                       \
    }
#define STORE_SLICE(buf)                                                                        \
    [[unroll]] for (uint e = 0u; e < EA; ++e) {                                                 \
        uint idx = ((buf) * BK + aKK[OUT_LAYOUT == 0u ? 0u : e]) * LDA + aRow[e];               \
        As[idx >> 2][idx & 3u] = aReg[e];                                                       \
    }                                                                                           \
    [[unroll]] for (uint e = 0u; e < EB; ++e) {                                                 \
        uint idx = ((buf) * BK + bKK[IN_LAYOUT == 0u ? 0u : e]) * LDB + bCol[e];                \
        Bs[idx >> 2][idx & 3u] = bReg[e];                                                       \
    }
#define ADVANCE()                                                                               \
    [[unroll]] for (uint i = 0u; i < PA; ++i) advance(pa[i], step);                             \
    [[unroll]] for (uint i = 0u; i < PB; ++i) advance(pb[i], step);

    uint tx = tid % NTX, ty = tid / NTX;
    float acc[TM][TN];
    [[unroll]] for (uint i = 0u; i < TM; ++i)
        [[unroll]] for (uint j = 0u; j < TN; ++j) acc[i][j] = 0.0;
    float bacc[TM];
    [[unroll]] for (uint i = 0u; i < TM; ++i) bacc[i] = 0.0;

    if (nsl > 0u) {
        LOAD_SLICE()
        STORE_SLICE(0u)
    }
    barrier();
    for (uint sl = 0u; sl < nsl; ++sl) {
        uint cur = sl & 1u;
        bool more = sl + 1u < nsl;
        if (more) {
            ADVANCE()
            LOAD_SLICE()
        }
        [[unroll]] for (uint kk = 0u; kk < BK; ++kk) {
            vec4 a[TM / 4u], b[TN / 4u];
            [[unroll]] for (uint h = 0u; h < TM / 4u; ++h) a[h] = As[((cur * BK + kk) * LDA + h * RB + ty * 4u) >> 2];
            [[unroll]] for (uint h = 0u; h < TN / 4u; ++h) b[h] = Bs[((cur * BK + kk) * LDB + h * CB + tx * 4u) >> 2];
            [[unroll]] for (uint i = 0u; i < TM; ++i)
                [[unroll]] for (uint j = 0u; j < TN; ++j) acc[i][j] = fma(a[i >> 2][i & 3u], b[j >> 2][j & 3u], acc[i][j]);
            if (biasTile)
                [[unroll]] for (uint i = 0u; i < TM; ++i) bacc[i] += a[i >> 2][i & 3u];
        }
        if (more) { STORE_SLICE(cur ^ 1u) }
        barrier();
    }

    // Epilogue: each dw element of the tile written once (a partial per split).
    [[unroll]] for (uint i = 0u; i < TM; ++i) {
        uint kg = row0 + (i >> 2) * RB + ty * 4u + (i & 3u);
        if (kg >= Kg) continue;
        uint k = kBase + kg;
        [[unroll]] for (uint j = 0u; j < TN; ++j) {
            uint col = col0 + (j >> 2) * CB + tx * 4u + (j & 3u);
            if (col >= taps) continue;
            if (SPLIT_OUT) ws_[wgradPartialOffset(z, k, col)] = acc[i][j];
            else wgradStoreFilter(k, col, acc[i][j]);
        }
        if (biasTile && tx == 0u) {
            if (SPLIT_OUT) ws_[wgradBiasPartialOffset(z, k)] = bacc[i];
            else wgradStoreBias(k, bacc[i]);
        }
    }
}
