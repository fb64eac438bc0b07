#version 460
// Batched transpose [batch][rows][cols] -> [batch][cols][rows], element for element in the storage
// type: NCHW activations to NHWC ([n][c][h*w] -> [n][h*w][c]) and KCRS filters to KRSC
// ([k][c][r*s] -> [k][r*s][c]) for the NHWC kernels (src/conv/algo_nhwc_transform.cpp).
// A workgroup moves one 32x32 block through shared memory, so that both the reads (along cols) and
// the writes (along rows) are contiguous runs of up to 32 elements.  (Indexing each element of the
// block linearly, so that a 9-wide filter block is one contiguous read, measured 1-14 % slower on
// ResNet-50 b32's layers: two runtime divisions per element; docs/perf-notes.md item 33.)
// NARROW (cols <= 16: KCRS filters of 3x3 and smaller taps): a 32-wide block would leave most
// of its columns idle (9 of 32 for 3x3), so each invocation moves one row's few columns instead:
// a warp reads its rows' runs densely and writes each column's rows as one contiguous run.
// Reads binding 0 (input), writes binding 4 (output).
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;  // a multiple of 32 (host)
layout(constant_id = 101) const bool NARROW = false;  // one invocation per (batch, row); 1-D grid
layout(local_size_x_id = 100) in;

const uint TILE = 32u, STEP = WG_SIZE / TILE;
shared float block[TILE][TILE + 1u];  // +1: the column reads hit 32 different banks

void main() {
    uint rows = pc.aux0, cols = pc.aux1;
    if (NARROW) {
        uint i = globalLinearIndex(WG_SIZE);  // batch * rows + row (< 2^31: the host checks)
        if (i >= pc.N * rows) return;
        uint b = i / rows, r = i - b * rows, base = b * rows * cols;
        for (uint c = 0u; c < cols; ++c) y_[base + c * rows + r] = x_[base + r * cols + c];
        return;
    }
    uint tx = gl_LocalInvocationID.x % TILE, ty = gl_LocalInvocationID.x / TILE;
    uint r0 = gl_WorkGroupID.y * TILE, c0 = gl_WorkGroupID.x * TILE;
    uint plane = rows * cols;  // < 2^32 with every batch (host-checked)
    for (uint b = gl_WorkGroupID.z; b < pc.N; b += gl_NumWorkGroups.z) {
        uint base = b * plane;
        for (uint j = ty; j < TILE; j += STEP) {
            uint r = r0 + j, c = c0 + tx;
            if (r < rows && c < cols) block[j][tx] = toF32(x_[base + r * cols + c]);
        }
        barrier();
        for (uint j = ty; j < TILE; j += STEP) {
            uint c = c0 + j, r = r0 + tx;
            if (r < rows && c < cols) y_[base + c * rows + r] = fromF32(block[tx][j]);
        }
        barrier();  // the block is reused by the next batch
    }
}
