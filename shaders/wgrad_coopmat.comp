#version 460
// "wgrad_coopmat": the weight gradient as an implicit GEMM per group on the matrix units
// (VK_KHR_cooperative_matrix), 16-bit operands, fp32 accumulation.
//
// GEMM view per group g: rows = the group's K/groups filters, columns = its C/groups x R x S taps
// in x's channel order (wgrad_partials.glsl: (r, s, c) for NHWC x, (c, r, s) for NCHW x),
// reduction = the N x P x Q output pixels.  A = dy^T (filters x pixels), B = im2col(x) (pixels x
// taps), never formed.  A workgroup computes a BM x BN tile over its split of the reduction
// (gl_WorkGroupID.z of pc.splitK) in BK-pixel slices with WARPS_M x WARPS_N subgroups, each owning
// a WM x WN block of FM x FN accumulators of CM_M x CM_N (the device's fragment size).
//
// Both operands are reduction-major in memory for NHWC tensors: a pixel's K filters of dy and a
// pixel's C channels of x (at one tap) are contiguous.  So both slices are staged pixel by pixel
// as 16-bit values packed 8 to a uvec4 word, [kk][filter] and [kk][tap], each line padded by one
// word (an odd stride in 16-byte words: the matrix loads' rows fall in distinct banks).  A is then
// loaded column-major (the transpose for free) and B row-major.  With VEC_A / VEC_B (NHWC,
// K/groups resp. C/groups a multiple of 8, 16-byte aligned views) a staged word is one 16-byte
// load; otherwise (NCHW, odd sizes) its 8 values load one by one, each tap decoded on its own.
// Slices are double-buffered: the next slice's global loads are in flight in registers while the
// current one is multiplied, one barrier per slice.  AHEAD2 keeps a second register set, so that
// loads are issued two slices before they are staged: a 16-deep slice's products are too few to
// hide one load's latency on their own.  Each staged pixel's (n, p, q) is carried
// from slice to slice by additions (no divisions in the loop).  x outside the padded input, and
// pixels past N x P x Q, stage zeros.  POINTWISE (1x1, stride 1, unpadded): x's pixel is dy's.
//
// The bias gradient rides along: the workgroups of the first column tile also sum their staged
// dy rows from shared memory.  SPLIT_OUT: fp32 partials to the workspace (wgrad_reduce.comp adds
// them in a fixed order); otherwise dw and db are written here, in the storage dtype.  The
// accumulators go out through a per-subgroup fp32 scratch (the staging memory, reused), the
// lanes of a subgroup on neighbouring taps.
#extension GL_GOOGLE_include_directive : require
// Loops over register / cooperative-matrix arrays must unroll fully (on NVIDIA a loop left rolled
// demotes the arrays to local memory).
#extension GL_EXT_control_flow_attributes : require
// CM_EMULATE (test-only variants, lavapipe in CI): the matrix loads and products replaced by
// plain arithmetic on the same shared-memory words with the same offset / stride / layout
// conventions, so that every staging, padding and epilogue path runs on devices without matrix
// units.  Its loops are [[dont_unroll]], as in the forward matrix kernels (compile time).
#include "dtype.glsl"
#include "coopmat_common.glsl"  // extensions, CM_T, ELEM_BITS, PACK2, cmElem, cmBitsToFloat
#include "conv_params.glsl"
#include "wgrad_bindings.glsl"
#include "tensor_index.glsl"
#include "wgrad_partials.glsl"

// 8-value (16-byte) views of x and dy; the host binds the VEC_* pipeline only to 16-byte aligned views.
layout(set = 0, binding = 0, std430) readonly buffer InputBuf8 { uvec4 x8_[]; };
layout(set = 0, binding = 1, std430) readonly buffer GradOutputBuf8 { uvec4 dy8_[]; };

layout(constant_id = 100) const uint WG_SIZE = 256;  // WARPS_M * WARPS_N * subgroup size
layout(constant_id = 101) const uint BM = 128;       // filters per tile
layout(constant_id = 102) const uint BN = 128;       // taps per tile
layout(constant_id = 103) const uint BK = 32;        // output pixels per slice (a multiple of CM_K)
layout(constant_id = 104) const uint WARPS_M = 2;
layout(constant_id = 105) const uint WARPS_N = 4;
layout(constant_id = 106) const uint CM_M = 16;  // cooperative-matrix size (multiples of 8)
layout(constant_id = 107) const uint CM_N = 16;
layout(constant_id = 108) const uint CM_K = 16;
layout(constant_id = 110) const bool VEC_A = false;  // NHWC dy, K/groups % 8 == 0: 16-byte loads
layout(constant_id = 111) const bool VEC_B = false;  // NHWC x, C/groups % 8 == 0: 16-byte loads
layout(constant_id = 112) const bool POINTWISE = false;
layout(constant_id = 113) const bool SPLIT_OUT = false;
layout(constant_id = 114) const bool AHEAD2 = false;
layout(local_size_x_id = 100) in;

