#version 460
// Winograd F(m x m, 3x3), pass 3 of 3: the output transform Y = A^T m A of the batched GEMM's
// products M[t][xi][k] (binding 5, at (t * WA*WA + xi) * K + k; fp32, or 16-bit under WS16), then the fused epilogue
// (bias, residual, activation, conversion) on the WM x WM outputs of each tile inside P x Q.
// One invocation per (tile, filter), filters fastest: M is read contiguously and NHWC output is
// written contiguously.  NCHW: a workgroup owns a block of TT tiles x CK filters (CK: one 32-byte
// sector of an M row: 8 fp32 values, 16 with 16-bit M, host-set).  It reads M and transforms with
// filters fastest as NHWC does, parks RB output rows of every (filter, tile) in shared memory, and
// then re-deals them with tiles fastest: each invocation owns one (filter, tile) and writes each of
// its rows as one WM-wide store, so that a warp writes runs of TT x WM pixels along an output row.
// The tile's decode and its output offset are computed once per invocation, not once per element
// (the element-wise version ran ~3x the instructions of the NHWC pass; docs/performance.md,
// "winograd").
// pc.aux0 = the chunk's first tile, pc.aux1 = its tile count.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "epilogue.glsl"
#include "winograd.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(local_size_x_id = 100) in;

layout(constant_id = 122) const uint CK = 8u;  // NCHW: filters per block (WG_SIZE % CK == 0, host)
// NCHW: output rows per shared-memory round (WM, or 2 where WM rows do not fit; host).
layout(constant_id = 123) const uint RB = WM;
// NCHW: a run of WM pixels goes out as one WM-wide store where it is whole and aligned (host: the
// output view is aligned to WM elements); else element stores.
layout(constant_id = 124) const bool WIDE = false;
const uint TT = WG_SIZE / CK;
// Shared memory in WM-wide runs: (filter, tile, row) at filter * LINE + tile * RUN + row.  RUN and
// LINE are odd, so that both the filters-fastest writes and the tiles-fastest reads of a warp
// spread over the banks (WM-wide accesses: 8 or 16 lanes per bank cycle).
const uint RUN = RB + 1u + (RB & 1u);
const uint LINE = TT * RUN + 1u;
#if WINO_M == 4
#define VECM vec4
#define VECM_T VEC4_T
#define FROM_F32_VM(v) fromF32v4(v)
#else
#define VECM vec2
#define VECM_T VEC2_T
#define FROM_F32_VM(v) fromF32v2(v)
#endif
// FALLBACK (host: fp16 on the matrix units, the one case whose 16-bit V, U or M can overflow
// finite data; scaled bf16 cannot, and bf16 and fp32 values overflow only near fp32's limit);
// false compiles the test and the direct sums away.
layout(constant_id = 130) const bool FALLBACK = false;
shared VECM sY[(1u - OUT_LAYOUT) * CK * LINE + OUT_LAYOUT];
layout(set = 0, binding = 4, std430) writeonly buffer OutputBufM { VECM_T yM_[]; };
layout(set = 0, binding = 4, std430) writeonly buffer OutputBuf2 { VEC2_T y2_[]; };

// Overflow: a non-finite M value means that a 16-bit V, U or M overflowed (fp16 F(4x4)'s V
// reaches 49x the largest input) or that the input or the filter holds Inf / NaN.  That
// (tile, filter) is then summed directly from the input and the filter in fp32, so the output is
// what the direct kernels give (Inf / NaN only where they would).  The test is on the bits, which
// no compiler's float assumptions can fold away.
bool nonFinite(float v) { return FALLBACK && (floatBitsToUint(v) & 0x7F800000u) == 0x7F800000u; }

// Output (p, q) of filter k of image n by direct summation (the padding reads as zero).  Rare,
// so built for few registers, not speed: one load pair in flight (unrolled taps raised the
// fp16 output transforms' VGPRs on RDNA3/4 by 12-36).
float directOutput(uint n, uint k, uint p, uint q) {
    uint Cg = pc.C / pc.groups, c0 = (k / (pc.K / pc.groups)) * Cg;
    float acc = 0.0;
    [[dont_unroll]] for (uint c = 0u; c < Cg; ++c)
        [[dont_unroll]] for (uint r = 0u; r < 3u; ++r) {
            int h = int(p + r) - int(pc.padT);
            if (h < 0 || h >= int(pc.H)) continue;
            [[dont_unroll]] for (uint t = 0u; t < 3u; ++t) {
                int w = int(q + t) - int(pc.padL);
                if (w < 0 || w >= int(pc.W)) continue;
                acc += toF32(x_[activationOffset(IN_LAYOUT, n, c0 + c, uint(h), uint(w), pc.C, pc.H, pc.W)]) *
                       toF32(w_[filterOffset(FILTER_LAYOUT, k, c, r, t, Cg, 3u, 3u)]);
            }
        }
    return acc;
}

