#version 460
// "direct_few_filters": layers with few filters per group (K/groups <= 8; e.g. the RGB output
// layer of an image decoder, K = 3) and reductions of any length.  A GEMM tile is 16+ filters
// wide, so such a layer wastes most of every tile (the SD-VAE decoder's last layer used 3 of a
// coopmat tile's 64 columns).  Here an invocation owns PX output pixels x all KP filters (K/groups
// padded to 4 or 8) in registers and walks the reduction channel group outer, filter tap inner:
// the input a pixel reads at its R x S taps is what its neighbours read at theirs, so a
// workgroup's input comes from L1 after its first touch and crosses L2 about once.
//
// CL invocations share a pixel: each reads CV channels (one 16-byte load for NHWC input, so a
// pixel's CL loads are one contiguous run; CL = 1 otherwise, except that the element-load
// fallback of a CL > 1 pipeline keeps CL with CV = 1) of every CL*CV, and their partial sums are
// added through shared memory at the end.  Pixel j of invocation t in pixel tile `tile` is
// m = (tile * PX + j) * (WG_SIZE / CL) + t / CL: neighbouring pixel slots are neighbouring pixels
// (contiguous addresses for NCHW input).  The workgroups stride over the pixel tiles (the host
// launches a few per compute unit).  The filters of CC channels at a time sit in shared memory
// ordered so that the CL invocations of a pixel read CL consecutive vec4s and the pixels of a
// subgroup the same ones (broadcasts); a layer whose filters fit one chunk stages them once per
// workgroup.  Padding: each pixel's tap-validity mask (bit r*FS+s) is computed once per tile; a
// tile whose pixels are all interior loads with no tests, others under the mask bit, with no
// bounds arithmetic either way ("optimized" iterator in CUTLASS's terms).  Any subgroup size:
// the kernel uses no subgroup operations.
#extension GL_GOOGLE_include_directive : require
// The accumulators must stay in registers: every loop over them unrolls.
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "epilogue.glsl"

// 16-byte view of the input (4 fp32 or 8 16-bit channels of one NHWC pixel per load).
layout(set = 0, binding = 0, std430) readonly buffer InputBuf16 { uvec4 x16_[]; };

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(constant_id = 101) const uint PX = 4;   // output pixels per invocation
layout(constant_id = 102) const uint KP = 4;   // filters per invocation (K/groups padded to 4 or 8)
layout(constant_id = 103) const uint CC = 64;  // channels whose filters are staged at once
layout(constant_id = 104) const uint FR = 3;   // filter rows == pc.R
layout(constant_id = 105) const uint FS = 3;   // filter columns == pc.S (FR * FS <= 32: one mask word)
layout(constant_id = 106) const bool VEC = false;  // NHWC input, 16-byte channel loads
layout(constant_id = 107) const uint CL = 1;       // invocations per pixel (a power of two; 1 unless VEC)
layout(local_size_x_id = 100) in;

const uint RS = FR * FS;
const uint KV = KP / 4u;
#if defined(DTYPE_F32)
const uint EPV = 4u;  // elements per 16-byte load
#else
const uint EPV = 8u;
#endif
const uint CV = VEC ? EPV : 1u;  // channels per input access
const uint CB = CL * CV;         // channels per step of a pixel's CL invocations
const uint SLOTS = WG_SIZE / CL; // pixels per workgroup and j
const uint STAGE_BATCH = 4u;
// Filters: channel c = b*CB + l*CV + u of a chunk at vec4 ((b*RS + rs)*CV + u)*CL*KV + l*KV + k/4.
shared vec4 wsm[CC * RS * KV];
// CL > 1: the partial sums of one pixel per slot, [slot][lane][KP] (one vec4 otherwise).
shared vec4 red[CL > 1u ? WG_SIZE * KV : 1u];

// Element i of a 16-byte load as fp32.
float elem16(uvec4 v, uint i) {
#if defined(DTYPE_F32)
    return uintBitsToFloat(v[i]);
#elif defined(DTYPE_F16)
    return unpackHalf2x16(v[i >> 1])[i & 1u];
#else
    return uintBitsToFloat((i & 1u) == 0u ? v[i >> 1] << 16 : v[i >> 1] & 0xFFFF0000u);
#endif
}

