#version 460
// "halo_coopmat": stride-1 convolutions on the matrix units, 16-bit operands, fp32 accumulation,
// NHWC activations.  implicit_gemm_coopmat.comp stages one (tap, channel slice) of im2col per
// barrier pair, so a 3x3 layer stages every input pixel nine times; here one staged channel slice
// of the input halo serves every filter tap.
//
// Flattened halo.  The output is cut into strips of TQ columns; within a strip of image n, flat
// position f = p * X + x (X = TQ + (FS-1)*DW columns, the strip's input width) names output
// (p, q0 + x) when x < TQ and is padding otherwise.  Input pixel (p + r*DH, x + s*DW) of the
// padded strip is then flat position f + r*DH*X + s*DW: for every tap (r, s), the A rows of 16
// consecutive flat positions are 16 consecutive halo pixels, one row-major coopMatLoad at a
// tap-dependent offset.  A workgroup computes BM consecutive flat positions x BN filters and
// stages, per 16-channel slice, the HP = BM + (FR-1)*DH*X + (FS-1)*DW halo pixels those positions
// read (zeros outside the input: the padding is applied once, when staged) and the FR*FS*BN
// filter rows.  The (FS-1)*DW padding columns per strip row are the price (3 % at X = 66,
// 22 % at X = 9).
//
// Shared layouts, 16-byte words of 8 values; a pixel's or a filter's 16 channels take 2 words plus
// one padding word (stride 3 words, odd, so the 8 rows of a fragment load fall in distinct banks):
//   halo:    [h][3]            h < HP          (row-major A)
//   filters: [tap][n][3]       tap < FR*FS     (column-major B)
// Per slice (FR*FS*16 deep), two barriers; the next slice's global loads in flight in registers
// while this one is multiplied (PREFETCH) or issued right before its stores.  Epilogue: through a
// per-subgroup fp32 scratch (the staging memory, reused), bias / residual / activation, output in
// either layout (NCHW: runs of 8 pixels of one filter, epilogue_runs.glsl).
#extension GL_GOOGLE_include_directive : require
// Loops over cooperative-matrix arrays unroll fully (a rolled loop demotes them to local memory).
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"
#include "coopmat_common.glsl"  // extensions, CM_T, ELEM_BITS, PACK_OUT, cmElem
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "epilogue.glsl"

layout(set = 0, binding = 0, std430) readonly buffer InputBuf8 { uvec4 x8_[]; };
layout(set = 0, binding = 1, std430) readonly buffer FilterBuf8 { uvec4 w8_[]; };
layout(set = 0, binding = 4, std430) writeonly buffer OutputBuf8 { uvec4 y8_[]; };
#include "epilogue_runs.glsl"  // storeRun8: NCHW output runs

layout(constant_id = 100) const uint WG_SIZE = 256;  // WARPS_M * WARPS_N * subgroup size
layout(constant_id = 101) const uint WARPS_M = 4;
layout(constant_id = 102) const uint WARPS_N = 2;
layout(constant_id = 103) const uint FM = 4;         // 16-row fragments per subgroup
layout(constant_id = 104) const uint FN = 2;         // 16-filter fragments per subgroup
layout(constant_id = 105) const uint FR = 3;         // filter rows, columns
layout(constant_id = 106) const uint FS = 3;
layout(constant_id = 107) const uint DH = 1;         // dilations
layout(constant_id = 108) const uint DW = 1;
layout(constant_id = 109) const uint TQ = 56;        // output columns per strip
layout(constant_id = 110) const bool VEC_IN = false;   // 16-byte aligned input view: 16-byte loads
layout(constant_id = 111) const bool VEC_W = false;    // KRSC filters, 16-byte aligned view
layout(constant_id = 112) const bool VEC_OUT = false;  // 16-byte aligned output view: wide stores (NHWC: K/groups even)
layout(constant_id = 113) const uint EMU_LANES = 32;   // CM_EMULATE: the subgroup size
// The next slice's global loads in flight (registers) while this one is multiplied; off, each
// slice is loaded right before it is stored (fewer registers: two workgroups per SM).
layout(constant_id = 114) const bool PREFETCH = true;
layout(local_size_x_id = 100) in;

