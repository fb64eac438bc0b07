#version 460
// The backward-weight kernels' second pass (wgrad_partials.glsl): one invocation per dw element,
// in dw's memory order, then one per bias element.  Adds the pc.splitK fp32 partials in the fixed
// order z = 0, 1, ... (deterministic, no atomics), adds the old gradient with ACCUMULATE and
// converts to the storage dtype.
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "wgrad_bindings.glsl"
#include "tensor_index.glsl"
#include "wgrad_partials.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(local_size_x_id = 100) in;

void main() {
    uint idx = globalLinearIndex(WG_SIZE);
    uint Cg = pc.C / pc.groups, taps = wgradTaps();
    uint filterElems = pc.K * taps;
    if (idx < filterElems) {
        uint k = idx / taps, t = idx % taps, c, r, s;
        if (FILTER_LAYOUT == 0u) {
            s = t % pc.S; t /= pc.S;
            r = t % pc.R; c = t / pc.R;
        } else {
            c = t % Cg; t /= Cg;
            s = t % pc.S; r = t / pc.S;
        }
        uint j = wgradColumnOf(c, r, s);
        float v = ws_[wgradPartialOffset(0u, k, j)];
        for (uint z = 1u; z < pc.splitK; ++z) v += ws_[wgradPartialOffset(z, k, j)];
        if (ACCUMULATE) v += toF32(dw_[idx]);
        dw_[idx] = fromF32(v);
    } else if (HAS_BIAS && idx < filterElems + pc.K) {
        uint k = idx - filterElems;
        float v = ws_[wgradBiasPartialOffset(0u, k)];
        for (uint z = 1u; z < pc.splitK; ++z) v += ws_[wgradBiasPartialOffset(z, k)];
        wgradStoreBias(k, v);
    }
}
