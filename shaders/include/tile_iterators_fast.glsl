// "Channel-slice" staging for the implicit GEMM, used when C/groups is a multiple of BK: the
// reduction is ordered (r, s, c) with c fastest, so one BK slice shares a single filter tap
// (r, s), decoded once per slice for the whole workgroup.  A staged pixel row then needs only
// its precomputed base offset, the tap's offset delta and the channel stride; its padding test
// is two bits of its precomputed masks (or nothing for interior rows).
#ifndef VKCONV_TILE_ITERATORS_FAST_GLSL
#define VKCONV_TILE_ITERATORS_FAST_GLSL

// Signed element offset of (n, cBase, ih0, iw0): may point outside the tensor for border rows,
// which are never dereferenced at an invalid tap.
int rowBaseOffset(PixelRow px, uint cBase) {
    if (IN_LAYOUT == 1u) return ((int(px.n) * int(pc.H) + px.ih0) * int(pc.W) + px.iw0) * int(pc.C) + int(cBase);
    return (int(px.n * pc.C + cBase) * int(pc.H) + px.ih0) * int(pc.W) + px.iw0;
}

int tapDelta(uint r, uint s) {
    int d = int(r * pc.dilH) * int(pc.W) + int(s * pc.dilW);
    return IN_LAYOUT == 1u ? d * int(pc.C) : d;
}

uint channelStride() { return IN_LAYOUT == 1u ? 1u : pc.H * pc.W; }

bool sliceTapValid(PixelRow px, uint r, uint s) {
    if (MASK_MODE == 0u) {
        int ih = px.ih0 + int(r * pc.dilH), iw = px.iw0 + int(s * pc.dilW);
        return px.valid && ih >= 0 && ih < int(pc.H) && iw >= 0 && iw < int(pc.W);
    }
    return px.interior || (px.valid && (((px.rmask >> r) & (px.smask >> s) & 1u) != 0u));
}

// Filter element (k, c, r, s) with kidx = (r*S + s)*Cg + c.
uint sliceFilterOffset(uint k, uint c, uint rs, uint kidx, uint Cg, uint Kred) {
    return FILTER_LAYOUT == 1u ? k * Kred + kidx : (k * Cg + c) * (pc.R * pc.S) + rs;
}

// VEC_STAGING (implicit_gemm.comp): the same offset split into a per-item base (filter k, channel
// offset dc within the slice) and the slice's uniform delta (slice start k0 = kidx - dc, first
// channel c0, tap rs = r*S + s); a slice moves every staged activation by one delta too.
uint sliceFilterBase(uint k, uint dc, uint Cg, uint Kred) {
    return FILTER_LAYOUT == 1u ? k * Kred + dc : (k * Cg + dc) * (pc.R * pc.S);
}
uint sliceFilterDelta(uint k0, uint c0, uint rs) { return FILTER_LAYOUT == 1u ? k0 : c0 * (pc.R * pc.S) + rs; }
int sliceActivationDelta(uint r, uint s, uint c0, uint cstride) { return tapDelta(r, s) + int(c0 * cstride); }

#endif
