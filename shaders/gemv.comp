#version 460
// "gemv": layers whose output is a few pixels (squeeze-excitation 1x1 layers on a 1x1 map, a
// classifier over a 2x2 map): a matrix-vector product whose time is the filter's read.  Each
// filter row is a contiguous run of D = C/groups * R * S values (a 1x1 filter in either layout,
// or a filter covering the whole input with the activations in the filter's order), and each
// output pixel reads a run of D input values, dstride elements apart (H*W for a 1x1 filter over
// NCHW activations, else 1).
//
// A team of LANES invocations owns one filter row: it reads the row once, in 16-byte words where
// the rows are 16-byte aligned (VEC_W; element loads otherwise), each word against the MP pixels'
// matching input values, which the workgroup stages once per chunk of NVC words in shared memory
// (fp32; zero past the problem's pixels and the row's end).  The team's partial sums are added
// over its lanes by subgroup operations: a butterfly of shuffles where the team is smaller than
// the subgroup, subgroupAdd where it is the subgroup, and subgroupAdd then shared memory across
// the team's subgroups where it is larger.  No subgroup size is assumed: the branch is taken on
// gl_SubgroupSize, and the teams are numbered by subgroup (full subgroups: the host requires
// them).  The sums come in a fixed order: the result does not depend on timing.
#extension GL_GOOGLE_include_directive : require
// The accumulators must stay in registers: every loop over them unrolls.
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "epilogue.glsl"

// 16-byte views of the input and the filter (4 fp32 or 8 16-bit values per word).
layout(set = 0, binding = 0, std430) readonly buffer InputBuf16 { uvec4 x16_[]; };
layout(set = 0, binding = 1, std430) readonly buffer FilterBuf16 { uvec4 w16_[]; };

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(constant_id = 101) const uint LANES = 32;   // invocations per filter row (a power of two)
layout(constant_id = 102) const uint MP = 1;       // pixels staged (at least N*P*Q)
layout(constant_id = 103) const uint NVC = 64;     // 16-byte words of a row per staged chunk
layout(constant_id = 104) const bool VEC_W = true; // 16-byte filter loads (D % EPV == 0, aligned view)
layout(constant_id = 105) const bool VEC_X = true; // 16-byte input staging (and dstride == 1)
layout(constant_id = 106) const uint REDN = 1;     // floats of the cross-subgroup sums
layout(local_size_x_id = 100) in;

#if defined(DTYPE_F32)
const uint EPV = 4u;  // values per 16-byte word
#else
const uint EPV = 8u;
#endif
const uint HV = EPV / 4u;          // vec4s per word
const uint ROWS = WG_SIZE / LANES; // filter rows per workgroup
// Words in flight per invocation: fewer where each feeds many pixels (the unrolled body stays
// small; the host's kWordsPerLane mirrors it).
const uint UNR = MP >= 16u ? 1u : MP >= 8u ? 2u : 4u;
const uint STAGE_BATCH = 4u;       // staging loads issued before their stores

// Word v of pixel j's chunk: xs[(j * HV + h) * NVC + v] holds its values 4h .. 4h + 3, so the
// lanes of a team read consecutive vec4s and the teams of a subgroup the same ones.
shared vec4 xs[MP * HV * NVC];
shared float red[REDN];

// A 16-byte word as HV vec4s.
void unpackWord(uvec4 raw, out vec4 lo, out vec4 hi) {
#if defined(DTYPE_F32)
    lo = uintBitsToFloat(raw);
    hi = lo;
#elif defined(DTYPE_F16)
    lo = vec4(unpackHalf2x16(raw.x), unpackHalf2x16(raw.y));
    hi = vec4(unpackHalf2x16(raw.z), unpackHalf2x16(raw.w));
#else
    lo = uintBitsToFloat(uvec4(raw.x << 16, raw.x & 0xFFFF0000u, raw.y << 16, raw.y & 0xFFFF0000u));
    hi = uintBitsToFloat(uvec4(raw.z << 16, raw.z & 0xFFFF0000u, raw.w << 16, raw.w & 0xFFFF0000u));
#endif
}

void storeWord(uint j, uint v, vec4 lo, vec4 hi) {
    xs[(j * HV) * NVC + v] = lo;
    if (HV > 1u) xs[(j * HV + 1u) * NVC + v] = hi;
}

// The element offset of pixel m's first reduction value of group g.
uint pixelBase(uint m, uint g, uint Cg) {
    uint PQ = pc.P * pc.Q;
    uint n = m / PQ, pq = m % PQ;
    uint ih = (pq / pc.Q) * pc.strideH, iw = (pq % pc.Q) * pc.strideW;
    return IN_LAYOUT == 1u ? ((n * pc.H + ih) * pc.W + iw) * pc.C + g * Cg
                           : (n * pc.C + g * Cg) * pc.H * pc.W + ih * pc.W + iw;
}

