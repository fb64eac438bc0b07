#version 460
// Winograd F(m x m, 3x3), pass 1 of 3 (docs/design.md "Winograd"): the input transform
// V = B^T d B of every WA x WA input patch (stride WM over the output, shifted by the padding) of
// this chunk's tiles.  Out-of-range input reads as zero (the padding, never stored).
// V (binding 5; fp32, or 16-bit under WS16) is the NHWC "image" the batched GEMM reads as a grouped 1x1 convolution:
//   V[t][xi][c] at (t * WA*WA + xi) * C + c,  t = chunk-local tile, xi = WA * i + j.
// NHWC: one invocation per (tile, channel), channels fastest: V is written contiguously and the
// input is read contiguously.  NCHW: a workgroup owns a block of TT tiles x CC channels; its
// invocations walk the tiles (neighbouring patches of one channel plane) and hand each row of
// their V values through shared memory to a write in channel-contiguous runs (with channels
// fastest, an NCHW read hit a separate channel plane per lane and ran up to 1.9x the NHWC time;
// docs/performance.md, "winograd").  pc.aux0 = the chunk's first tile, pc.aux1 = its tile count.
// WITH_FILTER (the first chunk of a call whose filter is not packed): the grid's last workgroups
// run the filter transform (winograd_filter_transform.glsl) into U at binding 4, which this pass
// does not otherwise use; one dispatch for both, where the filter pass of its own cost a little
// more at batch 1.  Last, in the input pass's tail, where SMs are free (first in the grid they
// gained nothing).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "winograd.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(local_size_x_id = 100) in;
#include "winograd_scale.glsl"

layout(constant_id = 132) const bool WITH_FILTER = false;
layout(constant_id = 133) const bool FILTER_PAIRS = false;  // the filter transform's U_PAIRS
layout(set = 0, binding = 4, std430) writeonly buffer UBuf { float u_[]; };
layout(set = 0, binding = 4, std430) writeonly buffer UBuf2 { VEC2_T u2_[]; };
#if !defined(DTYPE_F32)
layout(set = 0, binding = 4, std430) writeonly buffer UBuf16 { ELEM_T u16_[]; };
#endif
#if defined(DTYPE_BF16)
layout(set = 0, binding = 4, std430) writeonly buffer UBufH { float16_t uh_[]; };
layout(set = 0, binding = 4, std430) writeonly buffer UBufH2 { f16vec2 uh2_[]; };
#endif
#define U_STORE(i, v) WS_STORE_IN(u_, u16_, uh_, i, v)
#define U2_STORE(i, v) WS2_STORE_IN(u2_, uh2_, i, v)
#define U_PAIRS FILTER_PAIRS
#include "winograd_filter_transform.glsl"

// The NCHW block: CC channels (one 32-byte sector of a V row) x TT tiles; the host dispatches
// ceil(tiles / TT) x ceil(C / CC) workgroups, channel blocks fastest.
const uint CC = 8u, TT = WG_SIZE / CC;
const uint SV_LINE = TT * (CC + 1u);  // one V column j of the block, padded against bank conflicts
shared float sV[(1u - IN_LAYOUT) * WA * SV_LINE + IN_LAYOUT];

// WITH_FILTER: the filter transform's workgroups (whole ones, one invocation per value or pair as
// in its own pass) come after the input transform's.
uint inputWorkgroups() {
    if (IN_LAYOUT == 0u) return (pc.aux1 + TT - 1u) / TT * ((pc.C + CC - 1u) / CC);
    uint items = pc.aux1 * (PAIRS || LOCAL_SCALE ? pc.C / 2u : pc.C);
    return (items + WG_SIZE - 1u) / WG_SIZE;
}
// This invocation's index in the input transform's own grid, and in the filter transform's.
uint inputIndex() { return globalLinearIndex(WG_SIZE); }
uint filterIndex() { return globalLinearIndex(WG_SIZE) - inputWorkgroups() * WG_SIZE; }
bool runsFilter() { return WITH_FILTER && globalLinearIndex(WG_SIZE) / WG_SIZE >= inputWorkgroups(); }

// The input patch of `tile`, channel c (zeros outside the image: the padding).
void loadPatch(uint tile, uint c, out float d[WA][WA]) {
    uvec3 tc = decodeTile(tile);
    int h0 = int(tc.y * WM) - int(pc.padT), w0 = int(tc.z * WM) - int(pc.padL);
    [[unroll]] for (uint i = 0u; i < WA; ++i) {
        int h = h0 + int(i);
        bool rowOk = h >= 0 && h < int(pc.H);
        [[unroll]] for (uint j = 0u; j < WA; ++j) {
            int w = w0 + int(j);
            d[i][j] = rowOk && w >= 0 && w < int(pc.W)
                          ? toF32(x_[activationOffset(IN_LAYOUT, tc.x, c, uint(h), uint(w), pc.C, pc.H, pc.W)])
                          : 0.0;
        }
    }
}

