#include "half.hpp"

#include <bit>

namespace vkt {

uint16_t floatToHalf(float f) {
    const uint32_t x = std::bit_cast<uint32_t>(f);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t a = x & 0x7FFFFFFFu;
    if (a >= 0x7F800000u) {  // inf or nan; nan stays nan (quiet bit set, payload top bits kept)
        if (a > 0x7F800000u) return uint16_t(sign | 0x7E00u | ((a >> 13) & 0x3FFu));
        return uint16_t(sign | 0x7C00u);
    }
    // 65520 is the tie between 65504 (max half, odd mantissa) and 65536: it rounds to inf.
    if (a >= 0x477FF000u) return uint16_t(sign | 0x7C00u);
    const int32_t e = int32_t(a >> 23) - 127;
    if (e >= -14) {  // normal half; a mantissa carry correctly bumps the exponent
        const uint32_t mant = a & 0x7FFFFFu;
        uint32_t h = (uint32_t(e + 15) << 10) | (mant >> 13);
        const uint32_t rem = mant & 0x1FFFu;
        if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
        return uint16_t(sign | h);
    }
    if (e < -25) return uint16_t(sign);  // below half the smallest subnormal (2^-24): zero
    // Subnormal half: value = m * 2^-24 with the 24-bit float significand shifted down.
    const uint32_t mant = (a & 0x7FFFFFu) | 0x800000u;
    const int shift = -e - 1;  // 14..24
    uint32_t m = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1u);
    const uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (m & 1u))) ++m;  // may carry into the smallest normal
    return uint16_t(sign | m);
}

float halfToFloat(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t e = (h >> 10) & 0x1Fu;
    uint32_t m = h & 0x3FFu;
    uint32_t bits;
    if (e == 0x1F) {
        bits = sign | 0x7F800000u | (m << 13);
    } else if (e != 0) {
        bits = sign | ((e + 112u) << 23) | (m << 13);
    } else if (m == 0) {
        bits = sign;
    } else {  // subnormal: normalise
        int32_t exp = 113;
        while (!(m & 0x400u)) {
            m <<= 1;
            --exp;
        }
        bits = sign | (uint32_t(exp) << 23) | ((m & 0x3FFu) << 13);
    }
    return std::bit_cast<float>(bits);
}

uint16_t floatToBf16(float f) {
    uint32_t x = std::bit_cast<uint32_t>(f);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) return uint16_t((x >> 16) | 0x40u);  // quiet nan
    x += 0x7FFFu + ((x >> 16) & 1u);  // round to nearest even; overflow lands on inf
    return uint16_t(x >> 16);
}

float bf16ToFloat(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

}  // namespace vkt