const uint NT = WG_SIZE;
const uint WM = BM / WARPS_M, WN = BN / WARPS_N;  // per-subgroup block
const uint FM = WM / CM_M, FN = WN / CM_N;        // accumulators per subgroup
const uint AW = BM / 8u, BW = BN / 8u;            // words per staged pixel line
const uint LDA = AW + 1u, LDB = BW + 1u;          // line strides (odd: distinct banks)
const uint A_BUF = BK * LDA, B_BUF = BK * LDB;    // words of one buffer
const uint B_BASE = 2u * A_BUF;
// Staged words per invocation and slice; the host's tiles divide exactly (NT is a multiple of AW
// and BW, BK * AW and BK * BW multiples of NT), so an invocation keeps one word column.
const uint A_PER_T = BK * AW / NT, B_PER_T = BK * BW / NT;
const uint SCRATCH = CM_M * CM_N / 4u;  // words of one fp32 accumulator
const uint BIAS_PER_T = (BM + NT - 1u) / NT;  // filters whose bias an invocation sums
shared uvec4 smem[2u * (A_BUF + B_BUF)];

// The staging loops over an invocation's items: unrolled (register arrays), but rolled in the
// emulated builds, where lavapipe's compile time grows with them (subgroups of 4 stage 16 items).
#if !defined(CM_EMULATE)
#define STAGE_UNROLL [[unroll]]
#else
#define STAGE_UNROLL [[dont_unroll]]
#endif

#if !defined(CM_EMULATE)
#define MAT_A coopmat<CM_T, gl_ScopeSubgroup, CM_M, CM_K, gl_MatrixUseA>
#define MAT_B coopmat<CM_T, gl_ScopeSubgroup, CM_K, CM_N, gl_MatrixUseB>
#define MAT_C coopmat<float, gl_ScopeSubgroup, CM_M, CM_N, gl_MatrixUseAccumulator>
#else
layout(constant_id = 109) const uint EMU_LANES = 32;  // the subgroup size
const uint EPL = CM_M * CM_N / EMU_LANES;             // accumulator elements per invocation
CM_ELEM_FUNCTION
#endif

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

// dy[pixel x, filter k] (k < K), 0 past the pixels.
uint dyBits(Pix x, uint k) {
    if (x.n >= pc.N) return 0u;
    uint off = OUT_LAYOUT == 0u ? ((x.n * pc.K + k) * pc.P + x.p) * pc.Q + x.q
                                : ((x.n * pc.P + x.p) * pc.Q + x.q) * pc.K + k;
    return ELEM_BITS(dy_[off]);
}

