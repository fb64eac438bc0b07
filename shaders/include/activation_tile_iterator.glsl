// Activation (GEMM-A) access for one output pixel row of the implicit GEMM.
// The pixel's decode (n, top-left input position) is done once per tile, not per tap.
// Padding handling, chosen by MASK_MODE:
//   0 "analytic":  bounds of ih/iw are computed and compared at every load;
//   1 "optimized": validity of each filter row/column tap is precomputed once per tile as bit
//                  masks (CUTLASS's optimized iterator), so a load tests one bit; pixels whose
//                  whole receptive field is inside the input (interior) skip even that.
#ifndef VKCONV_ACTIVATION_TILE_ITERATOR_GLSL
#define VKCONV_ACTIVATION_TILE_ITERATOR_GLSL

layout(constant_id = 110) const uint MASK_MODE = 1;

struct PixelRow {
    uint n;
    int ih0, iw0;    // input position of filter tap (0,0)
    uint rmask;      // bit r: row ih0 + r*dilH is inside the input
    uint smask;      // bit s: column iw0 + s*dilW is inside the input
    bool valid;      // pixel index < M
    bool interior;   // every tap inside the input
};

// Bits lo..hi of a mask (lo <= hi <= 31; lo < 0 never occurs), 0 when the range is empty.
uint bitRange(int lo, int hi) {
    if (lo > hi) return 0u;
    uint upTo = hi >= 31 ? 0xFFFFFFFFu : (1u << uint(hi + 1)) - 1u;
    return upTo & ~((1u << uint(lo)) - 1u);
}

// Taps t in [0, n) with 0 <= base + t*dil < size, as a bit mask.  They form one interval, so the
// mask is computed without a loop over the taps: a runtime-bounded loop here kept NVIDIA from
// unrolling the scalar GEMM's prologue, which then held its PixelRow array in local memory
// (docs/performance.md, "implicit_gemm").  PIXEL_ROW_MASK_LOOPS (implicit_gemm_coopmat.comp)
// keeps the loops: that prologue was unrolled already, and without them it took more registers
// on RDNA3/RDNA4 and ran ~1 % slower on the H200.
uint tapMask(int base, uint dil, uint n, uint size) {
    int d = int(dil);
    int lo = base >= 0 ? 0 : (d - 1 - base) / d;  // first t with base + t*d >= 0
    int room = int(size) - 1 - base;              // last t: t*d <= room
    int hi = room < 0 ? -1 : min(room / d, int(n) - 1);
    return bitRange(lo, hi);
}

PixelRow makePixelRow(uint m, uint M) {
    PixelRow px;
    px.valid = m < M;
    uint mm = px.valid ? m : 0u;
    uint q = mm % pc.Q; uint t = mm / pc.Q;
    uint p = t % pc.P; px.n = t / pc.P;
    px.ih0 = int(p * pc.strideH) - int(pc.padT);
    px.iw0 = int(q * pc.strideW) - int(pc.padL);
#if defined(PIXEL_ROW_MASK_LOOPS)
    px.rmask = 0u; px.smask = 0u;
    for (uint r = 0u; r < pc.R; ++r) {
        int ih = px.ih0 + int(r * pc.dilH);
        if (ih >= 0 && ih < int(pc.H)) px.rmask |= 1u << r;
    }
    for (uint s = 0u; s < pc.S; ++s) {
        int iw = px.iw0 + int(s * pc.dilW);
        if (iw >= 0 && iw < int(pc.W)) px.smask |= 1u << s;
    }
#else
    px.rmask = tapMask(px.ih0, pc.dilH, pc.R, pc.H);
    px.smask = tapMask(px.iw0, pc.dilW, pc.S, pc.W);
#endif
    uint fullR = pc.R == 32u ? 0xFFFFFFFFu : (1u << pc.R) - 1u;
    uint fullS = pc.S == 32u ? 0xFFFFFFFFu : (1u << pc.S) - 1u;
    px.interior = px.valid && px.rmask == fullR && px.smask == fullS;
    return px;
}

bool tapValid(PixelRow px, Tap t) {
    if (MASK_MODE == 0u) {
        int ih = px.ih0 + int(t.r * pc.dilH), iw = px.iw0 + int(t.s * pc.dilW);
        return px.valid && ih >= 0 && ih < int(pc.H) && iw >= 0 && iw < int(pc.W);
    }
    return px.interior || (px.valid && (((px.rmask >> t.r) & (px.smask >> t.s) & 1u) != 0u));
}

// Loads activation(px, channel cBase + t.c, tap) as fp32; zero outside the input (padding).
float loadActivation(PixelRow px, Tap t, uint cBase) {
    if (!tapValid(px, t)) return 0.0;
    uint ih = uint(px.ih0 + int(t.r * pc.dilH)), iw = uint(px.iw0 + int(t.s * pc.dilW));
    return toF32(x_[activationOffset(IN_LAYOUT, px.n, cBase + t.c, ih, iw, pc.C, pc.H, pc.W)]);
}

#endif
