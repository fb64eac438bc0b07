#version 460
// "slicedk_coopmat": layers of few output pixels over deep reductions (NHWC activations, KRSC
// filters, C % 8 == 0, one group), on the matrix units.  Such a layer is a GEMM of a few dozen to
// a few hundred rows (N*P*Q pixels) over R*S*C values: the general kernel gives each of its few
// workgroups the whole reduction, a chain of latency-bound slices, and split-K pays a second
// dispatch (docs/performance.md, "slicedk_coopmat").  The reduction runs over (r, s, c) in KRSC order,
// so a filter row is contiguous and a 16-byte word of 8 channels never crosses a tap: a pixel
// row's word is one input word at the tap's shifted position, or zero in the padding (IM2COL; a
// 1x1 stride-1 unpadded layer reads its pixel rows straight).
//
// NCHW activations (IN_NCHW): a channel's pixels are neighbours in memory, a pixel's channels are
// not, so the block is staged channel-major (each reduction value's 16 pixels as two words; 4
// pixels of a channel per 8-byte load where a 1x1 layer's H*W % 4 == 0, A_QUADS, or it has one
// image, A_SHIFT: a 7x7 map's channel planes are 2-byte aligned, so two loads and a shift; else
// 16-bit loads: through the taps each pixel has its own padding) and A fragments load column-major.  With
// KCRS filters the reduction runs in (c, r, s) order (CRS), so their rows stay contiguous words.
// This takes coopmat_nhwc's transposes (dependent dispatches, ~4 us each at b1) out of the plan.
//
// Sliced-K.  A workgroup owns 16 pixels x BN filters, and its SGS subgroups split the reduction:
// subgroup g walks its own run of 16-value steps in stages of KD steps, staging each stage's
// pixel and filter words (16-byte loads, the next AHEAD stages' issued before this stage's products)
// into its own shared buffer with no workgroup barrier.  At the end every subgroup stores its
// fp32 partial tile, one workgroup barrier, and the invocations add the SGS partials, apply the
// epilogue and store 8 outputs at a time (NHWC; an NCHW output, what coopmat_nhwc's NCHW layers
// ask, takes element stores).
//
// Shared memory, per subgroup: [16 pixel rows + BN filter rows] x LDW words (KD*16 values, 8 per
// word, padded to an odd word count so the eight rows of a fragment-load phase fall in distinct
// bank groups), which becomes its partial tile at the end (FN row-major 16 x 16 fp32 blocks).
// With IN_NCHW the pixel rows are KD*16 channel columns of 2 words instead (contiguous: a
// column-major fragment reads 512 consecutive bytes).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"
#include "coopmat_common.glsl"  // extensions, CM_T, ELEM_BITS, PACK_OUT, cmElem
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "epilogue.glsl"

layout(set = 0, binding = 0, std430) readonly buffer InputBuf8 { uvec4 x8_[]; };
layout(set = 0, binding = 0, std430) readonly buffer InputBufQ { uvec2 xq_[]; };  // A_QUADS
layout(set = 0, binding = 1, std430) readonly buffer FilterBuf8 { uvec4 w8_[]; };
layout(set = 0, binding = 4, std430) writeonly buffer OutputBuf8 { uvec4 y8_[]; };
#include "epilogue_runs.glsl"  // words8

