#version 460
// "grouped_coopmat": grouped convolutions of few channels per group on the matrix units, 16-bit
// operands, fp32 accumulation.  implicit_gemm_coopmat runs one group per tile, so a group of 4
// channels and 4 filters fills a quarter of a 16-deep slice and 4 of a 16-wide filter block.
//
// Block-diagonal GEMM.  A workgroup covers GT consecutive groups: its reduction runs over their
// CT = GT*CG contiguous channels (zero-padded to NCH 16-value chunks) times the taps, its filter
// columns are their FT = GT*KG consecutive filters (BN of them per workgroup), and the staged B
// is zero wherever a filter's group differs from the channel's.  The matrix units do GT x the
// useful products, but every input load is a contiguous run of CT channels of one pixel and every
// output a run of BN consecutive filters.
//
// Input halo.  A step covers TP output rows x TQ = SGQ*MQ*16 output columns of one image; shared
// memory holds the input rows and columns they read, [row][column][CSTR words] with the group
// chunk's channels in the first CW = 2*NCH words of each pixel (CSTR = CW rounded up to an odd
// number, so that 8 pixels' 16-byte words fall in distinct bank groups).  The 16 x 16 A fragment
// of tap (r, s), chunk ch and 16 consecutive output columns of one row is then a plain row-major
// coopMatLoad at the tap-shifted pixel with a stride of SW*CSTR words: every tap reads the one
// staged halo, and padding is applied once, when it is staged.
//
// B: [tap][chunk][filter][16 values + 8 padding] (column-major B, BSTR words per column, distinct
// banks), BTAPS taps at a time: all of them once per workgroup where they fit (B_ONCE), else
// restaged per tap run at each step.  BREG (the host's choice where the fragments are few, B_ONCE):
// each subgroup loads its fragments into registers once, so the products read only A from shared
// memory.
//
// Workgroup: TP x SGQ x SGN subgroups, each owning one output row of the step, MQ column blocks and
// NQ filter blocks (MQ x NQ accumulators); PSTEP row steps share the filter staging.  Epilogue
// through a per-subgroup fp32 scratch (the halo's memory, reused): NHWC output 8 filters per
// 16-byte store (VEC_OUT) or element-wise, NCHW output in runs of 8 columns (epilogue_runs.glsl).
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
layout(set = 0, binding = 4, std430) writeonly buffer OutputBuf8 { uvec4 y8_[]; };
#include "epilogue_runs.glsl"  // words8, storeRun8: NCHW output runs

layout(constant_id = 100) const uint WG_SIZE = 256;  // TP * SGQ * SGN * subgroup size
layout(constant_id = 101) const uint TP = 8;         // output rows per step (one subgroup row each)
layout(constant_id = 102) const uint MQ = 2;         // 16-column fragments per subgroup
layout(constant_id = 103) const uint NQ = 1;         // 16-filter fragments per subgroup
layout(constant_id = 104) const uint SGQ = 1;        // subgroups across the step's columns
layout(constant_id = 105) const uint SGN = 1;        // subgroups across its filters
layout(constant_id = 106) const uint CG = 4;         // C / groups
layout(constant_id = 107) const uint KG = 4;         // K / groups
layout(constant_id = 108) const uint GT = 4;         // groups per workgroup tile
layout(constant_id = 109) const uint FR = 3;         // filter rows, columns
layout(constant_id = 110) const uint FS = 3;
layout(constant_id = 111) const uint SH = 1;         // strides and dilations
layout(constant_id = 112) const uint SW = 1;
layout(constant_id = 113) const uint DH = 1;
layout(constant_id = 114) const uint DW = 1;
layout(constant_id = 115) const uint PSTEP = 1;      // row steps per workgroup
// NHWC input on a 16-byte aligned view with C and CT multiples of 8: a staged word is one
// pixel's 8 channels, one 16-byte load (the host's choice).
layout(constant_id = 116) const bool VEC_IN = false;
// 16-byte aligned output view: NHWC 8 filters per store (FT and K multiples of 8), NCHW wide runs.
layout(constant_id = 117) const bool VEC_OUT = false;
layout(constant_id = 118) const uint EMU_LANES = 32;  // CM_EMULATE: the subgroup size
layout(constant_id = 119) const bool BREG = false;    // B in registers (file comment)
layout(constant_id = 120) const uint BTAPS = 9;       // taps whose B is staged at once
layout(local_size_x_id = 100) in;

