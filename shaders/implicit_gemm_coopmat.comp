#version 460
// Level 5, "implicit_gemm_coopmat": the implicit GEMM of implicit_gemm.comp on the matrix units
// (VK_KHR_cooperative_matrix), 16-bit operands, fp32 accumulation.
//
// GEMM view per group g: rows = output pixels (M = N*P*Q), columns = filters (K/groups),
// reduction = (r, s, c) with c fastest.  One BK slice shares a single filter tap
// (tile_iterators_fast.glsl): a staged pixel row needs its precomputed base offset, the tap's
// delta and (border rows only) two mask bits.  C/groups is a multiple of BK, or (CTAIL) of 8:
// then each tap's last slice is zero past C/groups, whole 8-value words at a time.
//
// A workgroup computes a BM x BN tile with WARPS_M x WARPS_N subgroups; each subgroup owns a
// WM x WN block = FM x FN accumulators of CM_M x CM_N (the device's cooperative-matrix size,
// specialization constants like every tile size).  A (pixels x reduction) and B (reduction x
// filters) slices are staged through double-buffered shared memory as 16-bit values packed in
// uvec4 words (8 values): the next slice's global loads are in flight while the current one is
// multiplied, one barrier per slice.  Shared layouts (the NBUF buffers side by side in each row,
// rows padded by one 8-value word, so that the row stride is an odd number of 16-byte words and
// the matrix loads' 16-byte row segments fall in distinct banks):
//   A, NHWC input:  [m][buf][k]  (row-major A;    8 channels of one pixel per staged item)
//   A, NCHW input:  [k][buf][m]  (column-major A; 8 pixels of one channel per staged item)
//   B:              [n][buf][k]  (column-major B; 8 reduction values of one filter per item)
// Interleaving the buffers pads a row once rather than once per buffer (a double-buffered
// 192x128x32 tile would take 45 KiB instead of 50).
// Epilogue: each accumulator goes through a per-subgroup fp32 scratch (the staging memory,
// reused), then the subgroup's invocations apply bias / residual / activation and write in the
// output layout: 8 channels per 16-byte store for NHWC outputs when VEC_OUT; for NCHW outputs
// the scratch is column-major and each invocation stores a run of 8 pixels of one filter, a word
// of two, or (odd P*Q, split-K partials) one element.
#extension GL_GOOGLE_include_directive : require
// Loops over register / cooperative-matrix arrays must unroll fully (on NVIDIA a loop left
// rolled demotes the arrays to local memory).
#extension GL_EXT_control_flow_attributes : require
// CM_EMULATE (test-only variants): the three cooperative-matrix operations are
// replaced by plain arithmetic on the same shared-memory words with the same offset / stride /
// layout conventions, so devices without matrix units (lavapipe in CI) execute every staging,
// padding and epilogue path of this kernel.  The shipped variants never define it.  Its loops
// are [[dont_unroll]] (in every matrix kernel): unrolled over their constant trip counts they
// cost lavapipe's LLVM up to 1.9x the compile time (docs/design.md, "What CI runs").
#include "dtype.glsl"
#include "coopmat_common.glsl"  // extensions, CM_T, ELEM_BITS, PACK_OUT, cmElem
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "epilogue.glsl"
#include "igemm_problem.glsl"  // Tap, used by activation_tile_iterator.glsl
// The pixel-row masks from loops over the taps: this prologue unrolls with them, and the loop-free
// masks cost registers on RDNA3/RDNA4 and time on the H200 (docs/performance.md, "implicit_gemm_coopmat").
#define PIXEL_ROW_MASK_LOOPS 1
#include "activation_tile_iterator.glsl"
#include "tile_iterators_fast.glsl"
// SPLIT_K ("implicit_gemm_coopmat_splitk_*"): workgroup z runs its share of the reduction slices
// and writes raw fp32 partial sums to the workspace; splitk_reduce.comp adds them in order and
// runs the epilogue (splitk.glsl).
#ifdef SPLIT_K
#include "splitk.glsl"
#endif
#include "coopmat_trace.glsl"  // CM_TRACE (profiling-only builds): phase clocks to binding 5

// 8-value (16-byte) views of the input, filter and output bindings; the host uses them only
// when the views are 16-byte aligned (the VEC_* pipeline of the pair).
layout(set = 0, binding = 0, std430) readonly buffer InputBuf8 { uvec4 x8_[]; };
layout(set = 0, binding = 0, std430) readonly buffer InputBufQ { uvec2 xq_[]; };  // NCHW_VEC_A
layout(set = 0, binding = 1, std430) readonly buffer FilterBuf8 { uvec4 w8_[]; };
layout(set = 0, binding = 4, std430) writeonly buffer OutputBuf8 { uvec4 y8_[]; };
#include "epilogue_runs.glsl"  // storeRun8: NCHW output runs