const uint BM = WARPS_M * FM * 16u, BN = WARPS_N * FN * 16u;
const uint WM = FM * 16u, WN = FN * 16u;
// Flat columns past the strip's input width: the host pads X to a multiple of 8 for fp16 NCHW
// outputs with Q % 8 == 0 and TQ % 8 == 0, so that every run of 8 flat positions is one aligned
// 16-byte store (the padded columns compute outputs nobody stores).
layout(constant_id = 116) const uint XPAD = 0;
const uint X = TQ + (FS - 1u) * DW + XPAD;
const uint TAPS = FR * FS;
const uint HP = BM + (FR - 1u) * DH * X + (FS - 1u) * DW;  // halo pixels
const uint LD = 3u;                                       // words per staged pixel / filter row
const uint H_ITEMS = HP * 2u, W_ITEMS = TAPS * BN * 2u;   // staged data words per slice
const uint H_PER_T = (H_ITEMS + WG_SIZE - 1u) / WG_SIZE;
const uint W_PER_T = (W_ITEMS + WG_SIZE - 1u) / WG_SIZE;
const uint W_BASE = HP * LD;                              // first filter word
const uint NSG = WARPS_M * WARPS_N;
const uint STAGE_WORDS = W_BASE + TAPS * BN * LD;
const uint SCR_WORDS = NSG * 64u;  // one 16 x 16 fp32 accumulator per subgroup
const uint SMEM_WORDS = STAGE_WORDS > SCR_WORDS ? STAGE_WORDS : SCR_WORDS;
// NCHW fp16 output with an even width (the host's condition): column-major scratch and pixel
// runs (epilogue_runs.glsl); off, the element-wise stores of a row-major scratch (odd widths,
// bf16).
layout(constant_id = 115) const bool NCHW_RUNS = true;
const bool RUNS = NCHW_RUNS && OUT_LAYOUT == 0u;
// The fp16 scratch (epilogue_half.glsl; the host's choice), rows of 3 words.
layout(constant_id = 117) const bool EPI16 = false;
// NHWC wide stores: filters per store, 8 (16 bytes), 4 or 2 (the most that divides K/groups).
layout(constant_id = 118) const uint OUT_WORD = 8;
const uint OUT_GROUPS = 16u / OUT_WORD;  // stores per 16-filter accumulator row

shared uvec4 smem[SMEM_WORDS];
#include "epilogue_half.glsl"  // EPI16: MAT_C16, emuHalfScratch

#if !defined(CM_EMULATE)
#define MAT_A coopmat<CM_T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>
#define MAT_B coopmat<CM_T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB>
#define MAT_C coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>
#else
const uint EPL = 256u / EMU_LANES;  // accumulator elements per invocation
CM_ELEM_FUNCTION
#endif

// 8 consecutive 16-bit values starting at element `off` (a multiple of 8).
uvec4 loadInput8(int off) {
    if (VEC_IN) return x8_[uint(off) >> 3];
    uvec4 v;
    [[unroll]] for (uint u = 0u; u < 4u; ++u) v[u] = PACK2(x_[off + int(2u * u)], x_[off + int(2u * u + 1u)]);
    return v;
}