layout(constant_id = 100) const uint WG_SIZE = 256;  // SGS * LANES
layout(constant_id = 101) const uint FN = 2;         // 16-filter fragments (BN = 16*FN)
layout(constant_id = 102) const uint KD = 2;         // 16-value steps per stage
layout(constant_id = 103) const uint SGS = 8;        // subgroups, one run of the reduction each
layout(constant_id = 104) const uint LANES = 32;     // the subgroup size (full subgroups)
// 16-byte views (host: 16-byte aligned offsets): bit 0 input and filter loads, bit 1 output stores.
layout(constant_id = 105) const uint VEC = 0u;
// Pixel rows through the filter taps, stride, dilation and padding (false: a 1x1 stride-1
// unpadded layer, whose pixel rows are the input's).
layout(constant_id = 106) const bool IM2COL = false;
layout(constant_id = 107) const uint AHEAD = 1u;  // stages in flight ahead of the one multiplied (1 or 2)
layout(constant_id = 108) const bool IN_NCHW = false;  // NCHW activations
// The reduction in (c, r, s) order (NCHW input with KCRS filters of several taps), not (r, s, c).
layout(constant_id = 109) const bool CRS = false;
// NCHW 1x1 stride-1 unpadded with H*W % 4 == 0 and an 8-byte aligned view: 4 pixels of a channel
// per 8-byte load (an image's 4-pixel runs never straddle images), not 16-bit pairs.
layout(constant_id = 110) const bool A_QUADS = false;
// With A_QUADS, one image whose H*W % 4 != 0 (a 7x7 map at batch 1): a channel's quad starts at any
// 2-byte offset, so it is the two aligned 8-byte words around it, shifted (a quad that runs past
// the plane reads the next channel's pixels, rows past M that no output takes).
layout(constant_id = 111) const bool A_SHIFT = false;
layout(local_size_x_id = 100) in;

const uint BN = 16u * FN;
const uint SW = 2u * KD;                 // words per staged row
const uint LDW = SW + 1u;                // ... padded to an odd count
const uint ROWS = 16u + BN;              // pixel rows, then filter rows
const uint AW = IN_NCHW ? 32u * KD : 16u * LDW;  // words of the staged pixel block
const uint ROW0 = IN_NCHW ? 16u : 0u;    // first row staged as 16-byte words
const uint STAGE_WORDS = AW + BN * LDW;
const uint TILE_WORDS = FN * 64u;        // the fp32 partial tile
const uint SG_WORDS = STAGE_WORDS > TILE_WORDS ? STAGE_WORDS : TILE_WORDS;
const uint PER_L = ((ROWS - ROW0) * SW + LANES - 1u) / LANES;  // stage words per invocation
// IN_NCHW: the block's (reduction value, pixel pair or quad) items per stage, and per invocation.
const uint A_ITEMS = A_QUADS ? 64u * KD : 128u * KD;
const uint PER_A = IN_NCHW ? (A_ITEMS + LANES - 1u) / LANES : 1u;
const uint NPP = LANES >= 8u ? 1u : 8u / LANES;  // distinct pixel pairs among an invocation's items
const uint NPQ = LANES >= 4u ? 1u : 4u / LANES;  // ... pixel quads (A_QUADS)

shared uvec4 smem[SGS * SG_WORDS];

#if !defined(CM_EMULATE)
#define MAT_A coopmat<CM_T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>
#define MAT_B coopmat<CM_T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB>
#define MAT_C coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>
#else
const uint EPL = 256u / LANES;  // accumulator elements per invocation
CM_ELEM_FUNCTION
#endif

// A_SHIFT: the aligned 8-byte words at and after element e (the one after is zero past the
// tensor's last word: it then holds only elements past the last pixel); shiftQuad takes the 4
// elements from e out of them.  The shift waits for the loads, so it runs when the stage is
// stored, not when it is loaded (on the H200 a shift at load time exposed the loads' latency
// every stage and lost to the transposes).
uvec4 quadWords(uint e) {
    const uint q = e >> 2;
    return uvec4(xq_[q], q + 1u < (pc.N * pc.C * pc.H * pc.W) >> 2 ? xq_[q + 1u] : uvec2(0u));
}
uvec2 shiftQuad(uvec4 ab, uint e) {
    const uint o = e & 3u;
    const uint w0 = o < 2u ? ab.x : ab.y, w1 = o < 2u ? ab.y : ab.z, w2 = o < 2u ? ab.z : ab.w;  // pairs from element o & ~1
    return (o & 1u) == 0u ? uvec2(w0, w1) : uvec2((w0 >> 16) | (w1 << 16), (w1 >> 16) | (w2 << 16));
}