// Stages words [0, nv) of the chunk at value d0 (dn values) of every pixel into xs.
void stage(uint d0, uint dn, uint nv, uint g, uint Cg, uint M, uint D, uint dstride, uint tid) {
    if (VEC_X) {
        for (uint i0 = 0u; i0 < MP * nv; i0 += STAGE_BATCH * WG_SIZE) {
            uvec4 raw[STAGE_BATCH];
            [[unroll]] for (uint b = 0u; b < STAGE_BATCH; ++b) {
                uint i = i0 + b * WG_SIZE + tid, j = i / nv, v = i % nv;
                raw[b] = uvec4(0u);
                if (i < MP * nv && j < M) raw[b] = x16_[(pixelBase(j, g, Cg) + d0) / EPV + v];
            }
            [[unroll]] for (uint b = 0u; b < STAGE_BATCH; ++b) {
                uint i = i0 + b * WG_SIZE + tid;
                if (i < MP * nv) {
                    vec4 lo, hi;
                    unpackWord(raw[b], lo, hi);
                    storeWord(i / nv, i % nv, lo, hi);
                }
            }
        }
    } else {
        uint ne = nv * EPV;
        for (uint i0 = 0u; i0 < MP * ne; i0 += STAGE_BATCH * WG_SIZE) {
            float val[STAGE_BATCH];
            [[unroll]] for (uint b = 0u; b < STAGE_BATCH; ++b) {
                uint i = i0 + b * WG_SIZE + tid, j = i / ne, e = i % ne;
                val[b] = 0.0;
                if (i < MP * ne && j < M && e < dn) val[b] = toF32(x_[pixelBase(j, g, Cg) + (d0 + e) * dstride]);
            }
            [[unroll]] for (uint b = 0u; b < STAGE_BATCH; ++b) {
                uint i = i0 + b * WG_SIZE + tid, j = i / ne, e = i % ne;
                if (i < MP * ne) xs[(j * HV + (e % EPV) / 4u) * NVC + e / EPV][e % 4u] = val[b];
            }
        }
    }
}

// Word v of the chunk at d0 of filter row `row` (zero past the row's end).
void loadFilter(uint row, uint d0, uint v, uint D, out vec4 lo, out vec4 hi) {
    if (VEC_W) {
        unpackWord(w16_[(row * D + d0) / EPV + v], lo, hi);
    } else {
        float f[8];
        [[unroll]] for (uint i = 0u; i < 8u; ++i) {
            uint e = d0 + v * EPV + i;
            f[i] = 0.0;
            if (i < EPV && e < D) f[i] = toF32(w_[row * D + e]);
        }
        lo = vec4(f[0], f[1], f[2], f[3]);
        hi = HV > 1u ? vec4(f[4], f[5], f[6], f[7]) : lo;
    }
}

void main() {
    uint tid = gl_LocalInvocationIndex;
    uint S = gl_SubgroupSize;
    // Teams are runs of LANES invocations in subgroup order (every subgroup full).
    uint vl = gl_SubgroupID * S + gl_SubgroupInvocationID;
    uint team = vl / LANES, lane = vl % LANES;
    uint g = gl_WorkGroupID.y;
    uint Cg = pc.C / pc.groups, Kg = pc.K / pc.groups;
    uint D = pc.aux0, dstride = pc.aux1;
    uint PQ = pc.P * pc.Q, M = pc.N * PQ;
    uint k = gl_WorkGroupID.x * ROWS + team;  // filter within the group
    bool rowOk = k < Kg;
    uint row = g * Kg + k;

    float acc[MP];
    [[unroll]] for (uint j = 0u; j < MP; ++j) acc[j] = 0.0;

    for (uint d0 = 0u; d0 < D; d0 += NVC * EPV) {
        uint dn = min(NVC * EPV, D - d0);
        uint nv = (dn + EPV - 1u) / EPV;
        if (d0 > 0u) barrier();  // every team is done with the previous chunk
        stage(d0, dn, nv, g, Cg, M, D, dstride, tid);
        barrier();
        if (rowOk) {
            for (uint v0 = lane; v0 < nv; v0 += LANES * UNR) {
                vec4 wlo[UNR], whi[UNR];
                [[unroll]] for (uint u = 0u; u < UNR; ++u) {
                    uint v = v0 + u * LANES;
                    wlo[u] = vec4(0.0);
                    whi[u] = vec4(0.0);
                    if (v < nv) loadFilter(row, d0, v, D, wlo[u], whi[u]);
                }
                [[unroll]] for (uint u = 0u; u < UNR; ++u) {
                    uint v = v0 + u * LANES;
                    if (v < nv) {
                        [[unroll]] for (uint j = 0u; j < MP; ++j) {
                            float s = acc[j] + dot(wlo[u], xs[(j * HV) * NVC + v]);
                            if (HV > 1u) s += dot(whi[u], xs[(j * HV + 1u) * NVC + v]);
                            acc[j] = s;
                        }
                    }
                }
            }
        }
    }

    // The team's sums.  LANES and gl_SubgroupSize are uniform: every branch below is too.
    if (LANES < S) {
        [[unroll]] for (uint j = 0u; j < MP; ++j)
            [[unroll]] for (uint m = LANES >> 1; m > 0u; m >>= 1) acc[j] += subgroupShuffleXor(acc[j], m);
    } else {
        [[unroll]] for (uint j = 0u; j < MP; ++j) acc[j] = subgroupAdd(acc[j]);
    }
    if (LANES > S) {
        // One sum per subgroup and pixel; the team's lane j % LANES adds its subgroups' for pixel j.
        if (gl_SubgroupInvocationID == 0u)
            [[unroll]] for (uint j = 0u; j < MP; ++j) red[gl_SubgroupID * MP + j] = acc[j];
        barrier();
        uint first = team * (LANES / S), count = LANES / S;
        [[unroll]] for (uint j = 0u; j < MP; ++j) {
            if (j % LANES == lane) {
                float s = 0.0;
                for (uint i = 0u; i < count; ++i) s += red[(first + i) * MP + j];
                acc[j] = s;
            }
        }
    }
    if (!rowOk) return;
    [[unroll]] for (uint j = 0u; j < MP; ++j) {
        if (j < M && j % LANES == lane) {
            uint n = j / PQ, pq = j % PQ;
            storeOutput(OUT_LAYOUT == 1u ? j * pc.K + row : (n * pc.K + row) * PQ + pq, row, acc[j]);
        }
    }
}
