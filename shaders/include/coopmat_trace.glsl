// Profiling only (CM_TRACE builds, which vkconv-bench --trace selects): lane 0 of every
// subgroup reads its clock at the slice loop's phase boundaries and writes the readings to
// binding 5 (the plan's workspace), which bench/coopmat_trace.py turns into per-phase times.
// Layout, in 64-bit words (uvec2: low, high):
//   [0, 8)  header, written by workgroup (0, 0): magic "VKTR" | version, (gx, gy), (subgroups per
//           workgroup, record words), (slices traced, BM), (BN, BK), (reduction slices, epilogue rounds traced), 0, 0
//   then one record of TR_WORDS per subgroup, workgroup-major (x fastest), subgroup within it:
//   [0] device clock (ns-scale, comparable across units) at the start   [1] subgroup clock there
//   [2] subgroup clock after the first slice is staged (the prologue's barrier)
//   [3] at the epilogue's start (after the last slice)   [4] at the epilogue's end
//   [5] device clock at the end   [6] (slices this workgroup ran, subgroup index)   [7] (epilogue rounds, 0)
//   [8 + 3s] after slice s's products   [9 + 3s] before its closing barrier (the next slice
//   staged)   [10 + 3s] after that barrier, for s < TR_SLICES
//   [8 + 3 TR_SLICES + 3e] epilogue round e (one accumulator): its values in the scratch (after
//   the barrier that makes them visible)   [+1] its global stores issued   [+2] after the round's
//   closing barrier, for e < TR_ROUNDS.
// Each reading costs about 130 cycles on the H200 (two readings with nothing between them), which
// every phase above includes once; traced layers run noticeably slower than untraced ones.
#ifndef VKCONV_COOPMAT_TRACE_GLSL
#define VKCONV_COOPMAT_TRACE_GLSL
#ifdef CM_TRACE
#extension GL_ARB_shader_clock : require
#extension GL_EXT_shader_realtime_clock : require
layout(set = 0, binding = 5, std430) writeonly buffer TraceBuf { uvec2 tr_[]; };
const uint TR_SLICES = 64u;
const uint TR_HEAD = 8u;
const uint TR_ROUNDS = 16u;
const uint TR_WORDS = 8u + 3u * TR_SLICES + 3u * TR_ROUNDS;  // src/conv/algo_implicit_gemm_coopmat.cpp kTraceRecordWords
uint trBase = 0u;
bool trLane = false;
void traceBegin(uint subgroup, uint subgroups) {
    trLane = gl_SubgroupInvocationID == 0u;
    uint wg = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    trBase = TR_HEAD + (wg * subgroups + subgroup) * TR_WORDS;
    if (trLane) {
        tr_[trBase] = clockRealtime2x32EXT();
        tr_[trBase + 1u] = clock2x32ARB();
    }
}
void traceHeader(uvec2 w1, uvec2 w2, uvec2 w3, uvec2 w4, uvec2 w5) {
    if (gl_WorkGroupID.x == 0u && gl_WorkGroupID.y == 0u && gl_LocalInvocationID.x == 0u) {
        tr_[0] = uvec2(0x52544B56u, 1u);  // "VKTR", version 1
        tr_[1] = w1; tr_[2] = w2; tr_[3] = w3; tr_[4] = w4; tr_[5] = w5;
        tr_[6] = uvec2(0u); tr_[7] = uvec2(0u);
    }
}
#define TRACE_AT(slot) { if (trLane) tr_[trBase + (slot)] = clock2x32ARB(); }
#define TRACE_ROUND(e, k) { if (trLane && (e) < TR_ROUNDS) tr_[trBase + 8u + 3u * TR_SLICES + 3u * (e) + (k)] = clock2x32ARB(); }
#define TRACE_SLICE(sl, k) { if (trLane && (sl) < TR_SLICES) tr_[trBase + 8u + 3u * (sl) + (k)] = clock2x32ARB(); }
#define TRACE_END(nsl, subgroup, rounds)                                                        \
    {                                                                                           \
        if (trLane) {                                                                           \
            tr_[trBase + 4u] = clock2x32ARB();                                                  \
            tr_[trBase + 5u] = clockRealtime2x32EXT();                                          \
            tr_[trBase + 6u] = uvec2(nsl, subgroup);                                            \
            tr_[trBase + 7u] = uvec2(rounds, 0u);                                               \
        }                                                                                       \
    }
#else
#define TRACE_AT(slot)
#define TRACE_SLICE(sl, k)
#define TRACE_ROUND(e, k)
#define TRACE_END(nsl, subgroup, rounds)
#endif
#endif