layout(constant_id = 100) const uint WG_SIZE = 256;  // WARPS_M * WARPS_N * subgroup size
layout(constant_id = 101) const uint BM = 128;       // pixels per tile
layout(constant_id = 102) const uint BN = 128;       // filters per tile
layout(constant_id = 103) const uint BK = 32;        // reduction slice (multiple of 8 and CM_K)
layout(constant_id = 104) const uint WARPS_M = 2;
layout(constant_id = 105) const uint WARPS_N = 4;
layout(constant_id = 106) const uint CM_M = 16;      // cooperative-matrix size (multiples of 8)
layout(constant_id = 107) const uint CM_N = 16;
layout(constant_id = 108) const uint CM_K = 16;
layout(constant_id = 112) const bool VEC_A = false;    // NHWC input, 16-byte loads
layout(constant_id = 113) const bool VEC_B = false;    // KRSC filters, 16-byte loads
// NCHW input of a 1x1 stride-1 unpadded layer with H*W % 4 == 0 on a 16-byte aligned view: a
// staged item's 8 pixels of one channel are one 16-byte load where H*W % 8 == 0, else two 8-byte
// loads of 4 (each within one image), instead of 8 element loads.
layout(constant_id = 128) const bool NCHW_VEC_A = false;
// 16-byte aligned output view: 16-byte stores of 8 filters (NHWC, K/groups % 8 == 0; 8- or
// 4-byte stores of OUT_WORD = 4 or 2 where only those divide it) or of 8 pixels (NCHW runs).
layout(constant_id = 114) const bool VEC_OUT = false;
layout(constant_id = 120) const uint OUT_WORD = 8;  // NHWC: filters per wide store, 8, 4 or 2
const uint OUT_GROUPS = CM_N / OUT_WORD;            // stores per accumulator row
// Shared staging buffers: 2 = double-buffered (one barrier per slice); 1 = a single buffer (two
// barriers per slice, half the shared memory: lets 64x64 subgroup blocks in 256-wide tiles and
// 64-deep slices fit 48 KiB).  Either way the next slice's global loads are in flight in
// registers while the current one is multiplied.
layout(constant_id = 115) const uint NBUF = 2;
// Global loads two slices ahead for NHWC input (see AHEAD2 in main); the host's choice per device.
layout(constant_id = 116) const bool PREFETCH2 = false;
// C/groups % BK != 0 (the host asks C/groups % 8 == 0): per-word channel bounds on every load.
layout(constant_id = 117) const bool CTAIL = false;
// Sliced-K: KSPLIT groups of WARPS_M x WARPS_N subgroups share the BM x BN tile.
// Group z walks its own contiguous run of the reduction slices through its own staging buffers
// (every group takes the same number of steps, so the workgroup barriers stay uniform); after the
// loop each accumulator's partials are added by one group, its owner, which runs that
// accumulator's epilogue round.  One dispatch and no workspace, against split-K's second pass;
// a small grid gets KSPLIT x the subgroups per tile.
layout(constant_id = 126) const uint KSPLIT = 1;
layout(local_size_x_id = 100) in;

const uint NT = WG_SIZE / KSPLIT;  // invocations per K group (all of them without sliced-K)
const uint SGG = WARPS_M * WARPS_N;  // subgroups per K group
const uint WM = BM / WARPS_M, WN = BN / WARPS_N;  // per-subgroup block
const uint FM = WM / CM_M, FN = WN / CM_N;        // accumulators per subgroup: FM x FN
const uint KV = BK / 8u;                          // uvec4 words per BK reduction values
const uint LDK = NBUF * KV + 1u;                  // row stride (words) of the [m][buf][k] and [n][buf][k] tiles
const uint LDM = NBUF * (BM / 8u) + 1u;           // row stride (words) of the NCHW [k][buf][m] tile
// IN_LAYOUT is 0 or 1: arithmetic rather than ?: keeps these specialization-constant expressions.
const uint A_WORDS = IN_LAYOUT * (BM * LDK) + (1u - IN_LAYOUT) * (BK * LDM);  // every buffer
const uint B_WORDS = BN * LDK;
const uint A_BUF = IN_LAYOUT * KV + (1u - IN_LAYOUT) * (BM / 8u);  // word offset of buffer 1 in an A row
const uint A_PER_T = BM * KV / NT;  // staged A items (8 values) per invocation (host: divides)
const uint B_PER_T = BN * KV / NT;
const uint MO = BM / 8u;            // NCHW: pixel octets per tile
// Rows an invocation decodes: NHWC one per A item; NCHW the 8 pixels of its one octet.
const uint A_ROWS = IN_LAYOUT * A_PER_T + (1u - IN_LAYOUT) * 8u;
const uint SCRATCH = CM_M * CM_N / 4u;  // words of one fp32 accumulator
// NCHW output with 8 (or 4) | P*Q (the host's condition): column-major scratch and pixel runs
// (epilogue_runs.glsl); off, the words or element-wise stores below (other NCHW outputs).
layout(constant_id = 118) const bool NCHW_RUNS = true;
// With NCHW_RUNS where 4 but not 8 divides P*Q: an octet may cross an image at its middle, so
// each half (4 pixels, 4-aligned) goes out on its own, one 8-byte store each.
layout(constant_id = 119) const bool NCHW_RUNS4 = false;
// Bank-conflict-free shared accesses (the host's choice: NVIDIA, where it was measured): a 16-byte
// access is served 8 invocations at a time, and with rows of an odd number of words, neighbouring
// staged rows put two of those 8 in one bank group.  So the rows of each group of 8 are handed out
// in the order that spreads every 8 invocations over all 8 groups (STAGED_ROW in main), and the
// epilogue reads a value's two scratch words in the order that does the same (scratchWords8).
layout(constant_id = 123) const bool SWIZZLE = false;
// Lean load addressing (LEAN_A, LEAN_B in main): for 16-byte NHWC activations and KRSC filters
// without slice tails, each staged item's offset in 16-byte words is computed once, so a slice adds
// one uniform word delta per load.  Rebuilding each filter item's offset from k * Kred every slice
// (register pressure) and converting element offsets to words per load cost NVIDIA's code about as
// many integer instructions per slice as it had products (docs/performance.md,
// "implicit_gemm_coopmat").  The filter items of one invocation are NT/KV rows apart (STAGED_ROW
// keeps that when NT/KV is a multiple of 8), so one base and a uniform stride name them all.
// The fp16 scratch (epilogue_half.glsl; the host's choice).
layout(constant_id = 125) const bool EPI16 = false;
const uint LD16 = (CM_N / 8u) | 1u;  // fp16 scratch row stride in words: odd, conflict-free rows
// NCHW output with an even P*Q that the runs leave (2 mod 4, or 4 | P*Q on 16-subgroup tiles: the
// host's condition, on the vector pipeline): two pixels of a filter per 4-byte store through a
// column-major scratch, instead of one 2-byte element per lane and store.  With P*Q even an
// even pixel and the next one share an image and an aligned word.  (Odd P*Q, words aligned in
// the output and a lone element at a plane's ends, measured slower than the element stores on
// 7x7 layers: docs/performance.md, "NCHW layers".)
layout(constant_id = 129) const bool NCHW_WORDS = false;
#ifdef SPLIT_K
const bool RUNS = false;  // pass 1 writes raw fp32 partials element by element
const bool WORDS = false;
#else
const bool RUNS = NCHW_RUNS && OUT_LAYOUT == 0u;  // NCHW output: column-major scratch, pixel runs
const bool WORDS = NCHW_WORDS && OUT_LAYOUT == 0u && !RUNS;
#endif
// Every other NCHW output (odd P*Q, split-K partials, the element pipeline) through a
// column-major scratch as well: the element loop's lanes read one filter's 16 pixels, which a
// row-major fp32 scratch puts 16 words apart, two banks for 16 lanes (8-way conflicts);
// column-major they are adjacent words.  A small gain (the column-major accumulator store has
// conflicts of its own; docs/performance.md, "NCHW layers").
const bool NCHW_COL = OUT_LAYOUT == 0u;
const bool COL_SCRATCH = RUNS || WORDS || NCHW_COL;  // a filter's pixels adjacent

