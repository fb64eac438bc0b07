#version 460
// Winograd F(m x m, 3x3), pass 1 of 3 (docs/design.md "Winograd"): the input transform
// V = B^T d B of every WA x WA input patch (stride WM over the output, shifted by the padding) of
// this chunk's tiles.  Out-of-range input reads as zero (the padding, never stored).
// V (fp32, binding 5) is the NHWC "image" the batched GEMM reads as a grouped 1x1 convolution:
//   V[t][xi][c] at (t * WA*WA + xi) * C + c,  t = chunk-local tile, xi = WA * i + j.
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
    int h0 = int(tile.y * WM) - int(pc.padT), w0 = int(tile.z * WM) - int(pc.padL);

    float d[WA][WA];
    [[unroll]] for (uint i = 0u; i < WA; ++i) {
        int h = h0 + int(i);
        bool rowOk = h >= 0 && h < int(pc.H);
        [[unroll]] for (uint j = 0u; j < WA; ++j) {
            int w = w0 + int(j);
            d[i][j] = rowOk && w >= 0 && w < int(pc.W)
                          ? toF32(x_[activationOffset(IN_LAYOUT, n, c, uint(h), uint(w), pc.C, pc.H, pc.W)])
                          : 0.0;
        }
    }
    float b[WA][WA];  // B^T d
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) {
            float s = 0.0;
            [[unroll]] for (uint k = 0u; k < WA; ++k)
                if (BT[i * WA + k] != 0.0) s += BT[i * WA + k] * d[k][j];
            b[i][j] = s;
        }
    uint base = tl * WA * WA * pc.C + c;
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) {  // (B^T d) B
            float s = 0.0;
            [[unroll]] for (uint k = 0u; k < WA; ++k)
                if (BT[j * WA + k] != 0.0) s += BT[j * WA + k] * b[i][k];
            ws_[base + (WA * i + j) * pc.C] = s;
        }
}