void mainNchw() {
    uint tid = gl_LocalInvocationID.x, t0, c0;
    if (!nchwBlock(pc.C, TT, CC, inputIndex() / WG_SIZE, t0, c0)) return;  // whole workgroups: no barrier skipped
    uint t = tid % TT, cc = tid / TT;
    bool mine = t0 + t < pc.aux1 && c0 + cc < pc.C;
    float d[WA][WA], b[WA][WA];
    if (mine) loadPatch(pc.aux0 + t0 + t, c0 + cc, d);
    else [[unroll]] for (uint i = 0u; i < WA; ++i) [[unroll]] for (uint j = 0u; j < WA; ++j) d[i][j] = 0.0;
    btRows(d, b);
    float sc = scaleOf(1u);
    [[unroll]] for (uint i = 0u; i < WA; ++i) {
        if (i > 0u) barrier();  // the previous row's reads are done
        [[unroll]] for (uint j = 0u; j < WA; ++j) sV[j * SV_LINE + t * (CC + 1u) + cc] = btValue(b, i, j) * sc;
        barrier();
        // V[t][WA*i + j][c], CC channels contiguous: value e of the row is (j, tile, channel).
        [[unroll]] for (uint r = 0u; r < WA; ++r) {
            uint e = tid + r * WG_SIZE, ce = e % CC, te = (e / CC) % TT, je = e / (CC * TT);
            if (t0 + te < pc.aux1 && c0 + ce < pc.C)
                WS_STORE(((t0 + te) * WA * WA + WA * i + je) * pc.C + c0 + ce, sV[je * SV_LINE + te * (CC + 1u) + ce])
        }
    }
}

// PAIRS: channels c and c + 1 (c even) of one tile, as two-wide values.  An interior patch
// (inside the image on every side: all but the border tiles) is read at fixed steps from one
// offset with no bounds check per value; the border tiles keep the checks.  Loading the whole
// patch before B^T d keeps all 36 loads in flight: accumulating B^T d one input row at a time
// (fewer live registers) made this pass up to 2.7x slower on an H100.
// LOCAL_SCALE takes this mapping with or without PAIRS (without: two 16-bit loads per pair, for
// an input view PAIRS cannot read), so that a tile's channels are one group of invocations.
layout(set = 0, binding = 0, std430) readonly buffer InputBuf2 { VEC2_T x2_[]; };

vec2 loadPair(uint i) { return PAIRS ? toF32v2(x2_[i]) : vec2(toF32(x_[2u * i]), toF32(x_[2u * i + 1u])); }

void mainPairs() {
    uint C2 = pc.C / 2u;
    uint idx = inputIndex();
    bool live = idx < pc.aux1 * C2;
    if (!live && !LOCAL_SCALE) return;  // LOCAL_SCALE: every invocation reaches the barriers
    if (LOCAL_SCALE) groupMaxInit(C2);
    uint c2 = idx % C2, tl = idx / C2;
    vec2 d[WA][WA], b[WA][WA];
    [[unroll]] for (uint i = 0u; i < WA; ++i) [[unroll]] for (uint j = 0u; j < WA; ++j) d[i][j] = vec2(0.0);
    uvec3 tc = decodeTile(pc.aux0 + tl);
    int h0 = int(tc.y * WM) - int(pc.padT), w0 = int(tc.z * WM) - int(pc.padL);
    if (!live) {
    } else if (h0 >= 0 && w0 >= 0 && h0 + int(WA) <= int(pc.H) && w0 + int(WA) <= int(pc.W)) {
        uint base = activationOffset(1u, tc.x, 2u * c2, uint(h0), uint(w0), pc.C, pc.H, pc.W) >> 1, rowStep = pc.W * C2;
        [[unroll]] for (uint i = 0u; i < WA; ++i)
            [[unroll]] for (uint j = 0u; j < WA; ++j) d[i][j] = loadPair(base + i * rowStep + j * C2);
    } else {
        [[unroll]] for (uint i = 0u; i < WA; ++i) {
            int h = h0 + int(i);
            bool rowOk = h >= 0 && h < int(pc.H);
            [[unroll]] for (uint j = 0u; j < WA; ++j) {
                int w = w0 + int(j);
                if (rowOk && w >= 0 && w < int(pc.W))
                    d[i][j] = loadPair(activationOffset(1u, tc.x, 2u * c2, uint(h), uint(w), pc.C, pc.H, pc.W) >> 1);
            }
        }
    }
    if (LOCAL_SCALE) {
        float mx = 0.0;
        [[unroll]] for (uint i = 0u; i < WA; ++i)
            [[unroll]] for (uint j = 0u; j < WA; ++j) mx = max(mx, max(abs(d[i][j].x), abs(d[i][j].y)));
        groupMaxAdd(mx, C2);
    }
    btRows(d, b);  // before the exponent's barrier: it does not need it
    float sc;
    if (LOCAL_SCALE) {
        int e = groupScaleExp(C2, KV);
        if (live && c2 == 0u) scaleExp_[pc.K + tl] = e;
        if (!live) return;
        sc = ldexp(1.0, e);
    } else {
        sc = scaleOf(1u);
    }
    uint vBase = tl * WA * WA * C2 + c2;
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) WS2_STORE(vBase + (WA * i + j) * C2, btValue(b, i, j) * sc)
}

void main() {
    if (runsFilter()) {
        filterTransform(filterIndex());  // whole workgroups: its barriers are uniform
        return;
    }
    if (IN_LAYOUT == 0u) { mainNchw(); return; }
    if (PAIRS || LOCAL_SCALE) { mainPairs(); return; }
    uint idx = inputIndex();
    if (idx >= pc.aux1 * pc.C) return;
    uint c = idx % pc.C, tl = idx / pc.C;
    float d[WA][WA], b[WA][WA];
    loadPatch(pc.aux0 + tl, c, d);
    btRows(d, b);
    float sc = scaleOf(1u);
    uint base = tl * WA * WA * pc.C + c;
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) WS_STORE(base + (WA * i + j) * pc.C, btValue(b, i, j) * sc)
}