const uint GROUP_WORDS = A_WORDS + B_WORDS;  // one K group's staging
// [group][A][B], each row holding its NBUF buffers.  After the loop: the epilogue scratch of a
// group's subgroups, then (KSPLIT > 1) two sets of KSPLIT - 1 partial accumulators per subgroup of
// a group (the host checks that they fit).
shared uvec4 smem[KSPLIT * GROUP_WORDS];
#include "epilogue_half.glsl"  // EPI16: MAT_C16, emuHalfScratch

#if !defined(CM_EMULATE)
#define MAT_A coopmat<CM_T, gl_ScopeSubgroup, CM_M, CM_K, gl_MatrixUseA>
#define MAT_B coopmat<CM_T, gl_ScopeSubgroup, CM_K, CM_N, gl_MatrixUseB>
#define MAT_C coopmat<float, gl_ScopeSubgroup, CM_M, CM_N, gl_MatrixUseAccumulator>
#else
layout(constant_id = 109) const uint EMU_LANES = 32;  // the subgroup size
const uint EPL = CM_M * CM_N / EMU_LANES;             // accumulator elements per invocation
CM_ELEM_FUNCTION
#endif

// The 8 fp32 values in scratch words w, w + 1 (w even), read in the order that keeps 8
// neighbouring invocations' first reads in distinct bank groups (SWIZZLE).
float[8] scratchWords8(uint w) {
    uint x = SWIZZLE ? (w >> 3) & 1u : 0u;
    uvec4 first = smem[w + x], second = smem[w + 1u - x];
    return x == 1u ? words8(second, first) : words8(first, second);
}

