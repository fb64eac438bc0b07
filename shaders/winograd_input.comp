#version 460
// Winograd F(m x m, 3x3), pass 1 of 3 (docs/design.md "Winograd"): the input transform
// V = B^T d B of every WA x WA input patch (stride WM over the output, shifted by the padding) of
// this chunk's tiles.  Out-of-range input reads as zero (the padding, never stored).
// V (binding 5; fp32, or 16-bit under WS16) is the NHWC "image" the batched GEMM reads as a grouped 1x1 convolution:
//   V[t][xi][c] at (t * WA*WA + xi) * C + c,  t = chunk-local tile, xi = WA * i + j.
// NHWC: one invocation per (tile, channel), channels fastest: V is written contiguously and the
// input is read contiguously.  NCHW (staged, SCC > 0): a workgroup owns a block of SCC channels x
// SBR tile rows x SBT tiles; it first copies the block's input rows into shared memory, columns
// fastest (a subgroup reads runs of one row of one channel plane), then each invocation takes one
// (tile, channel), channels fastest, reads its patch from shared memory and writes its V values
// as channel-contiguous runs (docs/perf-notes.md item 112: reading each patch from global memory
// at a lane stride of m elements touched ~6x the unique sectors).  NCHW (element-wise, SCC == 0:
// devices whose shared memory cannot hold the staged block): a workgroup owns TT tiles x CC
// channels; its invocations walk the tiles and hand each row of their V values through shared
// memory to a write in channel-contiguous runs.  pc.aux0 = the chunk's first tile, pc.aux1 = its
// tile count.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "winograd.glsl"

layout(constant_id = 100) const uint WG_SIZE = 256;
layout(local_size_x_id = 100) in;

// The NCHW block: CC channels (one 32-byte sector of a V row) x TT tiles; the host dispatches
// ceil(tiles / TT) x ceil(C / CC) workgroups, channel blocks fastest.
const uint CC = 8u, TT = WG_SIZE / CC;
const uint SV_LINE = TT * (CC + 1u);  // one V column j of the block, padded against bank conflicts
// The staged NCHW block (host: SCC channels x SBR tile rows x SBT tiles, SBT * WM + 2 <= 32
// input columns, WG_SIZE a multiple of 32 and SCC of WG_SIZE / 32, the shared memory fits; SCC == 0
// selects the element-wise path).  Each channel's SBR x WA input rows of SCOLS columns, padded to
// an odd length: with channels fastest in the second phase, the lanes' patch reads then fall in
// distinct banks.
layout(constant_id = 125) const uint SCC = 0u;
layout(constant_id = 126) const uint SBT = 7u;
layout(constant_id = 127) const uint SBR = 1u;
const uint SCOLS = SBT * WM + 2u, SROWS = SBR * WA, SCS = (SROWS * SCOLS) | 1u;
const uint STAGED = SCC > 0u ? 1u : 0u;
const uint NG = WG_SIZE / 32u, CPG = SCC / NG;  // 32-invocation lane groups, channels per group
const uint SLOTS = WG_SIZE / (SCC + 1u - STAGED);  // (tile, channel) slots per round of phase 2
shared float sV[(1u - IN_LAYOUT) * (1u - STAGED) * WA * SV_LINE + 1u];
shared float sIn[(1u - IN_LAYOUT) * STAGED * SCC * SCS + 1u];

// The input patch of `tile`, channel c (zeros outside the image: the padding).
void loadPatch(uint tile, uint c, out float d[WA][WA]) {
    uvec3 tc = decodeTile(tile);
    int h0 = int(tc.y * WM) - int(pc.padT), w0 = int(tc.z * WM) - int(pc.padL);
    [[unroll]] for (uint i = 0u; i < WA; ++i) {
        int h = h0 + int(i);
        bool rowOk = h >= 0 && h < int(pc.H);
        [[unroll]] for (uint j = 0u; j < WA; ++j) {
            int w = w0 + int(j);
            d[i][j] = rowOk && w >= 0 && w < int(pc.W)
                          ? toF32(x_[activationOffset(IN_LAYOUT, tc.x, c, uint(h), uint(w), pc.C, pc.H, pc.W)])
                          : 0.0;
        }
    }
}