const uint TQ = SGQ * MQ * 16u, BN = SGN * NQ * 16u;
const uint CT = GT * CG, FT = GT * KG;        // channels and filters of a group chunk
const uint NCH = (CT + 15u) / 16u;            // 16-value chunks per tap
const uint CW = NCH * 2u;                     // words of channels per staged pixel
const uint CSTR = CW | 1u;                    // pixel stride in words: odd
const uint HR = (TP - 1u) * SH + (FR - 1u) * DH + 1u;  // staged input rows
const uint HX = (TQ - 1u) * SW + (FS - 1u) * DW + 1u;  // staged input columns
const uint HALO_ITEMS = HR * HX * CW;
const uint HALO_WORDS = HR * HX * CSTR;
const uint TAPS = FR * FS;
const bool B_ONCE = BTAPS >= TAPS;
const uint BSTR = 3u;                         // words per filter per chunk: 16 values + 8 padding
const uint B_WORDS = BTAPS * NCH * BN * BSTR;
const uint NSG = TP * SGQ * SGN;
const uint SCR_WORDS = NSG * 64u;             // one 16 x 16 fp32 accumulator per subgroup
const uint R_WORDS = HALO_WORDS > SCR_WORDS ? HALO_WORDS : SCR_WORDS;
const uint B_OFF = R_WORDS;
const uint FRAGS = MQ * NQ;
#if defined(CM_EMULATE)
const uint BFRAGS = 1u;
#else
const uint BFRAGS = BREG ? TAPS * NCH * NQ : 1u;  // B fragments held per subgroup
#endif
// Staged words per invocation: all of them in flight before their stores where they are few (up
// to MAX_FLIGHT), else rounds of 4.
const uint STAGE_PER_T = (HALO_ITEMS + WG_SIZE - 1u) / WG_SIZE;
const uint MAX_FLIGHT = 12u;
const uint FLIGHT = STAGE_PER_T <= MAX_FLIGHT ? STAGE_PER_T : 4u;

shared uvec4 smem[R_WORDS + B_WORDS];  // [halo | epilogue scratch][B]

#if !defined(CM_EMULATE)
#define MAT_A coopmat<CM_T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>
#define MAT_B coopmat<CM_T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB>
#define MAT_C coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>
#else
const uint EPL = 256u / EMU_LANES;  // accumulator elements per invocation
CM_ELEM_FUNCTION
#endif

// Filter word h (values 8h .. 8h+7 of chunk ch) of tap t for column f of the workgroup's filters:
// zero where the channel's group is not the filter's (block-diagonal), past the chunk's channels
// or past the filters.  Only the loads of the filter's own group issue.
uvec4 filterWord(uint t, uint ch, uint h, uint f, uint n0, uint kBase) {
    uint fl = n0 + f, k = kBase + fl, gf = fl / KG;
    bool fok = fl < FT && k < pc.K;
    uint r = t / FS, s = t % FS;
    uvec4 v = uvec4(0u);
    [[unroll]] for (uint u = 0u; u < 8u; ++u) {
        uint cl = ch * 16u + h * 8u + u;
        bool ok = fok && cl < CT && cl / CG == gf;
        uint off = filterOffset(FILTER_LAYOUT, k, cl % CG, r, s, CG, FR, FS);
        uint bits = ok ? ELEM_BITS(w_[off]) : 0u;
        v[u >> 1] |= bits << (16u * (u & 1u));
    }
    return v;
}

// Stages B for taps [t0, t0 + BTAPS): neighbouring invocations build the two words of one filter's
// chunk.
void stageFilters(uint t0, uint n0, uint kBase, uint tid) {
    const uint ITEMS = BTAPS * NCH * BN * 2u;
    for (uint b0 = 0u; b0 < ITEMS; b0 += 2u * WG_SIZE) {
        uvec4 v[2];
        [[unroll]] for (uint u = 0u; u < 2u; ++u) {
            uint e = b0 + u * WG_SIZE + tid, col = e >> 1, f = col % BN, tc = col / BN;
            uint t = t0 + tc / NCH;
            v[u] = e < ITEMS && t < TAPS ? filterWord(t, tc % NCH, e & 1u, f, n0, kBase) : uvec4(0u);
        }
        [[unroll]] for (uint u = 0u; u < 2u; ++u) {
            uint e = b0 + u * WG_SIZE + tid;
            if (e < ITEMS) smem[B_OFF + (e >> 1) * BSTR + (e & 1u)] = v[u];
        }
    }
}

