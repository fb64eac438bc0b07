#version 460
// "pointwise_coopmat": 1x1, stride-1, unpadded layers with few input channels (C <= 256, C % 8
// == 0), NHWC or NCHW activations (the output in the same layout; a 1x1 filter's KRSC and KCRS
// are one layout), on the matrix units.  Such a layer is a plain GEMM,
// (N*H*W pixels x C) x (C x K), whose time is its output's bytes: MobileNetV2's expansion layers
// write 6x what they read, with one 16-32-deep reduction slice per output.
//
// Streaming.  The general kernel's workgroups each stage one slice, multiply it and store their
// tile between workgroup barriers: on one-slice layers a workgroup is its loads' round trip, then
// its epilogue, one after the other (docs/performance.md, "pointwise_coopmat").  Here a workgroup stages
// its BN filters once, and then each subgroup walks BPS pixel blocks of PB = 16*FM pixels on its
// own, with no workgroup barrier: it stores its block's pixels (16-byte words, zero past C and
// past the last pixel) into its own shared buffer, multiplies, issues the loads of its next
// block, and writes this block's outputs through its scratch while those loads are in flight.
//
// NCHW (spec constant): the block is staged channel-major as it arrives, CP rows of PB pixels
// (PB/8 words, padded to an odd count), and its fragments load column-major; the accumulators go
// to the scratch column-major, so that 8 consecutive pixels of one filter are one 16-byte output
// word (16-byte words need H*W % 8 == 0: the host's VEC bits).
//
// Shared memory: [B: BN filters x LDW words][per subgroup: its block, PB pixels x LDW words, which
// the epilogue reuses as its 16 x 16 fp32 scratch].  Rows hold CP = KS*16 values (8 per 16-byte
// word) and are padded to an odd number of words, so the eight rows one fragment-load phase reads
// fall in distinct bank groups.
#extension GL_GOOGLE_include_directive : require
// Loops over cooperative-matrix arrays unroll fully (a rolled loop demotes them to local memory).
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"
#include "coopmat_common.glsl"  // extensions, CM_T, ELEM_BITS, PACK_OUT, cmElem
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "epilogue.glsl"

layout(set = 0, binding = 0, std430) readonly buffer InputBuf8 { uvec4 x8_[]; };
layout(set = 0, binding = 1, std430) readonly buffer FilterBuf8 { uvec4 w8_[]; };
layout(set = 0, binding = 4, std430) writeonly buffer OutputBuf8 { uvec4 y8_[]; };
#include "epilogue_runs.glsl"  // words8

layout(constant_id = 100) const uint WG_SIZE = 128;  // SGS * LANES
layout(constant_id = 101) const uint FM = 1;         // 16-pixel fragments per block
layout(constant_id = 102) const uint FN = 4;         // 16-filter fragments per workgroup (BN = 16*FN)
layout(constant_id = 103) const uint KS = 1;         // 16-value reduction steps (CP = 16*KS >= C)
layout(constant_id = 104) const uint SGS = 4;        // subgroups per workgroup
layout(constant_id = 105) const uint LANES = 32;     // the subgroup size (full subgroups)
layout(constant_id = 106) const uint BPS = 1;        // pixel blocks per subgroup
// The filter fragments held in registers for the whole workgroup (few of them), instead of
// reloaded from shared memory for every block.
layout(constant_id = 107) const bool B_RESIDENT = false;
// 16-byte views (host: 16-byte aligned offsets): bit 0 input and filter loads, bit 1 output stores.
layout(constant_id = 108) const uint VEC = 0u;
// The fp16 scratch (epilogue_half.glsl; the host's choice), rows of 3 words.
layout(constant_id = 110) const bool EPI16 = false;
// NCHW activations and output (the host leaves EPI16 off there).
layout(constant_id = 111) const bool NCHW = false;
layout(local_size_x_id = 100) in;

