#version 460
// "few_channels_coopmat": first layers (C/groups <= 8) on the matrix units, 16-bit operands, fp32
// accumulation.  The channel-slice implicit GEMM (implicit_gemm_coopmat.comp) needs C/groups to
// fill a 16-deep slice; here the whole reduction of one output pixel is made contiguous instead.
//
// Column-expanded halo.  For each output row p of the step, shared memory holds the input columns
// x its filter rows see, one column per CPR values: [x][r][c] (r < FR, c < CG, zero-padded from
// FR*CG up to CPR, a multiple of 8).  Output column q's receptive field is then the FS*CPR values
// starting at column q*SW: one contiguous window, and neighbouring pixels' windows are SW*CPR
// values apart.  So a 16 x 16 A fragment (16 pixels x 16 window values) is a plain row-major
// coopMatLoad with stride SW*CPR: no im2col, no per-element gather; padding is applied once, when
// the halo is staged (zeros outside the input).
//
// Windows are cut into 16-value chunks; the last chunk starts at FS*CPR - 16 (overlapping the one
// before) so that no fragment reads past a window, and the filter rows it shares with the previous
// chunk are zero in B.  B (16 window values x 16 filters per fragment) is staged once per
// workgroup in the same order, [chunk][filter][16 values] (column-major B, rows padded by 8 values
// so that its fragment loads hit distinct banks), zero where the window holds channel padding.
//
// Workgroup: TP output rows x TQ = SGQ*MQ*16 columns x BN = SGN*NQ*16 filters; one subgroup per
// (row, column block, filter block) owns MQ x NQ accumulators.  The filters are staged once and
// serve PSTEP row steps; each step stages its halo, multiplies with no barrier, and writes its
// outputs through a per-subgroup scratch (the halo's memory, reused) in the output layout (NCHW:
// runs of 8 columns of one filter, epilogue_runs.glsl).
//
// BREG (the host's choice where the fragments are few): each subgroup loads its NQ x NCHUNK B
// fragments into registers once, after the staging, so a step's products read only A from shared
// memory (on NVIDIA the fragment loads and the staging share one pipe, and B's were half of a
// step's loads), and B is staged in the halo's memory, which it leaves before the first halo.
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

layout(constant_id = 100) const uint WG_SIZE = 128;  // TP * SGQ * SGN * subgroup size
layout(constant_id = 101) const uint TP = 4;         // output rows per step (one subgroup row each)
layout(constant_id = 102) const uint MQ = 4;         // 16-pixel fragments per subgroup
layout(constant_id = 103) const uint NQ = 4;         // 16-filter fragments per subgroup
layout(constant_id = 104) const uint SGQ = 1;        // subgroups across the tile's columns
layout(constant_id = 105) const uint SGN = 1;        // subgroups across its filters
layout(constant_id = 106) const uint CG = 3;         // C / groups
layout(constant_id = 107) const uint FR = 3;         // filter rows, columns
layout(constant_id = 108) const uint FS = 3;
layout(constant_id = 109) const uint SH = 1;         // strides; the row dilation (columns: 1)
layout(constant_id = 110) const uint SW = 1;
layout(constant_id = 111) const uint DH = 1;
layout(constant_id = 112) const uint CPR = 16;       // values per staged column: >= FR*CG, multiple of 8
layout(constant_id = 113) const uint PSTEP = 1;      // row steps per workgroup
layout(constant_id = 114) const bool VEC_OUT = false;  // 16-byte aligned output view: wide stores (NHWC: K/groups % 8 == 0)
layout(constant_id = 115) const uint EMU_LANES = 32;   // CM_EMULATE: the subgroup size
// Row steps: the next step's halo loads are issued before this step's products and stored after
// its epilogue, so their latency hides behind the matrix work (the host enables it when the
// registers they take are few).
layout(constant_id = 116) const bool PREFETCH = false;
// CG == 8 makes a staged word (8 values) one (r, s) tap's channels: one 16-byte load instead of
// eight element loads.  Bit 0: the halo's (NHWC input); bit 1: the filters' (KRSC).  The host
// sets them only where the views are 16-byte aligned.
layout(constant_id = 117) const uint VEC_IN = 0u;
layout(constant_id = 120) const bool BREG = false;  // B in registers (file comment)
layout(local_size_x_id = 100) in;