// Stages the filters of channels [c0, c0 + CC) into wsm (zero past the group's filters and
// channels).  Neighbouring invocations read neighbouring elements of the filter's own layout (c
// fastest for KRSC, s for KCRS); STAGE_BATCH loads are issued before their stores.
void stageFilters(uint c0, uint Cg, uint Kg, uint kBase, uint tid) {
    for (uint b0 = 0u; b0 < CC * RS * KP; b0 += STAGE_BATCH * WG_SIZE) {
        float v[STAGE_BATCH];
        uint dst[STAGE_BATCH];
        [[unroll]] for (uint i = 0u; i < STAGE_BATCH; ++i) {
            uint e = b0 + i * WG_SIZE + tid, k, rs, cl;
            if (FILTER_LAYOUT == 1u) { cl = e % CC; rs = (e / CC) % RS; k = e / (CC * RS); }
            else { rs = e % RS; cl = (e / RS) % CC; k = e / (CC * RS); }
            uint c = c0 + cl;
            v[i] = 0.0;
            if (k < Kg && c < Cg) v[i] = toF32(w_[filterOffset(FILTER_LAYOUT, kBase + k, c, rs / FS, rs % FS, Cg, FR, FS)]);
            uint b = cl / CB, l = (cl % CB) / CV, u = cl % CV;
            dst[i] = e < CC * RS * KP ? (((b * RS + rs) * CV + u) * CL * KV + l * KV) * 4u + k : ~0u;
        }
        [[unroll]] for (uint i = 0u; i < STAGE_BATCH; ++i)
            if (dst[i] != ~0u) wsm[dst[i] >> 2][dst[i] & 3u] = v[i];
    }
}

