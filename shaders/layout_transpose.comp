#version 460
// Batched transpose [batch][rows][cols] -> [batch][cols][rows], element for element in the storage
// type: NCHW activations to NHWC ([n][c][h*w] -> [n][h*w][c]) and KCRS filters to KRSC
// ([k][c][r*s] -> [k][r*s][c]) for the NHWC kernels (src/conv/algo_implicit_gemm_nhwc.cpp).
// A workgroup moves one 32x32 block through shared memory, so that both the reads (along cols) and
// the writes (along rows) are contiguous runs of up to 32 elements.  (Indexing each element of the
// block linearly, so that a 9-wide filter block is one contiguous read, measured slower: two
// runtime divisions per element.)
// NARROW (cols <= 16: KCRS filters of 3x3 and smaller taps): a 32-wide block would leave most
// of its columns idle (9 of 32 for 3x3), so each invocation moves one row's few columns instead:
// a warp reads its rows' runs densely and writes each column's rows as one contiguous run.
// SUBSAMPLE (1x1 layers with a stride or padding, NCHW activations): the cols of the output are
// the layer's P*Q output pixels, each read at its one input pixel (p*strideH - padT, q*strideW -
// padL) of an H*W plane, zero outside it; the NHWC kernel behind then runs a 1x1 stride-1
// unpadded layer on P x Q.  A stride-2 downsample's copy is a quarter of the whole input's.
// PAIRS (a build of its own, layout_transpose_pairs_*: 16-bit types, rows and cols even, 4-byte
// aligned views): 32 x 64 blocks (64 x 64 ran slower) moved as 32-bit words of two elements on
// both sides, kept packed in shared memory as the words read (the element-wise path moves 2 bytes
// a load).  Its own build, not a specialization: built into one shader with it (its shared array
// too), the element path ran 2x slower (docs/performance.md, "NCHW layers").
// Reads binding 0 (input), writes binding 4 (output).
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;  // a multiple of 32 (host)
layout(constant_id = 101) const bool NARROW = false;  // one invocation per (batch, row); 1-D grid
layout(constant_id = 102) const bool SUBSAMPLE = false;  // cols = P*Q pixels gathered from H*W (pc.H, W, Q, pads, strides)
layout(local_size_x_id = 100) in;

const uint TILE = 32u, STEP = WG_SIZE / TILE;

#ifdef PAIRS
layout(set = 0, binding = 0, std430) readonly buffer InputWords { uint xw_[]; };
layout(set = 0, binding = 4, std430) writeonly buffer OutputWords { uint yw_[]; };

// A block is PR rows (channels) x PT cols (pixels).  pb[row][j] is the word of columns 2j, 2j+1
// of a block row, as read (+1: a row's stride is odd, so a write group's 16 channel pairs of one
// column pair read 16 different banks).
const uint PR = 32u, PT = 64u, PW = PT / 2u;
shared uint pb[PR][PW + 1u];

const uint RPT = (PR + STEP - 1u) / STEP;  // block rows an invocation reads