const uint TQ = SGQ * MQ * 16u, BN = SGN * NQ * 16u;
const uint CW = CPR / 8u;                   // words per staged column
const uint X = (TQ - 1u) * SW + FS;         // staged columns per row
const uint XW = X * CW;                     // words per staged row
const uint HALO_WORDS = TP * XW;
const uint WIN = FS * CPR;                  // one pixel's window (host: >= 16)
const uint NCHUNK = (WIN + 15u) / 16u;
const uint LAST = WIN - 16u;                // the last chunk's start
const uint OWN = (NCHUNK - 1u) * 16u;       // window values the last chunk adds (from here on)
const uint BSTR = 3u;                       // words per filter per chunk: 16 values + 8 padding
const uint B_WORDS = NCHUNK * BN * BSTR;
const uint NSG = TP * SGQ * SGN;
const uint SCR_WORDS = NSG * 64u;           // one 16 x 16 fp32 accumulator per subgroup
const uint R_WORDS = HALO_WORDS > SCR_WORDS ? HALO_WORDS : SCR_WORDS;
// B's offset and the shared words: with BREG, B is staged where the halo goes.  The emulated builds
// read B from shared memory at every product, so they keep it apart.
#if defined(CM_EMULATE)
const uint B_OFF = R_WORDS;
#else
const uint B_OFF = BREG ? 0u : R_WORDS;
#endif
const uint SMEM_WORDS = B_OFF + B_WORDS > R_WORDS ? B_OFF + B_WORDS : R_WORDS;
const uint BFRAGS = BREG ? NCHUNK * NQ : 1u;  // B fragments held per subgroup
const uint FRAGS = MQ * NQ;
const uint HALO_PER_T = (HALO_WORDS + WG_SIZE - 1u) / WG_SIZE;  // halo words per invocation
// NCHW output with an even width (the host's condition): column-major scratch and pixel runs
// (epilogue_runs.glsl); off, the element-wise stores of a row-major scratch (odd widths, and
// VKCONV_NCHW_RUNS=0 to measure the difference).
layout(constant_id = 118) const bool NCHW_RUNS = true;
const bool RUNS = NCHW_RUNS && OUT_LAYOUT == 0u;
// The fp16 scratch (epilogue_half.glsl; the host's choice), rows of 3 words.
layout(constant_id = 119) const bool EPI16 = false;

shared uvec4 smem[SMEM_WORDS];  // [halo | epilogue scratch][B], or B over the halo (BREG)
#include "epilogue_half.glsl"  // EPI16: MAT_C16, emuHalfScratch

#if !defined(CM_EMULATE)
#define MAT_A coopmat<CM_T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>
#define MAT_B coopmat<CM_T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB>
#define MAT_C coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>
#else
const uint EPL = 256u / EMU_LANES;  // accumulator elements per invocation
CM_ELEM_FUNCTION
#endif

uint chunkStart(uint ch) { return ch + 1u == NCHUNK ? LAST : ch * 16u; }

// Filter word h (values 8h .. 8h+7) of chunk ch for filter kn of the group.
uvec4 filterWord(uint ch, uint h, uint kn, uint Kg, uint kBase) {
    if ((VEC_IN & 2u) != 0u) {
        // CG == 8: the word is the whole channel run of tap (r, s), wholly inside the filter rows
        // or wholly padding, wholly inside the last chunk's own values or wholly before them.
        uint w = chunkStart(ch) + h * 8u, s = w / CPR, rc = w % CPR;
        if (kn >= Kg || rc >= FR * CG || (ch + 1u == NCHUNK && w < OWN)) return uvec4(0u);
        return w8_[filterOffset(FILTER_LAYOUT, kBase + kn, 0u, rc / CG, s, CG, FR, FS) >> 3];
    }
    uvec4 v = uvec4(0u);
    [[unroll]] for (uint u = 0u; u < 8u; ++u) {
        uint w = chunkStart(ch) + h * 8u + u;  // window position: column s, value rc of it
        uint s = w / CPR, rc = w % CPR;
        bool ok = kn < Kg && rc < FR * CG && (ch + 1u < NCHUNK || w >= OWN);
        uint off = filterOffset(FILTER_LAYOUT, kBase + kn, rc % CG, rc / CG, s, CG, FR, FS);
        uint bits = ok ? ELEM_BITS(w_[off]) : 0u;
        v[u >> 1] |= bits << (16u * (u & 1u));
    }
    return v;
}

