// Split-K: the reduction C/groups*R*S is cut into pc.splitK splits along gl_WorkGroupID.z.
// Pass 1 (implicit_gemm.comp built with SPLIT_K) writes each split's raw fp32 partial sums to the
// workspace; pass 2 (splitk_reduce.comp) adds the splits in a fixed order and runs the epilogue.
// Workspace (binding 5): pc.splitK fp32 copies of the output, each in the output's own layout, so
// partial z of the output element at offset `off` lives at z * (N*K*P*Q) + off (the host checks
// that splitK * N*K*P*Q fits 32-bit indexing and maxStorageBufferRange).
#ifndef VKCONV_SPLITK_GLSL
#define VKCONV_SPLITK_GLSL
#include "conv_params.glsl"

layout(set = 0, binding = 5, std430) buffer WorkspaceBuf { float ws_[]; };

uint outputElements() { return pc.N * pc.K * pc.P * pc.Q; }

uint workspaceOffset(uint z, uint outOffset) { return z * outputElements() + outOffset; }

// Split z's reduction slices: (first, count) of `slices`, balanced (counts differ by at most one,
// none empty while splitK <= slices; the host checks splitK * slices < 2^32).
uvec2 splitSlices(uint z, uint slices) {
    uint first = z * slices / pc.splitK;
    return uvec2(first, (z + 1u) * slices / pc.splitK - first);
}

#endif