// A block's words are all loaded before the first is stored.  (Several batch items' words loaded
// at once, more bytes in flight in the same shared memory, ran slower at 2-8 items.)
void transposePairs(uint rows, uint cols) {
    uint lane = gl_LocalInvocationID.x % TILE, group = gl_LocalInvocationID.x / TILE;
    uint r0 = gl_WorkGroupID.y * PR, c0 = gl_WorkGroupID.x * PT;
    // Write job: 16 lanes take 16 channel pairs of one column, the other 16 the next column.
    uint half_ = lane / 16u, cp = lane % 16u;
    uint plane = rows * cols;  // even: rows and cols are
    for (uint b = gl_WorkGroupID.z; b < pc.N; b += gl_NumWorkGroups.z) {
        uint base = b * plane;
        uint v[RPT];
        for (uint i = 0u; i < RPT; ++i) {
            uint j = group + i * STEP, r = r0 + j, c = c0 + 2u * lane;
            uint w = 0u;
            if (j < PR && r < rows && c < cols) w = xw_[(base + r * cols + c) / 2u];
            v[i] = w;
        }
        for (uint i = 0u; i < RPT; ++i) {
            uint j = group + i * STEP;
            if (j < PR) pb[j][lane] = v[i];
        }
        barrier();
        // 32 column pairs x PR / 32 runs of 32 channels.
        for (uint job = group; job < PW * (PR / 32u); job += STEP) {
            uint m = job % PW, ch = (job / PW) * 32u + 2u * cp;  // column pair, first channel
            uint c = c0 + 2u * m + half_, r = r0 + ch;
            if (r < rows && c < cols) {
                uint sh = 16u * half_;
                uint lo = (pb[ch][m] >> sh) & 0xffffu, hi = (pb[ch + 1u][m] >> sh) & 0xffffu;
                yw_[(base + c * rows + r) / 2u] = lo | (hi << 16);
            }
        }
        barrier();  // the block is reused by the next batch
    }
}

void main() { transposePairs(pc.aux0, pc.aux1); }
#else
shared float block[TILE][TILE + 1u];  // +1: the column reads hit 32 different banks
const uint RPT = (TILE + STEP - 1u) / STEP;  // block rows an invocation reads

// The block's columns become rows of the output: contiguous runs along its rows.
void writeBlock(uint rows, uint cols, uint tx, uint ty, uint r0, uint c0, uint base) {
    for (uint j = ty; j < TILE; j += STEP) {
        uint c = c0 + j, r = r0 + tx;
        if (r < rows && c < cols) y_[base + c * rows + r] = fromF32(block[tx][j]);
    }
}

// SUBSAMPLE: this invocation's column is one output pixel, read at its input pixel (or zero);
// a block's reads are all issued before the first is stored.  A loop of its own: folded into the
// plain loop (a select per element) it made that path 1.5x slower with SUBSAMPLE off.
void gatherBlocks(uint rows, uint cols, uint tx, uint ty, uint r0, uint c0, uint plane) {
    uint inCols = pc.H * pc.W, c = c0 + tx;
    uint p = c / pc.Q, q = c - p * pc.Q;
    int ih = int(p * pc.strideH) - int(pc.padT), iw = int(q * pc.strideW) - int(pc.padL);
    bool inside = c < cols && ih >= 0 && ih < int(pc.H) && iw >= 0 && iw < int(pc.W);
    uint src = inside ? uint(ih) * pc.W + uint(iw) : 0u;
    for (uint b = gl_WorkGroupID.z; b < pc.N; b += gl_NumWorkGroups.z) {
        float v[RPT];
        for (uint i = 0u; i < RPT; ++i) {
            uint r = r0 + ty + i * STEP;
            float e = 0.0;
            if (inside && r < rows) e = toF32(x_[(b * rows + r) * inCols + src]);
            v[i] = e;
        }
        for (uint i = 0u; i < RPT; ++i) {
            uint j = ty + i * STEP;
            if (j < TILE) block[j][tx] = v[i];
        }
        barrier();
        writeBlock(rows, cols, tx, ty, r0, c0, b * plane);
        barrier();  // the block is reused by the next batch
    }
}

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
    uint plane = rows * cols;  // < 2^31 with every batch (each tensor's limit; host-checked when gathered)
    if (SUBSAMPLE) {
        gatherBlocks(rows, cols, tx, ty, r0, c0, plane);
        return;
    }
    for (uint b = gl_WorkGroupID.z; b < pc.N; b += gl_NumWorkGroups.z) {
        uint base = b * plane;
        for (uint j = ty; j < TILE; j += STEP) {
            uint r = r0 + j, c = c0 + tx;
            if (r < rows && c < cols) block[j][tx] = toF32(x_[base + r * cols + c]);
        }
        barrier();
        writeBlock(rows, cols, tx, ty, r0, c0, base);
        barrier();  // the block is reused by the next batch
    }
}
#endif
