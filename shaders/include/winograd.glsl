// Winograd F(m x m, 3x3) (docs/design.md "Winograd"), m = WINO_M (2 or 4): the transform
// matrices, the workspace region each transform reads or writes (V, U or M, bound at binding 5:
// fp32, or V and U in the 16-bit storage type when the GEMM runs on the matrix units), and
// the decode of an m x m output tile index.
#ifndef VKCONV_WINOGRAD_GLSL
#define VKCONV_WINOGRAD_GLSL
#include "conv_params.glsl"
#include "tensor_index.glsl"

#ifndef WINO_M
#define WINO_M 2
#endif
const uint WM = WINO_M;       // outputs per tile side
const uint WA = WINO_M + 2u;  // input patch side (alpha); WA * WA products per tile

// Row-major B^T (WA x WA), G (WA x 3), A^T (WM x WA).  Loops over them are unrolled, so every
// entry is a constant at the use.  F(2x2,3x3): entries 0, +-1, +-1/2 (exact on small integers).
// F(4x4,3x3) interpolates at 0, 1, -1, 1/2, -2 (and infinity), not Lavin & Gray's 0, +-1, +-2: the
// mixed pair keeps the products' rounding ~2.5x smaller (Barabasz et al., "Error analysis and
// improving the accuracy of Winograd convolution"); row 4 of G is doubled and that of B^T halved
// (exact) so that no transformed input exceeds 7^2 = 49x the largest input (16-bit V stays finite
// up to |x| ~ 1300).  Its rounding amplification is (14/3)^2 = 196/9 (tests/support/harness.cpp).
#if WINO_M == 2
const float BT[16] = float[16](1, 0, -1, 0,  0, 1, 1, 0,  0, -1, 1, 0,  0, 1, 0, -1);
const float G[12] = float[12](1, 0, 0,  0.5, 0.5, 0.5,  0.5, -0.5, 0.5,  0, 0, 1);
const float AT[8] = float[8](1, 1, 1, 0,  0, 1, -1, -1);
#elif WINO_M == 4
const float BT[36] = float[36](1, -1.5, -2, 1.5, 1, 0,      0, -1, 0.5, 2.5, 1, 0,        0, 1, -2.5, 0.5, 1, 0,
                               0, -2, -1, 2, 1, 0,          0, 0.25, -0.5, -0.25, 0.5, 0,  0, 1, -1.5, -2, 1.5, 1);
const float G[18] = float[18](1, 0, 0,  1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0,  -1.0 / 3.0, 1.0 / 3.0, -1.0 / 3.0,
                              -16.0 / 15.0, -8.0 / 15.0, -4.0 / 15.0,  2.0 / 15.0, -4.0 / 15.0, 8.0 / 15.0,  0, 0, 1);
const float AT[24] = float[24](1, 1, 1, 1, 1, 0,  0, 1, -1, 0.5, -2, 0,  0, 1, 1, 0.25, 4, 0,  0, 1, -1, 0.125, -8, 1);
#else
#error "WINO_M must be 2 or 4"
#endif

layout(set = 0, binding = 5, std430) buffer WinogradBuf { float ws_[]; };

