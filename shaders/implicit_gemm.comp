#version 460
// Levels 3-4, "implicit_gemm": tiled implicit GEMM without im2col.  A workgroup computes a
// BM x BN tile (pixels x filters) of one group; the reduction runs in BK slices staged through
// double-buffered shared memory (the next slice's global loads are in flight while the current
// one is multiplied); each invocation accumulates a TM x TN fp32 register tile, reading shared
// memory four values at a time.  Staging modes (spec constants, chosen by the host):
//   CHANNEL_SLICES  C/groups % BK == 0: one filter tap per slice (tile_iterators_fast.glsl);
//   VEC_A / VEC_B   NHWC activations / KRSC filters with 4-aligned channels: 4-wide loads
//                   (1x1 KCRS filters are KRSC in memory: the host sets VEC_B for them too);
//   VEC_AM          NCHW activations of an unpadded 1x1 stride-1 layer with H*W % 4 == 0: four
//                   neighbouring pixels of one channel per load and per 16-byte shared store;
//                   with VEC_AM_S2 (stride 2, W % 8 == 0) the four are every other pixel of two
//                   aligned 4-wide loads (the sectors of the row's even pixels are all read anyway).
// Otherwise every staged element decodes its own (c, r, s) tap (igemm_problem.glsl).
// Built with VEC_STAGING defined ("implicit_gemm_vec_*", "implicit_gemm_splitk_vec_*"; the host
// uses it for VEC_A / VEC_AM / VEC_B): per-item offsets as a loop-invariant base plus a per-slice
// delta and shared addresses in 16-byte words (5-17 % faster there); the scalar modes keep the
// arithmetic of the build without it, which NVIDIA allocates best (docs/performance.md, "implicit_gemm").
// Built with TAP_TABLE defined ("implicit_gemm_tap_*", "implicit_gemm_splitk_tap_*"; the host uses
// it where C/groups is not a multiple of BK, e.g. the C = 3 first layers): the other staging mode,
// where every staged element has its own (c, r, s) tap, reads the tap from a table in shared memory
// filled once per workgroup instead of decoding it with four runtime divisions per element and slice.
// Built with SPLIT_K defined ("implicit_gemm_splitk_*"): workgroup z runs only its split of the
// reduction slices and writes raw fp32 partial sums to the workspace instead of running the
// epilogue; splitk_reduce.comp finishes (splitk.glsl).
#extension GL_GOOGLE_include_directive : require
// Loops over register tiles must unroll fully or the arrays are demoted to local memory (seen
// on NVIDIA: 8x8 tiles ran at 3% of peak); spec-constant bounds alone do not guarantee it.
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "epilogue.glsl"
#include "igemm_problem.glsl"
#include "activation_tile_iterator.glsl"
#include "tile_iterators_fast.glsl"
#ifdef SPLIT_K
#include "splitk.glsl"
#endif

layout(constant_id = 100) const uint WG_SIZE = 256;  // == (BM/TM)*(BN/TN)
layout(constant_id = 101) const uint BM = 128;       // pixels per tile
layout(constant_id = 102) const uint BN = 128;       // filters per tile
layout(constant_id = 103) const uint BK = 8;         // reduction slice
layout(constant_id = 104) const uint TM = 8;         // rows per invocation (multiple of 4)
layout(constant_id = 105) const uint TN = 8;         // columns per invocation (multiple of 4)
layout(constant_id = 111) const bool CHANNEL_SLICES = false;
layout(constant_id = 112) const bool VEC_A = false;
layout(constant_id = 115) const bool VEC_AM = false;
layout(constant_id = 113) const bool VEC_B = false;
layout(constant_id = 114) const bool STAGE_OUT = false;  // the epilogue through shared memory (below)
#ifdef VEC_STAGING
layout(constant_id = 117) const bool VEC_AM_S2 = false;
// Direct (unstaged) epilogue in 16-byte stores: four consecutive pixels of one filter (NCHW, with
// P*Q % 4 == 0) or four filters of one pixel (NHWC, K/groups % 4 == 0), host-checked, as are the
// output view's alignment and the one-pass kernel (split-K partials stay scalar).
layout(constant_id = 118) const bool VEC_OUT = false;
layout(set = 0, binding = 4, std430) writeonly buffer OutputBuf4 { VEC4_T y4_[]; };
#endif
layout(local_size_x_id = 100) in;