// A^T m for the tile whose M values start at `base` (stride K between its WA x WA products);
// false where one of them is not finite.
bool transformCols(uint base, out float a[WM][WA]) {
    float m[WA][WA];
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) m[i][j] = WS_LOAD(base + (WA * i + j) * pc.K);
    atRows(m, a);
    // Every M value reaches a row of a (each column of A^T has a non-zero entry) and the rows'
    // sum is non-finite exactly where one of them is (finite 16-bit M cannot overflow it).
    float sum = 0.0;
    [[unroll]] for (uint i = 0u; i < WM; ++i) [[unroll]] for (uint j = 0u; j < WA; ++j) sum += a[i][j];
    return !nonFinite(sum);
}

VECM outputRow(in float a[WM][WA], uint i, float us) {
    VECM v;
    [[unroll]] for (uint j = 0u; j < WM; ++j) v[j] = atValue(a, i, j) * us;
    return v;
}

// Row values v (raw) of filter k at output offsets off .. off + WM - 1, of which those with
// q0 + j < Q exist: the epilogue, then one WM-wide store where the run is whole and aligned; a
// whole F(4x4) run at an even offset (Q % 4 == 2: every other row) as two pairs, at an odd one
// (odd Q) as a value, a pair and a value; else element stores.
void storeRowNchw(uint off, uint q0, uint k, VECM v) {
    [[unroll]] for (uint j = 0u; j < WM; ++j)
        if (q0 + j < pc.Q) v[j] = epilogueValue(v[j], k, off + j);
    if (WIDE && q0 + WM <= pc.Q) {
        if (off % WM == 0u) {
            yM_[off / WM] = FROM_F32_VM(v);
            return;
        }
#if WINO_M == 4
        if (off % 2u == 0u) {
            y2_[off >> 1] = fromF32v2(vec2(v[0], v[1]));
            y2_[(off >> 1) + 1u] = fromF32v2(vec2(v[2], v[3]));
        } else {
            y_[off] = fromF32(v[0]);
            y2_[(off + 1u) >> 1] = fromF32v2(vec2(v[1], v[2]));
            y_[off + 3u] = fromF32(v[3]);
        }
        return;
#endif
    }
    [[unroll]] for (uint j = 0u; j < WM; ++j)
        if (q0 + j < pc.Q) y_[off + j] = fromF32(v[j]);
}

void mainNchw() {
    uint tid = gl_LocalInvocationID.x, t0, k0;
    if (!nchwBlock(pc.K, TT, CK, globalLinearIndex(WG_SIZE) / WG_SIZE, t0, k0)) return;  // whole workgroups: no barrier skipped
    // Transform: filters fastest (M rows are read in whole sectors).
    uint kc = tid % CK, t = tid / CK;
    float a[WM][WA];
    if (t0 + t < pc.aux1 && k0 + kc < pc.K) transformCols((t0 + t) * WA * WA * pc.K + k0 + kc, a);
    else [[unroll]] for (uint i = 0u; i < WM; ++i) [[unroll]] for (uint j = 0u; j < WA; ++j) a[i][j] = 0.0;
    // Store: tiles fastest, one (filter, tile) per invocation.
    uint ke = tid / TT, te = tid % TT, k = k0 + ke;
    bool live = t0 + te < pc.aux1 && k < pc.K;
    uvec3 tile = live ? decodeTile(pc.aux0 + t0 + te) : uvec3(0u);
    uint p0 = tile.y * WM, q0 = tile.z * WM;
    uint off0 = ((tile.x * pc.K + k) * pc.P + p0) * pc.Q + q0;
    // The scale of the (tile, filter) this invocation transformed (not the one it stores; past the
    // block's edge, the last one's: those values are never stored).
    float us = unscaleOf(min(t0 + t, pc.aux1 - 1u), min(k0 + kc, pc.K - 1u));
    bool bad = false;
    [[unroll]] for (uint r0 = 0u; r0 < WM; r0 += RB) {
        if (r0 > 0u) barrier();  // the previous round's reads are done
        [[unroll]] for (uint i = 0u; i < RB; ++i) sY[kc * LINE + t * RUN + i] = outputRow(a, r0 + i, us);
        barrier();
        [[unroll]] for (uint i = 0u; i < RB; ++i) {
            VECM v = sY[ke * LINE + te * RUN + i];
            // A non-finite M value leaves its tile's outputs non-finite: their rows' sum tells,
            // with no flag to share.
            float rowSum = 0.0;
            [[unroll]] for (uint j = 0u; j < WM; ++j) rowSum += v[j];
            bad = bad || nonFinite(rowSum);
            if (live && p0 + r0 + i < pc.P) storeRowNchw(off0 + (r0 + i) * pc.Q, q0, k, v);
        }
    }
    // Rewrite the (filter, tile)s whose M was not finite with direct sums: one copy of that code.
    if (FALLBACK && live && bad)
        [[dont_unroll]] for (uint o = 0u; o < WM * WM; ++o) {
            uint p = p0 + o / WM, q = q0 + o % WM;
            uint off = ((tile.x * pc.K + k) * pc.P + p) * pc.Q + q;
            if (p < pc.P && q < pc.Q) y_[off] = fromF32(epilogueValue(directOutput(tile.x, k, p, q), k, off));
        }
}

