#version 460
// Winograd F(2x2, 3x3), pass 1 of 3 (docs/design.md "Winograd"): the input transform
// V = B^T d B of every 4x4 input patch (stride 2 over the output, shifted by the padding) of
// this chunk's tiles.  Out-of-range input reads as zero (the padding, never stored).
// V (fp32, binding 5) is the NHWC "image" the batched GEMM reads as a grouped 1x1 convolution:
//   V[t][xi][c] at (t * 16 + xi) * C + c,  t = chunk-local tile, xi = 4 * i + j.
// One invocation per (tile, channel), channels fastest: V is written contiguously and NHWC input
// is read contiguously.  pc.aux0 = the chunk's first tile, pc.aux1 = its tile count.
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
    uint idx = globalLinearIndex(WG_SIZE);
    if (idx >= pc.aux1 * pc.C) return;
    uint c = idx % pc.C, tl = idx / pc.C;
    uvec3 tile = decodeTile(pc.aux0 + tl);
    uint n = tile.x;
    int h0 = int(tile.y * 2u) - int(pc.padT), w0 = int(tile.z * 2u) - int(pc.padL);

    float d[4][4];
    [[unroll]] for (uint i = 0u; i < 4u; ++i) {
        int h = h0 + int(i);
        bool rowOk = h >= 0 && h < int(pc.H);
        [[unroll]] for (uint j = 0u; j < 4u; ++j) {
            int w = w0 + int(j);
            d[i][j] = rowOk && w >= 0 && w < int(pc.W)
                          ? toF32(x_[activationOffset(IN_LAYOUT, n, c, uint(h), uint(w), pc.C, pc.H, pc.W)])
                          : 0.0;
        }
    }
    // B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1], applied to the columns, then the rows.
    float b[4][4];
    [[unroll]] for (uint j = 0u; j < 4u; ++j) {
        b[0][j] = d[0][j] - d[2][j];
        b[1][j] = d[1][j] + d[2][j];
        b[2][j] = d[2][j] - d[1][j];
        b[3][j] = d[1][j] - d[3][j];
    }
    uint base = tl * 16u * pc.C + c;
    [[unroll]] for (uint i = 0u; i < 4u; ++i) {
        ws_[base + (4u * i + 0u) * pc.C] = b[i][0] - b[i][2];
        ws_[base + (4u * i + 1u) * pc.C] = b[i][1] + b[i][2];
        ws_[base + (4u * i + 2u) * pc.C] = b[i][2] - b[i][1];
        ws_[base + (4u * i + 3u) * pc.C] = b[i][1] - b[i][3];
    }
}
