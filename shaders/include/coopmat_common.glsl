// What the cooperative-matrix kernels share: the extensions, the 16-bit element type, its bits
// packed two per 32-bit word (low half first), fp32 results packed for 16-byte stores, and the
// CM_EMULATE stand-in for coopMatLoad (test-only variants, lavapipe in CI).
//
// Include after dtype.glsl.  The including shader declares `shared uvec4 smem[]` (8 16-bit values
// per word) before it uses cmElem.
#ifndef VKCONV_COOPMAT_COMMON_GLSL
#define VKCONV_COOPMAT_COMMON_GLSL
#if !defined(CM_EMULATE)
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#endif
#extension GL_KHR_shader_subgroup_basic : require
#if defined(CM_EMULATE)
#extension GL_KHR_shader_subgroup_shuffle : require  // the emulated fp16 scratch packs lane pairs
#endif
#if defined(DTYPE_F16)
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#elif defined(DTYPE_BF16)
#if !defined(CM_EMULATE)
#extension GL_EXT_bfloat16 : require
#endif
#else
#error "cooperative-matrix kernels: define DTYPE_F16 or DTYPE_BF16 (fp32 is the scalar kernels' job)"
#endif

#if defined(DTYPE_F16)
#define CM_T float16_t
#define ELEM_BITS(v) packFloat2x16(f16vec2((v), float16_t(0.0)))
#define PACK_OUT(a, b) packFloat2x16(f16vec2(float16_t(a), float16_t(b)))
#else
#define CM_T bfloat16_t
#define ELEM_BITS(v) uint(v)
#define PACK_OUT(a, b) (bf16BitsRne(a) | (bf16BitsRne(b) << 16))
#endif
#define PACK2(lo, hi) (ELEM_BITS(lo) | (ELEM_BITS(hi) << 16))

// Element (r, c) of the matrix coopMatLoad(m, smem, base, stride, layout) would load: base and
// stride in 16-byte words, elements 16-bit.
#define CM_ELEM_FUNCTION                                                                        \
    float cmElem(uint base, uint stride, bool colMajor, uint r, uint c) {                       \
        uint h = base * 8u + (colMajor ? c * stride * 8u + r : r * stride * 8u + c);            \
        return cmBitsToFloat(smem[h >> 3][(h >> 1) & 3u], (h & 1u) == 1u);                     \
    }

float cmBitsToFloat(uint w, bool high) {
#if defined(DTYPE_F16)
    vec2 p = unpackHalf2x16(w);
    return high ? p.y : p.x;
#else
    return uintBitsToFloat(high ? w & 0xFFFF0000u : w << 16);  // bf16: the top half of an fp32
#endif
}
#endif