const uint NTX = BN / TN, NTY = BM / TM;  // invocations along the tile's columns / rows
const uint NT = NTX * NTY;
const uint AV = VEC_A || VEC_AM ? 4u : 1u;  // elements per staged A item
const uint AKV = VEC_A ? 4u : 1u;           // reduction values per staged A item
const uint BV = VEC_B ? 4u : 1u;
const uint A_ITEMS = BM * BK / AV;
const uint B_ITEMS = BN * BK / BV;
const uint A_PER_T = (A_ITEMS + NT - 1u) / NT;
const uint B_PER_T = (B_ITEMS + NT - 1u) / NT;

// STAGE_OUT: the epilogue writes the register tiles in chunks of RB x CB (one 4x4 block of every
// invocation) through shared memory, so that neighbouring invocations store neighbouring
// addresses: filters for NHWC, pixels for NCHW.  Written straight from the registers, a warp's
// stores touch 32 separate 32-byte sectors for NCHW (16 for NHWC), which caps short reductions
// far below the FMA rate; but staging costs registers (NVIDIA: 128 -> 183 for 8x8 NCHW tiles), so
// the host turns it on only where the output traffic dominates (docs/performance.md, "implicit_gemm").
const uint RB = BM * 4u / TM, CB = BN * 4u / TN;  // rows / columns of one chunk (16 x NT values)
// Chunk layout [row][col] (NHWC) or [col][row] (NCHW), padded by one 16-byte word per line so that
// the scalar reads are free of bank conflicts (the NHWC vec4 writes too).  OUT_LAYOUT is 0 or 1:
// arithmetic rather than ?: keeps these specialization-constant expressions.
const uint LDC = OUT_LAYOUT * (CB + 4u) + (1u - OUT_LAYOUT) * (RB + 4u);
const uint C_WORDS = STAGE_OUT ? (OUT_LAYOUT * RB + (1u - OUT_LAYOUT) * CB) * LDC / 4u : 0u;
const uint AB_WORDS = 2u * BK * (BM + BN) / 4u;
// One array, reused: [A buf 0|1][B buf 0|1] during the reduction, the output chunk afterwards.
// (Separate A, B and chunk arrays cost up to 60 % more time on NVIDIA.)
shared vec4 smem[AB_WORDS > C_WORDS ? AB_WORDS : C_WORDS];
#define As(i) smem[i]                           // [buf][kk][m], m fastest
#define Bs(i) smem[2u * BK * BM / 4u + (i)]     // [buf][kk][n], n fastest
#ifdef TAP_TABLE
// Entry kidx (< C/groups*R*S <= TAP_ENTRIES, host-checked): x = the activation offset of tap (c, r, s)
// from its pixel's row base, y = r | s << 8 | (its filter offset from filter k's first) << 16.
layout(constant_id = 116) const uint TAP_ENTRIES = 32;
shared uvec2 tapTab[TAP_ENTRIES];
#endif

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint M = pc.N * pc.P * pc.Q;
    uint Cg = pc.C / pc.groups, Kg = pc.K / pc.groups;
    uint Kred = Cg * pc.R * pc.S;
    uint tilesN = (Kg + BN - 1u) / BN;
    uint g = gl_WorkGroupID.y / tilesN;
    uint n0 = (gl_WorkGroupID.y % tilesN) * BN;
    uint m0 = gl_WorkGroupID.x * BM;
    uint cBase = g * Cg, kBase = g * Kg;

    // Staging assignment, fixed for the whole reduction.  NHWC: neighbouring invocations walk
    // the (contiguous) channels; NCHW: they walk pixels (contiguous along a row).