// WS16: this pass's workspace values are in the 16-bit storage type: V and U written by the input
// and filter transforms as the operands of a batched GEMM on the matrix units, M read by the
// output transform where that GEMM stores 16-bit M (fp16; bf16 F(2x2): docs/design.md "winograd").
layout(constant_id = 120) const bool WS16 = false;
// SCALED (bf16 on the matrix units; docs/design.md "Winograd"): V, U and M are fp16 whatever the
// storage type, V and U scaled by the powers of two 2^eV and 2^eU that winograd_range.comp chose
// from the input's and the filter's largest magnitudes (binding 6: [0] eU, [1] eV), and the
// outputs scaled back by 2^-(eU + eV).  WS16 still says which workspace values are 16-bit.
// fp16's 11-bit significand keeps F(4x4)'s errors near the direct kernels' where bf16 V and U
// would put them ~10x higher (docs/performance.md, "winograd").
layout(constant_id = 125) const bool SCALED = false;
// LOCAL_SCALE (SCALED, host: NHWC input, and a tile's channel pairs and a filter's fill whole
// workgroups of the transforms): no range pass; each tile's V and each filter's U get their own
// exponents, chosen inside the input and filter transforms from that tile's patch (all its
// channels) and that filter's taps.  A tile's scale is common to every channel the GEMM sums
// over, and a filter's to its row of U, so M[t][k] is only scaled by 2^(eV[t] + eU[k]), which the
// output transform takes back.  Binding 6 then holds [k] eU of filter k, [K + t] eV of chunk
// tile t.  Else (range pass) [0] eU, [1] eV for the whole call.
layout(constant_id = 131) const bool LOCAL_SCALE = false;
// |U| <= 2^KU x the filter's largest |value| x ... and |V| <= 2^KV x ...: the exponent budget of
// winograd_range.comp's KU / KV (host), the transforms' growth bounds taken off.
layout(constant_id = 126) const int KU = 0;
layout(constant_id = 127) const int KV = 0;
layout(set = 0, binding = 6, std430) buffer WinogradScale { int scaleExp_[]; };
float scaleOf(uint which) { return SCALED ? ldexp(1.0, scaleExp_[which]) : 1.0; }
int expU(uint k) { return LOCAL_SCALE ? scaleExp_[k] : scaleExp_[0]; }
int expV(uint t) { return LOCAL_SCALE ? scaleExp_[pc.K + t] : scaleExp_[1]; }
// The output scale of chunk tile t, filter k.
float unscaleOf(uint t, uint k) { return SCALED ? ldexp(1.0, -(expU(k) + expV(t))) : 1.0; }

// WS_STORE_IN / WS2_STORE_IN: a workspace value (pair) into the views of one binding: fp32 F, the
// storage type E, fp16 H (scaled bf16); E2 / H2 their two-wide views.  WS_STORE / WS2_STORE are
// binding 5's; winograd_input.comp's WITH_FILTER workgroups store U through binding 4's.
#if defined(DTYPE_F32)
#define WS_STORE_IN(F, E, H, i, v) F[i] = (v);
#define WS_STORE(i, v) ws_[i] = (v);
#define WS_LOAD(i) ws_[i]
#else
layout(set = 0, binding = 5, std430) buffer WinogradBuf16 { ELEM_T ws16_[]; };
#if defined(DTYPE_BF16)
layout(set = 0, binding = 5, std430) buffer WinogradBufH { float16_t wsh_[]; };
#define WS_STORE_IN(F, E, H, i, v)                 \
    {                                              \
        if (WS16 && SCALED) H[i] = float16_t(v);   \
        else if (WS16) E[i] = fromF32(v);          \
        else F[i] = (v);                           \
    }
#define WS_LOAD(i) (WS16 ? (SCALED ? float(wsh_[i]) : toF32(ws16_[i])) : ws_[i])
#else
#define WS_STORE_IN(F, E, H, i, v)       \
    {                                    \
        if (WS16) E[i] = fromF32(v);     \
        else F[i] = (v);                 \
    }
#define WS_LOAD(i) (WS16 ? toF32(ws16_[i]) : ws_[i])
#endif
#define WS_STORE(i, v) WS_STORE_IN(ws_, ws16_, wsh_, i, v)
#endif
// PAIRS (NHWC, 16-bit workspace values, an even channel count, 4-byte aligned views): each
// invocation transforms two neighbouring channels (filters) with 4-byte loads and stores, so a
// subgroup moves whole 128-byte lines instead of 64-byte halves.  Host: algo_winograd.cpp.
layout(constant_id = 121) const bool PAIRS = false;
layout(set = 0, binding = 5, std430) buffer WinogradBuf2 { VEC2_T ws2_[]; };
#if defined(DTYPE_BF16)
layout(set = 0, binding = 5, std430) buffer WinogradBufH2 { f16vec2 wsh2_[]; };
#define WS2_STORE_IN(E2, H2, i, v)               \
    {                                            \
        if (SCALED) H2[i] = f16vec2(v);          \
        else E2[i] = fromF32v2(v);               \
    }
