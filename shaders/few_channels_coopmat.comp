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
//
// Raw rows (VEC_IN bit 2, the host's choice for 16-byte aligned inputs in NHWC with one group, or
// in NCHW at stride 1): element loads gathered straight into the expanded halo touch 2 bytes per lane at a
// spread of rows (ResNet-50's stem: 24 loads per staged column).  Instead each step first copies
// the input rows it reads, as they lie in memory, into shared memory in 16-byte words (one segment
// per input row, and per channel in NCHW; the segment keeps the row's misalignment within its
// first word), and the halo is expanded from there: a column's FR x CG values are read as 32-bit
// words of shared memory.  Rows and columns outside the input are masked at the expansion (their
// reads kept inside the segment), so what a segment holds beyond the valid columns is never used.
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
// eight element loads.  Bit 0: the halo's (NHWC input); bit 1: the filters' (KRSC); bit 2: the
// halo expanded from raw rows (file comment; not with bit 0).  The host sets them only where the
// views are 16-byte aligned.
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
// Raw rows: SEGS segments of SEGW words, one word of slack for the pair reads past a segment's end.
// With B in registers they may overlay B (stored after every subgroup loaded its fragments), not
// the halo (the next step's rows are stored while this step's products read it).
const bool RAW = (VEC_IN & 4u) != 0u;
const uint RROWS = (TP - 1u) * SH + (FR - 1u) * DH + 1u;  // input rows a step reads
const uint SEGS = RAW ? (IN_LAYOUT == 0u ? RROWS * CG : RROWS) : 0u;
const uint SEGV = IN_LAYOUT == 0u ? X : X * CG;           // values per segment
const uint SEGW = (SEGV + 14u) / 8u;                      // words: a misaligned start takes one more
const uint RAW_WORDS = SEGS * SEGW;
#if defined(CM_EMULATE)
const uint RAW_OFF = B_OFF + B_WORDS;
#else
const uint RAW_OFF = BREG ? R_WORDS : B_OFF + B_WORDS;
#endif
const uint RAW_END = RAW ? RAW_OFF + RAW_WORDS + 1u : 0u;
const uint SMEM_B = B_OFF + B_WORDS > R_WORDS ? B_OFF + B_WORDS : R_WORDS;
const uint SMEM_WORDS = RAW_END > SMEM_B ? RAW_END : SMEM_B;
const uint BFRAGS = BREG ? NCHUNK * NQ : 1u;  // B fragments held per subgroup
const uint FRAGS = MQ * NQ;
const uint STAGE_WORDS = RAW ? RAW_WORDS : HALO_WORDS;  // words a step loads from the input
const uint STAGE_PER_T = (STAGE_WORDS + WG_SIZE - 1u) / WG_SIZE;  // per invocation
// NCHW output with an even width (the host's condition): column-major scratch and pixel runs
// (epilogue_runs.glsl); off, the element-wise stores of a row-major scratch (odd widths).
layout(constant_id = 118) const bool NCHW_RUNS = true;
const bool RUNS = NCHW_RUNS && OUT_LAYOUT == 0u;
// The fp16 scratch (epilogue_half.glsl; the host's choice), rows of 3 words.
layout(constant_id = 119) const bool EPI16 = false;

shared uvec4 smem[SMEM_WORDS];  // [halo | epilogue scratch][B][raw rows], or B over the halo (BREG)
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

// Raw rows.  Segment seg of the step whose first output row is p0: input row ri (and channel c in
// NCHW).  The valid columns x in [xlo, xhi) of the step's X start at value gs of the input; the
// segment holds the words from gs's word on, so column x's value c lies at delta + (x - xlo) * CG
// + c (NHWC) or delta + x - xlo (NCHW), delta = gs % 8.
struct Segment { bool ok; uint gs, words; };
Segment segment(uint seg, uint n, uint cBase, uint p0, int iw0, uint xlo, uint xhi) {
    uint ri = IN_LAYOUT == 0u ? seg / CG : seg, c = IN_LAYOUT == 0u ? seg % CG : 0u;
    int ih = int(p0 * SH + ri) - int(pc.padT);
    Segment g;
    g.ok = ih >= 0 && ih < int(pc.H) && xlo < xhi;
    g.gs = activationOffset(IN_LAYOUT, n, cBase + c, uint(max(ih, 0)), uint(iw0 + int(xlo)), pc.C, pc.H, pc.W);
    g.words = g.ok ? ((g.gs & 7u) + (xhi - xlo) * (IN_LAYOUT == 0u ? 1u : CG) + 7u) / 8u : 0u;
    return g;
}

