// Winograd F(2x2,3x3) (docs/design.md "Winograd"): the fp32 workspace region each transform
// reads or writes (V, U or M, bound at binding 5 whatever the storage dtype, so 16-bit tensors
// lose nothing between the passes), and the decode of a 2x2 output tile index.
#ifndef VKCONV_WINOGRAD_GLSL
#define VKCONV_WINOGRAD_GLSL
#include "conv_params.glsl"

layout(set = 0, binding = 5, std430) buffer WinogradBuf { float ws_[]; };

// Tile t of N x ceil(P/2) x ceil(Q/2), row-major: (n, tile row, tile column).
uvec3 decodeTile(uint t) {
    uint tilesW = (pc.Q + 1u) >> 1, tilesH = (pc.P + 1u) >> 1;
    return uvec3(t / (tilesW * tilesH), (t / tilesW) % tilesH, t % tilesW);
}

#endif
