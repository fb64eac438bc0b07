#version 460
// Winograd F(m x m, 3x3), pass 3 of 3: the output transform Y = A^T m A of the batched GEMM's
// products M[t][xi][k] (fp32, binding 5, at (t * WA*WA + xi) * K + k), then the fused epilogue
// (bias, residual, activation, conversion) on the WM x WM outputs of each tile inside P x Q.
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
    uint n = tile.x;

    float m[WA][WA];
    uint base = tl * WA * WA * pc.K + k;
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) m[i][j] = ws_[base + (WA * i + j) * pc.K];
    float a[WM][WA];  // A^T m
    [[unroll]] for (uint i = 0u; i < WM; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) {
            float s = 0.0;
            [[unroll]] for (uint x = 0u; x < WA; ++x)
                if (AT[i * WA + x] != 0.0) s += AT[i * WA + x] * m[x][j];
            a[i][j] = s;
        }
    [[unroll]] for (uint i = 0u; i < WM; ++i) {
        uint p = tile.y * WM + i;
        if (p >= pc.P) continue;
        [[unroll]] for (uint j = 0u; j < WM; ++j) {  // (A^T m) A
            uint q = tile.z * WM + j;
            if (q >= pc.Q) continue;
            float y = 0.0;
            [[unroll]] for (uint x = 0u; x < WA; ++x)
                if (AT[j * WA + x] != 0.0) y += AT[j * WA + x] * a[i][x];
            uint off = OUT_LAYOUT == 0u ? ((n * pc.K + k) * pc.P + p) * pc.Q + q : ((n * pc.P + p) * pc.Q + q) * pc.K + k;
            storeOutput(off, k, y);
        }
    }
}