#if defined(VEC_STAGING)
    // With 4-pixel NCHW loads and NT a multiple of BM/4 (every shipped tile) all of an
    // invocation's items share one group of pixels: decoded once (a copy: the compiler sees one value).
    bool sharedRow = VEC_AM && NT % (BM / 4u) == 0u;
#elif defined(TAP_TABLE)
    // NCHW with NT a multiple of BM (every shipped tile): an invocation's items are one pixel at
    // several taps.  (NHWC: several pixels at one tap, TAP_K below.)
    bool sharedRow = IN_LAYOUT == 0u && NT % BM == 0u && A_ITEMS % NT == 0u;
#endif
    PixelRow rows[A_PER_T];
    int rowBase[A_PER_T];
    uint aM[A_PER_T], aK[A_PER_T];
    [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) {
        uint e = tid + i * NT;
        if (IN_LAYOUT == 1u) { aK[i] = e % (BK / AV); aM[i] = e / (BK / AV); }
        else if (VEC_AM) { aM[i] = (e % (BM / 4u)) * 4u; aK[i] = e / (BM / 4u); }  // M % 4 == 0: all 4 or none
        else { aM[i] = e % BM; aK[i] = e / BM; }
        if (VEC_AM && e >= A_ITEMS) aM[i] = BM;  // an idle item (BM*BK/4 < NT): never stored
#if defined(VEC_STAGING) || defined(TAP_TABLE)
        if (sharedRow && i > 0u) rows[i] = rows[0];
        else
#endif
        rows[i] = makePixelRow(m0 + aM[i], e < A_ITEMS ? M : 0u);
        rowBase[i] = rowBaseOffset(rows[i], cBase);
    }
    uint bN[B_PER_T], bK[B_PER_T];
    [[unroll]] for (uint i = 0u; i < B_PER_T; ++i) {
        uint e = tid + i * NT;
        bK[i] = e % (BK / BV); bN[i] = e / (BK / BV);
    }
    uint cstride = channelStride();
#ifdef TAP_TABLE
    for (uint kidx = tid; kidx < Kred; kidx += NT) {
        Tap t = decodeTap(kidx, Cg);
        uint ftap = filterOffset(FILTER_LAYOUT, 0u, t.c, t.r, t.s, Cg, pc.R, pc.S);
        tapTab[kidx] = uvec2(uint(tapDelta(t.r, t.s) + int(t.c * cstride)), t.r | (t.s << 8) | (ftap << 16));
    }
    barrier();
    // NHWC with NT a multiple of BK: every A item of an invocation is at the same reduction index.
#define TAP_K(i) (IN_LAYOUT == 1u && NT % BK == 0u ? aK[0] : aK[i])
#endif
#ifdef VEC_STAGING
    // Each item's offset without the slice's tap and first channel, so that a slice adds one
    // uniform term instead of recomputing every item's offset.  An invocation's items are evenly
    // spaced (its A items along the channels of one pixel group, its B items NT/(BK/BV) filters
    // apart: every shipped tile), so item i is item 0 plus i uniform strides: one register holds
    // them all (per-item registers put tiles at up to 169 NVIDIA registers instead of 128).
    int aOff[A_PER_T];
    [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) aOff[i] = rowBase[i] + int(aK[i] * AKV * cstride);
    int aStep = int((NT / (BM / AV)) * AKV * cstride);  // sharedRow: channel offset from item i to i + 1
    const uint B_ROWS_STEP = NT / (BK / BV);             // filters from item i to i + 1
    bool bAffine = NT % (BK / BV) == 0u && B_ROWS_STEP % 4u == 0u;
    uint bStep = B_ROWS_STEP * (FILTER_LAYOUT == 1u ? Kred : Cg * pc.R * pc.S);
    uint bOff0 = sliceFilterBase(kBase + n0 + bN[0], bK[0] * BV, Cg, Kred);
