#version 460
// The bias gradient db[k] = sum of dy[n,k,p,q] over n, p and q: one workgroup per k, each
// invocation a fixed stride through the N*P*Q values, then a fixed shared-memory tree, so the
// result does not depend on scheduling.
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "wgrad_bindings.glsl"
#include "tensor_index.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(local_size_x_id = 100) in;

shared float partial[WG_SIZE];

void main() {
    uint k = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    uint lid = gl_LocalInvocationID.x;
    float acc = 0.0;
    if (k < pc.K) {
        uint pq = pc.P * pc.Q;
        for (uint i = lid; i < pc.N * pq; i += WG_SIZE) {
            uint n = i / pq, rem = i % pq;
            acc += toF32(dy_[activationOffset(OUT_LAYOUT, n, k, rem / pc.Q, rem % pc.Q, pc.K, pc.P, pc.Q)]);
        }
    }
    partial[lid] = acc;
    barrier();
    for (uint half_ = WG_SIZE / 2u; half_ > 0u; half_ /= 2u) {
        if (lid < half_) partial[lid] += partial[lid + half_];
        barrier();
    }
    if (lid == 0u && k < pc.K) {
        float v = partial[0];
        if (ACCUMULATE) v += toF32(db_[k]);
        db_[k] = fromF32(v);
    }
}