// x at tap column j of group cBase's GEMM for output pixel x (0 outside the padded input and past
// the pixels): the element path, the tap decoded here.
uint xBits(Pix x, uint j, uint cBase) {
    if (x.n >= pc.N || j >= wgradTaps()) return 0u;
    uvec3 t = wgradColumnTap(j);
    int ih = POINTWISE ? int(x.p) : int(x.p * pc.strideH + t.y * pc.dilH) - int(pc.padT);
    int iw = POINTWISE ? int(x.q) : int(x.q * pc.strideW + t.z * pc.dilW) - int(pc.padL);
    if (!POINTWISE && (uint(ih) >= pc.H || uint(iw) >= pc.W)) return 0u;
    return ELEM_BITS(x_[activationOffset(IN_LAYOUT, x.n, cBase + t.x, uint(ih), uint(iw), pc.C, pc.H, pc.W)]);
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint Cg = pc.C / pc.groups, Kg = pc.K / pc.groups;
    uint taps = wgradTaps();
    uint L = pc.N * pc.P * pc.Q;
    uint rowTiles = (Kg + BM - 1u) / BM;
    uint g = gl_WorkGroupID.y / rowTiles;
    uint row0 = (gl_WorkGroupID.y % rowTiles) * BM;
    uint col0 = gl_WorkGroupID.x * BN;
    uint kBase = g * Kg, cBase = g * Cg;
    bool biasTile = HAS_BIAS && gl_WorkGroupID.x == 0u;

    // This split's slices [sl0, sl0 + nsl), balanced (uniform over the workgroup).
    uint slices = (L + BK - 1u) / BK;
    uint z = gl_WorkGroupID.z;
    uint sl0 = z * slices / pc.splitK, nsl = (z + 1u) * slices / pc.splitK - sl0;
    uvec3 step = uvec3(BK / (pc.P * pc.Q), (BK / pc.Q) % pc.P, BK % pc.Q);

    // Staging assignment, fixed for the whole reduction: item i of an invocation is pixel line
    // tid / AW + i * (NT / AW) of the slice, word tid % AW (8 filters); likewise for x's taps.
    uint aWord = tid % AW, bWord = tid % BW;
    uint aKK0 = tid / AW, bKK0 = tid / BW;
    Pix pa[A_PER_T], pb[B_PER_T];
    STAGE_UNROLL for (uint i = 0u; i < A_PER_T; ++i) pa[i] = pixelOf(sl0 * BK + aKK0 + i * (NT / AW));
    STAGE_UNROLL for (uint i = 0u; i < B_PER_T; ++i) pb[i] = pixelOf(sl0 * BK + bKK0 + i * (NT / BW));
    uint aK = row0 + aWord * 8u;  // the word's first filter within the group
    uint bJ = col0 + bWord * 8u;  // the word's first tap column
    // VEC_B: the word's 8 taps share (r, s) (8 | C/groups); decoded once.
    uvec3 bTap = wgradColumnTap(min(bJ, taps - 1u));
    int bTapH = int(bTap.y * pc.dilH) - int(pc.padT), bTapW = int(bTap.z * pc.dilW) - int(pc.padL);
    uint bChan = cBase + bTap.x;

    uvec4 aReg0[A_PER_T], bReg0[B_PER_T], aReg1[A_PER_T], bReg1[B_PER_T];
    // Global -> registers (set 0; set 1 with AHEAD2).  The element path (NCHW, odd channel counts)
    // decodes each value's offset in a loop kept rolled: unrolled, its divisions made the code 8x
    // larger for no gain.
#define LOAD_SLICE(aReg, bReg)                                                                  \
    STAGE_UNROLL for (uint i = 0u; i < A_PER_T; ++i) {                                          \
        Pix x = pa[i];                                                                          \
        aReg[i] = uvec4(0u);                                                                    \
        if (VEC_A) {                                                                            \
            if (x.n < pc.N && aK < Kg)                                                          \
                aReg[i] = dy8_[(((x.n * pc.P + x.p) * pc.Q + x.q) * pc.K + kBase + aK) >> 3];   \
        } else {                                                                                \
            [[dont_unroll]] for (uint v = 0u; v < 8u; ++v)                                      \
                if (aK + v < Kg) aReg[i][v >> 1] |= dyBits(x, kBase + aK + v) << (16u * (v & 1u)); \
        }                                                                                       \
    }                                                                                           \
    STAGE_UNROLL for (uint i = 0u; i < B_PER_T; ++i) {                                          \
        Pix x = pb[i];                                                                          \
        bReg[i] = uvec4(0u);                                                                    \
        if (VEC_B) {                                                                            \
            int ih = POINTWISE ? int(x.p) : int(x.p * pc.strideH) + bTapH;                      \
            int iw = POINTWISE ? int(x.q) : int(x.q * pc.strideW) + bTapW;                      \
            if (x.n < pc.N && bJ < taps && (POINTWISE || (uint(ih) < pc.H && uint(iw) < pc.W))) \
                bReg[i] = x8_[(((x.n * pc.H + uint(ih)) * pc.W + uint(iw)) * pc.C + bChan) >> 3]; \
        } else {                                                                                \
            [[dont_unroll]] for (uint v = 0u; v < 8u; ++v)                                      \
                bReg[i][v >> 1] |= xBits(x, bJ + v, cBase) << (16u * (v & 1u));                \
        }                                                                                       \
    }
#define STORE_SLICE(buf, aReg, bReg)                                                            \
    STAGE_UNROLL for (uint i = 0u; i < A_PER_T; ++i)                                              \
        smem[(buf) * A_BUF + (aKK0 + i * (NT / AW)) * LDA + aWord] = aReg[i];                   \
    STAGE_UNROLL for (uint i = 0u; i < B_PER_T; ++i)                                              \
        smem[B_BASE + (buf) * B_BUF + (bKK0 + i * (NT / BW)) * LDB + bWord] = bReg[i];
#define ADVANCE()                                                                               \
    STAGE_UNROLL for (uint i = 0u; i < A_PER_T; ++i) advance(pa[i], step);                        \
    STAGE_UNROLL for (uint i = 0u; i < B_PER_T; ++i) advance(pb[i], step);

    uint wsg = gl_SubgroupID;
    uint wm = wsg / WARPS_N, wn = wsg % WARPS_N;
#if !defined(CM_EMULATE)
    MAT_C acc[FM * FN];
    [[unroll]] for (uint t = 0u; t < FM * FN; ++t) acc[t] = MAT_C(0.0);
#else
    uint lane = gl_SubgroupInvocationID;
    float acc[FM * FN * EPL];
    [[dont_unroll]] for (uint t = 0u; t < FM * FN * EPL; ++t) acc[t] = 0.0;
#endif
    float bacc[BIAS_PER_T];
    [[unroll]] for (uint u = 0u; u < BIAS_PER_T; ++u) bacc[u] = 0.0;

    // Multiplies the slice staged in buffer `cur`: A (filters x pixels) column-major from the
    // [kk][filter] lines, B (pixels x taps) row-major from the [kk][tap] lines.
#if !defined(CM_EMULATE)
#define MULTIPLY_SLICE(cur)                                                                     \
    {                                                                                           \
        uint aBase = (cur) * A_BUF, bBase = B_BASE + (cur) * B_BUF;                             \
        [[unroll]] for (uint kk = 0u; kk < BK / CM_K; ++kk) {                                   \
            MAT_B b[FN];                                                                        \
            [[unroll]] for (uint j = 0u; j < FN; ++j)                                           \
                coopMatLoad(b[j], smem, bBase + kk * CM_K * LDB + (wn * WN + j * CM_N) / 8u, LDB, \
                            gl_CooperativeMatrixLayoutRowMajor);                                \
            [[unroll]] for (uint i = 0u; i < FM; ++i) {                                         \
                MAT_A a;                                                                        \
                coopMatLoad(a, smem, aBase + kk * CM_K * LDA + (wm * WM + i * CM_M) / 8u, LDA,  \
                            gl_CooperativeMatrixLayoutColumnMajor);                             \
                [[unroll]] for (uint j = 0u; j < FN; ++j)                                       \
                    acc[i * FN + j] = coopMatMulAdd(a, b[j], acc[i * FN + j]);                  \
            }                                                                                   \
        }                                                                                       \
    }
#else
#define MULTIPLY_SLICE(cur)                                                                     \
    {                                                                                           \
        uint aBase = (cur) * A_BUF, bBase = B_BASE + (cur) * B_BUF;                             \
        [[dont_unroll]] for (uint kk = 0u; kk < BK / CM_K; ++kk)                                \
            [[dont_unroll]] for (uint f = 0u; f < FM * FN; ++f)                                 \
                [[dont_unroll]] for (uint t = 0u; t < EPL; ++t) {                               \
                    uint i = f / FN, j = f % FN, e = lane + t * EMU_LANES;                      \
                    uint row = e / CM_N, col = e % CM_N;                                        \
                    uint aOff = aBase + kk * CM_K * LDA + (wm * WM + i * CM_M) / 8u;            \
                    uint bOff = bBase + kk * CM_K * LDB + (wn * WN + j * CM_N) / 8u;            \
                    float sum = acc[f * EPL + t];                                               \
                    [[dont_unroll]] for (uint q = 0u; q < CM_K; ++q)                            \
                        sum = fma(cmElem(aOff, LDA, true, row, q), cmElem(bOff, LDB, false, q, col), sum); \
                    acc[f * EPL + t] = sum;                                                     \
                }                                                                               \
    }
#endif
    // The bias tile: invocation tid sums filters tid, tid + NT, ... of the staged dy lines, in
    // pixel order (the same order every run).
#define BIAS_SLICE(cur)                                                                         \
    if (biasTile) {                                                                             \
        [[unroll]] for (uint u = 0u; u < BIAS_PER_T; ++u) {                                     \
            uint m = tid + u * NT;                                                              \
            if (m < BM)                                                                         \
                for (uint kk = 0u; kk < BK; ++kk) {                                             \
                    uint h = ((cur) * A_BUF + kk * LDA) * 8u + m;                               \
                    bacc[u] += cmBitsToFloat(smem[h >> 3][(h >> 1) & 3u], (h & 1u) == 1u);      \
                }                                                                               \
        }                                                                                       \
    }

    if (nsl > 0u) {
        LOAD_SLICE(aReg0, bReg0)
        STORE_SLICE(0u, aReg0, bReg0)
    }
    barrier();
    if (AHEAD2) {
        // Slice sl + 1 waits in set 1 while sl + 2 loads into set 0 (and the other way round on
        // odd steps): the loop is unrolled twice so that the register sets are named statically.
        if (nsl > 1u) {
            ADVANCE()
            LOAD_SLICE(aReg1, bReg1)
        }
        for (uint sl = 0u; sl < nsl; sl += 2u) {
            if (sl + 2u < nsl) {
                ADVANCE()
                LOAD_SLICE(aReg0, bReg0)
            }
            MULTIPLY_SLICE(0u)
            BIAS_SLICE(0u)
            if (sl + 1u < nsl) { STORE_SLICE(1u, aReg1, bReg1) }
            barrier();
            if (sl + 1u >= nsl) break;
            if (sl + 3u < nsl) {
                ADVANCE()
                LOAD_SLICE(aReg1, bReg1)
            }
            MULTIPLY_SLICE(1u)
            BIAS_SLICE(1u)
            if (sl + 2u < nsl) { STORE_SLICE(0u, aReg0, bReg0) }
            barrier();
        }
    } else {
        for (uint sl = 0u; sl < nsl; ++sl) {
            uint cur = sl & 1u;
            bool more = sl + 1u < nsl;
            if (more) {
                ADVANCE()
                LOAD_SLICE(aReg0, bReg0)
            }
            MULTIPLY_SLICE(cur)
            BIAS_SLICE(cur)
            if (more) { STORE_SLICE(cur ^ 1u, aReg0, bReg0) }
            barrier();  // the last one also frees the staging memory for the epilogue's scratch
        }
    }

    // Epilogue, one accumulator at a time through this subgroup's fp32 scratch (row-major: a
    // filter's taps adjacent, so neighbouring lanes write neighbouring dw / partial addresses).
    uint scratch = wsg * SCRATCH;
#if !defined(CM_EMULATE)
    uint lane = gl_SubgroupInvocationID;
#endif
    uint lanes = gl_SubgroupSize;
    [[unroll]] for (uint i = 0u; i < FM; ++i) {
        [[unroll]] for (uint j = 0u; j < FN; ++j) {
#if !defined(CM_EMULATE)
            coopMatStore(acc[i * FN + j], smem, scratch, CM_N / 4u, gl_CooperativeMatrixLayoutRowMajor);
#else
            [[dont_unroll]] for (uint t = 0u; t < EPL; ++t) {
                uint e = lane + t * EMU_LANES;
                uint fi = scratch * 4u + e;  // row-major: e = row * CM_N + col
                smem[fi >> 2][fi & 3u] = floatBitsToUint(acc[(i * FN + j) * EPL + t]);
            }
#endif
            subgroupMemoryBarrierShared();
            subgroupBarrier();
            uint kTile = row0 + wm * WM + i * CM_M, jTile = col0 + wn * WN + j * CM_N;
            for (uint e = lane; e < CM_M * CM_N; e += lanes) {
                uint kg = kTile + e / CM_N, col = jTile + e % CM_N;
                if (kg < Kg && col < taps) {
                    float v = uintBitsToFloat(smem[scratch + (e >> 2)][e & 3u]);
                    if (SPLIT_OUT) ws_[wgradPartialOffset(z, kBase + kg, col)] = v;
                    else wgradStoreFilter(kBase + kg, col, v);
                }
            }
            subgroupBarrier();  // the scratch is rewritten by the next accumulator
        }
    }
    if (biasTile) {
        [[unroll]] for (uint u = 0u; u < BIAS_PER_T; ++u) {
            uint kg = row0 + tid + u * NT;
            if (tid + u * NT < BM && kg < Kg) {
                if (SPLIT_OUT) ws_[wgradBiasPartialOffset(z, kBase + kg)] = bacc[u];
                else wgradStoreBias(kBase + kg, bacc[u]);
            }
        }
    }
}