#define A_OFF(i) (sharedRow ? aOff[0] + int(i) * aStep : aOff[i])
#define A_K(i) (sharedRow ? aK[0] + (i) * (NT / (BM / AV)) : aK[i])
#define B_N(i) (bAffine ? bN[0] + (i) * B_ROWS_STEP : bN[i])
#define B_K(i) (bAffine ? bK[0] : bK[i])
#define B_WORD(i) (bAffine ? (bN[0] >> 2) + (i) * (B_ROWS_STEP / 4u) : bN[i] >> 2)  // B_N(i) >> 2
#define B_LANE(i) (bAffine ? bN[0] & 3u : bN[i] & 3u)                               // B_N(i) & 3
#define B_OFF(i) (bAffine ? bOff0 + (i) * bStep : sliceFilterBase(kBase + n0 + bN[i], bK[i] * BV, Cg, Kred))
#endif

    vec4 aReg[A_PER_T], bReg[B_PER_T];
    uint ldC0 = 0u, ldR = 0u, ldS = 0u;  // channel-slice mode: the tap of the next slice to load
    // Global -> registers for a channel slice (one filter tap, at the tap cursor below).
#ifdef VEC_STAGING
#define LOAD_CHANNEL_SLICE(k0)                                                                  \
        uint r = ldR, s = ldS;                                                                  \
        int aDelta = sliceActivationDelta(r, s, ldC0, cstride);                                 \
        uint bDelta = sliceFilterDelta(k0, ldC0, r * pc.S + s);                                 \
        [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) {                                        \
            aReg[i] = vec4(0.0);                                                                \
            if (aM[i] < BM && sliceTapValid(rows[i], r, s)) {                                   \
                int off = A_OFF(i) + aDelta;                                                    \
                if (VEC_AM_S2) {                                                                \
                    vec4 lo = toF32v4(x4_[uint(off) >> 2]), hi = toF32v4(x4_[(uint(off) >> 2) + 1u]); \
                    aReg[i] = vec4(lo.xz, hi.xz);                                               \
                } else if (VEC_A || VEC_AM) aReg[i] = toF32v4(x4_[uint(off) >> 2]);            \
                else aReg[i].x = toF32(x_[uint(off)]);                                          \
            }                                                                                   \
        }                                                                                       \
        [[unroll]] for (uint i = 0u; i < B_PER_T; ++i) {                                        \
            bReg[i] = vec4(0.0);                                                                \
            if (B_N(i) < BN && n0 + B_N(i) < Kg) {                                              \
                uint off = B_OFF(i) + bDelta;                                                   \
                if (VEC_B) bReg[i] = toF32v4(w4_[off >> 2]);                                    \
                else bReg[i].x = toF32(w_[off]);                                                \
            }                                                                                   \
        }
#else
#define LOAD_CHANNEL_SLICE(k0)                                                                  \
        uint c0 = ldC0, r = ldR, s = ldS, rs = r * pc.S + s;                                    \
        int delta = tapDelta(r, s);                                                             \
        [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) {                                                   \
            aReg[i] = vec4(0.0);                                                                \
            uint c = c0 + aK[i] * AKV;                                                          \
            if (aM[i] < BM && sliceTapValid(rows[i], r, s)) {                                   \
                int off = rowBase[i] + delta + int(c * cstride);                                \
                if (VEC_A || VEC_AM) aReg[i] = toF32v4(x4_[uint(off) >> 2]);                   \
                else aReg[i].x = toF32(x_[uint(off)]);                                          \
            }                                                                                   \
        }                                                                                       \
        [[unroll]] for (uint i = 0u; i < B_PER_T; ++i) {                                                   \
            bReg[i] = vec4(0.0);                                                                \
            uint kn = n0 + bN[i], kidx = (k0) + bK[i] * BV;                                     \
            if (bN[i] < BN && kn < Kg) {                                                        \
                uint off = sliceFilterOffset(kBase + kn, c0 + bK[i] * BV, rs, kidx, Cg, Kred);  \
                if (VEC_B) bReg[i] = toF32v4(w4_[off >> 2]);                                    \
                else bReg[i].x = toF32(w_[off]);                                                \
            }                                                                                   \
        }
