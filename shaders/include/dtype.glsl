// Storage type of every tensor (one variant per type) and its conversion to/from fp32.
// Arithmetic is fp32 everywhere; 16-bit types only change what is loaded and stored.
// bf16 is emulated with 16-bit integers (top half of an fp32) so it runs on any device with
// 16-bit storage, with or without a native bfloat16 type.
#ifndef VKCONV_DTYPE_GLSL
#define VKCONV_DTYPE_GLSL

// With only 16-bit *storage* (no 16-bit arithmetic types), 16-bit values may not be function
// parameters or locals, so the conversions are macros applied right at the load/store.
#if defined(DTYPE_F32)
#define ELEM_T float
#define VEC4_T vec4
#define toF32v4(v) (v)
#define toF32(v) (v)
#define fromF32(v) (v)
#define fromF32v4(v) (v)
#define VEC2_T vec2
#define toF32v2(v) (v)
#define fromF32v2(v) (v)
#elif defined(DTYPE_F16)
#extension GL_EXT_shader_16bit_storage : require
#define ELEM_T float16_t
#define VEC4_T f16vec4
#define toF32v4(v) vec4(v)
#define toF32(v) float(v)
#define fromF32(v) float16_t(v)
#define fromF32v4(v) f16vec4(v)
#define VEC2_T f16vec2
#define toF32v2(v) vec2(v)
#define fromF32v2(v) f16vec2(v)
#elif defined(DTYPE_BF16)
#extension GL_EXT_shader_16bit_storage : require
#define ELEM_T uint16_t
#define VEC4_T u16vec4
#define VEC2_T u16vec2
#define toF32v4(v) uintBitsToFloat(uvec4(v) << 16)
#define toF32(v) uintBitsToFloat(uint(v) << 16)
#define toF32v2(v) uintBitsToFloat(uvec2(v) << 16)
#define fromF32(v) uint16_t(bf16BitsRne(v))
#define fromF32v4(v) u16vec4(uvec4(bf16BitsRne((v).x), bf16BitsRne((v).y), bf16BitsRne((v).z), bf16BitsRne((v).w)))
#define fromF32v2(v) u16vec2(uvec2(bf16BitsRne((v).x), bf16BitsRne((v).y)))
// fp32 -> bf16 bits, round to nearest even; NaN stays a quiet NaN.
uint bf16BitsRne(float v) {
    uint u = floatBitsToUint(v);
    if (isnan(v)) return (u >> 16) | 0x40u;
    u += 0x7FFFu + ((u >> 16) & 1u);
    return u >> 16;
}
#else
#error "define DTYPE_F32, DTYPE_F16 or DTYPE_BF16"
#endif

#endif