void mainNchw() {
    uint tid = gl_LocalInvocationID.x, t0, c0;
    if (!nchwBlock(pc.C, TT, CC, WG_SIZE, t0, c0)) return;  // whole workgroups: no barrier skipped
    uint t = tid % TT, cc = tid / TT;
    bool mine = t0 + t < pc.aux1 && c0 + cc < pc.C;
    float d[WA][WA], b[WA][WA];
    if (mine) loadPatch(pc.aux0 + t0 + t, c0 + cc, d);
    else [[unroll]] for (uint i = 0u; i < WA; ++i) [[unroll]] for (uint j = 0u; j < WA; ++j) d[i][j] = 0.0;
    btRows(d, b);
    [[unroll]] for (uint i = 0u; i < WA; ++i) {
        if (i > 0u) barrier();  // the previous row's reads are done
        [[unroll]] for (uint j = 0u; j < WA; ++j) sV[j * SV_LINE + t * (CC + 1u) + cc] = btValue(b, i, j);
        barrier();
        // V[t][WA*i + j][c], CC channels contiguous: value e of the row is (j, tile, channel).
        [[unroll]] for (uint r = 0u; r < WA; ++r) {
            uint e = tid + r * WG_SIZE, ce = e % CC, te = (e / CC) % TT, je = e / (CC * TT);
            if (t0 + te < pc.aux1 && c0 + ce < pc.C)
                WS_STORE(((t0 + te) * WA * WA + WA * i + je) * pc.C + c0 + ce, sV[je * SV_LINE + te * (CC + 1u) + ce])
        }
    }
}

// PAIRS: channels c and c + 1 (c even) of one tile, as two-wide values.  An interior patch
// (inside the image on every side: all but the border tiles) is read at fixed steps from one
// offset with no bounds check per value; the border tiles keep the checks.  Loading the whole
// patch before B^T d keeps all 36 loads in flight: accumulating B^T d one input row at a time
// (fewer live registers) made this pass 1.06-2.7x slower on an H100 (docs/perf-notes.md item 104).
layout(set = 0, binding = 0, std430) readonly buffer InputBuf2 { VEC2_T x2_[]; };

void mainPairs() {
    uint C2 = pc.C / 2u;
    uint idx = globalLinearIndex(WG_SIZE);
    if (idx >= pc.aux1 * C2) return;
    uint c2 = idx % C2, tl = idx / C2;
    uvec3 tc = decodeTile(pc.aux0 + tl);
    int h0 = int(tc.y * WM) - int(pc.padT), w0 = int(tc.z * WM) - int(pc.padL);
    vec2 d[WA][WA], b[WA][WA];
    if (h0 >= 0 && w0 >= 0 && h0 + int(WA) <= int(pc.H) && w0 + int(WA) <= int(pc.W)) {
        uint base = activationOffset(1u, tc.x, 2u * c2, uint(h0), uint(w0), pc.C, pc.H, pc.W) >> 1, rowStep = pc.W * C2;
        [[unroll]] for (uint i = 0u; i < WA; ++i)
            [[unroll]] for (uint j = 0u; j < WA; ++j) d[i][j] = toF32v2(x2_[base + i * rowStep + j * C2]);
    } else {
        [[unroll]] for (uint i = 0u; i < WA; ++i) {
            int h = h0 + int(i);
            bool rowOk = h >= 0 && h < int(pc.H);
            [[unroll]] for (uint j = 0u; j < WA; ++j) {
                int w = w0 + int(j);
                d[i][j] = rowOk && w >= 0 && w < int(pc.W)
                              ? toF32v2(x2_[activationOffset(1u, tc.x, 2u * c2, uint(h), uint(w), pc.C, pc.H, pc.W) >> 1])
                              : vec2(0.0);
            }
        }
    }
    btRows(d, b);
    uint vBase = tl * WA * WA * C2 + c2;
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) ws2_[vBase + (WA * i + j) * C2] = fromF32v2(btValue(b, i, j));
}