#endif
    // Global -> registers for the slice starting at k0.
#define LOAD_SLICE(k0)                                                                          \
    if (CHANNEL_SLICES) {                                                                       \
        LOAD_CHANNEL_SLICE(k0)                                                                  \
        /* next slice: slices are loaded in order, so the tap advances without divisions */     \
        ldC0 += BK;                                                                             \
        if (ldC0 == Cg) { ldC0 = 0u; if (++ldS == pc.S) { ldS = 0u; ++ldR; } }                  \
    } else {                                                                                    \
        LOAD_TAP_SLICE(k0)                                                                      \
    }
#ifdef TAP_TABLE
// Per element: one shared-memory read for the tap, its mask bits, one load.
#define LOAD_TAP_SLICE(k0)                                                                      \
        [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) {                                        \
            uint kidx = (k0) + TAP_K(i);                                                        \
            aReg[i] = vec4(0.0);                                                                \
            if (kidx < Kred && aM[i] < BM) {                                                    \
                uvec2 e = tapTab[kidx];                                                         \
                if (sliceTapValid(rows[i], e.y & 0xFFu, (e.y >> 8) & 0xFFu))                    \
                    aReg[i].x = toF32(x_[uint(rowBase[i] + int(e.x))]);                         \
            }                                                                                   \
        }                                                                                       \
        [[unroll]] for (uint i = 0u; i < B_PER_T; ++i) {                                        \
            uint kidx = (k0) + bK[i], kn = n0 + bN[i];                                          \
            bReg[i] = vec4(0.0);                                                                \
            if (kidx < Kred && kn < Kg && bN[i] < BN) {                                         \
                uint ftap = FILTER_LAYOUT == IN_LAYOUT ? kidx : tapTab[kidx].y >> 16;           \
                bReg[i].x = toF32(w_[(kBase + kn) * Kred + ftap]);                              \
            }                                                                                   \
        }
#else
#define LOAD_TAP_SLICE(k0)                                                                      \
        [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) {                                                   \
            uint kidx = (k0) + aK[i];                                                           \
            aReg[i] = vec4(0.0);                                                                \
            if (kidx < Kred && aM[i] < BM) aReg[i].x = loadActivation(rows[i], decodeTap(kidx, Cg), cBase); \
        }                                                                                       \
        [[unroll]] for (uint i = 0u; i < B_PER_T; ++i) {                                                   \
            uint kidx = (k0) + bK[i], kn = n0 + bN[i];                                          \
            bReg[i] = vec4(0.0);                                                                \
            if (kidx < Kred && kn < Kg && bN[i] < BN)                                           \
                bReg[i].x = toF32(w_[filterTapOffset(kBase + kn, kidx, decodeTap(kidx, Cg), Cg, Kred)]); \
        }
