#version 460
// "depthwise": groups == C, K = M*C (channel multiplier M = K/C, pc.aux0); output channel k
// reads input channel k / M and filter row k (C/groups == 1, so KCRS and KRSC coincide:
// w[k*R*S + r*S + s]).  A memory-bound op, so the kernel is built around bytes moved:
//  * each invocation computes a PT x QT block of outputs (PT output rows, QT consecutive
//    columns) of one channel (NCHW input) or of four consecutive channels as a vec4 (NHWC
//    input, channels contiguous);
//  * the filter taps live in registers, loaded once per invocation;
//  * each input row under the block is loaded once into a register window of WIN columns and
//    feeds every (output row, tap row) pair that reads it: with stride 1 and a 3x3 filter a
//    2x4 block loads 4 rows x 6 columns for 8 outputs instead of 72 taps;
//  * interior/border split: an invocation whose column window lies inside the input loads with
//    no checks; border invocations mask each column.  Rows are tested once each, except in NHWC
//    blocks whose whole window is inside: no test at all, and (XREGS) several rows' loads issued
//    before their multiply-adds;
//  * 4-wide memory access where the layout and the views' alignment allow it (VEC_IN/VEC_OUT:
//    NHWC pixels of 4 channels; NCHW rows read as aligned 4-column chunks, blocks of 4 columns
//    stored as one vector), fewer and wider loads for the same bytes.
// R, S, strides and dilations are specialization constants, so every loop over the register
// arrays unrolls to straight-line code with constant indices (no scratch).  Filters too large
// for registers take the GENERIC path: one output per invocation, runtime loops.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "dtype.glsl"  // first: it may enable 16-bit storage extensions
#include "conv_params.glsl"
#include "conv_bindings.glsl"
#include "tensor_index.glsl"
#include "epilogue.glsl"

layout(constant_id = 100) const uint WG_SIZE = 64;
layout(local_size_x_id = 100) in;

layout(constant_id = 101) const uint FR = 3;  // filter rows R (1 on the GENERIC path)
layout(constant_id = 102) const uint FS = 3;  // filter columns S
layout(constant_id = 103) const uint SH = 1;  // stride
layout(constant_id = 104) const uint SW = 1;
layout(constant_id = 105) const uint DH = 1;  // dilation
layout(constant_id = 106) const uint DW = 1;
layout(constant_id = 107) const uint QT = 4;  // output columns per invocation
layout(constant_id = 108) const uint PT = 2;  // output rows per invocation
// 4-wide input loads (the host guarantees a 4-element-aligned input view and):
//   NHWC input: M == 1 and C % 4 == 0: one load per pixel, and the filter taps of an
//   invocation's four channels in TAPS loads (the filter view is 4-element aligned too);
//   NCHW input: W % 4 == 0 and QT*SW % 4 == 0: a row window is read as the aligned 4-element
//   chunks under it (chunks never straddle rows, so padding masks whole chunks).
layout(constant_id = 109) const bool VEC_IN = false;
// 4-wide output stores (aligned output and residual views and):
//   NHWC input and output: M == 1, K % 4 == 0: one store per pixel;
//   NCHW input and output: QT == 4 and Q % 4 == 0: one store per block row.
layout(constant_id = 110) const bool VEC_OUT = false;
layout(constant_id = 111) const bool GENERIC = false;
layout(constant_id = 112) const uint PADL = 0;  // left padding (the NCHW VEC_IN path only)

