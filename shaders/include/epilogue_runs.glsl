// Wide output stores for the cooperative-matrix kernels' epilogues.
//
// NCHW output runs: 8 consecutive pixels of one
// filter (one column octet of an accumulator, staged column-major so that a lane reads them as two
// 16-byte words) go out in the widest stores their alignment allows: one 16-byte store where the
// run is whole and 8-aligned, else 8-byte halves, 4-byte pairs, single values.  Element stores
// (one 16-bit value per lane per instruction, 8x the instructions) kept the NCHW outputs of these
// kernels well behind their NHWC ones (docs/performance.md, "NCHW layers").
//
// Include after epilogue.glsl and coopmat_common.glsl; the kernel declares `y8_` (binding 4 as
// uvec4).  `wide` is the kernel's VEC_OUT specialization constant: the host sets it only where
// the output view is 16-byte aligned, so element offset alignment is address alignment.
#ifndef VKCONV_EPILOGUE_RUNS_GLSL
#define VKCONV_EPILOGUE_RUNS_GLSL

layout(set = 0, binding = 4, std430) writeonly buffer OutputBuf4 { uvec2 y4w_[]; };  // 4 values
layout(set = 0, binding = 4, std430) writeonly buffer OutputBuf2 { uint y2w_[]; };   // 2 values

// The 8 fp32 values of two 16-byte scratch words (a run of 8 accumulator elements).
float[8] words8(uvec4 lo, uvec4 hi) {
    vec4 a = uintBitsToFloat(lo), b = uintBitsToFloat(hi);
    return float[8](a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w);
}

// v[0 .. cnt) (cnt <= 8, raw accumulators) of filter k go to output offsets off .. off + cnt - 1;
// the epilogue (bias, residual, activation) is applied here.  Indices are static throughout: a
// dynamically indexed v[] would go to local memory.
void storeRun8(bool wide, uint off, uint cnt, uint k, float v[8]) {
    [[unroll]] for (uint t = 0u; t < 8u; ++t)
        if (t < cnt) v[t] = epilogueValue(v[t], k, off + t);
    if (wide && cnt == 8u && (off & 7u) == 0u) {
        y8_[off >> 3] = uvec4(PACK_OUT(v[0], v[1]), PACK_OUT(v[2], v[3]), PACK_OUT(v[4], v[5]), PACK_OUT(v[6], v[7]));
        return;
    }
    [[unroll]] for (uint h = 0u; h < 8u; h += 4u) {
        uint o = off + h;
        if (wide && h + 4u <= cnt && (o & 3u) == 0u) {
            y4w_[o >> 2] = uvec2(PACK_OUT(v[h], v[h + 1u]), PACK_OUT(v[h + 2u], v[h + 3u]));
            continue;
        }
        [[unroll]] for (uint t = h; t < h + 4u; t += 2u) {
            uint o2 = off + t;
            if (wide && t + 2u <= cnt && (o2 & 1u) == 0u) {
                y2w_[o2 >> 1] = PACK_OUT(v[t], v[t + 1u]);
            } else {
                if (t < cnt) y_[o2] = fromF32(v[t]);
                if (t + 1u < cnt) y_[o2 + 1u] = fromF32(v[t + 1u]);
            }
        }
    }
}

// NHWC: `word` consecutive filters of one pixel (the kernel's OUT_WORD specialization constant:
// 8, 4 or 2, the most that divides K/groups) in one 16-, 8- or 4-byte store.  Element stores
// made RetinaNet's 36-filter box heads markedly slower than the same layers with 40 filters
// (docs/performance.md, "implicit_gemm_coopmat").  `off` (element offset of filter
// k) is a multiple of `word`; v holds raw accumulators from v[sub] on (sub: 0, or 2 for a 2-filter
// word in the upper half of a 4-value scratch word).
void storeFiltersNhwc(uint word, uint off, uint k, float v[8], uint sub) {
    if (word == 2u && sub == 2u) {  // static indices: no local memory
        v[0] = v[2];
        v[1] = v[3];
    }
    [[unroll]] for (uint t = 0u; t < 8u; ++t)
        if (t < word) v[t] = epilogueValue(v[t], k + t, off + t);
    if (word == 8u)
        y8_[off >> 3] = uvec4(PACK_OUT(v[0], v[1]), PACK_OUT(v[2], v[3]), PACK_OUT(v[4], v[5]), PACK_OUT(v[6], v[7]));
    else if (word == 4u)
        y4w_[off >> 2] = uvec2(PACK_OUT(v[0], v[1]), PACK_OUT(v[2], v[3]));
    else
        y2w_[off >> 1] = PACK_OUT(v[0], v[1]);
}

// The same for words of the fp16 scratch (EPI16: nothing to apply; words of 8 or 4 filters, the
// host's condition): `w` holds 8 filters from an 8-aligned one, `off` is the offset of the first
// filter stored; word 4 stores half `part` of w.
void copyFiltersNhwc(uint word, uint off, uvec4 w, uint part) {
    if (word == 8u) y8_[off >> 3] = w;
    else y4w_[off >> 2] = part == 0u ? w.xy : w.zw;
}

#endif