// Halo word e = (row hr, column x, word wd) of the step whose first output row is p0: channels
// cBase + 8 wd .. of input pixel (hr + p0*SH - padT, x + iw0); zero outside the input, past the
// chunk's channels and past C.
uvec4 haloWord(uint e, uint n, uint cBase, uint p0, int iw0) {
    uvec4 v = uvec4(0u);
    if (e >= HALO_ITEMS) return v;
    uint wd = e % CW, x = (e / CW) % HX, hr = e / (CW * HX);
    int ih = int(p0 * SH + hr) - int(pc.padT), iw = iw0 + int(x);
    bool pixOk = ih >= 0 && ih < int(pc.H) && iw >= 0 && iw < int(pc.W);
    uint c0 = cBase + wd * 8u;
    if (VEC_IN) {
        // C and CT multiples of 8: the word is wholly inside the chunk and the input, or wholly out.
        if (!pixOk || wd * 8u >= CT || c0 >= pc.C) return v;
        return x8_[activationOffset(1u, n, c0, uint(ih), uint(iw), pc.C, pc.H, pc.W) >> 3];
    }
    [[unroll]] for (uint u = 0u; u < 8u; ++u) {
        bool ok = pixOk && wd * 8u + u < CT && c0 + u < pc.C;
        uint off = activationOffset(IN_LAYOUT, n, c0 + u, uint(max(ih, 0)), uint(max(iw, 0)), pc.C, pc.H, pc.W);
        uint bits = ok ? ELEM_BITS(x_[off]) : 0u;
        v[u >> 1] |= bits << (16u * (u & 1u));
    }
    return v;
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint rowsPerWg = TP * PSTEP;
    uint tilesQ = (pc.Q + TQ - 1u) / TQ, tilesP = (pc.P + rowsPerWg - 1u) / rowsPerWg;
    uint tilesN = (FT + BN - 1u) / BN;
    uint tq = gl_WorkGroupID.x % tilesQ, t = gl_WorkGroupID.x / tilesQ;
    uint tp = t % tilesP, n = t / tilesP;
    uint gc = gl_WorkGroupID.y / tilesN, n0 = (gl_WorkGroupID.y % tilesN) * BN;
    uint cBase = gc * CT, kBase = gc * FT;
    uint q0 = tq * TQ;
    int iw0 = int(q0 * SW) - int(pc.padL);

    uint sg = gl_SubgroupID;
    uint wn = sg % SGN, wq = (sg / SGN) % SGQ, wr = sg / (SGN * SGQ);
    uint lane = gl_SubgroupInvocationID;
    uint lanes = gl_SubgroupSize;
    uint aBase = (wr * SH * HX + wq * MQ * 16u * SW) * CSTR;  // this subgroup's first pixel at tap (0, 0)
    uint bCol = wn * NQ * 16u;                                 // its first filter column
    uint scratch = sg * 64u;

    if (B_ONCE) stageFilters(0u, n0, kBase, tid);
#if !defined(CM_EMULATE)
    MAT_B breg[BFRAGS];
    if (BREG) {
        barrier();  // the staged filters are visible
        [[unroll]] for (uint tc = 0u; tc < TAPS * NCH; ++tc)
            [[unroll]] for (uint i = 0u; i < NQ; ++i)
                coopMatLoad(breg[tc * NQ + i], smem, B_OFF + (tc * BN + bCol + i * 16u) * BSTR, BSTR,
                            gl_CooperativeMatrixLayoutColumnMajor);
    }
#endif

    for (uint ps = 0u; ps < PSTEP; ++ps) {
        uint p0 = tp * rowsPerWg + ps * TP;
        if (p0 >= pc.P) break;   // the image's last rows (uniform: the workgroup's rows)
        if (ps > 0u) barrier();  // the previous step's scratch (the halo's memory) is read
        for (uint b0 = 0u; b0 < HALO_ITEMS; b0 += FLIGHT * WG_SIZE) {
            uvec4 v[FLIGHT];
            [[unroll]] for (uint u = 0u; u < FLIGHT; ++u) v[u] = haloWord(b0 + u * WG_SIZE + tid, n, cBase, p0, iw0);
            [[unroll]] for (uint u = 0u; u < FLIGHT; ++u) {
                uint e = b0 + u * WG_SIZE + tid;
                if (e < HALO_ITEMS) smem[(e / CW) * CSTR + e % CW] = v[u];
            }
        }
        barrier();

#if !defined(CM_EMULATE)
        MAT_C acc[FRAGS];
        [[unroll]] for (uint f = 0u; f < FRAGS; ++f) acc[f] = MAT_C(0.0);
        if (BREG) {
            // Constant fragment indices: the tap and chunk loops unrolled.
            [[unroll]] for (uint tap = 0u; tap < TAPS; ++tap) {
                uint a0 = aBase + ((tap / FS) * DH * HX + (tap % FS) * DW) * CSTR;
                [[unroll]] for (uint ch = 0u; ch < NCH; ++ch)
                    [[unroll]] for (uint j = 0u; j < MQ; ++j) {
                        MAT_A a;
                        coopMatLoad(a, smem, a0 + j * 16u * SW * CSTR + ch * 2u, SW * CSTR, gl_CooperativeMatrixLayoutRowMajor);
                        [[unroll]] for (uint i = 0u; i < NQ; ++i)
                            acc[j * NQ + i] = coopMatMulAdd(a, breg[(tap * NCH + ch) * NQ + i], acc[j * NQ + i]);
                    }
            }
        } else {
            for (uint t0 = 0u; t0 < TAPS; t0 += BTAPS) {
                if (!B_ONCE) {
                    barrier();  // every subgroup is done with the previous taps' filters
                    stageFilters(t0, n0, kBase, tid);
                    barrier();
                }
                uint tn = min(BTAPS, TAPS - t0);
                for (uint tc = 0u; tc < tn * NCH; ++tc) {
                    uint tap = t0 + tc / NCH, ch = tc % NCH;
                    uint a0 = aBase + ((tap / FS) * DH * HX + (tap % FS) * DW) * CSTR + ch * 2u;
                    MAT_B b[NQ];
                    [[unroll]] for (uint i = 0u; i < NQ; ++i)
                        coopMatLoad(b[i], smem, B_OFF + (tc * BN + bCol + i * 16u) * BSTR, BSTR,
                                    gl_CooperativeMatrixLayoutColumnMajor);
                    [[unroll]] for (uint j = 0u; j < MQ; ++j) {
                        MAT_A a;
                        coopMatLoad(a, smem, a0 + j * 16u * SW * CSTR, SW * CSTR, gl_CooperativeMatrixLayoutRowMajor);
                        [[unroll]] for (uint i = 0u; i < NQ; ++i) acc[j * NQ + i] = coopMatMulAdd(a, b[i], acc[j * NQ + i]);
                    }
                }
            }
        }
#else
        float acc[FRAGS * EPL];
        [[dont_unroll]] for (uint f = 0u; f < FRAGS * EPL; ++f) acc[f] = 0.0;
        [[dont_unroll]] for (uint t0 = 0u; t0 < TAPS; t0 += BTAPS) {
            if (!B_ONCE) {
                barrier();
                stageFilters(t0, n0, kBase, tid);
                barrier();
            }
            uint tn = min(BTAPS, TAPS - t0);
            [[dont_unroll]] for (uint tc = 0u; tc < tn * NCH; ++tc) {
                uint tap = t0 + tc / NCH, ch = tc % NCH;
                uint a0 = aBase + ((tap / FS) * DH * HX + (tap % FS) * DW) * CSTR + ch * 2u;
                [[dont_unroll]] for (uint f = 0u; f < FRAGS; ++f)
                    [[dont_unroll]] for (uint u = 0u; u < EPL; ++u) {
                        uint j = f / NQ, i = f % NQ, e = lane + u * EMU_LANES, row = e / 16u, col = e % 16u;
                        uint aOff = a0 + j * 16u * SW * CSTR;
                        uint bOff = B_OFF + (tc * BN + bCol + i * 16u) * BSTR;
                        float sum = acc[f * EPL + u];
                        [[dont_unroll]] for (uint k = 0u; k < 16u; ++k)
                            sum = fma(cmElem(aOff, SW * CSTR, false, row, k), cmElem(bOff, BSTR, true, k, col), sum);
                        acc[f * EPL + u] = sum;
                    }
            }
        }
#endif
        barrier();  // every subgroup is done with the halo: its memory becomes the scratch

        // Epilogue, one accumulator at a time through this subgroup's scratch: [pixel][filter]
        // fp32 for NHWC outputs, [filter][pixel] for NCHW ones.
        uint p = p0 + wr;
        [[unroll]] for (uint j = 0u; j < MQ; ++j) {
            [[unroll]] for (uint i = 0u; i < NQ; ++i) {
#if !defined(CM_EMULATE)
                if (OUT_LAYOUT == 0u)
                    coopMatStore(acc[j * NQ + i], smem, scratch, 4u, gl_CooperativeMatrixLayoutColumnMajor);
                else
                    coopMatStore(acc[j * NQ + i], smem, scratch, 4u, gl_CooperativeMatrixLayoutRowMajor);
#else
                [[dont_unroll]] for (uint u = 0u; u < EPL; ++u) {
                    uint e = lane + u * EMU_LANES, fi = OUT_LAYOUT == 0u ? (e % 16u) * 16u + e / 16u : e;
                    smem[scratch + (fi >> 2)][fi & 3u] = floatBitsToUint(acc[(j * NQ + i) * EPL + u]);
                }
#endif
                subgroupMemoryBarrierShared();
                subgroupBarrier();
                uint qb = q0 + (wq * MQ + j) * 16u, fb = n0 + bCol + i * 16u;
                if (p < pc.P) {
                    if (OUT_LAYOUT == 0u) {
                        // NCHW: 8 consecutive columns of one filter per item (epilogue_runs.glsl).
                        for (uint e = lane; e < 32u; e += lanes) {
                            uint col = e >> 1, fl = fb + col, q = qb + (e & 1u) * 8u, k = kBase + fl;
                            if (q < pc.Q && fl < FT && k < pc.K) {
                                uint w = scratch + col * 4u + (e & 1u) * 2u;
                                float v[8] = words8(smem[w], smem[w + 1u]);
                                storeRun8(VEC_OUT, ((n * pc.K + k) * pc.P + p) * pc.Q + q, min(8u, pc.Q - q), k, v);
                            }
                        }
                    } else if (VEC_OUT) {
                        // 8 consecutive filters of one pixel per store (FT and K multiples of 8: a run
                        // is wholly inside the chunk's filters or wholly outside).
                        for (uint e = lane; e < 32u; e += lanes) {
                            uint row = e >> 1, fl = fb + (e & 1u) * 8u, q = qb + row, k = kBase + fl;
                            if (q < pc.Q && fl < FT && k < pc.K) {
                                uint w = scratch + row * 4u + (e & 1u) * 2u;
                                float v[8] = words8(smem[w], smem[w + 1u]);
                                uint off = ((n * pc.P + p) * pc.Q + q) * pc.K + k;
                                [[unroll]] for (uint u = 0u; u < 8u; ++u) v[u] = epilogueValue(v[u], k + u, off + u);
                                y8_[off >> 3] = uvec4(PACK_OUT(v[0], v[1]), PACK_OUT(v[2], v[3]), PACK_OUT(v[4], v[5]),
                                                      PACK_OUT(v[6], v[7]));
                            }
                        }
                    } else {
                        // Neighbouring invocations on neighbouring filters of one pixel.
                        for (uint e = lane; e < 256u; e += lanes) {
                            uint row = e / 16u, col = e % 16u, q = qb + row, fl = fb + col, k = kBase + fl;
                            if (q < pc.Q && fl < FT && k < pc.K) {
                                float v = uintBitsToFloat(smem[scratch + (e >> 2)][e & 3u]);
                                storeOutput(((n * pc.P + p) * pc.Q + q) * pc.K + k, k, v);
                            }
                        }
                    }
                }
                subgroupBarrier();  // the scratch is rewritten by the next accumulator
            }
        }
    }
}
