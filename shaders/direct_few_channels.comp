#version 460
// "direct_few_channels": direct convolution for layers with few input channels per group (the
// first layer of an image network: C = 3 or 4, R x S up to 7 x 7).  Their reduction C/groups*R*S
// (27-147) is too short for GEMM tiles: the implicit GEMM gathers each element of A separately
// and pads the reduction to its slice depth.  Here a workgroup stages, once, everything its output
// tile needs: the input halo of every channel and BK filters of the whole reduction.  One
// barrier, then each invocation accumulates TP output rows x 1 column x KT filters from shared
// memory with no further synchronisation.
//
// Invocation t: column q = t % TQ of its row group rg = (t / TQ) % RG, filters kg = t / (TQ*RG).
// Per tap it reads TP halo words (neighbouring invocations: neighbouring words) and KT filter
// values (the same words for the TQ*RG invocations of a filter group: vec4 broadcasts), for
// TP*KT FMAs.  The workgroup's output tile is (RG*TP) rows x TQ columns x BK filters.
//
// Halo layout: per row group its own copy (rows overlap between groups; they are few), each row
// split into SW phases so that stride-SW taps of neighbouring columns are neighbouring words:
// word(rg, c, y, x) = rg*RG_STRIDE + ((c*HTR + y)*SW + x % SW)*WPS + x / SW.  With several row
// groups RG_STRIDE is padded to TQ mod 32 words: the row groups of one 32-wide subgroup then read
// disjoint banks.  (Any subgroup size is correct; the layout only decides bank conflicts.)
// Padding is applied once, when the halo is staged (zeros outside the input).
#extension GL_GOOGLE_include_directive : require
// The register block must stay in registers: unroll every loop over it (see implicit_gemm.comp).
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "epilogue.glsl"

layout(constant_id = 100) const uint WG_SIZE = 128;  // == TQ * RG * (BK / KT)
layout(constant_id = 101) const uint TP = 8;         // output rows per invocation
layout(constant_id = 102) const uint TQ = 32;        // output columns per row group
layout(constant_id = 103) const uint RG = 1;         // row groups per workgroup (TQ * RG == 32)
layout(constant_id = 104) const uint BK = 32;        // filters per workgroup
layout(constant_id = 105) const uint KT = 8;         // filters per invocation (multiple of 4)
layout(constant_id = 106) const uint CG = 3;         // == C / groups
layout(constant_id = 107) const uint FR = 3;         // filter rows == pc.R
layout(constant_id = 108) const uint FS = 3;         // filter columns == pc.S
layout(constant_id = 109) const uint SH = 1;         // stride
layout(constant_id = 110) const uint SW = 1;
layout(constant_id = 111) const uint DH = 1;         // dilation
layout(constant_id = 112) const uint DW = 1;
layout(local_size_x_id = 100) in;

const uint HTR = (TP - 1u) * SH + (FR - 1u) * DH + 1u;  // halo rows of one row group
const uint WT = (TQ - 1u) * SW + (FS - 1u) * DW + 1u;   // halo columns
const uint WPS = (WT + SW - 1u) / SW;                   // words per row phase
const uint RG_RAW = CG * HTR * SW * WPS;
const uint RG_STRIDE = RG == 1u ? RG_RAW : RG_RAW + (TQ + 32u - RG_RAW % 32u) % 32u;
const uint RS = FR * FS;
const uint PXL = TQ * RG;  // invocations across the tile's pixels
const uint HALO = RG * CG * HTR * WT, WSZ = CG * RS * BK;  // staged elements
const uint STAGE_BATCH = 8u;
const uint HALO_ITERS = (HALO + WG_SIZE - 1u) / WG_SIZE, WSZ_ITERS = (WSZ + WG_SIZE - 1u) / WG_SIZE;
// NHWC output goes through shared memory (the halo's, once the products are done): one output
// row of the tile at a time, PXL pixels x BK filters, rows padded by 4 words (conflict-free vec4
// writes), so that the stores walk the filters of each pixel, contiguous in NHWC.
const uint OST = BK + 4u;
const uint O_WORDS = OUT_LAYOUT == 1u ? PXL * OST : 0u;