void main() {
#ifdef CM_TRACE
    traceBegin(gl_SubgroupID, WARPS_M * WARPS_N);
#endif
    // Sliced-K: K group kz is subgroups [kz * SGG, (kz + 1) * SGG), so kz and every bound derived
    // from it are subgroup-uniform; tid is the invocation's index within its group, which stages
    // that group's slices.  Without sliced-K both fold to the plain kernel's (kz = 0, tid = the
    // local index): derived from the local index instead, kz made the slice bounds look
    // non-uniform to NVIDIA's compiler, which cost time at b32.
    uint kz = KSPLIT == 1u ? 0u : gl_SubgroupID / SGG;
    uint tid = KSPLIT == 1u ? gl_LocalInvocationID.x : (gl_SubgroupID % SGG) * gl_SubgroupSize + gl_SubgroupInvocationID;
    uint M = pc.N * pc.P * pc.Q;
    uint Cg = pc.C / pc.groups, Kg = pc.K / pc.groups;
    uint RS = pc.R * pc.S, Kred = Cg * RS;
    uint tilesN = (Kg + BN - 1u) / BN;
    uint g = gl_WorkGroupID.y / tilesN;
    uint n0 = (gl_WorkGroupID.y % tilesN) * BN;
    uint m0 = gl_WorkGroupID.x * BM;
    uint cBase = g * Cg, kBase = g * Kg;

    // Staging assignment, fixed for the whole reduction.
    //   NHWC A item i: pixel aM, channel word aK (8 channels), neighbours walk the channels;
    //   NCHW A item i: channel aK of the invocation's pixel octet mo, neighbours walk pixels;
    //   B item i: filter bN, reduction word bK.
    PixelRow rows[A_ROWS];
    // Row of item index r (r = e / KV): within each group of 8, R = 8 / KV rows go to one group of
    // 8 invocations, KV rows apart, so their LDK-word (odd) strides cover all 8 bank groups.
#define STAGED_ROW(r) (SWIZZLE && KV < 8u ? ((r) & ~7u) | ((((r) & 7u) % (8u / KV)) * KV + (((r) & 7u) / (8u / KV))) : (r))
    int rowBase[A_ROWS];
    uint aM[A_PER_T], aK[A_PER_T];
    uint mo = tid % MO;
    [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) {
        uint e = tid + i * NT;
        if (IN_LAYOUT == 1u) { aK[i] = e % KV; aM[i] = STAGED_ROW(e / KV); }
        else { aK[i] = tid / MO + i * (NT / MO); aM[i] = mo * 8u; }
    }
    [[unroll]] for (uint j = 0u; j < A_ROWS; ++j) {
        uint m = IN_LAYOUT == 1u ? aM[j % A_PER_T] : mo * 8u + j;
        rows[j] = makePixelRow(m0 + m, M);
        rowBase[j] = rowBaseOffset(rows[j], cBase);
    }
    uint bN[B_PER_T], bK[B_PER_T];
    [[unroll]] for (uint i = 0u; i < B_PER_T; ++i) {
        uint e = tid + i * NT;
        bK[i] = e % KV; bN[i] = STAGED_ROW(e / KV);
    }
    uint cstride = channelStride();
    const bool octetWord = (pc.H * pc.W) % 8u == 0u;  // NCHW_VEC_A: an octet lies in one image
    const bool LEAN_A = IN_LAYOUT == 1u && VEC_A && !CTAIL;
    const bool LEAN_B = FILTER_LAYOUT == 1u && VEC_B && !CTAIL && (NT / KV) % 8u == 0u;
    // LEAN_A: item i's activation word at tap delta 0, channel 0 of the slice (element offsets
    // are multiples of 8 there: C/groups % 8 == 0 and 16-byte views).
    int aWord[A_PER_T];
    [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) aWord[i] = LEAN_A ? (rowBase[i % A_ROWS] + int(aK[i] * 8u)) >> 3 : 0;
    // LEAN_B: filter item i's word at reduction index 0 is bWord + i * bStrideWords.
    uint bWord = LEAN_B ? sliceFilterBase(kBase + n0 + bN[0], bK[0] * 8u, Cg, Kred) >> 3 : 0u;
    uint bStrideWords = LEAN_B ? (NT / KV) * (Kred >> 3) : 0u;

    // Two register sets.  AHEAD2 (NHWC input, where the host asks for it): the global loads of
    // slice sl + 2 are issued before slice sl is multiplied and slice sl + 1 (loaded one whole
    // slice earlier) is stored after it, so each load has about two slices of matrix work to
    // arrive (faster on the H200).  Otherwise one slice ahead: slice sl + 1 is loaded before and
    // stored after slice sl is multiplied.  NCHW input decodes 8 pixel rows per invocation and the
    // extra 16 registers made three tiles spill on RDNA3; the host asks for it only on NVIDIA,
    // because on RDNA3/RDNA4 (RADV 26) the 64x64-per-subgroup tiles spill with it.
    // NCHW_VEC_A stages words as NHWC does (its decode keeps two of the 8 rows), so it may too.
    const bool AHEAD2 = (IN_LAYOUT == 1u || NCHW_VEC_A) && PREFETCH2;
    uvec4 aReg0[A_PER_T], bReg0[B_PER_T], aReg1[A_PER_T], bReg1[B_PER_T];
    // The load cursor: filter tap (r, s) = rs and first channel c0 of the next slice LOAD_SLICE
    // reads (declared where the first slice is known).  Slices are loaded once each, in order, so
    // the cursor steps by BK instead of dividing the reduction index by C/groups and S per slice.
#define ADVANCE_CURSOR()                                                                        \
    {                                                                                           \
        lc0 += BK;                                                                              \
        if (lc0 >= Cg) {                                                                        \
            lc0 = 0u; ++lrs;                                                                    \
            if (++ls == pc.S) { ls = 0u; ++lr; }                                                \
            ldelta = tapDelta(lr, ls);                                                          \
        }                                                                                       \
    }
    // Global -> registers aReg/bReg for the slice starting at reduction index k0 (one tap per slice).
#define LOAD_SLICE(k0, aReg, bReg)                                                              \
    {                                                                                           \
        uint rs = lrs, c0 = lc0, r = lr, s = ls;                                                \
        int delta = ldelta;                                                                     \
        int aSliceWords = (delta + int(c0)) >> 3;                                               \
        [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) {                                        \
            aReg[i] = uvec4(0u);                                                                \
            if (LEAN_A) {                                                                       \
                if (sliceTapValid(rows[i % A_ROWS], r, s)) aReg[i] = x8_[uint(aWord[i] + aSliceWords)]; \
            } else if (IN_LAYOUT == 1u) {                                                       \
                if ((!CTAIL || c0 + aK[i] * 8u < Cg) && sliceTapValid(rows[i % A_ROWS], r, s)) { \
                    int off = rowBase[i % A_ROWS] + delta + int(c0 + aK[i] * 8u);               \
                    if (VEC_A) aReg[i] = x8_[uint(off) >> 3];                                   \
                    else                                                                        \
                        [[unroll]] for (uint v = 0u; v < 4u; ++v)                               \
                            aReg[i][v] = PACK2(x_[off + int(2u * v)], x_[off + int(2u * v + 1u)]); \
                }                                                                               \
            } else if (NCHW_VEC_A) {                                                            \
                /* M % 4 == 0: each half of the octet is wholly inside M or wholly past it.  */  \
                /* Row 4 as 4 % A_ROWS: glslang rejects the literal index into this array.  */  \
                if (!CTAIL || c0 + aK[i] < Cg) {                                                \
                    uint coff = (c0 + aK[i]) * cstride;                                         \
                    if (octetWord) {                                                            \
                        if (rows[0].valid) aReg[i] = x8_[(uint(rowBase[0]) + coff) >> 3];       \
                    } else {                                                                    \
                        if (rows[0].valid) aReg[i].xy = xq_[(uint(rowBase[0]) + coff) >> 2];    \
                        if (rows[4u % A_ROWS].valid) aReg[i].zw = xq_[(uint(rowBase[4u % A_ROWS]) + coff) >> 2]; \
                    }                                                                           \
                }                                                                               \
            } else if (!CTAIL || c0 + aK[i] < Cg) {                                             \
                int coff = int((c0 + aK[i]) * cstride) + delta;                                 \
                [[unroll]] for (uint v = 0u; v < 4u; ++v) {                                     \
                    uint lo = 0u, hi = 0u;                                                      \
                    if (sliceTapValid(rows[(2u * v) % A_ROWS], r, s)) lo = ELEM_BITS(x_[rowBase[(2u * v) % A_ROWS] + coff]); \
                    if (sliceTapValid(rows[(2u * v + 1u) % A_ROWS], r, s))                      \
                        hi = ELEM_BITS(x_[rowBase[(2u * v + 1u) % A_ROWS] + coff]);             \
                    aReg[i][v] = lo | (hi << 16);                                               \
                }                                                                               \
            }                                                                                   \
        }                                                                                       \
        [[unroll]] for (uint i = 0u; i < B_PER_T; ++i) {                                        \
            bReg[i] = uvec4(0u);                                                                \
            uint kn = n0 + bN[i];                                                               \
            if (kn < Kg && (!CTAIL || c0 + bK[i] * 8u < Cg)) {                                  \
                uint k = kBase + kn;                                                            \
                if (LEAN_B) {                                                                   \
                    bReg[i] = w8_[bWord + i * bStrideWords + ((k0) >> 3)];                      \
                } else if (FILTER_LAYOUT == 1u) {                                               \
                    uint off = k * Kred + (CTAIL ? rs * Cg + c0 : (k0)) + bK[i] * 8u;           \
                    if (VEC_B) bReg[i] = w8_[off >> 3];                                         \
                    else                                                                        \
                        [[unroll]] for (uint v = 0u; v < 4u; ++v)                               \
                            bReg[i][v] = PACK2(w_[off + 2u * v], w_[off + 2u * v + 1u]);         \
                } else {                                                                        \
                    uint off = (k * Cg + c0 + bK[i] * 8u) * RS + rs;                            \
                    [[unroll]] for (uint v = 0u; v < 4u; ++v)                                   \
                        bReg[i][v] = PACK2(w_[off + 2u * v * RS], w_[off + (2u * v + 1u) * RS]); \
                }                                                                               \
            }                                                                                   \
        }                                                                                       \
        ADVANCE_CURSOR()                                                                        \
    }
#define STORE_SLICE(buf, aReg, bReg)                                                            \
    [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) {                                            \
        if (IN_LAYOUT == 1u) smem[kz * GROUP_WORDS + (buf) * A_BUF + aM[i] * LDK + aK[i]] = aReg[i]; \
        else smem[kz * GROUP_WORDS + (buf) * A_BUF + aK[i] * LDM + mo] = aReg[i];              \
    }                                                                                           \
    [[unroll]] for (uint i = 0u; i < B_PER_T; ++i)                                              \
        smem[kz * GROUP_WORDS + A_WORDS + (buf) * KV + bN[i] * LDK + bK[i]] = bReg[i];

    uint warp = gl_SubgroupID;
    uint wsg = KSPLIT == 1u ? warp : warp % SGG;  // the subgroup within its K group
    uint wm = wsg / WARPS_N, wn = wsg % WARPS_N;
#if !defined(CM_EMULATE)
    MAT_C acc[FM * FN];
    [[unroll]] for (uint t = 0u; t < FM * FN; ++t) acc[t] = MAT_C(0.0);
#else
    uint lane = gl_SubgroupInvocationID;
    float acc[FM * FN * EPL];
    [[dont_unroll]] for (uint t = 0u; t < FM * FN * EPL; ++t) acc[t] = 0.0;
#endif

    uint cslices = (Cg + BK - 1u) / BK;  // slices per filter tap (CTAIL: the last one partial)
    uint slices = RS * cslices;
    uint sl0 = 0u, nsl = slices;  // this workgroup's reduction slices: [sl0, sl0 + nsl)
#ifdef SPLIT_K
    uvec2 range = splitSlices(gl_WorkGroupID.z, slices);
    sl0 = range.x; nsl = range.y;
#endif
    // Sliced-K: K group z's run of [sl0, sl0 + nsl) is [sl0 + z * per, ...), at most per slices
    // (none where nsl < KSPLIT leaves it nothing); every group takes `per` steps.
    uint per = (nsl + KSPLIT - 1u) / KSPLIT;
    uint gsl0 = sl0 + min(kz * per, nsl), gnsl = min(per, nsl - min(kz * per, nsl));
    // Multiplies the slice staged in shared buffer `cur` into the accumulators.
#if !defined(CM_EMULATE)
#define MULTIPLY_SLICE(cur)                                                                     \
    {                                                                                           \
        uint aBase = kz * GROUP_WORDS + (cur) * A_BUF, bBase = kz * GROUP_WORDS + A_WORDS + (cur) * KV; \
        [[unroll]] for (uint kk = 0u; kk < BK / CM_K; ++kk) {                                   \
            MAT_B b[FN];                                                                        \
            [[unroll]] for (uint j = 0u; j < FN; ++j)                                           \
                coopMatLoad(b[j], smem, bBase + (wn * WN + j * CM_N) * LDK + kk * (CM_K / 8u),  \
                            LDK, gl_CooperativeMatrixLayoutColumnMajor);                        \
            [[unroll]] for (uint i = 0u; i < FM; ++i) {                                         \
                MAT_A a;                                                                        \
                uint m = wm * WM + i * CM_M;                                                    \
                if (IN_LAYOUT == 1u)                                                            \
                    coopMatLoad(a, smem, aBase + m * LDK + kk * (CM_K / 8u), LDK,               \
                                gl_CooperativeMatrixLayoutRowMajor);                            \
                else                                                                            \
                    coopMatLoad(a, smem, aBase + kk * CM_K * LDM + m / 8u, LDM,                 \
                                gl_CooperativeMatrixLayoutColumnMajor);                         \
                [[unroll]] for (uint j = 0u; j < FN; ++j)                                       \
                    acc[i * FN + j] = coopMatMulAdd(a, b[j], acc[i * FN + j]);                  \
            }                                                                                   \
        }                                                                                       \
    }
#else
#define MULTIPLY_SLICE(cur)                                                                     \
    {                                                                                           \
        uint aBase = kz * GROUP_WORDS + (cur) * A_BUF, bBase = kz * GROUP_WORDS + A_WORDS + (cur) * KV; \
        [[dont_unroll]] for (uint kk = 0u; kk < BK / CM_K; ++kk)                                \
            [[dont_unroll]] for (uint f = 0u; f < FM * FN; ++f)                                 \
                [[dont_unroll]] for (uint t = 0u; t < EPL; ++t) {                               \
                    uint i = f / FN, j = f % FN, e = lane + t * EMU_LANES;                      \
                    uint row = e / CM_N, col = e % CM_N, m = wm * WM + i * CM_M;                \
                    uint bOff = bBase + (wn * WN + j * CM_N) * LDK + kk * (CM_K / 8u);          \
                    float sum = acc[f * EPL + t];                                               \
                    [[dont_unroll]] for (uint q = 0u; q < CM_K; ++q) {                          \
                        float a = IN_LAYOUT == 1u                                               \
                                      ? cmElem(aBase + m * LDK + kk * (CM_K / 8u), LDK, false, row, q) \
                                      : cmElem(aBase + kk * CM_K * LDM + m / 8u, LDM, true, row, q);   \
                        sum = fma(a, cmElem(bOff, LDK, true, q, col), sum);                     \
                    }                                                                           \
                    acc[f * EPL + t] = sum;                                                     \
                }                                                                               \
    }
#endif
    // Step sl: (aN, bN) are free (their slice is staged); (aS, bS) hold slice sl + 1 in flight
    // (AHEAD2) or receive it now (one set: aN and aS the same).
#define SLICE_STEP(sl, aN, bN, aS, bS)                                                          \
    {                                                                                           \
        if (AHEAD2) {                                                                           \
            if ((sl) + 2u < gnsl) LOAD_SLICE((gsl0 + (sl) + 2u) * BK, aN, bN)                   \
        } else if ((sl) + 1u < gnsl) LOAD_SLICE((gsl0 + (sl) + 1u) * BK, aS, bS)                \
        uint cur = NBUF == 2u ? (sl) & 1u : 0u;                                                 \
        if (KSPLIT == 1u || (sl) < gnsl) MULTIPLY_SLICE(cur)                                    \
        TRACE_SLICE(sl, 0u)                                                                     \
        if (NBUF == 1u) barrier(); /* every subgroup is done reading the single buffer */       \
        if ((sl) + 1u < gnsl) { STORE_SLICE(NBUF == 2u ? cur ^ 1u : 0u, aS, bS) }               \
        TRACE_SLICE(sl, 1u)                                                                     \
        barrier(); /* the last one also frees the staging memory for the epilogue's scratch */  \
        TRACE_SLICE(sl, 2u)                                                                     \
    }
    uint lrs = gsl0 / cslices, lc0 = (gsl0 % cslices) * BK;
    uint lr = lrs / pc.S, ls = lrs % pc.S;
    int ldelta = tapDelta(lr, ls);
    if (KSPLIT == 1u || gnsl > 0u) {
        LOAD_SLICE(gsl0 * BK, aReg0, bReg0)
    } else {
        [[unroll]] for (uint i = 0u; i < A_PER_T; ++i) aReg0[i] = uvec4(0u);
        [[unroll]] for (uint i = 0u; i < B_PER_T; ++i) bReg0[i] = uvec4(0u);
    }
    if (AHEAD2 && gnsl > 1u) LOAD_SLICE((gsl0 + 1u) * BK, aReg1, bReg1)
    STORE_SLICE(0u, aReg0, bReg0)
    barrier();
    TRACE_AT(2u)
#ifdef CM_TRACE
    traceHeader(gl_NumWorkGroups.xy, uvec2(WARPS_M * WARPS_N, TR_WORDS), uvec2(TR_SLICES, BM), uvec2(BN, BK), uvec2(slices, TR_ROUNDS));
#endif
    if (AHEAD2) {
        // Unrolled by two so that the register sets are named statically (a dynamically indexed
        // register array would be demoted to local memory).
        for (uint sl = 0u; sl < per; sl += 2u) {
            SLICE_STEP(sl, aReg0, bReg0, aReg1, bReg1)
            if (sl + 1u >= per) break;
            SLICE_STEP(sl + 1u, aReg1, bReg1, aReg0, bReg0)
        }
    } else {
        for (uint sl = 0u; sl < per; ++sl) SLICE_STEP(sl, aReg0, bReg0, aReg0, bReg0)
    }

    // Epilogue, one accumulator at a time through this subgroup's fp32 scratch (row-major for NHWC
    // outputs, column-major for NCHW ones: COL_SCRATCH).
    TRACE_AT(3u)
    // One scratch per subgroup of a group: sliced-K, only the owner group of an accumulator writes
    // it out, and the next owner starts after the barrier that this one reaches when done.
    uint scratch = wsg * SCRATCH;
    const uint RED_BASE = SGG * SCRATCH;  // sliced-K partial slots, after the scratch
#if !defined(CM_EMULATE)
    uint lane = gl_SubgroupInvocationID;
#endif
    uint lanes = gl_SubgroupSize;
    uint PQ = pc.P * pc.Q;
    [[unroll]] for (uint i = 0u; i < FM; ++i) {
        [[unroll]] for (uint j = 0u; j < FN; ++j) {
            // Sliced-K: the other groups' partials of accumulator ai go to shared slots, and its owner
            // group adds them to its own in group order.  Two sets of slots, alternating with ai: the
            // owner of ai has read its set before it reaches the barrier of ai + 1, after which
            // ai + 2 rewrites it.
            uint ai = i * FN + j;
            bool mine = KSPLIT == 1u || kz == ai % KSPLIT;
            if (KSPLIT > 1u) {
                uint owner = ai % KSPLIT;
                uint red = RED_BASE + (ai & 1u) * (KSPLIT - 1u) * SGG * SCRATCH;
                if (!mine) {
                    uint at = red + ((kz < owner ? kz : kz - 1u) * SGG + wsg) * SCRATCH;
#if !defined(CM_EMULATE)
                    coopMatStore(acc[ai], smem, at, CM_N / 4u, gl_CooperativeMatrixLayoutRowMajor);
#else
                    [[dont_unroll]] for (uint u = 0u; u < EPL; ++u) {
                        uint fi = at * 4u + lane + u * EMU_LANES;
                        smem[fi >> 2][fi & 3u] = floatBitsToUint(acc[ai * EPL + u]);
                    }
#endif
                }
                barrier();
                if (mine) {
                    for (uint z = 0u; z + 1u < KSPLIT; ++z) {
                        uint at = red + (z * SGG + wsg) * SCRATCH;
#if !defined(CM_EMULATE)
                        MAT_C part;
                        coopMatLoad(part, smem, at, CM_N / 4u, gl_CooperativeMatrixLayoutRowMajor);
                        acc[ai] = acc[ai] + part;
#else
                        [[dont_unroll]] for (uint u = 0u; u < EPL; ++u) {
                            uint fi = at * 4u + lane + u * EMU_LANES;
                            acc[ai * EPL + u] += uintBitsToFloat(smem[fi >> 2][fi & 3u]);
                        }
#endif
                    }
                }
            }
            // The subgroup barriers stay outside `mine`: every subgroup runs the same ones (lavapipe
            // miscomputes when subgroups of one workgroup run different numbers of them).
            if (mine) {
#if !defined(CM_EMULATE)
#if defined(DTYPE_F16) && !defined(SPLIT_K)
                if (EPI16)
                    coopMatStore(MAT_C16(CM_M, CM_N)(acc[i * FN + j]), smem, scratch, LD16, gl_CooperativeMatrixLayoutRowMajor);
                else
#endif
                if (COL_SCRATCH)
                    coopMatStore(acc[i * FN + j], smem, scratch, CM_M / 4u, gl_CooperativeMatrixLayoutColumnMajor);
                else
                    coopMatStore(acc[i * FN + j], smem, scratch, CM_N / 4u, gl_CooperativeMatrixLayoutRowMajor);
#else
                [[dont_unroll]] for (uint t = 0u; t < EPL; ++t) {
                    uint e = lane + t * EMU_LANES, row = e / CM_N, col = e % CM_N;
                    float v = acc[(i * FN + j) * EPL + t];
                    if (EPI16) {
                        emuHalfScratch(scratch, LD16, CM_N, e, v);
                    } else {
                        uint fi = scratch * 4u + (COL_SCRATCH ? col * CM_M + row : row * CM_N + col);
                        smem[fi >> 2][fi & 3u] = floatBitsToUint(v);
                    }
                }
#endif
            }
            subgroupMemoryBarrierShared();
            subgroupBarrier();
            TRACE_ROUND(i * FN + j, 0u)
            if (mine) {
                uint mBase = m0 + wm * WM + i * CM_M, nBase = n0 + wn * WN + j * CM_N;
                if (RUNS) {
                    // NCHW, 8 | P*Q (the host's condition): 8 consecutive pixels of one filter per
                    // item, one 16-byte store (epilogue_runs.glsl); 4 | P*Q (NCHW_RUNS4): two runs of
                    // 4, each within one image.  Where 4 does not divide P*Q, runs would cross images
                    // and start unaligned: their 2-byte pieces, each lane's 16 bytes apart, wrote
                    // every 32-byte sector in several partial writes (slower on 7x7 layers), so
                    // those take the element loop below.
                    for (uint e = lane; e < CM_N * (CM_M / 8u); e += lanes) {
                        uint col = e / (CM_M / 8u), oct = e % (CM_M / 8u);
                        uint m = mBase + oct * 8u, kn = nBase + col;
                        if (m < M && kn < Kg) {
                            uint w = scratch + col * (CM_M / 4u) + oct * 2u;
                            float v[8] = scratchWords8(w);
                            uint k = kBase + kn, n = m / PQ, pq = m % PQ;  // the run stays in image n
                            if (!NCHW_RUNS4) {
                                storeRun8(VEC_OUT, (n * pc.K + k) * PQ + pq, 8u, k, v);
                            } else {
                                storeRun8(VEC_OUT, (n * pc.K + k) * PQ + pq, 4u, k, v);
                                if (m + 4u < M) {  // M % 4 == 0: the upper half is whole or absent
                                    float u[8] = float[8](v[4], v[5], v[6], v[7], 0.0, 0.0, 0.0, 0.0);
                                    uint n4 = (m + 4u) / PQ, pq4 = (m + 4u) % PQ;
                                    storeRun8(VEC_OUT, (n4 * pc.K + k) * PQ + pq4, 4u, k, u);
                                }
                            }
                        }
                    }
                } else if (EPI16) {
                    // OUT_WORD filters of one pixel per store, copied as they are; the word order
                    // (pixel fastest) keeps 8 neighbouring invocations' reads in distinct bank groups.
                    for (uint e = lane; e < CM_M * OUT_GROUPS; e += lanes) {
                        uint row = e % CM_M, cg = e / CM_M;
                        uint m = mBase + row, kn = nBase + cg * OUT_WORD;
                        if (m < M && kn < Kg)
                            copyFiltersNhwc(OUT_WORD, m * pc.K + kBase + kn, smem[scratch + row * LD16 + cg * OUT_WORD / 8u],
                                            cg % (8u / OUT_WORD));
                    }
                } else if (VEC_OUT && OUT_LAYOUT == 1u) {
                    // OUT_WORD consecutive filters of one pixel per store; OUT_WORD divides K/groups,
                    // so a group is either wholly inside the problem or wholly outside.
                    for (uint e = lane; e < CM_M * OUT_GROUPS; e += lanes) {
                        uint row = e / OUT_GROUPS, cg = e % OUT_GROUPS;
                        uint m = mBase + row, kn = nBase + cg * OUT_WORD;
                        if (m < M && kn < Kg) {
                            uint w = scratch + row * (CM_N / 4u) + cg * OUT_WORD / 4u;
                            float v[8] = OUT_WORD == 8u ? scratchWords8(w) : words8(smem[w], uvec4(0u));
                            uint k = kBase + kn;
                            storeFiltersNhwc(OUT_WORD, m * pc.K + k, k, v, cg * OUT_WORD % 4u);  // NHWC: (n*PQ + pq)*K + k
                        }
                    }
                } else if (OUT_LAYOUT == 0u) {
                    // NCHW, the rest: items of PPI pixels of one filter, neighbouring items on
                    // neighbouring lanes; WORDS: two pixels per 4-byte store (M and P*Q even: a pair
                    // is whole or absent and lies in one image), else one element (odd P*Q, split-K
                    // partials).  A lane keeps its pixels for the whole accumulator (subgroups of
                    // CM_M / PPI or more; narrower ones take several), so its image and plane offset,
                    // a division by P*Q, are worked out once per item row, not once per store.
                    const uint PPI = WORDS ? 2u : 1u, ROWS = CM_M / PPI;
                    for (uint r = lane % ROWS; r < ROWS; r += lanes) {
                        uint row = r * PPI, m = mBase + row;
                        if (m >= M) break;
                        uint pixelOff = m / PQ * pc.K * PQ + m % PQ;  // + k * P*Q for filter k
                        for (uint col = lane / ROWS; col < CM_N; col += max(lanes / ROWS, 1u)) {
                            uint kn = nBase + col;
                            if (kn >= Kg) break;
                            uint k = kBase + kn, off = pixelOff + k * PQ;
                            uint at = scratch * 4u + (COL_SCRATCH ? col * CM_M + row : row * CM_N + col);
                            if (WORDS) {
                                uvec2 w = (at & 2u) == 0u ? smem[at >> 2].xy : smem[at >> 2].zw;
                                y2w_[off >> 1] = PACK_OUT(epilogueValue(uintBitsToFloat(w.x), k, off),
                                                          epilogueValue(uintBitsToFloat(w.y), k, off + 1u));
                            } else {
                                float v = uintBitsToFloat(smem[at >> 2][at & 3u]);
#ifdef SPLIT_K
                                ws_[workspaceOffset(gl_WorkGroupID.z, off)] = v;  // raw partial (host: VEC_OUT off)
#else
                                storeOutput(off, k, v);
#endif
                            }
                        }
                    }
                } else {
                    // NHWC: neighbouring invocations on neighbouring filters of one pixel.
                    for (uint e = lane; e < CM_M * CM_N; e += lanes) {
                        uint row = e / CM_N, col = e % CM_N;
                        uint m = mBase + row, kn = nBase + col;
                        if (m < M && kn < Kg) {
                            float v = uintBitsToFloat(smem[scratch + (e >> 2)][e & 3u]);  // row-major: e = row * CM_N + col
                            uint k = kBase + kn, off = m * pc.K + k;
#ifdef SPLIT_K
                            ws_[workspaceOffset(gl_WorkGroupID.z, off)] = v;  // raw partial (host: VEC_OUT off)
#else
                            storeOutput(off, k, v);
#endif
                        }
                    }
                }
            }
            TRACE_ROUND(i * FN + j, 1u)
            subgroupBarrier();  // the scratch is rewritten by the next accumulator
            TRACE_ROUND(i * FN + j, 2u)
        }
    }
    TRACE_END(nsl, warp, FM * FN)
}