#endif
#ifdef VEC_STAGING
// Shared addresses in 16-byte words plus a component, from loop-invariant parts and constants.
#define STORE_SLICE(buf)                                                                        \
    [[unroll]] for (uint i = 0u; i < A_PER_T; ++i)                                              \
        if (aM[i] < BM) {                                                                       \
            if (VEC_AM) As(((buf) * BK + A_K(i)) * (BM / 4u) + (aM[i] >> 2)) = aReg[i]; /* 4 pixels, one word */ \
            else                                                                                \
                [[unroll]] for (uint v = 0u; v < AV; ++v)                                       \
                    As(((buf) * BK + A_K(i) * AV + v) * (BM / 4u) + (aM[i] >> 2))[aM[i] & 3u] = aReg[i][v]; \
        }                                                                                       \
    [[unroll]] for (uint i = 0u; i < B_PER_T; ++i)                                              \
        if (B_N(i) < BN)                                                                        \
            [[unroll]] for (uint v = 0u; v < BV; ++v)                                           \
                Bs(((buf) * BK + B_K(i) * BV + v) * (BN / 4u) + B_WORD(i))[B_LANE(i)] = bReg[i][v];
// The register tiles' 16-byte words of reduction row kk of buffer cur.
#define A_FRAG(cur, kk, h) As(((cur) * BK + (kk)) * (BM / 4u) + (h) * (RB / 4u) + ty)
#define B_FRAG(cur, kk, h) Bs(((cur) * BK + (kk)) * (BN / 4u) + (h) * (CB / 4u) + tx)
#else
#define STORE_SLICE(buf)                                                                        \
    [[unroll]] for (uint i = 0u; i < A_PER_T; ++i)                                                         \
        if (aM[i] < BM) {                                                                       \
            if (VEC_AM) As((((buf) * BK + aK[i]) * BM + aM[i]) >> 2) = aReg[i]; /* 4 pixels, one word */ \
            else                                                                                \
                [[unroll]] for (uint v = 0u; v < AV; ++v) {                                     \
                    uint idx = ((buf) * BK + aK[i] * AV + v) * BM + aM[i];                      \
                    As(idx >> 2)[idx & 3u] = aReg[i][v];                                        \
                }                                                                               \
        }                                                                                       \
    [[unroll]] for (uint i = 0u; i < B_PER_T; ++i)                                                         \
        if (bN[i] < BN)                                                                         \
            [[unroll]] for (uint v = 0u; v < BV; ++v) {                                                    \
                uint idx = ((buf) * BK + bK[i] * BV + v) * BN + bN[i];                          \
                Bs(idx >> 2)[idx & 3u] = bReg[i][v];                                            \
            }
#define A_FRAG(cur, kk, h) As((((cur) * BK + (kk)) * BM + (h) * RB + ty * 4u) >> 2)
#define B_FRAG(cur, kk, h) Bs((((cur) * BK + (kk)) * BN + (h) * CB + tx * 4u) >> 2)
#endif

    // Invocation (tx, ty) owns rows ty*4 + {0..3} of each of the TM/4 row blocks (and the same
    // for columns): neighbouring invocations read neighbouring 16-byte shared words.
    uint tx = tid % NTX, ty = tid / NTX;
    float acc[TM][TN];
    [[unroll]] for (uint i = 0u; i < TM; ++i)
        [[unroll]] for (uint j = 0u; j < TN; ++j) acc[i][j] = 0.0;

    uint slices = (Kred + BK - 1u) / BK;
    uint sl0 = 0u, nsl = slices;  // this workgroup's reduction slices: [sl0, sl0 + nsl)
#ifdef SPLIT_K
    uvec2 range = splitSlices(gl_WorkGroupID.z, slices);
    sl0 = range.x; nsl = range.y;
    if (CHANNEL_SLICES) {  // the first slice's tap (k0 = (r*S + s)*Cg + c0), once per workgroup
        uint k0 = sl0 * BK, rs = k0 / Cg;
        ldC0 = k0 % Cg; ldS = rs % pc.S; ldR = rs / pc.S;
    }