const uint TAPS = FR * FS;
const uint WIN = (QT - 1u) * SW + (FS - 1u) * DW + 1u;   // input columns under QT outputs
const uint RWIN = (PT - 1u) * SH + (FR - 1u) * DH + 1u;  // input rows under PT output rows
// NHWC interior blocks load RB window rows (at most XREGS pixels, at least one row) before
// using them.  The host sets XREGS (0: no such path; every row under its bounds test).
layout(constant_id = 113) const uint XREGS = 0;
// The NHWC path with the layer's sizes as specialization constants (the host's choice): at b32 the
// kernel is bound by its index arithmetic, not its bytes (with no loads, products or stores
// MobileNetV2's depthwise layers still took 40 % of their time), and with constant
// sizes the block decode's three divisions and every offset's products fold.  Off: the push
// constants (any size; the batch stays one either way).
layout(constant_id = 114) const bool SPEC_SHAPE = false;
layout(constant_id = 115) const uint S_K = 1u;
layout(constant_id = 116) const uint S_C = 1u;
layout(constant_id = 117) const uint S_H = 1u;
layout(constant_id = 118) const uint S_W = 1u;
layout(constant_id = 119) const uint S_P = 1u;
layout(constant_id = 120) const uint S_Q = 1u;
layout(constant_id = 121) const uint S_PADT = 0u;
layout(constant_id = 122) const uint S_PADL = 0u;
const uint RB0 = XREGS / WIN;
const uint RB = RB0 < 1u ? 1u : (RB0 > RWIN ? RWIN : RB0);
// NCHW VEC_IN: the window starts LEAD elements into its first chunk; NCH chunks cover it.
const uint PADA = (PADL + 3u) / 4u * 4u;
const uint LEAD = PADA - PADL;
const uint NCH = (LEAD + WIN + 3u) / 4u;

// 4-wide views of the residual and output bindings (offsets in units of 4 elements).
layout(set = 0, binding = 3, std430) readonly buffer ResidualBuf4 { VEC4_T res4_[]; };
layout(set = 0, binding = 4, std430) writeonly buffer OutputBuf4 { VEC4_T y4_[]; };

// Four channels (4-element aligned) of the input or filter as fp32.  bf16 reads them as two
// 32-bit words and widens with one shift or mask per value (the u16vec4 path converts each
// value to 32 bits first, then shifts).
#if defined(DTYPE_BF16)
layout(set = 0, binding = 0, std430) readonly buffer InputBufW2 { uvec2 xw2_[]; };
layout(set = 0, binding = 1, std430) readonly buffer FilterBufW2 { uvec2 ww2_[]; };
vec4 bf16Words(uvec2 v) {
    return uintBitsToFloat(uvec4(v.x << 16, v.x & 0xffff0000u, v.y << 16, v.y & 0xffff0000u));
}
vec4 input4(uint i) { return bf16Words(xw2_[i]); }
vec4 filter4(uint i) { return bf16Words(ww2_[i]); }
#else
vec4 input4(uint i) { return toF32v4(x4_[i]); }
vec4 filter4(uint i) { return toF32v4(w4_[i]); }
#endif


uint outputOffset(uint n, uint k, uint p, uint q) {
    return OUT_LAYOUT == 0u ? ((n * pc.K + k) * pc.P + p) * pc.Q + q : ((n * pc.P + p) * pc.Q + q) * pc.K + k;
}

// acc + bias (already in b) + residual, activated.
float finish(float acc, float b, uint outOff) {
    acc += b;
    if (HAS_RESIDUAL) acc += toF32(res_[outOff]);
    return activate(acc);
}

// Filter row of input row ir (0 .. RWIN-1) for output row pt, or FR when that output row does
// not read it.  Constant once the loops are unrolled.
uint tapRow(uint ir, uint pt) {
    if (ir < pt * SH) return FR;
    uint d = ir - pt * SH;
    return (d % DH == 0u && d / DH < FR) ? d / DH : FR;
}

bool rowUsed(uint ir) {
    bool used = false;
    [[unroll]] for (uint pt = 0u; pt < PT; ++pt) used = used || tapRow(ir, pt) < FR;
    return used;
}

