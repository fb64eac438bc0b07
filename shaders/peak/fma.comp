#version 460
// Peak probe: FMA throughput (vkconv-bench --peak).  Every invocation runs 8 independent
// 4-wide chains acc = fma(acc, a, b) for 16 * iters steps.  a = 1 and b = 1 arrive as push
// constants, so the compiler cannot fold anything, and every component ends at exactly
// init + 16 * iters (init in 0..7); the per-invocation sum written out lets the host check that
// all the work ran.  PEAK_F16 selects f16vec4 (exact while 16 * iters + 7 <= 2048).
#extension GL_EXT_control_flow_attributes : require
#if defined(PEAK_F16)
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define VEC f16vec4
#define SCALAR float16_t
#else
#define VEC vec4
#define SCALAR float
#endif

layout(local_size_x = 256) in;
layout(push_constant) uniform PeakParams { uint iters; float a; float b; } pc;
layout(set = 0, binding = 0, std430) writeonly buffer OutBuf { float out_[]; };

void main() {
    uint gid = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    VEC a = VEC(SCALAR(pc.a));
    VEC b = VEC(SCALAR(pc.b));
    VEC acc[8];
    [[unroll]] for (uint j = 0u; j < 8u; ++j)
        acc[j] = VEC(SCALAR((gid + 4u * j) & 7u), SCALAR((gid + 4u * j + 1u) & 7u),
                     SCALAR((gid + 4u * j + 2u) & 7u), SCALAR((gid + 4u * j + 3u) & 7u));
    for (uint i = 0u; i < pc.iters; ++i) {
        [[unroll]] for (uint u = 0u; u < 16u; ++u) {
            [[unroll]] for (uint j = 0u; j < 8u; ++j) acc[j] = fma(acc[j], a, b);
        }
    }
    float sum = 0.0;
    [[unroll]] for (uint j = 0u; j < 8u; ++j)
        sum += float(acc[j].x) + float(acc[j].y) + float(acc[j].z) + float(acc[j].w);
    out_[gid] = sum;
}