// 8 filter values from element `base + add` (-1 base: past the group's filters, zeros), `step`
// apart: consecutive in KRSC, R*S apart in KCRS.
uvec4 loadFilter8(int base, uint add, uint step) {
    if (base < 0) return uvec4(0u);
    uint off = uint(base) + add;
    if (VEC_W) return w8_[off >> 3];
    uvec4 v;
    [[unroll]] for (uint u = 0u; u < 4u; ++u) v[u] = PACK2(w_[off + 2u * u * step], w_[off + (2u * u + 1u) * step]);
    return v;
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint Cg = pc.C / pc.groups, Kg = pc.K / pc.groups;
    uint tilesQ = (pc.Q + TQ - 1u) / TQ;
    uint L = pc.P * X;                       // flat positions per strip
    uint tilesF = (L + BM - 1u) / BM;
    uint tilesN = (Kg + BN - 1u) / BN;
    uint tf = gl_WorkGroupID.x % tilesF, t = gl_WorkGroupID.x / tilesF;
    uint tq = t % tilesQ, n = t / tilesQ;
    uint g = gl_WorkGroupID.y / tilesN, n0 = (gl_WorkGroupID.y % tilesN) * BN;
    uint cBase = g * Cg, kBase = g * Kg;
    uint f0 = tf * BM, q0 = tq * TQ;

    // Staging assignment, fixed for the whole reduction: each halo item is one 8-channel half of
    // one pixel (its input offset at channel 0 of the group, or -1 outside the input); each filter
    // item one half of one filter's 16 channels at one tap (offset at channel 0, or -1 past Kg).
    int hOff[H_PER_T], wOff[W_PER_T];
    [[unroll]] for (uint i = 0u; i < H_PER_T; ++i) {
        uint e = tid + i * WG_SIZE, h = e >> 1;
        uint F = f0 + h;
        int ih = int(F / X) - int(pc.padT), iw = int(q0 + F % X) - int(pc.padL);
        bool ok = e < H_ITEMS && ih >= 0 && ih < int(pc.H) && iw >= 0 && iw < int(pc.W);
        hOff[i] = ok ? int(activationOffset(1u, n, cBase + (e & 1u) * 8u, uint(ih), uint(iw), pc.C, pc.H, pc.W)) : -1;
    }
    [[unroll]] for (uint i = 0u; i < W_PER_T; ++i) {
        uint e = tid + i * WG_SIZE, nn = (e >> 1) % BN, tap = (e >> 1) / BN, kn = n0 + nn;
        bool ok = e < W_ITEMS && kn < Kg;
        wOff[i] = ok ? int(filterOffset(FILTER_LAYOUT, kBase + kn, (e & 1u) * 8u, tap / FS, tap % FS, Cg, FR, FS)) : -1;
    }
    // Filter values of one staged word: 8 channels, consecutive in KRSC, R*S apart in KCRS.
    uint cStep = FILTER_LAYOUT == 1u ? 1u : FR * FS;

    uvec4 hReg[H_PER_T], wReg[W_PER_T];
    // Staged word i of slice c0: halo, filters.
#define HALO_WORD(i, c0) (hOff[i] >= 0 ? loadInput8(hOff[i] + int(c0)) : uvec4(0u))
#define FILTER_WORD(i, c0) loadFilter8(wOff[i], (c0) * cStep, cStep)
#define LOAD_SLICE(c0)                                                                          \
    {                                                                                           \
        [[unroll]] for (uint i = 0u; i < H_PER_T; ++i) hReg[i] = HALO_WORD(i, c0);               \
        [[unroll]] for (uint i = 0u; i < W_PER_T; ++i) wReg[i] = FILTER_WORD(i, c0);             \
    }
    // Stores word i of the halo as hv and of the filters as wv (expressions in i).
#define STAGE_SLICE(hv, wv)                                                                     \
    {                                                                                           \
        [[unroll]] for (uint i = 0u; i < H_PER_T; ++i) {                                        \
            uint e = tid + i * WG_SIZE;                                                         \
            if (e < H_ITEMS) smem[(e >> 1) * LD + (e & 1u)] = hv;                               \
        }                                                                                       \
        [[unroll]] for (uint i = 0u; i < W_PER_T; ++i) {                                        \
            uint e = tid + i * WG_SIZE;                                                         \
            if (e < W_ITEMS) smem[W_BASE + (e >> 1) * LD + (e & 1u)] = wv;                      \
        }                                                                                       \
    }

    uint warp = gl_SubgroupID;
    uint wm = warp / WARPS_N, wn = warp % WARPS_N;
    uint lane = gl_SubgroupInvocationID;
    uint lanes = gl_SubgroupSize;
#if !defined(CM_EMULATE)
    MAT_C acc[FM * FN];
    [[unroll]] for (uint f = 0u; f < FM * FN; ++f) acc[f] = MAT_C(0.0);
#else
    float acc[FM * FN * EPL];
    [[dont_unroll]] for (uint f = 0u; f < FM * FN * EPL; ++f) acc[f] = 0.0;
#endif

    if (PREFETCH) LOAD_SLICE(0u)
    for (uint c0 = 0u; c0 < Cg; c0 += 16u) {
        if (PREFETCH) {
            STAGE_SLICE(hReg[i], wReg[i])
        } else {
            // Each word stored as it arrives: no register arrays beside the accumulators.
            STAGE_SLICE(HALO_WORD(i, c0), FILTER_WORD(i, c0))
        }
        barrier();
        if (PREFETCH && c0 + 16u < Cg) LOAD_SLICE(c0 + 16u)  // in flight while this slice is multiplied
        // Unrolled (TAPS is a specialization constant): the next tap's fragment loads are
        // scheduled under this tap's products instead of waiting behind them.
#if !defined(CM_EMULATE)
        [[unroll]]
#endif
        for (uint tap = 0u; tap < TAPS; ++tap) {
            uint shift = (tap / FS) * DH * X + (tap % FS) * DW;
            uint aBase = (wm * WM + shift) * LD, bBase = W_BASE + (tap * BN + wn * WN) * LD;
#if !defined(CM_EMULATE)
            MAT_B b[FN];
            [[unroll]] for (uint j = 0u; j < FN; ++j)
                coopMatLoad(b[j], smem, bBase + j * 16u * LD, LD, gl_CooperativeMatrixLayoutColumnMajor);
            [[unroll]] for (uint i = 0u; i < FM; ++i) {
                MAT_A a;
                coopMatLoad(a, smem, aBase + i * 16u * LD, LD, gl_CooperativeMatrixLayoutRowMajor);
                [[unroll]] for (uint j = 0u; j < FN; ++j) acc[i * FN + j] = coopMatMulAdd(a, b[j], acc[i * FN + j]);
            }
#else
            [[dont_unroll]] for (uint f = 0u; f < FM * FN; ++f)
                [[dont_unroll]] for (uint u = 0u; u < EPL; ++u) {
                    uint i = f / FN, j = f % FN, e = lane + u * EMU_LANES, row = e / 16u, col = e % 16u;
                    float sum = acc[f * EPL + u];
                    [[dont_unroll]] for (uint k = 0u; k < 16u; ++k)
                        sum = fma(cmElem(aBase + i * 16u * LD, LD, false, row, k),
                                  cmElem(bBase + j * 16u * LD, LD, true, k, col), sum);
                    acc[f * EPL + u] = sum;
                }
#endif
        }
        barrier();  // every subgroup is done with the slice (the last: the memory becomes the scratch)
    }

    // Epilogue, one accumulator at a time through this subgroup's scratch ([row][filter] fp32).
    uint scratch = warp * 64u;
    [[unroll]] for (uint i = 0u; i < FM; ++i) {
        [[unroll]] for (uint j = 0u; j < FN; ++j) {
#if !defined(CM_EMULATE)
#if defined(DTYPE_F16)
            if (EPI16)
                coopMatStore(MAT_C16(16, 16)(acc[i * FN + j]), smem, scratch, 3u, gl_CooperativeMatrixLayoutRowMajor);
            else
#endif
            if (RUNS)
                coopMatStore(acc[i * FN + j], smem, scratch, 4u, gl_CooperativeMatrixLayoutColumnMajor);
            else
                coopMatStore(acc[i * FN + j], smem, scratch, 4u, gl_CooperativeMatrixLayoutRowMajor);
#else
            [[dont_unroll]] for (uint u = 0u; u < EPL; ++u) {
                uint e = lane + u * EMU_LANES, fi = RUNS ? (e % 16u) * 16u + e / 16u : e;
                float v = acc[(i * FN + j) * EPL + u];
                if (EPI16) {
                    emuHalfScratch(scratch, 3u, 16u, e, v);
                } else {
                    smem[scratch + (fi >> 2)][fi & 3u] = floatBitsToUint(v);
                }
            }
#endif
            subgroupMemoryBarrierShared();
            subgroupBarrier();
            uint fb = f0 + wm * WM + i * 16u, kb = n0 + wn * WN + j * 16u;
            if (RUNS) {
                // NCHW: 8 consecutive flat positions of one filter per item (epilogue_runs.glsl).
                // The run's first output pixels are consecutive up to the strip's (or the
                // image's) last column; positions past it (padding columns, then the next strip
                // row) are stored per value.
                for (uint e = lane; e < 32u; e += lanes) {
                    uint col = e >> 1, kn = kb + col, f = fb + (e & 1u) * 8u;
                    if (kn < Kg) {
                        uint w = scratch + col * 4u + (e & 1u) * 2u;
                        float v[8] = words8(smem[w], smem[w + 1u]);
                        uint k = kBase + kn, p = f / X, x = f % X, q = q0 + x;
                        uint cnt = p < pc.P && x < TQ && q < pc.Q ? min(8u, min(TQ - x, pc.Q - q)) : 0u;
                        uint plane = (n * pc.K + k) * pc.P;
                        if (cnt > 0u) storeRun8(VEC_OUT, (plane + p) * pc.Q + q, cnt, k, v);
                        [[unroll]] for (uint t = 0u; t < 8u; ++t) {
                            uint ft = f + t, pt = ft / X, xt = ft % X, qt = q0 + xt;
                            if (t >= cnt && pt < pc.P && xt < TQ && qt < pc.Q) storeOutput((plane + pt) * pc.Q + qt, k, v[t]);
                        }
                    }
                }
            } else if (EPI16) {
                // Pixel fastest: 8 neighbouring invocations read 8 distinct bank groups.
                for (uint e = lane; e < 16u * OUT_GROUPS; e += lanes) {
                    uint row = e & 15u, grp = e >> 4, kn = kb + grp * OUT_WORD, f = fb + row;
                    uint p = f / X, x = f % X, q = q0 + x;
                    if (p < pc.P && x < TQ && q < pc.Q && kn < Kg)
                        copyFiltersNhwc(OUT_WORD, ((n * pc.P + p) * pc.Q + q) * pc.K + kBase + kn,
                                        smem[scratch + row * 3u + grp * OUT_WORD / 8u], grp % (8u / OUT_WORD));
                }
            } else if (VEC_OUT && OUT_LAYOUT == 1u) {
                // OUT_WORD consecutive filters of one pixel per store (OUT_WORD divides K/groups: a
                // group is wholly inside the group's filters or wholly outside).
                for (uint e = lane; e < 16u * OUT_GROUPS; e += lanes) {
                    uint row = e / OUT_GROUPS, grp = e % OUT_GROUPS, kn = kb + grp * OUT_WORD, f = fb + row;
                    uint p = f / X, x = f % X, q = q0 + x;
                    if (p < pc.P && x < TQ && q < pc.Q && kn < Kg) {
                        uint w = scratch + row * 4u + grp * OUT_WORD / 4u;
                        float v[8] = words8(smem[w], OUT_WORD == 8u ? smem[w + 1u] : uvec4(0u));
                        uint k = kBase + kn;
                        storeFiltersNhwc(OUT_WORD, ((n * pc.P + p) * pc.Q + q) * pc.K + k, k, v, grp * OUT_WORD % 4u);
                    }
                }
            } else {
                // Neighbouring invocations write neighbouring addresses: filters for NHWC,
                // pixels for NCHW.
                for (uint e = lane; e < 256u; e += lanes) {
                    uint row = OUT_LAYOUT == 1u ? e / 16u : e % 16u;
                    uint col = OUT_LAYOUT == 1u ? e % 16u : e / 16u;
                    uint f = fb + row, kn = kb + col;
                    uint p = f / X, x = f % X, q = q0 + x;
                    if (p < pc.P && x < TQ && q < pc.Q && kn < Kg) {
                        uint idx = row * 16u + col, k = kBase + kn;
                        float v = uintBitsToFloat(smem[scratch + (idx >> 2)][idx & 3u]);
                        uint off = OUT_LAYOUT == 0u ? ((n * pc.K + k) * pc.P + p) * pc.Q + q
                                                    : ((n * pc.P + p) * pc.Q + q) * pc.K + k;
                        storeOutput(off, k, v);
                    }
                }
            }
            subgroupBarrier();  // the scratch is rewritten by the next accumulator
        }
    }
}
