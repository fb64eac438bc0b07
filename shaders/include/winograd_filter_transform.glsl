// Winograd F(m x m, 3x3), the filter transform U = G g G^T of every (filter, channel) 3x3 kernel,
// as the KRSC 1x1 filters of the batched GEMM's grouped convolution:
//   U[xi][k][c] at (xi * K + k) * C/groups + c   (inner group xi * groups + k / (K/groups)).
// Two homes: winograd_filter.comp (a pass of its own: packed filters, and where the input
// transform cannot take it) and winograd_input.comp's WITH_FILTER workgroups (the first input
// transform's dispatch also transforms the filter: one dispatch and barrier fewer per call).
// The includer declares WG_SIZE and defines U_STORE(i, v) / U2_STORE(i, v) (where U goes: one
// value, or a pair at pair index i) and U_PAIRS (KRSC filters, an even C/groups, a 4-byte
// aligned view: channels c and c + 1 of one filter as two-wide values, 4-byte loads and stores).
// LOCAL_SCALE takes the pair mapping with or without U_PAIRS (without: two loads per pair, any
// filter layout or view), so that a filter's channels are one group of invocations.
// Its sums are `precise` (no fused multiply-adds): both homes, and Plan::packFilter, then give U
// the same bits (NVIDIA's compiler contracted F(4x4)'s differently in the two shaders).
#ifndef VKCONV_WINOGRAD_FILTER_TRANSFORM_GLSL
#define VKCONV_WINOGRAD_FILTER_TRANSFORM_GLSL

layout(set = 0, binding = 1, std430) readonly buffer FilterBuf2 { VEC2_T w2_[]; };

vec2 loadFilterPair(uint k, uint c2, uint r, uint s, uint Cg2) {
    if (U_PAIRS) return toF32v2(w2_[((k * 3u + r) * 3u + s) * Cg2 + c2]);
    return vec2(toF32(w_[filterOffset(FILTER_LAYOUT, k, 2u * c2, r, s, 2u * Cg2, 3u, 3u)]),
                toF32(w_[filterOffset(FILTER_LAYOUT, k, 2u * c2 + 1u, r, s, 2u * Cg2, 3u, 3u)]));
}

// idx: this invocation's index in the filter transform's grid of whole workgroups.
void filterTransformPairs(uint idx) {
    uint Cg2 = pc.C / pc.groups / 2u;
    bool live = idx < pc.K * Cg2;
    if (!live && !LOCAL_SCALE) return;  // LOCAL_SCALE: every invocation reaches the barriers
    if (LOCAL_SCALE) groupMaxInit(Cg2);
    uint c2 = idx % Cg2, k = idx / Cg2;
    vec2 g[3][3];
    [[unroll]] for (uint r = 0u; r < 3u; ++r)
        [[unroll]] for (uint s = 0u; s < 3u; ++s) g[r][s] = live ? loadFilterPair(k, c2, r, s, Cg2) : vec2(0.0);
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
    precise vec2 a[WA][3];  // G g
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint s = 0u; s < 3u; ++s) {
            precise vec2 v = vec2(0.0);
            [[unroll]] for (uint r = 0u; r < 3u; ++r)
                if (G[i * 3u + r] != 0.0) v += G[i * 3u + r] * g[r][s];
            a[i][s] = v;
        }
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) {  // (G g) G^T
            precise vec2 v = vec2(0.0);
            [[unroll]] for (uint s = 0u; s < 3u; ++s)
                if (G[j * 3u + s] != 0.0) v += G[j * 3u + s] * a[i][s];
            U2_STORE(((WA * i + j) * pc.K + k) * Cg2 + c2, v * sc)
        }
}

void filterTransformOne(uint idx) {
    uint Cg = pc.C / pc.groups;
    if (idx >= pc.K * Cg) return;
    uint c = idx % Cg, k = idx / Cg;
    float g[3][3];
    [[unroll]] for (uint r = 0u; r < 3u; ++r)
        [[unroll]] for (uint s = 0u; s < 3u; ++s) g[r][s] = toF32(w_[filterOffset(FILTER_LAYOUT, k, c, r, s, Cg, 3u, 3u)]);
    float sc = scaleOf(0u);
    precise float a[WA][3];  // G g
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint s = 0u; s < 3u; ++s) {
            precise float v = 0.0;
            [[unroll]] for (uint r = 0u; r < 3u; ++r)
                if (G[i * 3u + r] != 0.0) v += G[i * 3u + r] * g[r][s];
            a[i][s] = v;
        }
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) {  // (G g) G^T
            precise float v = 0.0;
            [[unroll]] for (uint s = 0u; s < 3u; ++s)
                if (G[j * 3u + s] != 0.0) v += G[j * 3u + s] * a[i][s];
            U_STORE(((WA * i + j) * pc.K + k) * Cg + c, v * sc)
        }
}

void filterTransform(uint idx) {
    if (U_PAIRS || LOCAL_SCALE) filterTransformPairs(idx);
    else filterTransformOne(idx);
}

#endif
