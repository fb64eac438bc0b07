#version 460
// Level 5b, "implicit_gemm_coopmat2": the implicit GEMM on workgroup-scope cooperative matrices
// with tensor addressing (VK_NV_cooperative_matrix2), 16-bit operands, fp32 accumulation.
//
// Where implicit_gemm_coopmat.comp stages every slice through shared memory itself and splits the
// tile among subgroups, here the whole workgroup owns one BM x BN accumulator and each reduction
// slice is two tensor loads the driver stages through shared memory as it sees fit:
//   A (pixels x reduction): for stride 1 the activations of one filter tap over a block of
//     TN images x TP output rows x TQ output columns x BK channels are a 4-D box of the input
//     tensor, shifted by the tap (r*dil - pad, s*dil - pad).  Coordinates outside the tensor
//     (the padding, the bottom/right tails) read as zero through the layout's constant clamp:
//     no masks, no padding pass, no zeros stored.
//   B (reduction x filters): a 2-D (KRSC) or 3-D (KCRS) box of the filters, transposed by a view.
// The output goes out the same way: the epilogue (bias, residual, activation) as a per-element
// operation, a conversion to the storage type and one tensor store whose clamp drops the rows
// and columns outside the output (and outside this group's filters).
//
// The host runs it only for stride 1 (a stride > 1 box would need a layout stride the extension
// does not allow for the last partial row), C/groups % BK == 0 (one tap per slice), and 16-byte
// aligned bindings (the tensor base must be).  M tiles are TN x TP x TQ = BM output pixels, chosen
// on the host to waste the fewest pixels for the output's P x Q.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_control_flow_attributes : require
#if defined(DTYPE_F16)
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#elif defined(DTYPE_BF16)
#extension GL_EXT_bfloat16 : require
#else
#error "implicit_gemm_coopmat2: define DTYPE_F16 or DTYPE_BF16"
#endif
#include "dtype.glsl"
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "epilogue.glsl"

#if defined(DTYPE_F16)
#define CM_T float16_t
#else
#define CM_T bfloat16_t
#endif

// The same bindings typed as the matrix element (bf16's ELEM_T is uint16_t elsewhere).
layout(set = 0, binding = 0, std430) readonly buffer InputCm { CM_T xcm_[]; };
layout(set = 0, binding = 1, std430) readonly buffer FilterCm { CM_T wcm_[]; };
layout(set = 0, binding = 4, std430) writeonly buffer OutputCm { CM_T ycm_[]; };

layout(constant_id = 101) const uint BM = 128;  // output pixels per tile = TN * TP * TQ
layout(constant_id = 102) const uint BN = 128;  // filters per tile
layout(constant_id = 103) const uint BK = 32;   // reduction slice (one filter tap)
layout(constant_id = 104) const uint TN = 2;    // the pixel block: images
layout(constant_id = 105) const uint TP = 8;    //   output rows
layout(constant_id = 106) const uint TQ = 8;    //   output columns
// 1: the next slice's tensor loads are issued before this slice's product (two sets of operand
// matrices live), 0: load then multiply.
layout(constant_id = 107) const uint PREFETCH = 0;
// The compiler picks 16-byte accesses only where it can prove the alignment: strides and channel
// offsets pass through these masks (~7: multiples of 8 elements, which the host guarantees for
// the channel-innermost tensors; ~0 otherwise).  ALIGN_IN: NHWC input (C % 8 == 0 always, since
// C/groups % 32 == 0); ALIGN_OUT: NHWC output with K % 8 == 0; filters KRSC always.
layout(constant_id = 108) const bool ALIGN_IN = false;
layout(constant_id = 109) const bool ALIGN_OUT = false;
// PLAIN (1x1, stride 1, no padding, NHWC in and out, one group): A is the plain [N*P*Q][C] matrix and
// the output [N*P*Q][K]; tiles are BM consecutive pixels (TN = BM, TP = TQ = 1 on the host).
layout(constant_id = 110) const bool PLAIN = false;
const uint MASK_IN = ALIGN_IN ? ~7u : ~0u;
const uint MASK_OUT = ALIGN_OUT ? ~7u : ~0u;
const uint MASK_W = FILTER_LAYOUT == 1u ? ~7u : ~0u;
// A fixed size: GL_NV_cooperative_matrix2 needs SPIR-V 1.6, where a specialized workgroup size is
// LocalSizeId (maintenance4).  256 is one of the driver's workgroup-scope sizes.
layout(local_size_x = 256) in;

#define MAT_A coopmat<CM_T, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA>
#define MAT_B coopmat<CM_T, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB>
#define MAT_C coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>
#define MAT_O coopmat<CM_T, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>
#define LAYOUT4 tensorLayoutNV<4, gl_CooperativeMatrixClampModeConstantNV>