#endif
    LOAD_SLICE(sl0 * BK)
    STORE_SLICE(0u)
    barrier();
    for (uint sl = 0u; sl < nsl; ++sl) {
        uint cur = sl & 1u;
        bool more = sl + 1u < nsl;
        if (more) { LOAD_SLICE((sl0 + sl + 1u) * BK) }
        [[unroll]] for (uint kk = 0u; kk < BK; ++kk) {
            vec4 a[TM / 4u], b[TN / 4u];
            [[unroll]] for (uint h = 0u; h < TM / 4u; ++h) a[h] = A_FRAG(cur, kk, h);
            [[unroll]] for (uint h = 0u; h < TN / 4u; ++h) b[h] = B_FRAG(cur, kk, h);
            [[unroll]] for (uint i = 0u; i < TM; ++i)
                [[unroll]] for (uint j = 0u; j < TN; ++j) acc[i][j] = fma(a[i >> 2][i & 3u], b[j >> 2][j & 3u], acc[i][j]);
        }
        if (more) { STORE_SLICE(cur ^ 1u) }
        barrier();
    }

    // Epilogue: bias, residual, activation, conversion; each output written once.  Split-K:
    // the raw partial sum, at the same offset in this split's copy of the output.  STAGE_OUT: chunk (H, HC)
    // holds rows H*RB + [0, RB) and columns HC*CB + [0, CB) of the tile; invocation tid reads the
    // values tid + i*NT (i < 16), so with NT a multiple of RB and CB (the host's tiles) its column
    // (NHWC) or its row (NCHW) is the same for all 16: one pixel decode per chunk.  The chunks are
    // spelled out (TM, TN in {4, 8}, host-checked) rather than looped over: with a loop over them,
    // 8x8 NCHW tiles ran 10x slower on NVIDIA (acc indexed dynamically, i.e. in local memory).
    // The store loops stay rolled: unrolled measured the same, with more instructions.
    uint PQ = pc.P * pc.Q;
#ifdef SPLIT_K
#define EPI_STORE(off, k, v) ws_[workspaceOffset(gl_WorkGroupID.z, off)] = v
#else
#define EPI_STORE(off, k, v) storeOutput(off, k, v)
#endif
#define EPILOGUE_CHUNK(H, HC)                                                                   \
    if (OUT_LAYOUT == 1u) {                                                                     \
        [[unroll]] for (uint u = 0u; u < 4u; ++u)                                               \
            smem[((ty * 4u + u) * LDC + tx * 4u) >> 2] = vec4(acc[H * 4u + u][HC * 4u],         \
                acc[H * 4u + u][HC * 4u + 1u], acc[H * 4u + u][HC * 4u + 2u], acc[H * 4u + u][HC * 4u + 3u]); \
    } else {                                                                                    \
        [[unroll]] for (uint v = 0u; v < 4u; ++v)                                               \
            smem[((tx * 4u + v) * LDC + ty * 4u) >> 2] = vec4(acc[H * 4u][HC * 4u + v],         \
                acc[H * 4u + 1u][HC * 4u + v], acc[H * 4u + 2u][HC * 4u + v], acc[H * 4u + 3u][HC * 4u + v]); \
    }                                                                                           \
    barrier();                                                                                  \
    if (OUT_LAYOUT == 1u) {                                                                     \
        uint col = tid % CB, kn = n0 + HC * CB + col, k = kBase + kn;                           \
        [[dont_unroll]] for (uint i = 0u; i < 16u; ++i) {                                       \
            uint row = tid / CB + i * (NT / CB), m = m0 + H * RB + row;                         \
            if (m < M && kn < Kg) {                                                             \
                uint idx = row * LDC + col;                                                     \
                EPI_STORE(m * pc.K + k, k, smem[idx >> 2][idx & 3u]); /* (n*PQ + pq)*K + k */   \
            }                                                                                   \
        }                                                                                       \
    } else {                                                                                    \
        uint row = tid % RB, m = m0 + H * RB + row;                                             \
        if (m < M) {                                                                            \
            uint n = m / PQ, pq = m % PQ;                                                       \
            [[dont_unroll]] for (uint i = 0u; i < 16u; ++i) {                                   \
                uint col = tid / RB + i * (NT / RB), kn = n0 + HC * CB + col;                   \
                if (kn < Kg) {                                                                  \
                    uint k = kBase + kn, idx = col * LDC + row;                                 \
                    EPI_STORE((n * pc.K + k) * PQ + pq, k, smem[idx >> 2][idx & 3u]);           \
                }                                                                               \
            }                                                                                   \
        }                                                                                       \
    }
    if (STAGE_OUT) {
        // The first chunk follows the reduction's last barrier; each later one waits for the
        // reads of the one before.
        EPILOGUE_CHUNK(0u, 0u)
        if (TN == 8u) { barrier(); EPILOGUE_CHUNK(0u, 1u) }
        if (TM == 8u) { barrier(); EPILOGUE_CHUNK(1u, 0u) }
        if (TM == 8u && TN == 8u) { barrier(); EPILOGUE_CHUNK(1u, 1u) }
    }
