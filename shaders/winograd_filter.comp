#version 460
// Winograd F(2x2, 3x3), the filter transform U = G g G^T of every (filter, channel) 3x3 kernel,
// written (fp32, binding 5) as the KRSC 1x1 filters of the batched GEMM's grouped convolution:
//   U[xi][k][c] at (xi * K + k) * C/groups + c   (inner group xi * groups + k / (K/groups)).
// Recorded on every call: the filters are the caller's buffer and may change between calls.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "winograd.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(local_size_x_id = 100) in;

void main() {
    uint Cg = pc.C / pc.groups;
    uint idx = globalLinearIndex(WG_SIZE);
    if (idx >= pc.K * Cg) return;
    uint c = idx % Cg, k = idx / Cg;
    float g[3][3];
    [[unroll]] for (uint r = 0u; r < 3u; ++r)
        [[unroll]] for (uint s = 0u; s < 3u; ++s) g[r][s] = toF32(w_[filterOffset(FILTER_LAYOUT, k, c, r, s, Cg, 3u, 3u)]);
    // G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1], applied to the columns, then the rows.
    float a[4][3];
    [[unroll]] for (uint s = 0u; s < 3u; ++s) {
        a[0][s] = g[0][s];
        a[1][s] = 0.5 * (g[0][s] + g[1][s] + g[2][s]);
        a[2][s] = 0.5 * (g[0][s] - g[1][s] + g[2][s]);
        a[3][s] = g[2][s];
    }
    [[unroll]] for (uint i = 0u; i < 4u; ++i) {
        float u[4] = float[4](a[i][0], 0.5 * (a[i][0] + a[i][1] + a[i][2]), 0.5 * (a[i][0] - a[i][1] + a[i][2]), a[i][2]);
        [[unroll]] for (uint j = 0u; j < 4u; ++j) ws_[((4u * i + j) * pc.K + k) * Cg + c] = u[j];
    }
}
