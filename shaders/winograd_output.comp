#version 460
// Winograd F(m x m, 3x3), pass 3 of 3: the output transform Y = A^T m A of the batched GEMM's
// products M[t][xi][k] (binding 5, at (t * WA*WA + xi) * K + k; fp32, or 16-bit under WS16), then the fused epilogue
// (bias, residual, activation, conversion) on the WM x WM outputs of each tile inside P x Q.
// One invocation per (tile, filter), filters fastest: M is read contiguously and NHWC output is
// written contiguously.  NCHW: a workgroup owns a block of TT tiles x CK filters (CK: one 32-byte
// sector of an M row: 8 fp32 values, 16 with 16-bit M, host-set), reads M with filters fastest as before, and hands each output row through
// shared memory to a store with tiles fastest, so that a warp writes runs along the output rows
// (filters fastest, each lane wrote its own channel plane: docs/perf-notes.md item 34).
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
const uint TT = WG_SIZE / CK;
const uint SY_LINE = TT * WM + 1u;  // one filter's row of the block, padded against bank conflicts
shared float sY[(1u - OUT_LAYOUT) * CK * SY_LINE + OUT_LAYOUT];

// A^T m for the tile whose M values start at `base` (stride K between its WA x WA products).
void transformCols(uint base, out float a[WM][WA]) {
    float m[WA][WA];
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) m[i][j] = WS_LOAD(base + (WA * i + j) * pc.K);
    atRows(m, a);
}

void mainNchw() {
    uint tid = gl_LocalInvocationID.x, t0, k0;
    if (!nchwBlock(pc.K, TT, CK, WG_SIZE, t0, k0)) return;  // whole workgroups: no barrier skipped
    uint kc = tid % CK, t = tid / CK;
    float a[WM][WA];
    if (t0 + t < pc.aux1 && k0 + kc < pc.K) transformCols((t0 + t) * WA * WA * pc.K + k0 + kc, a);
    else [[unroll]] for (uint i = 0u; i < WM; ++i) [[unroll]] for (uint j = 0u; j < WA; ++j) a[i][j] = 0.0;
    [[unroll]] for (uint i = 0u; i < WM; ++i) {
        if (i > 0u) barrier();  // the previous row's reads are done
        [[unroll]] for (uint j = 0u; j < WM; ++j) sY[kc * SY_LINE + t * WM + j] = atValue(a, i, j);
        barrier();
        // Output row i of every tile: value e is (filter, tile, column), columns then tiles fastest.
        [[unroll]] for (uint r = 0u; r < WM; ++r) {
            uint e = tid + r * WG_SIZE, je = e % WM, te = (e / WM) % TT, ke = e / (WM * TT);
            if (t0 + te >= pc.aux1 || k0 + ke >= pc.K) continue;
            uvec3 tile = decodeTile(pc.aux0 + t0 + te);
            uint p = tile.y * WM + i, q = tile.z * WM + je, k = k0 + ke;
            if (p < pc.P && q < pc.Q) storeOutput(((tile.x * pc.K + k) * pc.P + p) * pc.Q + q, k, sY[ke * SY_LINE + te * WM + je]);
        }
    }
}

// PAIRS: filters k and k + 1 (k even) of one tile, 16-bit M, as two-wide values.
layout(set = 0, binding = 4, std430) writeonly buffer OutputBuf2 { VEC2_T y2_[]; };

void mainPairs() {
    uint K2 = pc.K / 2u;
    uint idx = globalLinearIndex(WG_SIZE);
    if (idx >= pc.aux1 * K2) return;
    uint k2 = idx % K2, tl = idx / K2, k = 2u * k2;
    uvec3 tile = decodeTile(pc.aux0 + tl);
    vec2 m[WA][WA], a[WM][WA];
    uint base = tl * WA * WA * K2 + k2;
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) m[i][j] = toF32v2(ws2_[base + (WA * i + j) * K2]);
    atRows(m, a);
    [[unroll]] for (uint i = 0u; i < WM; ++i) {
        uint p = tile.y * WM + i;
        if (p >= pc.P) continue;
        [[unroll]] for (uint j = 0u; j < WM; ++j) {
            uint q = tile.z * WM + j;
            if (q >= pc.Q) continue;
            vec2 y = atValue(a, i, j);
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
    transformCols(tl * WA * WA * pc.K + k, a);
    [[unroll]] for (uint i = 0u; i < WM; ++i) {
        uint p = tile.y * WM + i;
        if (p >= pc.P) continue;
        [[unroll]] for (uint j = 0u; j < WM; ++j) {
            uint q = tile.z * WM + j;
            if (q < pc.Q) storeOutput(((tile.x * pc.P + p) * pc.Q + q) * pc.K + k, k, atValue(a, i, j));
        }
    }
}