// Halo word e = (row pl, column x, word wd) of the step whose first output row is p0.
uvec4 haloWord(uint e, uint n, uint cBase, uint p0, int iw0) {
    uvec4 v = uvec4(0u);
    if (e >= HALO_WORDS) return v;
    uint wd = e % CW, x = (e / CW) % X, pl = e / XW;
    int iw = iw0 + int(x), ih0 = int((p0 + pl) * SH) - int(pc.padT);
    bool colOk = iw >= 0 && iw < int(pc.W);
    if ((VEC_IN & 1u) != 0u) {
        // CG == 8 (C % 8 == 0, NHWC): word wd is filter row wd's 8 channels.
        int ih = ih0 + int(wd * DH);
        if (!colOk || wd >= FR || ih < 0 || ih >= int(pc.H)) return uvec4(0u);
        return x8_[activationOffset(IN_LAYOUT, n, cBase, uint(ih), uint(iw), pc.C, pc.H, pc.W) >> 3];
    }
    [[unroll]] for (uint u = 0u; u < 8u; ++u) {
        uint rc = wd * 8u + u, r = rc / CG, c = rc % CG;
        int ih = ih0 + int(r * DH);
        bool ok = colOk && rc < FR * CG && ih >= 0 && ih < int(pc.H);
        uint off = activationOffset(IN_LAYOUT, n, cBase + c, uint(max(ih, 0)), uint(max(iw, 0)), pc.C, pc.H, pc.W);
        uint bits = ok ? ELEM_BITS(x_[off]) : 0u;
        v[u >> 1] |= bits << (16u * (u & 1u));
    }
    return v;
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint Kg = pc.K / pc.groups;
    uint rowsPerWg = TP * PSTEP;
    uint tilesQ = (pc.Q + TQ - 1u) / TQ, tilesP = (pc.P + rowsPerWg - 1u) / rowsPerWg;
    uint tilesN = (Kg + BN - 1u) / BN;
    uint tq = gl_WorkGroupID.x % tilesQ; uint t = gl_WorkGroupID.x / tilesQ;
    uint tp = t % tilesP, n = t / tilesP;
    uint g = gl_WorkGroupID.y / tilesN, n0 = (gl_WorkGroupID.y % tilesN) * BN;
    uint cBase = g * CG, kBase = g * Kg;
    uint q0 = tq * TQ;
    int iw0 = int(q0 * SW) - int(pc.padL);

    // The filters, once: neighbouring invocations build the two words of one filter's chunk, two
    // words (16 element loads) or, as 16-byte loads, eight words in flight per invocation before
    // their stores (a small grid's workgroup is mostly this staging's round trips).
    const uint B_ITEMS = NCHUNK * BN * 2u;
    const uint B_FLIGHT = (VEC_IN & 2u) != 0u ? 8u : 2u;
    for (uint b0 = 0u; b0 < B_ITEMS; b0 += B_FLIGHT * WG_SIZE) {
        uvec4 v[B_FLIGHT];
        [[unroll]] for (uint u = 0u; u < B_FLIGHT; ++u) {
            uint e = b0 + u * WG_SIZE + tid;
            v[u] = e < B_ITEMS ? filterWord((e >> 1) / BN, e & 1u, n0 + (e >> 1) % BN, Kg, kBase) : uvec4(0u);
        }
        [[unroll]] for (uint u = 0u; u < B_FLIGHT; ++u) {
            uint e = b0 + u * WG_SIZE + tid;
            if (e < B_ITEMS) smem[B_OFF + ((e >> 1) / BN * BN + (e >> 1) % BN) * BSTR + (e & 1u)] = v[u];
        }
    }

    uint sg = gl_SubgroupID;
    uint wn = sg % SGN, wq = (sg / SGN) % SGQ, wr = sg / (SGN * SGQ);
    uint lane = gl_SubgroupInvocationID;
    uint lanes = gl_SubgroupSize;
    uint aBase = wr * XW + wq * MQ * 16u * SW * CW;  // this subgroup's first pixel, window start
    uint bBase = B_OFF + wn * NQ * 16u * BSTR;
    uint scratch = sg * 64u;

    uvec4 pre[HALO_PER_T];  // PREFETCH: the next step's halo words, in flight
    if (PREFETCH)
        [[unroll]] for (uint u = 0u; u < HALO_PER_T; ++u) pre[u] = haloWord(tid + u * WG_SIZE, n, cBase, tp * rowsPerWg, iw0);
#if !defined(CM_EMULATE)
    MAT_B breg[BFRAGS];
    if (BREG) {
        barrier();  // the staged filters are visible
        [[unroll]] for (uint ch = 0u; ch < NCHUNK; ++ch)
            [[unroll]] for (uint i = 0u; i < NQ; ++i)
                coopMatLoad(breg[ch * NQ + i], smem, bBase + (ch * BN + i * 16u) * BSTR, BSTR, gl_CooperativeMatrixLayoutColumnMajor);
        barrier();  // every subgroup holds its fragments: the first halo may overwrite them
    }
#endif
    for (uint ps = 0u; ps < PSTEP; ++ps) {
        uint p0 = tp * rowsPerWg + ps * TP;
        if (ps > 0u) barrier();  // the previous step's scratch (the halo's memory) is free
        if (PREFETCH) {
            [[unroll]] for (uint u = 0u; u < HALO_PER_T; ++u)
                if (tid + u * WG_SIZE < HALO_WORDS) smem[tid + u * WG_SIZE] = pre[u];
        } else {
            // Two words (16 loads) in flight per invocation before their stores.
            for (uint b0 = 0u; b0 < HALO_WORDS; b0 += 2u * WG_SIZE) {
                uvec4 v0 = haloWord(b0 + tid, n, cBase, p0, iw0);
                uvec4 v1 = haloWord(b0 + WG_SIZE + tid, n, cBase, p0, iw0);
                if (b0 + tid < HALO_WORDS) smem[b0 + tid] = v0;
                if (b0 + WG_SIZE + tid < HALO_WORDS) smem[b0 + WG_SIZE + tid] = v1;
            }
        }
        barrier();
        if (PREFETCH && ps + 1u < PSTEP)
            [[unroll]] for (uint u = 0u; u < HALO_PER_T; ++u) pre[u] = haloWord(tid + u * WG_SIZE, n, cBase, p0 + TP, iw0);

#if !defined(CM_EMULATE)
        MAT_C acc[FRAGS];
        [[unroll]] for (uint f = 0u; f < FRAGS; ++f) acc[f] = MAT_C(0.0);
        // Two loops: B in registers needs the chunk loop unrolled (constant fragment indices); the
        // shared-memory one stays rolled, as measured before BREG.
        if (BREG) {
            [[unroll]] for (uint ch = 0u; ch < NCHUNK; ++ch) {
                uint a0 = aBase + chunkStart(ch) / 8u;
                [[unroll]] for (uint j = 0u; j < MQ; ++j) {
                    MAT_A a;
                    coopMatLoad(a, smem, a0 + j * 16u * SW * CW, SW * CW, gl_CooperativeMatrixLayoutRowMajor);
                    [[unroll]] for (uint i = 0u; i < NQ; ++i) acc[j * NQ + i] = coopMatMulAdd(a, breg[ch * NQ + i], acc[j * NQ + i]);
                }
            }
        } else
        for (uint ch = 0u; ch < NCHUNK; ++ch) {
            uint a0 = aBase + chunkStart(ch) / 8u;
            MAT_B b[NQ];
            [[unroll]] for (uint i = 0u; i < NQ; ++i)
                coopMatLoad(b[i], smem, bBase + (ch * BN + i * 16u) * BSTR, BSTR, gl_CooperativeMatrixLayoutColumnMajor);
            [[unroll]] for (uint j = 0u; j < MQ; ++j) {
                MAT_A a;
                coopMatLoad(a, smem, a0 + j * 16u * SW * CW, SW * CW, gl_CooperativeMatrixLayoutRowMajor);
                [[unroll]] for (uint i = 0u; i < NQ; ++i) acc[j * NQ + i] = coopMatMulAdd(a, b[i], acc[j * NQ + i]);
            }
        }
#else
        float acc[FRAGS * EPL];
        for (uint f = 0u; f < FRAGS * EPL; ++f) acc[f] = 0.0;
        for (uint ch = 0u; ch < NCHUNK; ++ch)
            for (uint f = 0u; f < FRAGS; ++f)
                for (uint u = 0u; u < EPL; ++u) {
                    uint j = f / NQ, i = f % NQ, e = lane + u * EMU_LANES, row = e / 16u, col = e % 16u;
                    uint a0 = aBase + chunkStart(ch) / 8u + j * 16u * SW * CW;
                    uint b0 = bBase + (ch * BN + i * 16u) * BSTR;
                    float sum = acc[f * EPL + u];
                    for (uint k = 0u; k < 16u; ++k)
                        sum = fma(cmElem(a0, SW * CW, false, row, k), cmElem(b0, BSTR, true, k, col), sum);
                    acc[f * EPL + u] = sum;
                }
#endif
        barrier();  // every subgroup is done with the halo: its memory becomes the scratch

        // Epilogue, one accumulator at a time through this subgroup's scratch ([pixel][filter] fp32).
        uint p = p0 + wr;
        [[unroll]] for (uint j = 0u; j < MQ; ++j) {
            [[unroll]] for (uint i = 0u; i < NQ; ++i) {
#if !defined(CM_EMULATE)
#if defined(DTYPE_F16)
                if (EPI16)
                    coopMatStore(MAT_C16(16, 16)(acc[j * NQ + i]), smem, scratch, 3u, gl_CooperativeMatrixLayoutRowMajor);
                else
#endif
                if (RUNS)
                    coopMatStore(acc[j * NQ + i], smem, scratch, 4u, gl_CooperativeMatrixLayoutColumnMajor);
                else
                    coopMatStore(acc[j * NQ + i], smem, scratch, 4u, gl_CooperativeMatrixLayoutRowMajor);
#else
                for (uint u = 0u; u < EPL; ++u) {
                    uint e = lane + u * EMU_LANES, fi = RUNS ? (e % 16u) * 16u + e / 16u : e;
                    float v = acc[(j * NQ + i) * EPL + u];
                    if (EPI16) emuHalfScratch(scratch, 3u, 16u, e, v);
                    else smem[scratch + (fi >> 2)][fi & 3u] = floatBitsToUint(v);
                }
#endif
                subgroupMemoryBarrierShared();
                subgroupBarrier();
                uint qb = q0 + wq * MQ * 16u + j * 16u, kb = n0 + wn * NQ * 16u + i * 16u;
                if (p < pc.P) {
                    if (RUNS) {
                        // NCHW: 8 consecutive columns of one filter per item (epilogue_runs.glsl).
                        for (uint e = lane; e < 32u; e += lanes) {
                            uint col = e >> 1, kn = kb + col, q = qb + (e & 1u) * 8u;
                            if (q < pc.Q && kn < Kg) {
                                uint w = scratch + col * 4u + (e & 1u) * 2u;
                                float v[8] = words8(smem[w], smem[w + 1u]);
                                uint k = kBase + kn;
                                storeRun8(VEC_OUT, ((n * pc.K + k) * pc.P + p) * pc.Q + q, min(8u, pc.Q - q), k, v);
                            }
                        }
                    } else if (EPI16) {
                        // Pixel fastest: 8 neighbouring invocations read 8 distinct bank groups.
                        for (uint e = lane; e < 32u; e += lanes) {
                            uint row = e & 15u, kn = kb + (e >> 4) * 8u, q = qb + row;
                            if (q < pc.Q && kn < Kg)
                                y8_[(((n * pc.P + p) * pc.Q + q) * pc.K + kBase + kn) >> 3] = smem[scratch + row * 3u + (e >> 4)];
                        }
                    } else if (VEC_OUT && OUT_LAYOUT == 1u) {
                        // 8 consecutive filters of one pixel per store (K/groups % 8 == 0: a run of
                        // 8 is wholly inside the group's filters or wholly outside).
                        for (uint e = lane; e < 32u; e += lanes) {
                            uint row = e >> 1, kn = kb + (e & 1u) * 8u, q = qb + row;
                            if (q < pc.Q && kn < Kg) {
                                uint w = scratch + row * 4u + (e & 1u) * 2u;
                                float v[8] = words8(smem[w], smem[w + 1u]);
                                uint k = kBase + kn, off = ((n * pc.P + p) * pc.Q + q) * pc.K + k;
                                [[unroll]] for (uint u = 0u; u < 8u; ++u) v[u] = epilogueValue(v[u], k + u, off + u);
                                y8_[off >> 3] = uvec4(PACK_OUT(v[0], v[1]), PACK_OUT(v[2], v[3]), PACK_OUT(v[4], v[5]),
                                                      PACK_OUT(v[6], v[7]));
                            }
                        }
                    } else {
                        // Neighbouring invocations write neighbouring addresses: filters for
                        // NHWC, pixels for NCHW.
                        for (uint e = lane; e < 256u; e += lanes) {
                            uint row = OUT_LAYOUT == 1u ? e / 16u : e % 16u;
                            uint col = OUT_LAYOUT == 1u ? e % 16u : e / 16u;
                            uint q = qb + row, kn = kb + col;
                            if (q < pc.Q && kn < Kg) {
                                uint idx = row * 16u + col, k = kBase + kn;
                                float v = uintBitsToFloat(smem[scratch + (idx >> 2)][idx & 3u]);
                                uint off = OUT_LAYOUT == 0u ? ((n * pc.K + k) * pc.P + p) * pc.Q + q
                                                            : ((n * pc.P + p) * pc.Q + q) * pc.K + k;
                                storeOutput(off, k, v);
                            }
                        }
                    }
                }
                subgroupBarrier();  // the scratch is rewritten by the next accumulator
            }
        }
    }
}
