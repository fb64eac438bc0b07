#version 460
// Peak probe: memory bandwidth (vkconv-bench --peak).  Copies `count` 16-byte elements from
// src to dst, 4 per invocation, strided by the grid so that every load and store is coalesced.
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x = 256) in;
layout(push_constant) uniform CopyParams { uint count; } pc;
layout(set = 0, binding = 0, std430) readonly buffer SrcBuf { uvec4 src_[]; };
layout(set = 0, binding = 1, std430) writeonly buffer DstBuf { uvec4 dst_[]; };

void main() {
    uint threads = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x;
    uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    [[unroll]] for (uint j = 0u; j < 4u; ++j) {
        uint e = i + j * threads;
        if (e < pc.count) dst_[e] = src_[e];
    }
}
