#version 460
// Peak probe: read bandwidth from the last-level cache (vkconv-bench --peak).  The source buffer
// (`count` 16-byte elements, a power of two) is small enough to stay in the cache (the H200's L2
// is 50 MB) and large enough that a compute unit's first-level cache cannot hold what it reads;
// each invocation reads `iters` elements, neighbours reading neighbours (coalesced), the whole
// grid's window moving by its size plus `skew` elements per read so that a workgroup never
// meets data it read before until it has swept the buffer; it writes their sum.  The implicit
// GEMMs stage their operands from the L2 the same way, 16 bytes per invocation per load.
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x = 256) in;
layout(push_constant) uniform CacheReadParams { uint count; uint iters; uint skew; } pc;
layout(set = 0, binding = 0, std430) readonly buffer SrcBuf { uvec4 src_[]; };
layout(set = 0, binding = 1, std430) writeonly buffer DstBuf { uvec4 dst_[]; };

void main() {
    uint threads = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x;
    uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    // Four independent sums so that four loads are in flight per invocation.
    uvec4 acc[4] = uvec4[4](uvec4(0u), uvec4(0u), uvec4(0u), uvec4(0u));
    uint e = i, mask = pc.count - 1u, step = threads + pc.skew;
    for (uint k = 0u; k < pc.iters; k += 4u) {
        [[unroll]] for (uint j = 0u; j < 4u; ++j) {
            acc[j] += src_[e & mask];
            e += step;
        }
    }
    dst_[i] = acc[0] + acc[1] + acc[2] + acc[3];
}
