// Element offsets of activations and filters in each layout, and the output coordinate
// decode, shared by every kernel so that no two kernels disagree on a layout.
#ifndef VKCONV_TENSOR_INDEX_GLSL
#define VKCONV_TENSOR_INDEX_GLSL

uint activationOffset(uint layout_, uint n, uint c, uint h, uint w, uint C, uint H, uint W) {
    return layout_ == 0u ? ((n * C + c) * H + h) * W + w : ((n * H + h) * W + w) * C + c;
}

// c is the channel within the group (0 .. C/groups-1).
uint filterOffset(uint layout_, uint k, uint c, uint r, uint s, uint Cg, uint R, uint S) {
    return layout_ == 0u ? ((k * Cg + c) * R + r) * S + s : ((k * R + r) * S + s) * Cg + c;
}

// Output coordinates of the element at memory offset `linear` of an N x K x P x Q tensor.
uvec4 decodeOutput(uint layout_, uint linear, uint K, uint P, uint Q) {
    uint n, k, p, q;
    if (layout_ == 0u) {
        q = linear % Q; linear /= Q;
        p = linear % P; linear /= P;
        k = linear % K; n = linear / K;
    } else {
        k = linear % K; linear /= K;
        q = linear % Q; linear /= Q;
        p = linear % P; n = linear / P;
    }
    return uvec4(n, k, p, q);
}

// The flat index of this invocation over a 2-D dispatch (grids larger than 65535 groups in x).
// The workgroup size is passed explicitly: gl_WorkGroupSize under local_size_x_id is not
// specialized by every driver (lavapipe leaves it at the default).
uint globalLinearIndex(uint workgroupSize) {
    return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * workgroupSize + gl_LocalInvocationID.x;
}

#endif