// 16-byte word `word` of the input (act) or the filters; element loads where the host could not
// make the views 16-byte aligned.
uvec4 loadWord(bool act, uint word) {
    if ((VEC & 1u) != 0u) return act ? x8_[word] : w8_[word];
    uvec4 v = uvec4(0u);
    [[unroll]] for (uint u = 0u; u < 8u; ++u) {
        uint bits = act ? ELEM_BITS(x_[word * 8u + u]) : ELEM_BITS(w_[word * 8u + u]);
        v[u >> 1] |= bits << (16u * (u & 1u));
    }
    return v;
}

void main() {
    const uint tid = gl_LocalInvocationID.x, sg = gl_SubgroupID, lane = gl_SubgroupInvocationID;
    const uint M = pc.N * pc.P * pc.Q, K = pc.K, C8 = pc.C / 8u, RW = pc.R * pc.S * C8;
    const uint m0 = gl_WorkGroupID.x * 16u, n0 = gl_WorkGroupID.y * BN;
    // This subgroup's words of the reduction: steps [lo, hi) of 16 values, i.e. words
    // [2lo, min(2hi, RW)) (a step past the end is half or wholly zero).
    const uint steps = (RW + 1u) / 2u;
    const uint lo = sg * steps / SGS, hi = (sg + 1u) * steps / SGS;
    const uint wEnd = min(2u * hi, RW);
    // Every subgroup runs the stages of the longest run (shorter runs load zeros at the end), so
    // that all run the same number of subgroup barriers: lavapipe computed NaNs where they did not.
    const uint stages = ((steps + SGS - 1u) / SGS + KD - 1u) / KD;
    const uint buf = sg * SG_WORDS;

    // Each invocation's staged rows are the same in every stage: their pixel (input row origin,
    // image) or filter, decoded once.  ih0 == -2^30 marks a pixel past M or a filter past K (its
    // words are zero); other negative values are rows in the top padding.
    int ih0[PER_L], iw0[PER_L];
    uint rowBase[PER_L];
    [[unroll]] for (uint u = 0u; u < PER_L; ++u) {
        uint e = lane + u * LANES, row = ROW0 + e / SW;
        if (row < 16u) {
            uint m = m0 + row, pq = m % (pc.P * pc.Q);
            bool ok = m < M;
            ih0[u] = ok ? int((pq / pc.Q) * pc.strideH) - int(pc.padT) : -0x40000000;
            iw0[u] = int((pq % pc.Q) * pc.strideW) - int(pc.padL);
            rowBase[u] = IM2COL ? (m / (pc.P * pc.Q)) * pc.H : m * C8;  // image's first input row, or the pixel's word
        } else {
            uint k = n0 + row - 16u;
            ih0[u] = k < K ? 0 : -0x40000000;
            iw0[u] = 0;
            rowBase[u] = k * RW;
        }
    }
    // Word cw of staged row `row` (e's row), zero past the run, past M / K and in the padding.
    uvec4 pre0[PER_L], pre1[PER_L];
#define STAGE_WORD(u, st)                                                                       \
    uvec4 wv = uvec4(0u);                                                                      \
    {                                                                                           \
        uint e = lane + (u) * LANES, row = ROW0 + e / SW, cw = 2u * (lo + (st) * KD) + e % SW; \
        if (e < (ROWS - ROW0) * SW && cw < wEnd && ih0[u] > -0x40000000) {                      \
            if (row >= 16u) wv = loadWord(false, rowBase[u] + cw);                            \
            else if (!IM2COL) wv = loadWord(true, rowBase[u] + cw);                           \
            else {                                                                              \
                uint tap = cw / C8, cc = cw - tap * C8;                                         \
                int ih = ih0[u] + int((tap / pc.S) * pc.dilH), iw = iw0[u] + int((tap % pc.S) * pc.dilW); \
                if (ih >= 0 && ih < int(pc.H) && iw >= 0 && iw < int(pc.W))                      \
                    wv = loadWord(true, ((rowBase[u] + uint(ih)) * pc.W + uint(iw)) * C8 + cc); \
            }                                                                                   \
        }                                                                                       \
    }
    // IN_NCHW: item i is reduction value i / 8 of the stage and pixels 2 (i % 8) + {0, 1} of the
    // block.  Subgroup sizes are powers of two, so an invocation's items hold NPP distinct pixel
    // pairs (one from 8 lanes up); per pixel: its image's offset in the input (~0u past M) and
    // its input row and column origin (1x1 stride-1 unpadded: its offset in a channel plane).
    const uint PQ = pc.P * pc.Q, HW = pc.H * pc.W, RS = pc.R * pc.S, jEnd = 8u * wEnd;
    uint pxBase[2u * NPP];
    int pxH[2u * NPP], pxW[2u * NPP];
    if (A_QUADS)  // slot u: the quad of item u (quad q = i % 4 of the block at pixel 4q), in pxW
        [[unroll]] for (uint u = 0u; u < NPQ; ++u) {
            uint m = m0 + 4u * ((lane + u * LANES) & 3u);
            pxBase[u] = m < M ? (m / PQ) * pc.C * HW : ~0u;
            pxW[u] = int(m % PQ);
        }
    else
        [[unroll]] for (uint u = 0u; u < NPP; ++u)
            [[unroll]] for (uint t = 0u; t < 2u; ++t) {
                uint m = m0 + 2u * ((lane + u * LANES) & 7u) + t, pq = m % PQ;
                pxBase[2u * u + t] = m < M ? (m / PQ) * pc.C * HW : ~0u;
                pxH[2u * u + t] = IM2COL ? int((pq / pc.Q) * pc.strideH) - int(pc.padT) : 0;
                pxW[2u * u + t] = IM2COL ? int((pq % pc.Q) * pc.strideW) - int(pc.padL) : int(pq);
            }
    // Pixel slot p's value at channel c, tap `tap` (zero past M and in the padding).
#define PIXEL_VALUE(p, c, tap, v)                                                               \
    if (pxBase[p] != ~0u) {                                                                     \
        if (!IM2COL) v = ELEM_BITS(x_[pxBase[p] + (c) * HW + uint(pxW[p])]);                    \
        else {                                                                                  \
            int ih = pxH[p] + int(((tap) / pc.S) * pc.dilH), iw = pxW[p] + int(((tap) % pc.S) * pc.dilW); \
            if (ih >= 0 && ih < int(pc.H) && iw >= 0 && iw < int(pc.W))                          \
                v = ELEM_BITS(x_[pxBase[p] + ((c) * pc.H + uint(ih)) * pc.W + uint(iw)]);        \
        }                                                                                       \
    }
    uvec4 preA0[PER_A], preA1[PER_A];  // (.zw: A_SHIFT only)
    // A_QUADS: item i is reduction value i / 4 of the stage and pixels 4 (i % 4) + {0..3}; its
    // first element (past M, ~0u-based: its words are zero).
#define QUAD_ELEMENT(u, st) (pxBase[(u) % NPQ] + (16u * (lo + (st) * KD) + (lane + (u) * LANES) / 4u) * HW + uint(pxW[(u) % NPQ]))
#define LOAD_STAGE(dst, dstA, st)                                                               \
    [[unroll]] for (uint u = 0u; u < PER_L; ++u) {                                              \
        STAGE_WORD(u, st)                                                                       \
        dst[u] = wv;                                                                             \
    }                                                                                           \
    if (A_QUADS)                                                                                \
        [[unroll]] for (uint u = 0u; u < PER_A; ++u) {                                          \
            uint i = lane + u * LANES, j = 16u * (lo + (st) * KD) + i / 4u, e = QUAD_ELEMENT(u, st); \
            dstA[u] = i >= A_ITEMS || j >= jEnd || pxBase[u % NPQ] == ~0u ? uvec4(0u) : A_SHIFT ? quadWords(e) : uvec4(xq_[e >> 2], 0u, 0u); \
        }                                                                                       \
    else if (IN_NCHW)                                                                           \
        [[unroll]] for (uint u = 0u; u < PER_A; ++u) {                                          \
            uint i = lane + u * LANES, j = 16u * (lo + (st) * KD) + i / 8u, v0 = 0u, v1 = 0u;   \
            if (i < A_ITEMS && j < jEnd) {                                                      \
                /* the reduction's order is the filter rows': (c, tap) for KCRS, (tap, c) for */ \
                /* KRSC; one tap, no division */                                                \
                uint c = !IM2COL ? j : CRS ? j / RS : j % pc.C, tap = !IM2COL ? 0u : CRS ? j % RS : j / pc.C; \
                PIXEL_VALUE(2u * (u % NPP), c, tap, v0)                                         \
                PIXEL_VALUE(2u * (u % NPP) + 1u, c, tap, v1)                                    \
            }                                                                                   \
            dstA[u] = uvec4(v0, v1, 0u, 0u);  /* paired when stored, as the shifted quads */     \
        }
    if (stages > 0u) LOAD_STAGE(pre0, preA0, 0u)
    if (AHEAD > 1u && stages > 1u) LOAD_STAGE(pre1, preA1, 1u)

#if !defined(CM_EMULATE)
    MAT_C acc[FN];
    [[unroll]] for (uint j = 0u; j < FN; ++j) acc[j] = MAT_C(0.0);
#else
    float acc[FN * EPL];
    [[dont_unroll]] for (uint f = 0u; f < FN * EPL; ++f) acc[f] = 0.0;
#endif
    // One stage: its words into the buffer (after every invocation is done reading the previous
    // stage), the loads of stage `next` into the registers just freed, then the products.
#if !defined(CM_EMULATE)
#define PRODUCTS()                                                                              \
    [[unroll]] for (uint s = 0u; s < KD; ++s) {                                                 \
        MAT_A a;                                                                                \
        if (IN_NCHW) coopMatLoad(a, smem, buf + s * 32u, 2u, gl_CooperativeMatrixLayoutColumnMajor); \
        else coopMatLoad(a, smem, buf + s * 2u, LDW, gl_CooperativeMatrixLayoutRowMajor);       \
        [[unroll]] for (uint j = 0u; j < FN; ++j) {                                             \
            MAT_B b;                                                                            \
            coopMatLoad(b, smem, buf + AW + j * 16u * LDW + s * 2u, LDW, gl_CooperativeMatrixLayoutColumnMajor); \
            acc[j] = coopMatMulAdd(a, b, acc[j]);                                               \
        }                                                                                       \
    }
#else
#define PRODUCTS()                                                                              \
    [[dont_unroll]] for (uint s = 0u; s < KD; ++s)                                              \
        [[dont_unroll]] for (uint j = 0u; j < FN; ++j)                                          \
            [[dont_unroll]] for (uint u = 0u; u < EPL; ++u) {                                   \
                uint e = lane + u * LANES, row = e / 16u, col = e % 16u;                        \
                float sum = acc[j * EPL + u];                                                   \
                [[dont_unroll]] for (uint k = 0u; k < 16u; ++k)                                 \
                    sum = fma(IN_NCHW ? cmElem(buf + s * 32u, 2u, true, row, k) : cmElem(buf + s * 2u, LDW, false, row, k), \
                              cmElem(buf + AW + j * 16u * LDW + s * 2u, LDW, true, k, col), sum); \
                acc[j * EPL + u] = sum;                                                         \
            }
#endif
// Staged row r >= 16 is filter row r - 16, at word AW (16 pixel rows' worth without IN_NCHW).
// src holds stage `next` - AHEAD.
#define RUN_STAGE(src, srcA, next)                                                              \
    subgroupBarrier();                                                                          \
    [[unroll]] for (uint u = 0u; u < PER_L; ++u) {                                              \
        uint e = lane + u * LANES, row = ROW0 + e / SW;                                         \
        if (e < (ROWS - ROW0) * SW) smem[buf + row * LDW + AW - 16u * LDW + e % SW] = src[u];  \
    }                                                                                           \
    if (IN_NCHW)                                                                                \
        [[unroll]] for (uint u = 0u; u < PER_A; ++u) {                                          \
            uint i = lane + u * LANES;                                                          \
            if (i >= A_ITEMS) continue;                                                         \
            if (A_QUADS) { /* value i / 4, quad i % 4: half (i % 2) of word (i % 4) / 2 */      \
                uint w = buf + (i / 4u) * 2u + ((i & 3u) >> 1), h = 2u * (i & 1u);                \
                uvec2 quad = A_SHIFT ? shiftQuad(srcA[u], QUAD_ELEMENT(u, (next) - AHEAD)) : srcA[u].xy; \
                smem[w][h] = quad.x;                                                             \
                smem[w][h + 1u] = quad.y;                                                        \
            } else smem[buf + (i / 8u) * 2u + ((i & 7u) >> 2)][i & 3u] = srcA[u].x | (srcA[u].y << 16); \
        }                                                                                       \
    subgroupMemoryBarrierShared();                                                              \
    subgroupBarrier();                                                                          \
    if ((next) < stages) LOAD_STAGE(src, srcA, next)                                            \
    PRODUCTS()

    if (AHEAD > 1u) {
        for (uint st = 0u; st < stages; st += 2u) {
            RUN_STAGE(pre0, preA0, st + 2u)
            if (st + 1u < stages) {
                RUN_STAGE(pre1, preA1, st + 3u)
            }
        }
    } else {
        for (uint st = 0u; st < stages; ++st) {
            RUN_STAGE(pre0, preA0, st + 1u)
        }
    }

    // The partial tile into this subgroup's buffer (its stage words are read).
    subgroupBarrier();
#if !defined(CM_EMULATE)
    [[unroll]] for (uint j = 0u; j < FN; ++j) coopMatStore(acc[j], smem, buf + j * 64u, 4u, gl_CooperativeMatrixLayoutRowMajor);
#else
    [[dont_unroll]] for (uint j = 0u; j < FN; ++j)
        [[dont_unroll]] for (uint u = 0u; u < EPL; ++u) {
            uint e = lane + u * LANES;
            smem[buf + j * 64u + (e >> 2)][e & 3u] = floatBitsToUint(acc[j * EPL + u]);
        }
#endif
    barrier();

    // The SGS partials added, 8 consecutive filters of one pixel per item (NCHW output: pixel
    // fastest over the items, so that neighbouring invocations store neighbouring pixels).
    for (uint e = tid; e < 2u * BN; e += WG_SIZE) {
        uint row = OUT_LAYOUT == 0u ? e % 16u : e / (BN / 8u), oct = OUT_LAYOUT == 0u ? e / 16u : e % (BN / 8u);
        uint m = m0 + row, k = n0 + oct * 8u;
        if (m >= M || k >= K) continue;
        uint w = (oct >> 1) * 64u + row * 4u + (oct & 1u) * 2u;
        float v[8] = words8(smem[w], smem[w + 1u]);
        for (uint g = 1u; g < SGS; ++g) {
            float p[8] = words8(smem[g * SG_WORDS + w], smem[g * SG_WORDS + w + 1u]);
            [[unroll]] for (uint q = 0u; q < 8u; ++q) v[q] += p[q];
        }
        uint off = m * K + k;
        if (OUT_LAYOUT == 0u) {
            uint o = ((m / PQ) * K + k) * PQ + m % PQ;
            [[unroll]] for (uint q = 0u; q < 8u; ++q)
                if (k + q < K) storeOutput(o + q * PQ, k + q, v[q]);
        } else if ((VEC & 2u) != 0u) {  // K % 8 == 0: the run is wholly inside the filters
            [[unroll]] for (uint q = 0u; q < 8u; ++q) v[q] = epilogueValue(v[q], k + q, off + q);
            y8_[off >> 3] = uvec4(PACK_OUT(v[0], v[1]), PACK_OUT(v[2], v[3]), PACK_OUT(v[4], v[5]), PACK_OUT(v[6], v[7]));
        } else {
            [[unroll]] for (uint q = 0u; q < 8u; ++q)
                if (k + q < K) storeOutput(off + q, k + q, v[q]);
        }
    }
}
