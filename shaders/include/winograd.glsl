// Winograd F(m x m, 3x3) (docs/design.md "Winograd"), m = WINO_M (2 or 4): the transform
// matrices, the fp32 workspace region each transform reads or writes (V, U or M, bound at
// binding 5 whatever the storage dtype, so 16-bit tensors lose nothing between the passes), and
// the decode of an m x m output tile index.
#ifndef VKCONV_WINOGRAD_GLSL
#define VKCONV_WINOGRAD_GLSL
#include "conv_params.glsl"
#include "tensor_index.glsl"

#ifndef WINO_M
#define WINO_M 2
#endif
const uint WM = WINO_M;       // outputs per tile side
const uint WA = WINO_M + 2u;  // input patch side (alpha); WA * WA products per tile

// Row-major B^T (WA x WA), G (WA x 3), A^T (WM x WA).  Loops over them are unrolled, so every
// entry is a constant at the use.  F(2x2,3x3): entries 0, +-1, +-1/2 (exact on small integers);
// F(4x4,3x3) (Lavin & Gray's points 0, +-1, +-2): 1/6, 1/12, 1/24 are not, and the transforms
// amplify rounding by up to ~114x (tests/support/harness.cpp).
#if WINO_M == 2
const float BT[16] = float[16](1, 0, -1, 0,  0, 1, 1, 0,  0, -1, 1, 0,  0, 1, 0, -1);
const float G[12] = float[12](1, 0, 0,  0.5, 0.5, 0.5,  0.5, -0.5, 0.5,  0, 0, 1);
const float AT[8] = float[8](1, 1, 1, 0,  0, 1, -1, -1);
#elif WINO_M == 4
const float BT[36] = float[36](4, 0, -5, 0, 1, 0,   0, -4, -4, 1, 1, 0,   0, 4, -4, -1, 1, 0,
                               0, -2, -1, 2, 1, 0,  0, 2, -1, -2, 1, 0,   0, 4, 0, -5, 0, 1);
const float G[18] = float[18](0.25, 0, 0,  -1.0 / 6.0, -1.0 / 6.0, -1.0 / 6.0,  -1.0 / 6.0, 1.0 / 6.0, -1.0 / 6.0,
                              1.0 / 24.0, 1.0 / 12.0, 1.0 / 6.0,  1.0 / 24.0, -1.0 / 12.0, 1.0 / 6.0,  0, 0, 1);
const float AT[24] = float[24](1, 1, 1, 1, 1, 0,  0, 1, -1, 2, -2, 0,  0, 1, 1, 4, 4, 0,  0, 1, -1, 8, -8, 1);
#else
#error "WINO_M must be 2 or 4"
#endif

layout(set = 0, binding = 5, std430) buffer WinogradBuf { float ws_[]; };

// Tile t of N x ceil(P/WM) x ceil(Q/WM), row-major: (n, tile row, tile column).
uvec3 decodeTile(uint t) {
    uint tilesW = (pc.Q + WM - 1u) / WM, tilesH = (pc.P + WM - 1u) / WM;
    return uvec3(t / (tilesW * tilesH), (t / tilesW) % tilesH, t % tilesW);
}

// The NCHW transforms' workgroup block: tt tiles x cw channels (or filters), channel blocks fastest
// (the host dispatches whole workgroups, ceil(tiles / tt) x ceil(channels / cw) of them).  False
// for a workgroup past them (the grid's rounding); else the block's first tile and channel.
bool nchwBlock(uint channels, uint tt, uint cw, uint workgroupSize, out uint t0, out uint c0) {
    uint cBlocks = (channels + cw - 1u) / cw;
    uint block = globalLinearIndex(workgroupSize) / workgroupSize;
    t0 = (block / cBlocks) * tt;
    c0 = (block % cBlocks) * cw;
    return block < ((pc.aux1 + tt - 1u) / tt) * cBlocks;
}

#endif
