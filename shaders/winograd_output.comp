#version 460
// Winograd F(2x2, 3x3), pass 3 of 3: the output transform Y = A^T m A of the batched GEMM's
// products M[t][xi][k] (fp32, binding 5, at (t * 16 + xi) * K + k), then the fused epilogue (bias,
// residual, activation, conversion) on the 2x2 outputs of each tile that lie inside P x Q.
// One invocation per (tile, filter), filters fastest: M is read contiguously and NHWC output is
// written contiguously.  pc.aux0 = the chunk's first tile, pc.aux1 = its tile count.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "epilogue.glsl"
#include "winograd.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(local_size_x_id = 100) in;

void main() {
    uint idx = globalLinearIndex(WG_SIZE);
    if (idx >= pc.aux1 * pc.K) return;
    uint k = idx % pc.K, tl = idx / pc.K;
    uvec3 tile = decodeTile(pc.aux0 + tl);
    uint n = tile.x, th = tile.y, tw = tile.z;

    float m[4][4];
    uint base = tl * 16u * pc.K + k;
    [[unroll]] for (uint i = 0u; i < 4u; ++i)
        [[unroll]] for (uint j = 0u; j < 4u; ++j) m[i][j] = ws_[base + (4u * i + j) * pc.K];
    // A^T = [1 1 1 0; 0 1 -1 -1], applied to the columns, then the rows.
    float a[2][4];
    [[unroll]] for (uint j = 0u; j < 4u; ++j) {
        a[0][j] = m[0][j] + m[1][j] + m[2][j];
        a[1][j] = m[1][j] - m[2][j] - m[3][j];
    }
    [[unroll]] for (uint i = 0u; i < 2u; ++i) {
        uint p = th * 2u + i;
        if (p >= pc.P) continue;
        float y[2] = float[2](a[i][0] + a[i][1] + a[i][2], a[i][1] - a[i][2] - a[i][3]);
        [[unroll]] for (uint j = 0u; j < 2u; ++j) {
            uint q = tw * 2u + j;
            if (q >= pc.Q) continue;
            uint off = OUT_LAYOUT == 0u ? ((n * pc.K + k) * pc.P + p) * pc.Q + q : ((n * pc.P + p) * pc.Q + q) * pc.K + k;
            storeOutput(off, k, y[j]);
        }
    }
}