// The epilogue of one accumulator element: (row, col) of the tile -> output pixel and filter.
// Elements outside the output return 0; the clamped store drops them.
float epilogueElement(const in uint row, const in uint col, const in float v, const in uint n0, const in uint p0,
                      const in uint q0, const in uint kBase, const in uint nf0) {
    uint kn = nf0 + col;  // filter within the group
    uint k = kBase + kn;
    if (PLAIN) {  // n0: the first pixel
        uint m = n0 + row;
        if (m >= pc.N * pc.P * pc.Q || kn >= pc.K) return 0.0;
        return epilogueValue(v, k, m * pc.K + k);
    }
    uint n = n0 + row / (TP * TQ), p = p0 + (row / TQ) % TP, q = q0 + row % TQ;
    if (n >= pc.N || p >= pc.P || q >= pc.Q || kn >= pc.K / pc.groups) return 0.0;
    uint off = OUT_LAYOUT == 1u ? ((n * pc.P + p) * pc.Q + q) * pc.K + k : ((n * pc.K + k) * pc.P + p) * pc.Q + q;
    return epilogueValue(v, k, off);
}

void main() {
    uint Cg = pc.C / pc.groups, Kg = pc.K / pc.groups;
    uint RS = pc.R * pc.S, Kred = Cg * RS;
    uint tilesN = (Kg + BN - 1u) / BN;
    uint g = gl_WorkGroupID.y / tilesN;
    uint nf0 = (gl_WorkGroupID.y % tilesN) * BN;  // first filter of the tile within the group
    uint cBase = g * Cg, kBase = g * Kg;
    // The pixel block: workgroup x enumerates (image block, row block, column block).
    uint qBlocks = (pc.Q + TQ - 1u) / TQ, pBlocks = (pc.P + TP - 1u) / TP;
    uint bx = gl_WorkGroupID.x;
    uint q0 = (bx % qBlocks) * TQ;
    uint p0 = ((bx / qBlocks) % pBlocks) * TP;
    uint n0 = (bx / (qBlocks * pBlocks)) * TN;
    if (PLAIN) { n0 = bx * BM; p0 = q0 = 0u; }
    uint M = pc.N * pc.P * pc.Q;
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> tA2 = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    tA2 = setTensorLayoutDimensionNV(tA2, M, pc.C);
    tA2 = setTensorLayoutStrideNV(tA2, pc.C & MASK_IN, 1u);

    // Input: [N][H][W][C] (NHWC) or [N][C][H][W] (NCHW); the channel extent stops at this group's
    // last channel so the clamp zeroes nothing it should read and reads nothing of the next group.
    LAYOUT4 tA = createTensorLayoutNV(4, gl_CooperativeMatrixClampModeConstantNV);
    tensorViewNV<4, false, 0, 2, 3, 1> vNchw = createTensorViewNV(4, false, 0, 2, 3, 1);
    if (IN_LAYOUT == 1u) {
        tA = setTensorLayoutDimensionNV(tA, pc.N, pc.H, pc.W, cBase + Cg);
        tA = setTensorLayoutStrideNV(tA, (pc.H * pc.W * pc.C) & MASK_IN, (pc.W * pc.C) & MASK_IN, pc.C & MASK_IN, 1u);
    } else {
        tA = setTensorLayoutDimensionNV(tA, pc.N, cBase + Cg, pc.H, pc.W);
        tA = setTensorLayoutStrideNV(tA, pc.C * pc.H * pc.W, pc.H * pc.W, pc.W, 1u);
    }
    // Filters: KRSC [K][R*S*C/g] as a 2-D tensor; KCRS [K][C/g][R*S] as 3-D (the tap a slice index).
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> tB2 = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    tB2 = setTensorLayoutDimensionNV(tB2, kBase + Kg, Kred);
    tB2 = setTensorLayoutStrideNV(tB2, Kred & MASK_W, 1u);
    tensorLayoutNV<3, gl_CooperativeMatrixClampModeConstantNV> tB3 = createTensorLayoutNV(3, gl_CooperativeMatrixClampModeConstantNV);
    tB3 = setTensorLayoutDimensionNV(tB3, kBase + Kg, Cg, RS);
    tensorViewNV<2, false, 1, 0> vT2 = createTensorViewNV(2, false, 1, 0);
    tensorViewNV<3, false, 2, 1, 0> vT3 = createTensorViewNV(3, false, 2, 1, 0);

    MAT_C acc = MAT_C(0.0);
    uint slices = Kred / BK;

    // Operands of the slice starting at reduction index k0 (one tap: (r, s), channels c0..c0+BK).
#define LOAD_SLICE(k0, a, b)                                                                        \
    {                                                                                               \
        uint rs = (k0) / Cg, c0 = (k0) % Cg;                                                        \
        uint r = rs / pc.S, s = rs % pc.S;                                                          \
        int ih0 = int(p0 + r * pc.dilH) - int(pc.padT), iw0 = int(q0 + s * pc.dilW) - int(pc.padL); \
        if (PLAIN)                                                                                  \
            coopMatLoadTensorNV(a, xcm_, 0u, sliceTensorLayoutNV(tA2, int(n0), BM, int(c0 & MASK_IN), BK)); \
        else if (IN_LAYOUT == 1u)                                                                   \
            coopMatLoadTensorNV(a, xcm_, 0u,                                                        \
                                sliceTensorLayoutNV(tA, int(n0), TN, ih0, TP, iw0, TQ, int((cBase + c0) & MASK_IN), BK)); \
        else                                                                                        \
            coopMatLoadTensorNV(a, xcm_, 0u,                                                        \
                                sliceTensorLayoutNV(tA, int(n0), TN, int(cBase + c0), BK, ih0, TP, iw0, TQ), vNchw); \
        if (FILTER_LAYOUT == 1u)                                                                    \
            coopMatLoadTensorNV(b, wcm_, 0u, sliceTensorLayoutNV(tB2, int(kBase + nf0), BN, int((k0) & MASK_W), BK), vT2); \
        else                                                                                        \
            coopMatLoadTensorNV(b, wcm_, 0u,                                                        \
                                sliceTensorLayoutNV(tB3, int(kBase + nf0), BN, int(c0), BK, int(rs), 1u), vT3); \
    }
    if (PREFETCH == 1u) {
        MAT_A a0, a1;
        MAT_B b0, b1;
        LOAD_SLICE(0u, a0, b0)
        // Unrolled by two so both operand sets are named statically.
        for (uint sl = 0u; sl < slices; sl += 2u) {
            if (sl + 1u < slices) LOAD_SLICE((sl + 1u) * BK, a1, b1)
            acc = coopMatMulAdd(a0, b0, acc);
            if (sl + 1u >= slices) break;
            if (sl + 2u < slices) LOAD_SLICE((sl + 2u) * BK, a0, b0)
            acc = coopMatMulAdd(a1, b1, acc);
        }
    } else {
        for (uint sl = 0u; sl < slices; ++sl) {
            MAT_A a;
            MAT_B b;
            LOAD_SLICE(sl * BK, a, b)
            acc = coopMatMulAdd(a, b, acc);
        }
    }

    if (HAS_BIAS || HAS_RESIDUAL || ACTIVATION != 0u)
        coopMatPerElementNV(acc, acc, epilogueElement, n0, p0, q0, kBase, nf0);
    MAT_O o = MAT_O(acc);
    // Output: [N][P][Q][K] or [N][K][P][Q]; the filter extent stops at this group's last filter.
    LAYOUT4 tY = createTensorLayoutNV(4, gl_CooperativeMatrixClampModeConstantNV);
    if (PLAIN) {
        tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> tY2 = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
        tY2 = setTensorLayoutDimensionNV(tY2, M, pc.K);
        tY2 = setTensorLayoutStrideNV(tY2, pc.K & MASK_OUT, 1u);
        coopMatStoreTensorNV(o, ycm_, 0u, sliceTensorLayoutNV(tY2, int(n0), BM, int(nf0 & MASK_OUT), BN));
    } else if (OUT_LAYOUT == 1u) {
        tY = setTensorLayoutDimensionNV(tY, pc.N, pc.P, pc.Q, kBase + Kg);
        tY = setTensorLayoutStrideNV(tY, (pc.P * pc.Q * pc.K) & MASK_OUT, (pc.Q * pc.K) & MASK_OUT, pc.K & MASK_OUT, 1u);
        coopMatStoreTensorNV(o, ycm_, 0u,
                             sliceTensorLayoutNV(tY, int(n0), TN, int(p0), TP, int(q0), TQ, int((kBase + nf0) & MASK_OUT), BN));
    } else {
        tY = setTensorLayoutDimensionNV(tY, pc.N, kBase + Kg, pc.P, pc.Q);
        tY = setTensorLayoutStrideNV(tY, pc.K * pc.P * pc.Q, pc.P * pc.Q, pc.Q, 1u);
        coopMatStoreTensorNV(o, ycm_, 0u, sliceTensorLayoutNV(tY, int(n0), TN, int(kBase + nf0), BN, int(p0), TP, int(q0), TQ),
                             vNchw);
    }
}