// ---- NCHW input: QT consecutive columns x PT rows of one output channel ----
void nchwPath(uint linear) {
    uint QB = (pc.Q + QT - 1u) / QT, PB = (pc.P + PT - 1u) / PT;
    uint qb = linear % QB; uint t = linear / QB;
    uint pb = t % PB; t /= PB;
    uint k = t % pc.K; uint n = t / pc.K;
    if (n >= pc.N) return;
    uint c = k / pc.aux0;
    uint p0 = pb * PT, q0 = qb * QT;
    int ih0 = int(p0 * SH) - int(pc.padT);
    int iw0 = int(q0 * SW) - int(pc.padL);

    float wt[TAPS];
    [[unroll]] for (uint i = 0u; i < TAPS; ++i) wt[i] = toF32(w_[k * TAPS + i]);
    float acc[PT * QT];
    [[unroll]] for (uint i = 0u; i < PT * QT; ++i) acc[i] = 0.0;

    bool colsInside = iw0 >= 0 && iw0 + int(WIN) <= int(pc.W);
    uint plane = (n * pc.C + c) * pc.H;
    [[unroll]] for (uint ir = 0u; ir < RWIN; ++ir) {
        int ih = ih0 + int(ir);
        if (rowUsed(ir) && ih >= 0 && ih < int(pc.H)) {
            uint rowOff = (plane + uint(ih)) * pc.W;
            float xr[WIN];
            if (VEC_IN) {
                uint W4 = pc.W / 4u;
                int ch0 = (int(q0 * SW) - int(PADA)) / 4;  // exact: both terms are multiples of 4
                bool chunksInside = ch0 >= 0 && ch0 + int(NCH) <= int(W4);
                vec4 xc[NCH];
                [[unroll]] for (uint i = 0u; i < NCH; ++i) {
                    int ch = ch0 + int(i);
                    bool ok = chunksInside || (ch >= 0 && ch < int(W4));
                    vec4 v = toF32v4(x4_[ok ? rowOff / 4u + uint(ch) : 0u]);
                    xc[i] = ok ? v : vec4(0.0);
                }
                [[unroll]] for (uint i = 0u; i < WIN; ++i) xr[i] = xc[(LEAD + i) / 4u][(LEAD + i) % 4u];
            } else if (colsInside) {
                uint base = rowOff + uint(iw0);
                [[unroll]] for (uint i = 0u; i < WIN; ++i) xr[i] = toF32(x_[base + i]);
            } else {
                [[unroll]] for (uint i = 0u; i < WIN; ++i) {
                    int iw = iw0 + int(i);
                    bool ok = iw >= 0 && iw < int(pc.W);
                    float v = toF32(x_[ok ? rowOff + uint(iw) : 0u]);
                    xr[i] = ok ? v : 0.0;
                }
            }
            [[unroll]] for (uint pt = 0u; pt < PT; ++pt) {
                uint r = tapRow(ir, pt);
                if (r < FR) {
                    [[unroll]] for (uint s = 0u; s < FS; ++s)
                        [[unroll]] for (uint j = 0u; j < QT; ++j)
                            acc[pt * QT + j] = fma(wt[r * FS + s], xr[j * SW + s * DW], acc[pt * QT + j]);
                }
            }
        }
    }

    float b = HAS_BIAS ? toF32(bias_[k]) : 0.0;
    [[unroll]] for (uint pt = 0u; pt < PT; ++pt) {
        uint p = p0 + pt;
        if (p < pc.P) {
            vec4 quad = vec4(0.0);
            [[unroll]] for (uint j = 0u; j < QT; ++j) {
                uint q = q0 + j;
                if (VEC_OUT) {  // QT % 4 == 0, Q % 4 == 0: the block row is whole aligned vectors
                    quad[j & 3u] = acc[pt * QT + j];
                    if ((j & 3u) == 3u && q < pc.Q) {
                        uint off4 = outputOffset(n, k, p, q - 3u) / 4u;
                        vec4 v = quad + b;
                        if (HAS_RESIDUAL) v += toF32v4(res4_[off4]);
                        v = vec4(activate(v.x), activate(v.y), activate(v.z), activate(v.w));
                        y4_[off4] = fromF32v4(v);
                    }
                } else if (q < pc.Q) {
                    uint off = outputOffset(n, k, p, q);
                    y_[off] = fromF32(finish(acc[pt * QT + j], b, off));
                }
            }
        }
    }
}