const uint XS_WORDS = RG * RG_STRIDE > O_WORDS ? RG * RG_STRIDE : O_WORDS;

shared float xs[XS_WORDS];
shared vec4 ws[CG * RS * BK / 4u];  // [c][r][s][k], k fastest

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint Kg = pc.K / pc.groups;
    uint rowsPerTile = RG * TP;
    uint tilesQ = (pc.Q + TQ - 1u) / TQ, tilesP = (pc.P + rowsPerTile - 1u) / rowsPerTile;
    uint tilesK = (Kg + BK - 1u) / BK;
    uint tq = gl_WorkGroupID.x % tilesQ; uint t = gl_WorkGroupID.x / tilesQ;
    uint tp = t % tilesP; uint n = t / tilesP;
    uint g = gl_WorkGroupID.y / tilesK, n0 = (gl_WorkGroupID.y % tilesK) * BK;
    uint p0 = tp * rowsPerTile, q0 = tq * TQ;
    uint cBase = g * CG, kBase = g * Kg;
    int iw0 = int(q0 * SW) - int(pc.padL);

    // Halo, then filters: neighbouring invocations load neighbouring elements of the tensor's
    // layout, STAGE_BATCH loads issued before their stores, so that a workgroup waits for a few
    // rounds of memory latency rather than one per element (one staging, no overlap with math).
    for (uint b0 = 0u; b0 < HALO_ITERS; b0 += STAGE_BATCH) {
        float v[STAGE_BATCH];
        uint dst[STAGE_BATCH];
        [[unroll]] for (uint u = 0u; u < STAGE_BATCH; ++u) {
            uint e = tid + (b0 + u) * WG_SIZE;
            uint c, x, y, rg;
            if (IN_LAYOUT == 1u) { c = e % CG; uint r = e / CG; x = r % WT; r /= WT; y = r % HTR; rg = r / HTR; }
            else { x = e % WT; uint r = e / WT; y = r % HTR; r /= HTR; c = r % CG; rg = r / CG; }
            int ih = int((p0 + rg * TP) * SH + y) - int(pc.padT), iw = iw0 + int(x);
            bool ok = e < HALO && ih >= 0 && ih < int(pc.H) && iw >= 0 && iw < int(pc.W);
            uint off = activationOffset(IN_LAYOUT, n, cBase + c, uint(max(ih, 0)), uint(max(iw, 0)), pc.C, pc.H, pc.W);
            v[u] = ok ? toF32(x_[off]) : 0.0;
            dst[u] = e < HALO ? rg * RG_STRIDE + ((c * HTR + y) * SW + x % SW) * WPS + x / SW : ~0u;
        }
        [[unroll]] for (uint u = 0u; u < STAGE_BATCH; ++u)
            if (dst[u] != ~0u) xs[dst[u]] = v[u];
    }
    // Filters of the whole reduction, [c][r][s][k]; zero past the group's filters.
    for (uint b0 = 0u; b0 < WSZ_ITERS; b0 += STAGE_BATCH) {
        float v[STAGE_BATCH];
        uint dst[STAGE_BATCH];
        [[unroll]] for (uint u = 0u; u < STAGE_BATCH; ++u) {
            uint e = tid + (b0 + u) * WG_SIZE;
            // Runs of 8 filters at one tap: a subgroup's stores land in 4+ rows of 8 words (at most
            // 4-way bank conflicts; walking the filter's own layout wrote one bank BK words apart:
            // 32-way), its loads in 8 filters' runs of consecutive taps.
            uint kl = (e / (8u * CG * RS)) * 8u + e % 8u, crs = (e / 8u) % (CG * RS);
            uint c = crs / RS, rs = crs % RS, kn = n0 + kl;
            uint off = FILTER_LAYOUT == 1u ? ((kBase + kn) * RS + rs) * CG + c : (kBase + kn) * (CG * RS) + crs;
            v[u] = e < WSZ && kn < Kg ? toF32(w_[off]) : 0.0;
            dst[u] = e < WSZ ? crs * BK + kl : ~0u;
        }
        [[unroll]] for (uint u = 0u; u < STAGE_BATCH; ++u)
            if (dst[u] != ~0u) ws[dst[u] >> 2][dst[u] & 3u] = v[u];
    }
    barrier();

    uint q = tid % TQ, rg = (tid / TQ) % RG, kg = tid / PXL;
    float acc[KT][TP];
    [[unroll]] for (uint i = 0u; i < KT; ++i)
        [[unroll]] for (uint j = 0u; j < TP; ++j) acc[i][j] = 0.0;
    uint xBase = rg * RG_STRIDE + q;
    [[dont_unroll]] for (uint c = 0u; c < CG; ++c)
        [[dont_unroll]] for (uint r = 0u; r < FR; ++r) {
            uint row = xBase + (c * HTR + r * DH) * SW * WPS;
            uint w4 = ((c * RS + r * FS) * BK + kg * KT) / 4u;
            [[unroll]] for (uint s = 0u; s < FS; ++s) {
                uint x = row + ((s * DW) % SW) * WPS + (s * DW) / SW;
                vec4 wv[KT / 4u];
                [[unroll]] for (uint h = 0u; h < KT / 4u; ++h) wv[h] = ws[w4 + s * (BK / 4u) + h];
                float xv[TP];
                [[unroll]] for (uint j = 0u; j < TP; ++j) xv[j] = xs[x + j * SH * SW * WPS];
                [[unroll]] for (uint i = 0u; i < KT; ++i)
                    [[unroll]] for (uint j = 0u; j < TP; ++j) acc[i][j] = fma(wv[i >> 2][i & 3u], xv[j], acc[i][j]);
            }
        }

    if (OUT_LAYOUT == 1u) {
        // One output row per round: the invocations' blocks into shared memory, then the block's
        // pixels x filters out with the filters fastest.
        // A runtime row loop with one copy of the store loop (its epilogue code is large: eight
        // unrolled copies made lavapipe's compiles several times slower); row j of the register
        // block is selected by unrolled comparisons, so the block stays in registers.
        uint o = (rg * TQ + q) * OST + kg * KT;
        for (uint j = 0u; j < TP; ++j) {
            barrier();  // the products (j == 0) or the previous row's stores are done with xs
            [[unroll]] for (uint jj = 0u; jj < TP; ++jj)
                if (jj == j)
                    [[unroll]] for (uint i = 0u; i < KT; ++i) xs[o + i] = acc[i][jj];
            barrier();
            for (uint e = tid; e < PXL * BK; e += WG_SIZE) {
                uint kl = e % BK, pix = e / BK;
                uint p = p0 + (pix / TQ) * TP + j, qo = q0 + pix % TQ, kn = n0 + kl;
                if (p < pc.P && qo < pc.Q && kn < Kg) {
                    uint k = kBase + kn;
                    storeOutput(((n * pc.P + p) * pc.Q + qo) * pc.K + k, k, xs[pix * OST + kl]);
                }
            }
        }
        return;
    }
    uint qo = q0 + q;
    if (qo >= pc.Q) return;
    [[unroll]] for (uint j = 0u; j < TP; ++j) {
        uint p = p0 + rg * TP + j;
        if (p >= pc.P) break;
        [[unroll]] for (uint i = 0u; i < KT; ++i) {
            uint kn = n0 + kg * KT + i;
            if (kn >= Kg) break;
            uint k = kBase + kn;
            storeOutput(((n * pc.K + k) * pc.P + p) * pc.Q + qo, k, acc[i][j]);
        }
    }
}
