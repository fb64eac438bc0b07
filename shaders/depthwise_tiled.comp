#version 460
// "depthwise_tiled": depthwise (groups == C == K), NHWC in and out, through a shared-memory halo.
// A workgroup owns a TP x TQ output tile of CB = 4*CL consecutive channels of one image:
//  1. it loads the tile's input halo (HR x HC pixels x CB channels) in 16-byte words, every load
//     of the workgroup issued before the first one is used (a constant, unrolled count per
//     invocation), zeros where the halo leaves the input (the padding), and stores it as fp32
//     (16-bit values are widened once here, not once per tap);
//  2. after one barrier each invocation computes PT x QT outputs of 4 channels from shared
//     memory (taps in registers, each halo pixel read once per invocation and fed to every
//     output that reads it) and stores them as one 4-channel vector each.
// The register kernel ("depthwise") keeps each invocation's window loads in flight by itself and
// is held by their latency (docs/performance.md, "depthwise"); here a workgroup's loads are all in
// flight at once and several workgroups share an SM, so the layer can run at the memory's rate.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "epilogue.glsl"

layout(constant_id = 100) const uint WG_SIZE = 128;
layout(local_size_x_id = 100) in;

layout(constant_id = 101) const uint FR = 3;  // filter rows R
layout(constant_id = 102) const uint FS = 3;  // filter columns S
layout(constant_id = 103) const uint SH = 1;  // stride
layout(constant_id = 104) const uint SW = 1;
layout(constant_id = 105) const uint DH = 1;  // dilation
layout(constant_id = 106) const uint DW = 1;
layout(constant_id = 107) const uint QT = 4;  // output columns per invocation
layout(constant_id = 108) const uint PT = 2;  // output rows per invocation
layout(constant_id = 109) const uint CL = 8;  // channel lanes (4 channels each) per output pixel
layout(constant_id = 110) const uint BQ = 4;  // invocation blocks along a tile row
// WG_SIZE == CL * BP * BQ (the host derives BP).
const uint BP = WG_SIZE / (CL * BQ);

const uint TAPS = FR * FS;
const uint TP = BP * PT, TQ = BQ * QT;                   // output tile
const uint WIN = (QT - 1u) * SW + (FS - 1u) * DW + 1u;   // halo columns under one invocation
const uint RWIN = (PT - 1u) * SH + (FR - 1u) * DH + 1u;  // halo rows under one invocation
const uint HC = (TQ - 1u) * SW + (FS - 1u) * DW + 1u;    // halo columns of the tile
const uint HR = (TP - 1u) * SH + (FR - 1u) * DH + 1u;    // halo rows of the tile
// One halo pixel: CL vec4s, plus one of padding when a quarter subgroup (8 lanes of 16 bytes,
// what one shared-memory wavefront serves) spans several pixels, so that those pixels' lanes
// fall in different banks.
const uint PIXV = CL >= 8u ? CL : CL + 1u;
shared vec4 halo[HR * HC * PIXV];

// The input as 16-byte words: 8 channels (16-bit) or 4 (fp32) per word.
#if defined(DTYPE_F32)
const uint WORD_CH = 4u;
#else
const uint WORD_CH = 8u;
#endif
const uint WORDS_PER_PIX = CL * 4u / WORD_CH;
const uint HALO_WORDS = HR * HC * WORDS_PER_PIX;
const uint LOADS = (HALO_WORDS + WG_SIZE - 1u) / WG_SIZE;  // per invocation
layout(set = 0, binding = 0, std430) readonly buffer InputBufQ { uvec4 xq_[]; };
layout(set = 0, binding = 3, std430) readonly buffer ResidualBuf4 { VEC4_T res4_[]; };
layout(set = 0, binding = 4, std430) writeonly buffer OutputBuf4 { VEC4_T y4_[]; };

// Stores one loaded word (channels wc*WORD_CH ...) of halo pixel pix as fp32.
void stageWord(uint pix, uint wc, uvec4 v) {
#if defined(DTYPE_F32)
    halo[pix * PIXV + wc] = uintBitsToFloat(v);
#elif defined(DTYPE_F16)
    halo[pix * PIXV + 2u * wc] = vec4(unpackHalf2x16(v.x), unpackHalf2x16(v.y));
    halo[pix * PIXV + 2u * wc + 1u] = vec4(unpackHalf2x16(v.z), unpackHalf2x16(v.w));
#else  // bf16: each 32-bit word holds channels 2i (low half) and 2i+1 (high half)
    halo[pix * PIXV + 2u * wc] = uintBitsToFloat(uvec4(v.x << 16, v.x & 0xffff0000u, v.y << 16, v.y & 0xffff0000u));
    halo[pix * PIXV + 2u * wc + 1u] = uintBitsToFloat(uvec4(v.z << 16, v.z & 0xffff0000u, v.w << 16, v.w & 0xffff0000u));
#endif
}

// Filter row of window row ir for output row pt, or FR when that output row does not read it.
uint tapRow(uint ir, uint pt) {
    if (ir < pt * SH) return FR;
    uint d = ir - pt * SH;
    return (d % DH == 0u && d / DH < FR) ? d / DH : FR;
}

