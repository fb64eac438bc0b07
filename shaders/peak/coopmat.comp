#version 460
// Peak probe: cooperative-matrix throughput (vkconv-bench --peak), subgroup scope.  One SPIR-V
// per component-type combination (A_*, B_*, C_* defines); M, N, K are specialization constants
// so the same module serves every size the device reports.
//
// Each subgroup loads 2 A and 4 B matrices once and keeps 8 accumulators in registers, running
// C[i][j] += A[i] * B[j] `iters` times.  The host fills A with a single 1 per row (A[m][k] = 1
// where k == m % K) and B with ones, so every product element is exactly 1 whatever the
// accumulation order: each accumulator ends at exactly `iters` (f16 accumulators: iters <= 2048).
// The 8 accumulators are widened to 32 bits, summed and stored, one M x N tile per subgroup.
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types : require

#if defined(A_F16) || defined(C_F16)
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#endif
#if defined(A_BF16)
#extension GL_EXT_bfloat16 : require
#extension GL_EXT_shader_16bit_storage : require
#endif
#if defined(A_S8) || defined(A_U8)
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_8bit_storage : require
#endif

#if defined(A_F16)
#define A_T float16_t
#elif defined(A_BF16)
#define A_T bfloat16_t
#elif defined(A_S8)
#define A_T int8_t
#elif defined(A_U8)
#define A_T uint8_t
#else
#error "define A_F16, A_BF16, A_S8 or A_U8"
#endif

#if defined(B_F16)
#define B_T float16_t
#elif defined(B_BF16)
#define B_T bfloat16_t
#elif defined(B_S8)
#define B_T int8_t
#elif defined(B_U8)
#define B_T uint8_t
#else
#error "define B_F16, B_BF16, B_S8 or B_U8"
#endif

// C_T: accumulator type; S_T: the 32-bit type the accumulators are summed and stored in.
#if defined(C_F16)
#define C_T float16_t
#define S_T float
#elif defined(C_F32)
#define C_T float
#define S_T float
#elif defined(C_S32)
#define C_T int32_t
#define S_T int32_t
#elif defined(C_U32)
#define C_T uint32_t
#define S_T uint32_t
#else
#error "define C_F16, C_F32, C_S32 or C_U32"
#endif

layout(local_size_x_id = 0) in;  // 4 subgroups
layout(constant_id = 1) const uint CM_M = 16;
layout(constant_id = 2) const uint CM_N = 16;
layout(constant_id = 3) const uint CM_K = 16;

layout(push_constant) uniform CoopParams { uint iters; } pc;
layout(set = 0, binding = 0, std430) readonly buffer ABuf { A_T a_[]; };  // 2 matrices M x K, row-major
layout(set = 0, binding = 1, std430) readonly buffer BBuf { B_T b_[]; };  // 4 matrices K x N, row-major
layout(set = 0, binding = 2, std430) writeonly buffer OutBuf { S_T out_[]; };

#define MAT_A coopmat<A_T, gl_ScopeSubgroup, CM_M, CM_K, gl_MatrixUseA>
#define MAT_B coopmat<B_T, gl_ScopeSubgroup, CM_K, CM_N, gl_MatrixUseB>
#define MAT_C coopmat<C_T, gl_ScopeSubgroup, CM_M, CM_N, gl_MatrixUseAccumulator>
#define MAT_S coopmat<S_T, gl_ScopeSubgroup, CM_M, CM_N, gl_MatrixUseAccumulator>

void main() {
    MAT_A a0, a1;
    MAT_B b0, b1, b2, b3;
    coopMatLoad(a0, a_, 0u, CM_K, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(a1, a_, CM_M * CM_K, CM_K, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(b0, b_, 0u, CM_N, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(b1, b_, CM_K * CM_N, CM_N, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(b2, b_, 2u * CM_K * CM_N, CM_N, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(b3, b_, 3u * CM_K * CM_N, CM_N, gl_CooperativeMatrixLayoutRowMajor);

    MAT_C c[8];
    [[unroll]] for (uint j = 0u; j < 8u; ++j) c[j] = MAT_C(C_T(0));
    for (uint i = 0u; i < pc.iters; ++i) {
        c[0] = coopMatMulAdd(a0, b0, c[0]);
        c[1] = coopMatMulAdd(a0, b1, c[1]);
        c[2] = coopMatMulAdd(a0, b2, c[2]);
        c[3] = coopMatMulAdd(a0, b3, c[3]);
        c[4] = coopMatMulAdd(a1, b0, c[4]);
        c[5] = coopMatMulAdd(a1, b1, c[5]);
        c[6] = coopMatMulAdd(a1, b2, c[6]);
        c[7] = coopMatMulAdd(a1, b3, c[7]);
    }
#if defined(C_F16)
    MAT_S sum = MAT_S(c[0]);
    [[unroll]] for (uint j = 1u; j < 8u; ++j) sum += MAT_S(c[j]);
#else
    MAT_S sum = c[0];
    [[unroll]] for (uint j = 1u; j < 8u; ++j) sum += c[j];
#endif
    uint subgroup = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_NumSubgroups + gl_SubgroupID;
    coopMatStore(sum, out_, subgroup * CM_M * CM_N, CM_N, gl_CooperativeMatrixLayoutRowMajor);
}
