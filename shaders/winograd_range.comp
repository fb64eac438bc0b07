#version 460
// Winograd with scaled fp16 operands (bf16 layers on the matrix units; docs/design.md
// "Winograd"): the two passes ahead of the transforms, once per call.
//   RANGE (2 x NP workgroups): the largest |value| of the filter (workgroups 0 .. NP-1) and of the
//     input (NP .. 2NP-1), one partial per workgroup, as 16-bit magnitude bits (sign cleared:
//     they order as the magnitudes do, infinity above every finite value and NaN above that).
//   FINALIZE (one workgroup): the two maxima -> the power-of-two exponents eU and eV that the
//     filter and input transforms scale U and V by, so that |U| <= 2^bU and |V| <= 2^bV with
//     C/groups x 2^(bU + bV) <= 2^14 (host, KU / KV): no fp16 V, U or M value can overflow, and
//     every value within 2^-24 of its tensor's largest stays a normal fp16 number.
// The scale region (binding 5 here, binding 6 of the transforms), in 32-bit words:
//   [0] eU, [1] eV, [2 .. kHead) unused (keeps the partials apart), [kHead + i] filter partial i,
//   [kHead + NP + i] input partial i.
// A non-finite maximum (or an all-zero tensor) keeps the scale 1: the result is then what
// unscaled fp16 operands give (inf / NaN where the input has them).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_16bit_storage : require
#include "conv_params.glsl"
#include "scale_exponent.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(local_size_x_id = 100) in;
layout(constant_id = 125) const bool FINALIZE = false;
layout(constant_id = 126) const int KU = 0;  // bU - log2 of the filter transform's growth bound
layout(constant_id = 127) const int KV = 0;  // bV - log2 of the input transform's growth bound
// 16-byte loads: both views start 16-byte aligned (host); the tail past the last whole 8 values
// is read as 16-bit values.
layout(constant_id = 128) const bool VEC = false;
// Only IS_BF16 decides how magnitude bits decode (bf16: the top half of an fp32; else fp16).
layout(constant_id = 129) const bool IS_BF16 = true;

const uint NP = 512u;   // partials per tensor (winograd.hpp kScalePartials)
const uint kHead = 64u;  // words before the partials (winograd.hpp kScaleHeadWords)

layout(set = 0, binding = 0, std430) readonly buffer In16 { uint16_t x16_[]; };
layout(set = 0, binding = 0, std430) readonly buffer In128 { uvec4 x128_[]; };
layout(set = 0, binding = 1, std430) readonly buffer Filt16 { uint16_t w16_[]; };
layout(set = 0, binding = 1, std430) readonly buffer Filt128 { uvec4 w128_[]; };
layout(set = 0, binding = 5, std430) buffer Scale { uint s_[]; };

shared uint sMax[2][WG_SIZE];

// The largest of every invocation's (a, b): a tree over shared memory (any workgroup size; no
// atomics, whose Device scope the validation layer rejects without vulkanMemoryModelDeviceScope).
uvec2 workgroupMax(uint a, uint b) {
    uint tid = gl_LocalInvocationID.x;
    sMax[0][tid] = a;
    sMax[1][tid] = b;
    barrier();
    for (uint s = 1u; s < WG_SIZE; s <<= 1) {
        if (tid % (2u * s) == 0u && tid + s < WG_SIZE) {
            sMax[0][tid] = max(sMax[0][tid], sMax[0][tid + s]);
            sMax[1][tid] = max(sMax[1][tid], sMax[1][tid + s]);
        }
        barrier();
    }
    return uvec2(sMax[0][0], sMax[1][0]);
}

uint mag2(uint w) { return max(w & 0x7FFFu, (w >> 16) & 0x7FFFu); }
uint mag8(uvec4 v) { return max(max(mag2(v.x), mag2(v.y)), max(mag2(v.z), mag2(v.w))); }

// The largest magnitude among `count` values of binding 0 (input) or 1 (filter), this
// workgroup's share: a grid stride over NP workgroups, four independent loads per step.
#define SCAN(V16, V128, count, part, m)                                                   \
    {                                                                                     \
        uint stride = NP * WG_SIZE, i = part * WG_SIZE + gl_LocalInvocationID.x, done = 0u; \
        if (VEC) {                                                                        \
            uint n8 = count / 8u;                                                         \
            for (; i + 3u * stride < n8; i += 4u * stride)                                \
                m = max(m, max(max(mag8(V128[i]), mag8(V128[i + stride])),                \
                               max(mag8(V128[i + 2u * stride]), mag8(V128[i + 3u * stride])))); \
            for (; i < n8; i += stride) m = max(m, mag8(V128[i]));                        \
            done = n8 * 8u;                                                               \
            i = done + part * WG_SIZE + gl_LocalInvocationID.x;                           \
        }                                                                                 \
        for (; i < count; i += stride) m = max(m, uint(V16[i]) & 0x7FFFu);                \
    }

// The exponent of a tensor whose largest magnitude has the 16-bit magnitude bits `bits`.
int scaleExp(uint bits, int k) { return scaleExpOf(IS_BF16 ? uintBitsToFloat(bits << 16) : unpackHalf2x16(bits).x, k); }

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (FINALIZE) {
        uint mu = 0u, mv = 0u;
        for (uint i = tid; i < NP; i += WG_SIZE) {
            mu = max(mu, s_[kHead + i]);
            mv = max(mv, s_[kHead + NP + i]);
        }
        uvec2 mx = workgroupMax(mu, mv);
        if (tid == 0u) {
            s_[0] = uint(scaleExp(mx.x, KU));
            s_[1] = uint(scaleExp(mx.y, KV));
        }
        return;
    }
    uint wg = gl_WorkGroupID.x;
    uint m = 0u;
    if (wg < NP) {
        uint count = pc.K * (pc.C / pc.groups) * pc.R * pc.S;
        SCAN(w16_, w128_, count, wg, m)
    } else {
        uint count = pc.N * pc.C * pc.H * pc.W;
        SCAN(x16_, x128_, count, (wg - NP), m)
    }
    uvec2 mx = workgroupMax(m, 0u);
    if (tid == 0u) s_[kHead + wg] = mx.x;
}
