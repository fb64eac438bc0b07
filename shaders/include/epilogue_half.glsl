// The matrix kernels' fp16 scratch (their EPI16 specialization constant; the host's choice: fp16
// NHWC output in 16-byte words with nothing fused, on a device reporting a 16-bit accumulator of
// the fragment's size).  An accumulator is converted to fp16 in registers and stored row-major
// (pixel rows of filters) into the subgroup's scratch as 16-bit values, half the bytes of the fp32
// scratch; each invocation then copies 16-byte words of 8 filters to the output as they are.
// With nothing fused the output is the accumulator rounded once, as through the fp32 scratch.
// Rows are an odd number of 16-byte words apart, so the eight rows that one 16-byte access phase
// touches fall in distinct bank groups (the read-back walks pixels fastest for the same reason).
//
// Include after coopmat_common.glsl, in a shader that declares `shared uvec4 smem[]`.
#ifndef VKCONV_EPILOGUE_HALF_GLSL
#define VKCONV_EPILOGUE_HALF_GLSL

#if defined(DTYPE_F16) && !defined(CM_EMULATE)
#define MAT_C16(M_, N_) coopmat<float16_t, gl_ScopeSubgroup, M_, N_, gl_MatrixUseAccumulator>
#endif

// CM_EMULATE: element (e / n, e % n) of an n-column accumulator, value v, written as fp16 into
// the scratch at word `scratch` with rows `ld` words apart.  Element e + 1 (the next column) is
// the next invocation's, so the even one packs the pair: every invocation must call this.
#if defined(CM_EMULATE)
void emuHalfScratch(uint scratch, uint ld, uint n, uint e, float v) {
    float hi = subgroupShuffleXor(v, 1u);
    uint h = scratch * 8u + (e / n) * ld * 8u + e % n;  // 16-bit element index
    if ((e & 1u) == 0u) smem[h >> 3][(h >> 1) & 3u] = PACK_OUT(v, hi);
}
#endif

#endif
