#version 460
// Winograd F(m x m, 3x3), the filter transform U = G g G^T of every (filter, channel) 3x3 kernel,
// written (binding 5; fp32, or 16-bit under WS16) as the KRSC 1x1 filters of the batched GEMM's grouped convolution:
//   U[xi][k][c] at (xi * K + k) * C/groups + c   (inner group xi * groups + k / (K/groups)).
// Recorded on every call: the filters are the caller's buffer and may change between calls.
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

// PAIRS (KRSC filters, an even C/groups, 16-bit U): channels c and c + 1 of one filter, as
// two-wide values: 4-byte loads and stores instead of 2-byte ones.  LOCAL_SCALE takes this
// mapping with or without PAIRS (without: two loads per pair, any filter layout or view), so
// that a filter's channels are one group of invocations.
layout(set = 0, binding = 1, std430) readonly buffer FilterBuf2 { VEC2_T w2_[]; };

vec2 loadPair(uint k, uint c2, uint r, uint s, uint Cg2) {
    if (PAIRS) return toF32v2(w2_[((k * 3u + r) * 3u + s) * Cg2 + c2]);
    return vec2(toF32(w_[filterOffset(FILTER_LAYOUT, k, 2u * c2, r, s, 2u * Cg2, 3u, 3u)]),
                toF32(w_[filterOffset(FILTER_LAYOUT, k, 2u * c2 + 1u, r, s, 2u * Cg2, 3u, 3u)]));
}

void mainPairs() {
    uint Cg2 = pc.C / pc.groups / 2u;
    uint idx = globalLinearIndex(WG_SIZE);
    bool live = idx < pc.K * Cg2;
    if (!live && !LOCAL_SCALE) return;  // LOCAL_SCALE: every invocation reaches the barriers
    if (LOCAL_SCALE) groupMaxInit(Cg2);
    uint c2 = idx % Cg2, k = idx / Cg2;
    vec2 g[3][3];
    [[unroll]] for (uint r = 0u; r < 3u; ++r)
        [[unroll]] for (uint s = 0u; s < 3u; ++s) g[r][s] = live ? loadPair(k, c2, r, s, Cg2) : vec2(0.0);
    float sc;
    if (LOCAL_SCALE) {
        float mx = 0.0;
        [[unroll]] for (uint r = 0u; r < 3u; ++r)
            [[unroll]] for (uint s = 0u; s < 3u; ++s) mx = max(mx, max(abs(g[r][s].x), abs(g[r][s].y)));
        groupMaxAdd(mx, Cg2);
        int e = groupScaleExp(Cg2, KU);
        if (live && c2 == 0u) scaleExp_[k] = e;
        if (!live) return;
        sc = ldexp(1.0, e);
    } else {
        sc = scaleOf(0u);
    }
    vec2 a[WA][3];  // G g
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint s = 0u; s < 3u; ++s) {
            vec2 v = vec2(0.0);
            [[unroll]] for (uint r = 0u; r < 3u; ++r)
                if (G[i * 3u + r] != 0.0) v += G[i * 3u + r] * g[r][s];
            a[i][s] = v;
        }
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) {  // (G g) G^T
            vec2 v = vec2(0.0);
            [[unroll]] for (uint s = 0u; s < 3u; ++s)
                if (G[j * 3u + s] != 0.0) v += G[j * 3u + s] * a[i][s];
            WS2_STORE(((WA * i + j) * pc.K + k) * Cg2 + c2, v * sc)
        }
}

void main() {
    if (PAIRS || LOCAL_SCALE) { mainPairs(); return; }
    uint Cg = pc.C / pc.groups;
    uint idx = globalLinearIndex(WG_SIZE);
    if (idx >= pc.K * Cg) return;
    uint c = idx % Cg, k = idx / Cg;
    float g[3][3];
    [[unroll]] for (uint r = 0u; r < 3u; ++r)
        [[unroll]] for (uint s = 0u; s < 3u; ++s) g[r][s] = toF32(w_[filterOffset(FILTER_LAYOUT, k, c, r, s, Cg, 3u, 3u)]);
    float sc = scaleOf(0u);
    float a[WA][3];  // G g
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint s = 0u; s < 3u; ++s) {
            float v = 0.0;
            [[unroll]] for (uint r = 0u; r < 3u; ++r)
                if (G[i * 3u + r] != 0.0) v += G[i * 3u + r] * g[r][s];
            a[i][s] = v;
        }
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) {  // (G g) G^T
            float v = 0.0;
            [[unroll]] for (uint s = 0u; s < 3u; ++s)
                if (G[j * 3u + s] != 0.0) v += G[j * 3u + s] * a[i][s];
            WS_STORE(((WA * i + j) * pc.K + k) * Cg + c, v * sc)
        }
}
