// Implicit GEMM view of a convolution (per group g):
//   GEMM-M = N*P*Q output pixels, GEMM-N = K/groups filters, GEMM-K = C/groups*R*S taps.
// The reduction index is ordered (r, s, c) with c fastest for NHWC activations (contiguous
// channels) and (c, r, s) with s fastest for NCHW (contiguous pixels along a row).
#ifndef VKCONV_IGEMM_PROBLEM_GLSL
#define VKCONV_IGEMM_PROBLEM_GLSL

struct Tap { uint c, r, s; };

Tap decodeTap(uint kidx, uint Cg) {
    Tap t;
    if (IN_LAYOUT == 1u) {
        t.c = kidx % Cg; uint rs = kidx / Cg;
        t.s = rs % pc.S; t.r = rs / pc.S;
    } else {
        t.s = kidx % pc.S; uint cr = kidx / pc.S;
        t.r = cr % pc.R; t.c = cr / pc.R;
    }
    return t;
}

// Filter offset of (k, tap).  When the filter layout matches the reduction order (KRSC with
// NHWC, KCRS with NCHW) a filter row is contiguous in kidx.
uint filterTapOffset(uint k, uint kidx, Tap t, uint Cg, uint Kred) {
    if ((IN_LAYOUT == 1u && FILTER_LAYOUT == 1u) || (IN_LAYOUT == 0u && FILTER_LAYOUT == 0u)) return k * Kred + kidx;
    return filterOffset(FILTER_LAYOUT, k, t.c, t.r, t.s, Cg, pc.R, pc.S);
}

#endif
