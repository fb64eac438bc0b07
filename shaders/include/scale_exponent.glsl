// Scaled winograd (winograd.glsl SCALED): the power-of-two exponent that brings a tensor's (or a
// tile's, or a filter's) largest magnitude under its budget 2^k; shared by the range pass
// (winograd_range.comp) and the per-tile scales (winograd_scale.glsl).
#ifndef VKCONV_SCALE_EXPONENT_GLSL
#define VKCONV_SCALE_EXPONENT_GLSL

// The exponent e with |2^e x mx| < 2^k (mx >= 0), within +-120 so that 2^e and 2^-e stay finite
// fp32 values; 0 for zero or non-finite mx (the result is then what unscaled fp16 gives).
int scaleExpOf(float mx, int k) {
    uint bits = floatBitsToUint(mx);
    if (bits == 0u || (bits & 0x7F800000u) == 0x7F800000u) return 0;
    int ex;
    frexp(mx, ex);  // mx < 2^ex
    return clamp(k - ex, -120, 120);
}

#endif