#define WS2_LOAD(i) (SCALED ? vec2(wsh2_[i]) : toF32v2(ws2_[i]))
#else
#define WS2_STORE_IN(E2, H2, i, v) E2[i] = fromF32v2(v);
#define WS2_LOAD(i) toF32v2(ws2_[i])
#endif
#define WS2_STORE(i, v) WS2_STORE_IN(ws2_, wsh2_, i, v)

// The input and output transforms' products, for one channel (float) and for PAIRS (vec2): GLSL
// has no templates, so WINO_PRODUCTS defines each overload.  The loops unroll, so every
// coefficient is a constant and the zero ones drop out.
//   btRows   b = B^T d                    btValue  ((B^T d) B)[i][j]
//   atRows   a = A^T m                    atValue  ((A^T m) A)[i][j]
#define WINO_PRODUCTS(T)                                                          \
    void btRows(in T d[WA][WA], out T b[WA][WA]) {                                \
        [[unroll]] for (uint i = 0u; i < WA; ++i)                                 \
            [[unroll]] for (uint j = 0u; j < WA; ++j) {                           \
                T s = T(0.0);                                                     \
                [[unroll]] for (uint k = 0u; k < WA; ++k)                         \
                    if (BT[i * WA + k] != 0.0) s += BT[i * WA + k] * d[k][j];     \
                b[i][j] = s;                                                      \
            }                                                                     \
    }                                                                             \
    T btValue(in T b[WA][WA], uint i, uint j) {                                   \
        T s = T(0.0);                                                             \
        [[unroll]] for (uint k = 0u; k < WA; ++k)                                 \
            if (BT[j * WA + k] != 0.0) s += BT[j * WA + k] * b[i][k];             \
        return s;                                                                 \
    }                                                                             \
    void atRows(in T m[WA][WA], out T a[WM][WA]) {                                \
        [[unroll]] for (uint i = 0u; i < WM; ++i)                                 \
            [[unroll]] for (uint j = 0u; j < WA; ++j) {                           \
                T s = T(0.0);                                                     \
                [[unroll]] for (uint x = 0u; x < WA; ++x)                         \
                    if (AT[i * WA + x] != 0.0) s += AT[i * WA + x] * m[x][j];     \
                a[i][j] = s;                                                      \
            }                                                                     \
    }                                                                             \
    T atValue(in T a[WM][WA], uint i, uint j) {                                   \
        T y = T(0.0);                                                             \
        [[unroll]] for (uint x = 0u; x < WA; ++x)                                 \
            if (AT[j * WA + x] != 0.0) y += AT[j * WA + x] * a[i][x];             \
        return y;                                                                 \
    }
WINO_PRODUCTS(float)
WINO_PRODUCTS(vec2)

// Tile t of N x ceil(P/WM) x ceil(Q/WM), row-major: (n, tile row, tile column).
uvec3 decodeTile(uint t) {
    uint tilesW = (pc.Q + WM - 1u) / WM, tilesH = (pc.P + WM - 1u) / WM;
    return uvec3(t / (tilesW * tilesH), (t / tilesW) % tilesH, t % tilesW);
}

// The NCHW transforms' workgroup block: tt tiles x cw channels (or filters), channel blocks fastest
// (the host dispatches whole workgroups, ceil(tiles / tt) x ceil(channels / cw) of them); `block`:
// this workgroup's index among them.  False for a workgroup past them (the grid's rounding); else
// the block's first tile and channel.
bool nchwBlock(uint channels, uint tt, uint cw, uint block, out uint t0, out uint c0) {
    uint cBlocks = (channels + cw - 1u) / cw;
    t0 = (block / cBlocks) * tt;
    c0 = (block % cBlocks) * cw;
    return block < ((pc.aux1 + tt - 1u) / tt) * cBlocks;
}

#endif