vec4 wt4_[TAPS];
vec4 acc4_[PT * QT];

void accumulatePixel(vec4 xv, uint ir, uint i) {
    [[unroll]] for (uint pt = 0u; pt < PT; ++pt) {
        uint r = tapRow(ir, pt);
        if (r < FR) {
            [[unroll]] for (uint s = 0u; s < FS; ++s)
                [[unroll]] for (uint j = 0u; j < QT; ++j)
                    if (j * SW + s * DW == i) acc4_[pt * QT + j] = fma(wt4_[r * FS + s], xv, acc4_[pt * QT + j]);
        }
    }
}

void main() {
    const uint tid = gl_LocalInvocationID.x;
    const uint tilesQ = (pc.Q + TQ - 1u) / TQ;
    const uint tq = gl_WorkGroupID.x % tilesQ, tp = gl_WorkGroupID.x / tilesQ;
    const uint blocksC = pc.C / (4u * CL);
    const uint cb = gl_WorkGroupID.y % blocksC, n = gl_WorkGroupID.y / blocksC;
    const uint c0 = cb * 4u * CL;  // first channel of the workgroup
    const int ih0 = int(tp * TP * SH) - int(pc.padT);
    const int iw0 = int(tq * TQ * SW) - int(pc.padL);

    // 1. The halo: every load first, then the conversions and shared-memory stores.
    const uint rowWords = pc.W * (pc.C / WORD_CH);
    const uint base = n * pc.H * rowWords + c0 / WORD_CH;
    uvec4 v[LOADS];
    [[unroll]] for (uint l = 0u; l < LOADS; ++l) {
        uint i = tid + l * WG_SIZE;
        uint pix = i / WORDS_PER_PIX, wc = i % WORDS_PER_PIX;
        int ih = ih0 + int(pix / HC), iw = iw0 + int(pix % HC);
        bool ok = i < HALO_WORDS && ih >= 0 && ih < int(pc.H) && iw >= 0 && iw < int(pc.W);
        uint at = base + uint(ih) * rowWords + uint(iw) * (pc.C / WORD_CH) + wc;
        uvec4 w = xq_[ok ? at : 0u];  // in bounds even where the word is padding
        v[l] = ok ? w : uvec4(0u);
    }
    [[unroll]] for (uint l = 0u; l < LOADS; ++l) {
        uint i = tid + l * WG_SIZE;
        if (i < HALO_WORDS) stageWord(i / WORDS_PER_PIX, i % WORDS_PER_PIX, v[l]);
    }

    // The invocation's 4 channels' taps: one contiguous, 4-element-aligned run of 4*TAPS values
    // (depthwise filters are k*TAPS + tap in either filter layout), read while the halo lands.
    const uint cl = tid % CL, blk = tid / CL;
    const uint bq = blk % BQ, bp = blk / BQ;
    const uint k0 = c0 + 4u * cl;
    {
        vec4 run[TAPS];
        [[unroll]] for (uint j = 0u; j < TAPS; ++j) run[j] = toF32v4(w4_[k0 / 4u * TAPS + j]);
        [[unroll]] for (uint i = 0u; i < TAPS; ++i)
            [[unroll]] for (uint l = 0u; l < 4u; ++l) wt4_[i][l] = run[(l * TAPS + i) / 4u][(l * TAPS + i) % 4u];
    }
    [[unroll]] for (uint i = 0u; i < PT * QT; ++i) acc4_[i] = vec4(0.0);
    barrier();

    // 2. PT x QT outputs of 4 channels from the halo.
    const uint hr0 = bp * PT * SH, hc0 = bq * QT * SW;
    [[unroll]] for (uint ir = 0u; ir < RWIN; ++ir)
        [[unroll]] for (uint i = 0u; i < WIN; ++i)
            accumulatePixel(halo[((hr0 + ir) * HC + hc0 + i) * PIXV + cl], ir, i);

    vec4 b = vec4(0.0);
    if (HAS_BIAS) b = vec4(toF32(bias_[k0]), toF32(bias_[k0 + 1u]), toF32(bias_[k0 + 2u]), toF32(bias_[k0 + 3u]));
    const uint p0 = tp * TP + bp * PT, q0 = tq * TQ + bq * QT;
    [[unroll]] for (uint pt = 0u; pt < PT; ++pt) {
        uint p = p0 + pt;
        [[unroll]] for (uint j = 0u; j < QT; ++j) {
            uint q = q0 + j;
            if (p < pc.P && q < pc.Q) {
                uint off4 = ((n * pc.P + p) * pc.Q + q) * (pc.K / 4u) + k0 / 4u;
                vec4 o = acc4_[pt * QT + j] + b;
                if (HAS_RESIDUAL) o += toF32v4(res4_[off4]);
                o = vec4(activate(o.x), activate(o.y), activate(o.z), activate(o.w));
                y4_[off4] = fromF32v4(o);
            }
        }
    }
}