const uint PB = 16u * FM, BN = 16u * FN;
const uint CW = 2u * KS;                  // words per staged row
const uint LDW = CW + 1u;                 // ... padded to an odd count
const uint B_WORDS = BN * LDW;
const uint PW = PB / 8u;                  // NCHW: words per staged channel row
const uint LDA = PW + 1u;                 // ... padded to an odd count
const uint A_WORDS = NCHW ? 16u * KS * LDA : PB * LDW;
const uint SCR_WORDS = 64u;               // one 16 x 16 fp32 accumulator
const uint SG_WORDS = A_WORDS > SCR_WORDS ? A_WORDS : SCR_WORDS;  // a subgroup's block, then its scratch
const uint A_PER_L = (PB * CW + LANES - 1u) / LANES;  // block words per invocation (either layout: PB x CP values)
const uint B_PER_T = (BN * CW + WG_SIZE - 1u) / WG_SIZE;
const uint FRAGS = FM * FN;

shared uvec4 smem[B_WORDS + SGS * SG_WORDS];
#include "epilogue_half.glsl"  // EPI16: MAT_C16, emuHalfScratch

#if !defined(CM_EMULATE)
#define MAT_A coopmat<CM_T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>
#define MAT_B coopmat<CM_T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB>
#define MAT_C coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>
#else
const uint EPL = 256u / LANES;  // accumulator elements per invocation
CM_ELEM_FUNCTION
#endif

// Word cw (channels 8cw .. 8cw+7) of row `row` of a C-channel matrix (pixels x C or filters x C),
// zero past C8 words; 16-byte loads where the host made the view aligned.
uvec4 rowWord(bool act, uint row, uint cw, uint C8) {
    if (cw >= C8) return uvec4(0u);
    uint word = row * C8 + cw;
    if ((VEC & 1u) != 0u) return act ? x8_[word] : w8_[word];
    uvec4 v = uvec4(0u);
    [[unroll]] for (uint u = 0u; u < 8u; ++u) {
        uint bits = act ? ELEM_BITS(x_[word * 8u + u]) : ELEM_BITS(w_[word * 8u + u]);
        v[u >> 1] |= bits << (16u * (u & 1u));
    }
    return v;
}