#if defined(VEC_STAGING) && !defined(SPLIT_K)
    else if (VEC_OUT) {
        // An invocation's four rows ty*4 + {0..3} of a row block are consecutive pixels of one image
        // (NCHW: contiguous per filter), its four columns tx*4 + {0..3} consecutive filters (NHWC):
        // a warp's store then fills whole 32-byte sectors instead of 4 bytes of each.
        if (OUT_LAYOUT == 0u) {
            [[unroll]] for (uint h = 0u; h < TM / 4u; ++h) {
                uint m = m0 + h * RB + ty * 4u;
                if (m >= M) continue;
                uint n = m / PQ, pq = m % PQ;
                [[unroll]] for (uint j = 0u; j < TN; ++j) {
                    uint kn = n0 + (j >> 2) * CB + tx * 4u + (j & 3u);
                    if (kn >= Kg) continue;
                    uint k = kBase + kn, off = (n * pc.K + k) * PQ + pq;
                    vec4 v = vec4(epilogueValue(acc[h * 4u][j], k, off), epilogueValue(acc[h * 4u + 1u][j], k, off + 1u),
                                  epilogueValue(acc[h * 4u + 2u][j], k, off + 2u), epilogueValue(acc[h * 4u + 3u][j], k, off + 3u));
                    y4_[off >> 2] = fromF32v4(v);
                }
            }
        } else {
            [[unroll]] for (uint i = 0u; i < TM; ++i) {
                uint m = m0 + (i >> 2) * RB + ty * 4u + (i & 3u);
                if (m >= M) continue;
                [[unroll]] for (uint h = 0u; h < TN / 4u; ++h) {
                    uint kn = n0 + h * CB + tx * 4u;
                    if (kn >= Kg) continue;
                    uint k = kBase + kn, off = m * pc.K + k;
                    vec4 v = vec4(epilogueValue(acc[i][h * 4u], k, off), epilogueValue(acc[i][h * 4u + 1u], k + 1u, off + 1u),
                                  epilogueValue(acc[i][h * 4u + 2u], k + 2u, off + 2u), epilogueValue(acc[i][h * 4u + 3u], k + 3u, off + 3u));
                    y4_[off >> 2] = fromF32v4(v);
                }
            }
        }
    }
#endif
    else {
        // Straight from the registers: invocation (tx, ty) writes its own rows and columns.
        [[unroll]] for (uint i = 0u; i < TM; ++i) {
            uint m = m0 + (i >> 2) * RB + ty * 4u + (i & 3u);
            if (m >= M) continue;
            uint n = m / PQ, pq = m % PQ;
            [[unroll]] for (uint j = 0u; j < TN; ++j) {
                uint kn = n0 + (j >> 2) * CB + tx * 4u + (j & 3u);
                if (kn >= Kg) continue;
                uint k = kBase + kn;
                EPI_STORE(OUT_LAYOUT == 0u ? (n * pc.K + k) * PQ + pq : m * pc.K + k, k, acc[i][j]);
            }
        }
    }
}