// ---- NHWC input: QT columns x PT rows of four consecutive output channels (a vec4) ----
// Channels kb*4 .. kb*4+3 (or the lanes' cc) of one input pixel.
uint shK() { return SPEC_SHAPE ? S_K : pc.K; }
uint shC() { return SPEC_SHAPE ? S_C : pc.C; }
uint shH() { return SPEC_SHAPE ? S_H : pc.H; }
uint shW() { return SPEC_SHAPE ? S_W : pc.W; }
uint shP() { return SPEC_SHAPE ? S_P : pc.P; }
uint shQ() { return SPEC_SHAPE ? S_Q : pc.Q; }
uint shPadT() { return SPEC_SHAPE ? S_PADT : pc.padT; }
uint shPadL() { return SPEC_SHAPE ? S_PADL : pc.padL; }
vec4 nhwcPixel(uint pix, uint kb, uvec4 cc) {
    if (VEC_IN) return input4(pix * (shC() / 4u) + kb);
    uint e = pix * shC();
    return vec4(toF32(x_[e + cc.x]), toF32(x_[e + cc.y]), toF32(x_[e + cc.z]), toF32(x_[e + cc.w]));
}

// The NHWC path's filter taps and accumulators (module scope, so that helpers need no array
// parameters: glslang miscompiles spec-constant-sized ones).
vec4 wt4_[TAPS];
vec4 acc4_[PT * QT];

// Window pixel i of input row ir (its 4 channels in xv) into every output that reads it; all
// conditions are constant once unrolled.
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

void nhwcPath(uint linear) {
    uint KB = (shK() + 3u) / 4u, QB = (shQ() + QT - 1u) / QT, PB = (shP() + PT - 1u) / PT;
    uint kb = linear % KB; uint t = linear / KB;
    uint qb = t % QB; t /= QB;
    uint pb = t % PB; uint n = t / PB;
    if (n >= pc.N) return;
    uint k0 = kb * 4u;
    // Lanes past K compute a copy of channel K-1 and are never stored.
    uvec4 kk = min(uvec4(k0) + uvec4(0u, 1u, 2u, 3u), uvec4(shK() - 1u));
    uvec4 cc = kk / pc.aux0;
    uint p0 = pb * PT, q0 = qb * QT;
    int ih0 = int(p0 * SH) - int(shPadT());
    int iw0 = int(q0 * SW) - int(shPadL());

    if (VEC_IN) {
        // M == 1 and K % 4 == 0: the four channels' filters are one run of 4*TAPS elements
        // (channel-major), starting at a multiple of 4 elements: TAPS 4-wide loads instead of
        // 4*TAPS scalar ones, whose lanes sit 4*TAPS elements apart and touch as many cache lines
        // per load as a 4-wide one.  The regrouping into per-tap vec4s is constant indexing.
        vec4 run[TAPS];
        [[unroll]] for (uint j = 0u; j < TAPS; ++j) run[j] = filter4(kb * TAPS + j);
        [[unroll]] for (uint i = 0u; i < TAPS; ++i)
            [[unroll]] for (uint l = 0u; l < 4u; ++l) wt4_[i][l] = run[(l * TAPS + i) / 4u][(l * TAPS + i) % 4u];
    } else {
        [[unroll]] for (uint i = 0u; i < TAPS; ++i)
            wt4_[i] = vec4(toF32(w_[kk.x * TAPS + i]), toF32(w_[kk.y * TAPS + i]), toF32(w_[kk.z * TAPS + i]),
                         toF32(w_[kk.w * TAPS + i]));
    }
    [[unroll]] for (uint i = 0u; i < PT * QT; ++i) acc4_[i] = vec4(0.0);

    bool colsInside = iw0 >= 0 && iw0 + int(WIN) <= int(shW());
    bool rowsInside = ih0 >= 0 && ih0 + int(RWIN) <= int(shH());
    if (XREGS > 0u && colsInside && rowsInside) {
        // Interior block: no test anywhere, and the rows' loads issued RB rows at a time before
        // their multiply-adds: one memory latency per RB rows instead of one per row, within a
        // budget of XREGS loaded pixels (rowUsed is constant per row).
        uint pix0 = (n * shH() + uint(ih0)) * shW() + uint(iw0);
        [[unroll]] for (uint r0 = 0u; r0 < RWIN; r0 += RB) {
            vec4 xw[RB * WIN];
            [[unroll]] for (uint rr = 0u; rr < RB; ++rr)
                if (r0 + rr < RWIN && rowUsed(r0 + rr))
                    [[unroll]] for (uint i = 0u; i < WIN; ++i) xw[rr * WIN + i] = nhwcPixel(pix0 + (r0 + rr) * shW() + i, kb, cc);
            [[unroll]] for (uint rr = 0u; rr < RB; ++rr) {
                if (r0 + rr < RWIN && rowUsed(r0 + rr))
                    [[unroll]] for (uint i = 0u; i < WIN; ++i) accumulatePixel(xw[rr * WIN + i], r0 + rr, i);
            }
        }
    } else {
        [[unroll]] for (uint ir = 0u; ir < RWIN; ++ir) {
            int ih = ih0 + int(ir);
            if (rowUsed(ir) && ih >= 0 && ih < int(shH())) {
                uint rowPix = (n * shH() + uint(ih)) * shW();  // pixel index of (n, ih, 0)
                vec4 xr[WIN];
                if (colsInside) {
                    [[unroll]] for (uint i = 0u; i < WIN; ++i) xr[i] = nhwcPixel(rowPix + uint(iw0) + i, kb, cc);
                } else {
                    [[unroll]] for (uint i = 0u; i < WIN; ++i) {
                        int iw = iw0 + int(i);
                        bool ok = iw >= 0 && iw < int(shW());
                        vec4 v = nhwcPixel(ok ? rowPix + uint(iw) : 0u, kb, cc);
                        xr[i] = ok ? v : vec4(0.0);
                    }
                }
                [[unroll]] for (uint i = 0u; i < WIN; ++i) accumulatePixel(xr[i], ir, i);
            }
        }
    }

    vec4 b = vec4(0.0);
    if (HAS_BIAS) b = vec4(toF32(bias_[kk.x]), toF32(bias_[kk.y]), toF32(bias_[kk.z]), toF32(bias_[kk.w]));
    [[unroll]] for (uint pt = 0u; pt < PT; ++pt) {
        uint p = p0 + pt;
        if (p < shP()) {
            [[unroll]] for (uint j = 0u; j < QT; ++j) {
                uint q = q0 + j;
                if (q < shQ()) {
                    vec4 v = acc4_[pt * QT + j] + b;
                    if (VEC_OUT) {
                        uint off4 = ((n * shP() + p) * shQ() + q) * (shK() / 4u) + kb;
                        if (HAS_RESIDUAL) v += toF32v4(res4_[off4]);
                        v = vec4(activate(v.x), activate(v.y), activate(v.z), activate(v.w));
                        y4_[off4] = fromF32v4(v);
                    } else {
                        [[unroll]] for (uint l = 0u; l < 4u; ++l) {
                            if (k0 + l < shK()) {
                                uint off = outputOffset(n, k0 + l, p, q);
                                y_[off] = fromF32(finish(v[l], 0.0, off));
                            }
                        }
                    }
                }
            }
        }
    }
}