// NCHW: the 8 pixels m0 .. m0+7 of channel c (one 16-byte word where the host made H*W % 8 == 0
// and the views aligned), zero past C and past the last pixel.
uvec4 channelWord(uint m0, uint c, uint M, uint HW) {
    if (c >= pc.C) return uvec4(0u);
    if ((VEC & 1u) != 0u) return m0 < M ? x8_[((m0 / HW * pc.C + c) * HW + m0 % HW) >> 3] : uvec4(0u);
    uvec4 v = uvec4(0u);
    [[unroll]] for (uint u = 0u; u < 8u; ++u) {
        uint m = m0 + u;
        if (m < M) v[u >> 1] |= ELEM_BITS(x_[(m / HW * pc.C + c) * HW + m % HW]) << (16u * (u & 1u));
    }
    return v;
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint HW = pc.P * pc.Q, M = pc.N * HW, K = pc.K, C8 = pc.C / 8u;
    uint n0 = gl_WorkGroupID.y * BN;

    // The workgroup's filters, once: [filter][CP values], zero past K and past C.
    {
        uvec4 v[B_PER_T];
        [[unroll]] for (uint u = 0u; u < B_PER_T; ++u) {
            uint e = tid + u * WG_SIZE, f = e / CW, cw = e % CW;
            v[u] = e < BN * CW && n0 + f < K ? rowWord(false, n0 + f, cw, C8) : uvec4(0u);
        }
        [[unroll]] for (uint u = 0u; u < B_PER_T; ++u) {
            uint e = tid + u * WG_SIZE;
            if (e < BN * CW) smem[(e / CW) * LDW + e % CW] = v[u];
        }
    }
    barrier();  // the last workgroup barrier: from here on every subgroup runs on its own

    uint sg = gl_SubgroupID, lane = gl_SubgroupInvocationID;
    uint aBuf = B_WORDS + sg * SG_WORDS, scratch = aBuf;
    uint blocks = (M + PB - 1u) / PB;
    // Block t of this subgroup: the workgroup's blocks interleaved over its subgroups, so that
    // neighbouring subgroups stream neighbouring pixels at the same time.
    uint first = gl_WorkGroupID.x * (SGS * BPS) + sg;

#if !defined(CM_EMULATE)
    MAT_B bR[KS * FN];
    if (B_RESIDENT)
        [[unroll]] for (uint s = 0u; s < KS; ++s)
            [[unroll]] for (uint j = 0u; j < FN; ++j)
                coopMatLoad(bR[s * FN + j], smem, (j * 16u) * LDW + s * 2u, LDW, gl_CooperativeMatrixLayoutColumnMajor);
#endif

    uvec4 pre[A_PER_L];  // the next block's words, in flight
#define LOAD_BLOCK(blk)                                                                         \
    [[unroll]] for (uint u = 0u; u < A_PER_L; ++u) {                                            \
        uint e = lane + u * LANES, m = (blk) * PB + (NCHW ? (e % PW) * 8u : e / CW);            \
        if (NCHW) pre[u] = e < PB * CW ? channelWord(m, e / PW, M, HW) : uvec4(0u);             \
        else pre[u] = e < PB * CW && m < M ? rowWord(true, m, e % CW, C8) : uvec4(0u);          \
    }
    LOAD_BLOCK(first)

    // Blocks past the last pixel run as empty ones (zero loads, no stores) instead of ending the
    // subgroup early: lavapipe computed NaNs in a subgroup whose workgroup neighbour had left
    // (every subgroup still runs the same number of subgroup barriers).
    uint steps = min(BPS, (blocks - gl_WorkGroupID.x * (SGS * BPS) + SGS - 1u) / SGS);  // subgroup 0's blocks
    for (uint t = 0u; t < steps; ++t) {
        uint blk = first + t * SGS;
        [[unroll]] for (uint u = 0u; u < A_PER_L; ++u) {
            uint e = lane + u * LANES;
            if (e < PB * CW) smem[aBuf + (NCHW ? (e / PW) * LDA + e % PW : (e / CW) * LDW + e % CW)] = pre[u];
        }
        subgroupMemoryBarrierShared();
        subgroupBarrier();

#if !defined(CM_EMULATE)
        MAT_C acc[FRAGS];
        [[unroll]] for (uint f = 0u; f < FRAGS; ++f) acc[f] = MAT_C(0.0);
        [[unroll]] for (uint s = 0u; s < KS; ++s) {
            MAT_A a[FM];
            [[unroll]] for (uint i = 0u; i < FM; ++i) {
                if (NCHW) coopMatLoad(a[i], smem, aBuf + s * 16u * LDA + i * 2u, LDA, gl_CooperativeMatrixLayoutColumnMajor);
                else coopMatLoad(a[i], smem, aBuf + i * 16u * LDW + s * 2u, LDW, gl_CooperativeMatrixLayoutRowMajor);
            }
            [[unroll]] for (uint j = 0u; j < FN; ++j) {
                MAT_B b;
                if (B_RESIDENT) b = bR[s * FN + j];
                else coopMatLoad(b, smem, (j * 16u) * LDW + s * 2u, LDW, gl_CooperativeMatrixLayoutColumnMajor);
                [[unroll]] for (uint i = 0u; i < FM; ++i) acc[i * FN + j] = coopMatMulAdd(a[i], b, acc[i * FN + j]);
            }
        }
#else
        float acc[FRAGS * EPL];
        [[dont_unroll]] for (uint f = 0u; f < FRAGS * EPL; ++f) acc[f] = 0.0;
        [[dont_unroll]] for (uint s = 0u; s < KS; ++s)
            [[dont_unroll]] for (uint f = 0u; f < FRAGS; ++f)
                [[dont_unroll]] for (uint u = 0u; u < EPL; ++u) {
                    uint i = f / FN, j = f % FN, e = lane + u * LANES, row = e / 16u, col = e % 16u;
                    float sum = acc[f * EPL + u];
                    [[dont_unroll]] for (uint k = 0u; k < 16u; ++k)
                        sum = fma(NCHW ? cmElem(aBuf + s * 16u * LDA + i * 2u, LDA, true, row, k)
                                       : cmElem(aBuf + i * 16u * LDW + s * 2u, LDW, false, row, k),
                                  cmElem((j * 16u) * LDW + s * 2u, LDW, true, k, col), sum);
                    acc[f * EPL + u] = sum;
                }
#endif
        // The next block's loads go out before this block's stores.
        if (t + 1u < steps) LOAD_BLOCK(blk + SGS)

        subgroupBarrier();  // every invocation is done reading the block: its memory becomes the scratch

        // Epilogue, one 16 x 16 accumulator at a time through the scratch (fp32, row-major:
        // [pixel][filter]; NCHW column-major: [filter][pixel]).
        [[unroll]] for (uint i = 0u; i < FM; ++i) {
            [[unroll]] for (uint j = 0u; j < FN; ++j) {
#if !defined(CM_EMULATE)
#if defined(DTYPE_F16)
                // 48 of the scratch's 64 words.
                if (EPI16) coopMatStore(MAT_C16(16, 16)(acc[i * FN + j]), smem, scratch, 3u, gl_CooperativeMatrixLayoutRowMajor);
                else
#endif
                if (NCHW) coopMatStore(acc[i * FN + j], smem, scratch, 4u, gl_CooperativeMatrixLayoutColumnMajor);
                else coopMatStore(acc[i * FN + j], smem, scratch, 4u, gl_CooperativeMatrixLayoutRowMajor);
#else
                [[dont_unroll]] for (uint u = 0u; u < EPL; ++u) {
                    uint e = lane + u * LANES;
                    float v = acc[(i * FN + j) * EPL + u];
                    if (EPI16) {
                        emuHalfScratch(scratch, 3u, 16u, e, v);
                    } else {
                        uint x = NCHW ? (e % 16u) * 16u + e / 16u : e;
                        smem[scratch + (x >> 2)][x & 3u] = floatBitsToUint(v);
                    }
                }
#endif
                subgroupMemoryBarrierShared();
                subgroupBarrier();
                uint mb = blk * PB + i * 16u, kb = n0 + j * 16u;
                if (NCHW) {
                    // 8 consecutive pixels of one filter per 16-byte word (H*W % 8 == 0: a word
                    // is wholly inside one image's pixels or wholly past the last); element-wise
                    // otherwise.
                    if ((VEC & 2u) != 0u) {
                        for (uint e = lane; e < 32u; e += LANES) {
                            uint col = e >> 1, m = mb + (e & 1u) * 8u, k = kb + col;
                            if (m < M && k < K) {
                                uint w = scratch + col * 4u + (e & 1u) * 2u, off = (m / HW * K + k) * HW + m % HW;
                                float v[8] = words8(smem[w], smem[w + 1u]);
                                [[unroll]] for (uint q = 0u; q < 8u; ++q) v[q] = epilogueValue(v[q], k, off + q);
                                y8_[off >> 3] = uvec4(PACK_OUT(v[0], v[1]), PACK_OUT(v[2], v[3]), PACK_OUT(v[4], v[5]),
                                                      PACK_OUT(v[6], v[7]));
                            }
                        }
                    } else {
                        for (uint e = lane; e < 256u; e += LANES) {
                            uint m = mb + e % 16u, k = kb + e / 16u;
                            if (m < M && k < K)
                                storeOutput((m / HW * K + k) * HW + m % HW, k, uintBitsToFloat(smem[scratch + (e >> 2)][e & 3u]));
                        }
                    }
                } else if (EPI16) {
                    // Pixel fastest: 8 neighbouring invocations read 8 distinct bank groups.
                    for (uint e = lane; e < 32u; e += LANES) {
                        uint row = e & 15u, m = mb + row, k = kb + (e >> 4) * 8u;
                        if (m < M && k < K) y8_[(m * K + k) >> 3] = smem[scratch + row * 3u + (e >> 4)];
                    }
                } else if ((VEC & 2u) != 0u) {
                    for (uint e = lane; e < 32u; e += LANES) {
                        uint row = e >> 1, m = mb + row, k = kb + (e & 1u) * 8u;
                        if (m < M && k < K) {
                            uint w = scratch + row * 4u + (e & 1u) * 2u, off = m * K + k;
                            float v[8] = words8(smem[w], smem[w + 1u]);
                            [[unroll]] for (uint q = 0u; q < 8u; ++q) v[q] = epilogueValue(v[q], k + q, off + q);
                            y8_[off >> 3] = uvec4(PACK_OUT(v[0], v[1]), PACK_OUT(v[2], v[3]), PACK_OUT(v[4], v[5]),
                                                  PACK_OUT(v[6], v[7]));
                        }
                    }
                } else {
                    for (uint e = lane; e < 256u; e += LANES) {
                        uint m = mb + e / 16u, k = kb + e % 16u;
                        if (m < M && k < K) storeOutput(m * K + k, k, uintBitsToFloat(smem[scratch + (e >> 2)][e & 3u]));
                    }
                }
                subgroupBarrier();  // the scratch is rewritten by the next accumulator
            }
        }
    }
}