void mainStaged() {
    // The chunk's tiles span global tile rows (n * tilesH + tile row) rowFirst..rowLast; blocks
    // walk them SBR at a time, channel blocks fastest (the workgroups writing the pieces of one V
    // row run together, so L2 sees whole lines: with channel blocks slowest, 64-byte pieces of V
    // rows written far apart in time made this pass up to 4x slower on the H200), then x blocks,
    // then row groups.
    uint tilesW = (pc.Q + WM - 1u) / WM, tilesH = (pc.P + WM - 1u) / WM;
    uint rowFirst = pc.aux0 / tilesW, rowLast = (pc.aux0 + pc.aux1 - 1u) / tilesW;
    uint cBlocks = (pc.C + SCC - 1u) / SCC, xBlocks = (tilesW + SBT - 1u) / SBT, rowGroups = (rowLast - rowFirst + SBR) / SBR;
    uint block = globalLinearIndex(WG_SIZE) / WG_SIZE;
    if (block >= cBlocks * xBlocks * rowGroups) return;  // whole workgroups: no barrier skipped
    uint c0 = (block % cBlocks) * SCC, rest = block / cBlocks;
    uint tx0 = (rest % xBlocks) * SBT, gr0 = rowFirst + (rest / xBlocks) * SBR;
    uint tid = gl_LocalInvocationID.x;
    // Phase 1: lane group g copies channels g * CPG .. + CPG - 1, every input row of the block, its
    // 32 lanes along the columns (runs of one row of one channel plane); zeros outside the image
    // (the padding) and past the block's rows and channels.  The channel, row and column of each
    // value are constants of the unrolled loops plus per-invocation bases (a flat element index
    // decomposed per value cost ~44 instructions a load), and every load of a tile row reads a
    // clamped address unconditionally, so all of them are in flight before the first is used (a
    // guarded load compiled to a branch and a wait each).
    uint lane = tid % 32u, g = tid / 32u;
    int w = int(tx0 * WM + lane) - int(pc.padL);
    bool colOk = lane < SCOLS && w >= 0 && w < int(pc.W);
    [[unroll]] for (uint by = 0u; by < SBR; ++by) {
        uint gr = gr0 + by, n = gr / tilesH;
        int h0 = int((gr % tilesH) * WM) - int(pc.padT);
        float v[CPG + 1u - STAGED][WA];
        [[unroll]] for (uint cc = 0u; cc < CPG; ++cc) {
            uint c = c0 + g * CPG + cc;
            bool ok0 = colOk && gr <= rowLast && c < pc.C;
            uint plane = (n * pc.C + c) * pc.H;
            [[unroll]] for (uint r = 0u; r < WA; ++r) {
                int h = h0 + int(r);
                bool ok = ok0 && h >= 0 && h < int(pc.H);
                float raw = toF32(x_[ok ? (plane + uint(h)) * pc.W + uint(w) : 0u]);
                v[cc][r] = ok ? raw : 0.0;
            }
        }
        if (lane < SCOLS)
            [[unroll]] for (uint cc = 0u; cc < CPG; ++cc)
                [[unroll]] for (uint r = 0u; r < WA; ++r) sIn[(g * CPG + cc) * SCS + (by * WA + r) * SCOLS + lane] = v[cc][r];
    }
    barrier();
    // Phase 2: one (tile, channel) per invocation and round, channels fastest.
    uint c = tid % SCC;
    for (uint s = tid / SCC; s < SBT * SBR; s += SLOTS) {
        uint by = s / SBT, bx = s % SBT, gr = gr0 + by, t = gr * tilesW + tx0 + bx;
        // Tiles before the chunk wrap past pc.aux1 (unsigned).
        if (gr > rowLast || tx0 + bx >= tilesW || t - pc.aux0 >= pc.aux1 || c0 + c >= pc.C) continue;
        float d[WA][WA], b[WA][WA];
        uint base = c * SCS + by * WA * SCOLS + bx * WM;
        [[unroll]] for (uint i = 0u; i < WA; ++i)
            [[unroll]] for (uint j = 0u; j < WA; ++j) d[i][j] = sIn[base + i * SCOLS + j];
        btRows(d, b);
        uint vBase = (t - pc.aux0) * WA * WA * pc.C + c0 + c;
        [[unroll]] for (uint i = 0u; i < WA; ++i)
            [[unroll]] for (uint j = 0u; j < WA; ++j) WS_STORE(vBase + (WA * i + j) * pc.C, btValue(b, i, j))
    }
}

void main() {
    if (IN_LAYOUT == 0u) {
        if (STAGED == 1u) mainStaged();
        else mainNchw();
        return;
    }
    if (PAIRS) { mainPairs(); return; }
    uint idx = globalLinearIndex(WG_SIZE);
    if (idx >= pc.aux1 * pc.C) return;
    uint c = idx % pc.C, tl = idx / pc.C;
    float d[WA][WA], b[WA][WA];
    loadPatch(pc.aux0 + tl, c, d);
    btRows(d, b);
    uint base = tl * WA * WA * pc.C + c;
    [[unroll]] for (uint i = 0u; i < WA; ++i)
        [[unroll]] for (uint j = 0u; j < WA; ++j) WS_STORE(base + (WA * i + j) * pc.C, btValue(b, i, j))
}