// Raw word i of a step: a 16-byte load, or element loads for a last word that the view's 16-byte
// words do not hold whole.
uvec4 rawWord(uint i, uint n, uint cBase, uint p0, int iw0, uint xlo, uint xhi) {
    if (i >= RAW_WORDS) return uvec4(0u);
    Segment g = segment(i / SEGW, n, cBase, p0, iw0, xlo, xhi);
    uint j = i % SEGW;
    if (j >= g.words) return uvec4(0u);
    uint gw = (g.gs >> 3) + j;
    if (gw < uint(x8_.length())) return x8_[gw];
    uvec4 v = uvec4(0u);
    [[unroll]] for (uint u = 0u; u < 8u; ++u) {
        uint e = gw * 8u + u;
        uint bits = e < uint(x_.length()) ? ELEM_BITS(x_[min(e, uint(x_.length()) - 1u)]) : 0u;
        v[u >> 1] |= bits << (16u * (u & 1u));
    }
    return v;
}

uint raw32(uint w) { return smem[RAW_OFF + (w >> 2)][w & 3u]; }  // 32-bit word w of the raw rows
uint rawHalf(uint L) { return (raw32(L >> 1) >> (16u * (L & 1u))) & 0xFFFFu; }  // 16-bit value L

// Expands the raw rows into halo column (pl, x): its FR x CG values, [r][c], zero outside the
// input and past FR*CG.  A segment's misalignment is its first valid value's offset mod 8, found
// once per filter row (an NCHW row's channels are H*W values apart), not per value.
void expandColumn(uint item, uint n, uint cBase, uint p0, int iw0, uint xlo, uint xhi) {
    uint pl = item / X, x = item % X;
    uint h[CW * 4u];
    [[unroll]] for (uint u = 0u; u < CW * 4u; ++u) h[u] = 0u;
    bool colOk = x >= xlo && x < xhi;
    uint xs = colOk ? x - xlo : 0u;  // the column in its segments (masked ones read column 0)
    uint iwlo = uint(iw0 + int(xlo));
    [[unroll]] for (uint r = 0u; r < FR; ++r) {
        uint ri = pl * SH + r * DH;
        int ih = int(p0 * SH + ri) - int(pc.padT);
        bool ok = colOk && ih >= 0 && ih < int(pc.H);
        uint g0 = activationOffset(IN_LAYOUT, n, cBase, uint(max(ih, 0)), iwlo, pc.C, pc.H, pc.W);
        if (IN_LAYOUT == 1u) {
            // NHWC: the CG values are consecutive; read the 32-bit words that hold them and take
            // the halves at the run's parity.
            uint L = ri * SEGW * 8u + (g0 & 7u) + xs * CG, odd = L & 1u;
            uint w[CG / 2u + 1u];
            [[unroll]] for (uint k = 0u; k < CG / 2u + 1u; ++k) w[k] = ok ? raw32((L >> 1) + k) : 0u;
            [[unroll]] for (uint c = 0u; c < CG; ++c) {
                uint lo = (w[c >> 1] >> (16u * (c & 1u))) & 0xFFFFu;
                uint hi = (w[(c + 1u) >> 1] >> (16u * ((c + 1u) & 1u))) & 0xFFFFu;
                uint rc = r * CG + c;
                h[rc >> 1] |= (odd != 0u ? hi : lo) << (16u * (rc & 1u));
            }
        } else {
            [[unroll]] for (uint c = 0u; c < CG; ++c) {
                uint delta = (g0 + c * pc.H * pc.W) & 7u;
                uint bits = ok ? rawHalf((ri * CG + c) * SEGW * 8u + delta + xs) : 0u;
                uint rc = r * CG + c;
                h[rc >> 1] |= bits << (16u * (rc & 1u));
            }
        }
    }
    [[unroll]] for (uint wd = 0u; wd < CW; ++wd)
        smem[item * CW + wd] = uvec4(h[wd * 4u], h[wd * 4u + 1u], h[wd * 4u + 2u], h[wd * 4u + 3u]);
}

