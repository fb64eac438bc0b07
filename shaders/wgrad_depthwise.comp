#version 460
// "wgrad_depthwise": the weight gradient of a depthwise layer (groups == C, K a multiple of C:
// channel multiplier K/C).  dw[k, r, s] sums dy[n,k,p,q] * x[n, k/(K/C), p*stride - pad + r*dil, ...]
// over the N x P x Q output pixels.  A workgroup owns KT consecutive filters and runs its split
// (gl_WorkGroupID.y of pc.splitK) of the pixels over WG_SIZE/KT lanes per filter: NCHW (KT = 1)
// walks each filter's contiguous pixels, NHWC (KT > 1) its contiguous filters.  Each lane keeps
// all R x S taps and the bias sum in registers (FR, FS: the filter size, specialized), reading
// dy once per pixel; then the lanes' sums meet in a fixed shared-memory tree per tap, so the
// result does not depend on scheduling.  SPLIT_OUT: fp32 partials to the workspace
// (wgrad_partials.glsl, wgrad_reduce.comp); otherwise dw and db are written here.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "wgrad_bindings.glsl"
#include "tensor_index.glsl"
#include "wgrad_partials.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(constant_id = 101) const uint KT = 1;  // filters per workgroup (a power of two dividing WG_SIZE)
layout(constant_id = 102) const uint FR = 3;  // == pc.R
layout(constant_id = 103) const uint FS = 3;  // == pc.S
layout(constant_id = 109) const bool SPLIT_OUT = false;
layout(local_size_x_id = 100) in;

const uint MT = WG_SIZE / KT;  // pixel lanes per filter
shared float red[WG_SIZE];

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint kl = lid % KT, ml = lid / KT;
    uint k = gl_WorkGroupID.x * KT + kl;
    bool kOk = k < pc.K;
    uint cIn = min(k, pc.K - 1u) / (pc.K / pc.groups);
    uint pq = pc.P * pc.Q, M = pc.N * pq;
    uint iters = (M + MT - 1u) / MT, z = gl_WorkGroupID.y;
    uint it0 = z * iters / pc.splitK, it1 = (z + 1u) * iters / pc.splitK;
    // This lane's pixel (n, p, q), carried MT pixels an iteration by additions.
    uint m = it0 * MT + ml;
    uint n = m / pq, p = (m % pq) / pc.Q, q = m % pc.Q;
    uint dn = MT / pq, dp = (MT / pc.Q) % pc.P, dq = MT % pc.Q;
    uint chanStride = IN_LAYOUT == 0u ? pc.H * pc.W : 1u;
    uint pixStride = IN_LAYOUT == 0u ? 1u : pc.C;

    float acc[FR * FS];
    [[unroll]] for (uint t = 0u; t < FR * FS; ++t) acc[t] = 0.0;
    float bacc = 0.0;
    for (uint it = it0; it < it1; ++it) {
        if (n < pc.N && kOk) {
            uint dyOff = OUT_LAYOUT == 0u ? (n * pc.K + k) * pq + p * pc.Q + q : ((n * pc.P + p) * pc.Q + q) * pc.K + k;
            float dyv = toF32(dy_[dyOff]);
            bacc += dyv;
            uint base = IN_LAYOUT == 0u ? (n * pc.C + cIn) * pc.H * pc.W : n * pc.H * pc.W * pc.C + cIn;
            int ih0 = int(p * pc.strideH) - int(pc.padT), iw0 = int(q * pc.strideW) - int(pc.padL);
            [[unroll]] for (uint r = 0u; r < FR; ++r) {
                int ih = ih0 + int(r * pc.dilH);
                if (uint(ih) >= pc.H) continue;
                [[unroll]] for (uint s = 0u; s < FS; ++s) {
                    int iw = iw0 + int(s * pc.dilW);
                    if (uint(iw) >= pc.W) continue;
                    float xv = toF32(x_[base + (uint(ih) * pc.W + uint(iw)) * pixStride]);
                    acc[r * FS + s] = fma(dyv, xv, acc[r * FS + s]);
                }
            }
        }
        q += dq;
        if (q >= pc.Q) { q -= pc.Q; p += 1u; }
        p += dp;
        if (p >= pc.P) { p -= pc.P; n += 1u; }
        n += dn;
    }

    // Per tap, then the bias: the MT lanes of each filter summed in a fixed tree.  A lane's next
    // write is to its own slot, which only it reads after the tree's last barrier: no barrier
    // between taps.
#define LANE_SUM(value)                                                                         \
    red[lid] = (value);                                                                         \
    barrier();                                                                                  \
    [[dont_unroll]] for (uint h = MT / 2u; h > 0u; h >>= 1u) {                                  \
        if (ml < h) red[lid] += red[lid + h * KT];                                              \
        barrier();                                                                              \
    }
    [[unroll]] for (uint t = 0u; t < FR * FS; ++t) {
        LANE_SUM(acc[t])
        if (ml == 0u && kOk) {
            if (SPLIT_OUT) ws_[wgradPartialOffset(z, k, t)] = red[lid];
            else wgradStoreFilter(k, t, red[lid]);
        }
    }
    if (HAS_BIAS) {
        LANE_SUM(bacc)
        if (ml == 0u && kOk) {
            if (SPLIT_OUT) ws_[wgradBiasPartialOffset(z, k)] = red[lid];
            else wgradStoreBias(k, red[lid]);
        }
    }
}