// ---- Any filter size: one output per invocation, runtime loops ----
void genericPath(uint linear) {
    if (linear >= pc.N * pc.K * pc.P * pc.Q) return;
    uvec4 o = decodeOutput(OUT_LAYOUT, linear, pc.K, pc.P, pc.Q);
    uint n = o.x, k = o.y, p = o.z, q = o.w;
    uint c = k / pc.aux0;
    uint RS = pc.R * pc.S;
    float acc = 0.0;
    for (uint r = 0u; r < pc.R; ++r) {
        int ih = int(p * pc.strideH + r * pc.dilH) - int(pc.padT);
        if (ih < 0 || ih >= int(pc.H)) continue;
        for (uint s = 0u; s < pc.S; ++s) {
            int iw = int(q * pc.strideW + s * pc.dilW) - int(pc.padL);
            if (iw < 0 || iw >= int(pc.W)) continue;
            float xv = toF32(x_[activationOffset(IN_LAYOUT, n, c, uint(ih), uint(iw), pc.C, pc.H, pc.W)]);
            acc = fma(xv, toF32(w_[k * RS + r * pc.S + s]), acc);
        }
    }
    storeOutput(linear, k, acc);
}

void main() {
    uint linear = globalLinearIndex(WG_SIZE);
    if (GENERIC) genericPath(linear);
    else if (IN_LAYOUT == 1u) nhwcPath(linear);
    else nchwPath(linear);
}
