// The backward-weight kernels' split reduction (wgrad_implicit_gemm.comp, wgrad_depthwise.comp,
// wgrad_reduce.comp).  dw is a GEMM per group: rows the K/groups filters, columns the
// C/groups x R x S taps in x's channel order, (c, r, s) for NCHW x and (r, s, c) for NHWC x, so
// that neighbouring columns are neighbouring addresses of x.  Split z (of pc.splitK) writes its
// fp32 partial sums to the workspace (binding 5) as [z][K][C/groups*R*S] in that column order,
// then the bias partials as [z][K] after all of them; wgrad_reduce.comp adds the splits in order
// z = 0, 1, ... (no atomics: the same bits every run) and writes dw in the filter layout.
// With one split the kernels write dw and db themselves (wgradStore*).
#ifndef VKCONV_WGRAD_PARTIALS_GLSL
#define VKCONV_WGRAD_PARTIALS_GLSL
#include "conv_params.glsl"
#include "tensor_index.glsl"

uint wgradTaps() { return (pc.C / pc.groups) * pc.R * pc.S; }

// Column j of the GEMM -> (c, r, s) (c within the group).
uvec3 wgradColumnTap(uint j) {
    uint Cg = pc.C / pc.groups;
    if (IN_LAYOUT == 0u) return uvec3(j / (pc.R * pc.S), (j / pc.S) % pc.R, j % pc.S);
    return uvec3(j % Cg, (j / Cg) / pc.S, (j / Cg) % pc.S);
}
uint wgradColumnOf(uint c, uint r, uint s) {
    return IN_LAYOUT == 0u ? (c * pc.R + r) * pc.S + s : (r * pc.S + s) * (pc.C / pc.groups) + c;
}

uint wgradPartialOffset(uint z, uint k, uint j) { return (z * pc.K + k) * wgradTaps() + j; }
uint wgradBiasPartialOffset(uint z, uint k) { return pc.splitK * pc.K * wgradTaps() + z * pc.K + k; }

// One split: dw[k, tap j] (and db[k]) written directly, the old value added with ACCUMULATE.
void wgradStoreFilter(uint k, uint j, float v) {
    uvec3 t = wgradColumnTap(j);
    uint off = filterOffset(FILTER_LAYOUT, k, t.x, t.y, t.z, pc.C / pc.groups, pc.R, pc.S);
    if (ACCUMULATE) v += toF32(dw_[off]);
    dw_[off] = fromF32(v);
}
void wgradStoreBias(uint k, float v) {
    if (ACCUMULATE) v += toF32(db_[k]);
    db_[k] = fromF32(v);
}

#endif