// PAIRS: filters k and k + 1 (k even) of one tile, 16-bit M, as two-wide values (y2_).
void mainPairs() {
    uint K2 = pc.K / 2u;
    uint idx = globalLinearIndex(WG_SIZE);
    if (idx >= pc.aux1 * K2) return;
    uint k2 = idx % K2, tl = idx / K2, k = 2u * k2;
    uvec3 tile = decodeTile(pc.aux0 + tl);
    vec2 m[WA][WA], a[WM][WA];
    uint base = tl * WA * WA * K2 + k2;
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) m[i][j] = WS2_LOAD(base + (WA * i + j) * K2);
    atRows(m, a);
    vec2 sum = vec2(0.0);  // as transformCols: non-finite exactly where an M value is
    [[unroll]] for (uint i = 0u; i < WM; ++i) [[unroll]] for (uint j = 0u; j < WA; ++j) sum += a[i][j];
    if (nonFinite(sum.x + sum.y)) {  // one copy of the direct sums (both filters), not one per output
        [[dont_unroll]] for (uint o = 0u; o < 2u * WM * WM; ++o) {
            uint kk = k + o / (WM * WM), p = tile.y * WM + (o / WM) % WM, q = tile.z * WM + o % WM;
            uint off = ((tile.x * pc.P + p) * pc.Q + q) * pc.K + kk;
            if (p < pc.P && q < pc.Q) y_[off] = fromF32(epilogueValue(directOutput(tile.x, kk, p, q), kk, off));
        }
        return;
    }
    vec2 us = vec2(unscaleOf(tl, k), unscaleOf(tl, k + 1u));
    [[unroll]] for (uint i = 0u; i < WM; ++i) {
        uint p = tile.y * WM + i;
        if (p >= pc.P) continue;
        [[unroll]] for (uint j = 0u; j < WM; ++j) {
            uint q = tile.z * WM + j;
            if (q >= pc.Q) continue;
            vec2 y = atValue(a, i, j) * us;
            uint off = ((tile.x * pc.P + p) * pc.Q + q) * pc.K + k;
            y2_[off >> 1] = fromF32v2(vec2(epilogueValue(y.x, k, off), epilogueValue(y.y, k + 1u, off + 1u)));
        }
    }
}

void main() {
    if (OUT_LAYOUT == 0u) { mainNchw(); return; }
    if (PAIRS) { mainPairs(); return; }
    uint idx = globalLinearIndex(WG_SIZE);
    if (idx >= pc.aux1 * pc.K) return;
    uint k = idx % pc.K, tl = idx / pc.K;
    uvec3 tile = decodeTile(pc.aux0 + tl);
    float a[WM][WA];
    bool ok = transformCols(tl * WA * WA * pc.K + k, a);
    if (!ok) {  // one copy of the direct sums, not one per output (code size)
        [[dont_unroll]] for (uint o = 0u; o < WM * WM; ++o) {
            uint p = tile.y * WM + o / WM, q = tile.z * WM + o % WM;
            if (p < pc.P && q < pc.Q) storeOutput(((tile.x * pc.P + p) * pc.Q + q) * pc.K + k, k, directOutput(tile.x, k, p, q));
        }
        return;
    }
    float us = unscaleOf(tl, k);
    [[unroll]] for (uint i = 0u; i < WM; ++i) {
        uint p = tile.y * WM + i;
        if (p >= pc.P) continue;
        [[unroll]] for (uint j = 0u; j < WM; ++j) {
            uint q = tile.z * WM + j;
            if (q < pc.Q) storeOutput(((tile.x * pc.P + p) * pc.Q + q) * pc.K + k, k, atValue(a, i, j) * us);
        }
    }
}