// Word i of a step's input: a raw word, or a halo word (stored where it goes).
uvec4 stageWord(uint i, uint n, uint cBase, uint p0, int iw0, uint xlo, uint xhi) {
    return RAW ? rawWord(i, n, cBase, p0, iw0, xlo, xhi) : haloWord(i, n, cBase, p0, iw0);
}
void storeStaged(uint i, uvec4 v) {
    if (i < STAGE_WORDS) smem[(RAW ? RAW_OFF : 0u) + i] = v;
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

    // The step's valid columns (raw rows): x in [xlo, xhi) of its X lie inside the input.
    uint xlo = uint(clamp(-iw0, 0, int(X))), xhi = uint(clamp(int(pc.W) - iw0, 0, int(X)));
    uvec4 pre[STAGE_PER_T];  // PREFETCH: the next step's input words, in flight
    if (PREFETCH)
        [[unroll]] for (uint u = 0u; u < STAGE_PER_T; ++u) pre[u] = stageWord(tid + u * WG_SIZE, n, cBase, tp * rowsPerWg, iw0, xlo, xhi);
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
        // The previous step's scratch (the halo's memory) must be free before the halo is written:
        // raw rows have a barrier of their own before their expansion.
        if (!RAW && ps > 0u) barrier();
        if (PREFETCH) {
            // Raw rows of later steps were stored after the previous step's products.
            if (!RAW || ps == 0u)
                [[unroll]] for (uint u = 0u; u < STAGE_PER_T; ++u) storeStaged(tid + u * WG_SIZE, pre[u]);
        } else {
            // Two words (16 element loads, or two 16-byte raw words) in flight per invocation
            // before their stores.
            for (uint b0 = 0u; b0 < STAGE_WORDS; b0 += 2u * WG_SIZE) {
                uvec4 v0 = stageWord(b0 + tid, n, cBase, p0, iw0, xlo, xhi);
                uvec4 v1 = stageWord(b0 + WG_SIZE + tid, n, cBase, p0, iw0, xlo, xhi);
                storeStaged(b0 + tid, v0);
                storeStaged(b0 + WG_SIZE + tid, v1);
            }
        }
        if (RAW) {
            barrier();  // the rows are visible, and the previous step's scratch is free
            for (uint it = tid; it < TP * X; it += WG_SIZE) expandColumn(it, n, cBase, p0, iw0, xlo, xhi);
        }
        barrier();
        if (PREFETCH && ps + 1u < PSTEP)
            [[unroll]] for (uint u = 0u; u < STAGE_PER_T; ++u) pre[u] = stageWord(tid + u * WG_SIZE, n, cBase, p0 + TP, iw0, xlo, xhi);

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
        [[dont_unroll]] for (uint f = 0u; f < FRAGS * EPL; ++f) acc[f] = 0.0;
        [[dont_unroll]] for (uint ch = 0u; ch < NCHUNK; ++ch)
            [[dont_unroll]] for (uint f = 0u; f < FRAGS; ++f)
                [[dont_unroll]] for (uint u = 0u; u < EPL; ++u) {
                    uint j = f / NQ, i = f % NQ, e = lane + u * EMU_LANES, row = e / 16u, col = e % 16u;
                    uint a0 = aBase + chunkStart(ch) / 8u + j * 16u * SW * CW;
                    uint b0 = bBase + (ch * BN + i * 16u) * BSTR;
                    float sum = acc[f * EPL + u];
                    [[dont_unroll]] for (uint k = 0u; k < 16u; ++k)
                        sum = fma(cmElem(a0, SW * CW, false, row, k), cmElem(b0, BSTR, true, k, col), sum);
                    acc[f * EPL + u] = sum;
                }
#endif
        // Raw rows: the next step's are stored now, after the products that hid their loads, into
        // memory of their own (this step's expansion is past its barrier).
        if (RAW && PREFETCH && ps + 1u < PSTEP)
            [[unroll]] for (uint u = 0u; u < STAGE_PER_T; ++u) storeStaged(tid + u * WG_SIZE, pre[u]);
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
                [[dont_unroll]] for (uint u = 0u; u < EPL; ++u) {
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