// One channel block (CB channels: CV per invocation) at every tap into the accumulators; CHECK:
// load each tap under its mask bit (border pixels), else unconditionally (interior pixels).  The
// filter rows stay a loop: unrolling them too made the body FR times larger (a 3x3 fp16 NHWC
// variant took ~18 s of LLVM in lavapipe) for no measured gain.
#define CHANNEL_BLOCK(CHECK)                                                                    \
    [[dont_unroll]] for (uint r = 0u; r < FR; ++r)                                              \
        [[unroll]] for (uint s = 0u; s < FS; ++s) {                                             \
            uint rs = r * FS + s;                                                               \
            int tapOff = cOff + int(r * pc.dilH) * rowStep + int(s * pc.dilW) * colStep;        \
            float xv[PX][CV];                                                                   \
            [[unroll]] for (uint j = 0u; j < PX; ++j) {                                         \
                bool ok = !(CHECK) || (mask[j] & (1u << rs)) != 0u;                             \
                if (VEC) {                                                                      \
                    uvec4 raw = uvec4(0u);                                                      \
                    if (ok) raw = x16_[uint(base[j] + tapOff) / EPV];                           \
                    [[unroll]] for (uint u = 0u; u < CV; ++u) xv[j][u] = elem16(raw, u);        \
                } else {                                                                        \
                    xv[j][0] = 0.0;                                                             \
                    if (ok) xv[j][0] = toF32(x_[uint(base[j] + tapOff)]);                       \
                }                                                                               \
            }                                                                                   \
            [[unroll]] for (uint u = 0u; u < CV; ++u)                                           \
                [[unroll]] for (uint h = 0u; h < KV; ++h) {                                     \
                    vec4 wv = wsm[wBase + (rs * CV + u) * CL * KV + h];                         \
                    [[unroll]] for (uint j = 0u; j < PX; ++j)                                   \
                        [[unroll]] for (uint i = 0u; i < 4u; ++i)                               \
                            acc[j][h * 4u + i] = fma(xv[j][u], wv[i], acc[j][h * 4u + i]);      \
                }                                                                               \
        }

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint lane = tid % CL, slot = tid / CL;
    uint g = gl_WorkGroupID.y;
    uint PQ = pc.P * pc.Q, M = pc.N * PQ;
    uint Cg = pc.C / pc.groups, Kg = pc.K / pc.groups;
    uint cBase = g * Cg, kBase = g * Kg;
    bool nhwc = IN_LAYOUT == 1u;
    // Element steps: one channel, one input row, one input column.
    int cStep = nhwc ? 1 : int(pc.H * pc.W);
    int colStep = nhwc ? int(pc.C) : 1;
    int rowStep = int(pc.W) * colStep;
    const uint FULL = RS == 32u ? ~0u : (1u << RS) - 1u;

    // The workgroups stride over the pixel tiles (a grid of a few per compute unit), so that a
    // layer whose filters fit one chunk stages them once per workgroup, not once per tile.
    uint tiles = (M + SLOTS * PX - 1u) / (SLOTS * PX);
    bool oneChunk = Cg <= CC;
    if (oneChunk) {
        stageFilters(0u, Cg, Kg, kBase, tid);
        barrier();
    }
    for (uint tile = gl_WorkGroupID.x; tile < tiles; tile += gl_NumWorkGroups.x) {
        // Per pixel: the offset of tap (0, 0) at the group's first channel (negative or past a
        // row when that tap is padding: only valid taps are loaded) and the taps' validity mask.
        int base[PX];
        uint mask[PX];
        bool interior = true;
        [[unroll]] for (uint j = 0u; j < PX; ++j) {
            uint m = (tile * PX + j) * SLOTS + slot;
            base[j] = 0;
            mask[j] = 0u;
            if (m < M) {
                uint n = m / PQ, pq = m % PQ, p = pq / pc.Q, q = pq % pc.Q;
                int ih0 = int(p * pc.strideH) - int(pc.padT), iw0 = int(q * pc.strideW) - int(pc.padL);
                [[unroll]] for (uint r = 0u; r < FR; ++r) {
                    int ih = ih0 + int(r * pc.dilH);
                    [[unroll]] for (uint s = 0u; s < FS; ++s) {
                        int iw = iw0 + int(s * pc.dilW);
                        if (ih >= 0 && ih < int(pc.H) && iw >= 0 && iw < int(pc.W)) mask[j] |= 1u << (r * FS + s);
                    }
                }
                base[j] = nhwc ? ((int(n * pc.H) + ih0) * int(pc.W) + iw0) * int(pc.C) + int(cBase)
                               : int((n * pc.C + cBase) * pc.H * pc.W) + ih0 * int(pc.W) + iw0;
            }
            interior = interior && mask[j] == FULL;
        }

        float acc[PX][KP];
        [[unroll]] for (uint j = 0u; j < PX; ++j)
            [[unroll]] for (uint k = 0u; k < KP; ++k) acc[j][k] = 0.0;

        for (uint c0 = 0u; c0 < Cg; c0 += CC) {
            if (!oneChunk) {
                barrier();  // every invocation is done with the previous chunk's filters
                stageFilters(c0, Cg, Kg, kBase, tid);
                barrier();
            }
            uint cn = min(CC, Cg - c0);  // a multiple of CB (the host's choice of CL and CC)
            for (uint cb = 0u; cb < cn; cb += CB) {
                int cOff = int(c0 + cb + lane * CV) * cStep;
                uint wBase = (cb / CB) * RS * CV * CL * KV + lane * KV;
                if (interior) {
                    CHANNEL_BLOCK(false)
                } else {
                    CHANNEL_BLOCK(true)
                }
            }
        }

        if (CL > 1u) {
            // A pixel's CL partial sums: each invocation adds up KP / CL filters (at least one;
            // the rest idle when CL > KP) over the pixel's lanes, then stores them.
            [[unroll]] for (uint j = 0u; j < PX; ++j) {
                barrier();  // the previous pixel's (or tile's) sums are read
                [[unroll]] for (uint h = 0u; h < KV; ++h)
                    red[tid * KV + h] = vec4(acc[j][h * 4u], acc[j][h * 4u + 1u], acc[j][h * 4u + 2u], acc[j][h * 4u + 3u]);
                barrier();
                uint m = (tile * PX + j) * SLOTS + slot;
                if (m < M) {
                    uint n = m / PQ, pq = m % PQ;
                    for (uint k = lane; k < Kg; k += CL) {
                        float sum = 0.0;
                        for (uint l = 0u; l < CL; ++l) sum += red[(slot * CL + l) * KV + k / 4u][k % 4u];
                        uint kk = kBase + k;
                        storeOutput(OUT_LAYOUT == 1u ? m * pc.K + kk : (n * pc.K + kk) * PQ + pq, kk, sum);
                    }
                }
            }
        } else {
            [[unroll]] for (uint j = 0u; j < PX; ++j) {
                uint m = (tile * PX + j) * SLOTS + slot;
                if (m >= M) break;
                uint n = m / PQ, pq = m % PQ;
                [[unroll]] for (uint k = 0u; k < KP; ++k) {
                    if (k >= Kg) break;
                    uint kk = kBase + k;
                    storeOutput(OUT_LAYOUT == 1u ? m * pc.K + kk : (n * pc.K + kk) * PQ + pq, kk, acc[j][k]);
                }
            }
        }
    }
}
