// fp16 / bf16 conversions and random tensors.
#include "tensor_data.hpp"

#include <cmath>
#include <cstring>

namespace vkbench {

namespace {

uint32_t bitsOf(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

float floatOf(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// splitmix64: small, fast and good enough for benchmark data.
struct Rng {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
};

}  // namespace

uint16_t floatToHalf(float f) {
    uint32_t x = bitsOf(f);
    uint16_t sign = uint16_t((x >> 16) & 0x8000u);
    uint32_t ax = x & 0x7FFFFFFFu;
    if (ax >= 0x7F800000u) return uint16_t(sign | 0x7C00u | (ax > 0x7F800000u ? 0x200u : 0u));  // inf / NaN
    if (ax >= 0x477FF000u) return uint16_t(sign | 0x7C00u);  // >= 65520 rounds to inf
    if (ax < 0x38800000u) {
        // Below the smallest normal half (2^-14): a subnormal in units of 2^-24.  The scaling is
        // exact and nearbyint rounds to nearest even in the default rounding mode.
        float scaled = floatOf(ax) * 16777216.0f;
        return uint16_t(sign | uint32_t(std::nearbyint(scaled)));
    }
    uint32_t h = ((((ax >> 23) - 127u + 15u) << 10) | ((ax & 0x7FFFFFu) >> 13));
    uint32_t rest = ax & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry into the exponent is correct
    return uint16_t(sign | h);
}

float halfToFloat(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0x1F) return floatOf(sign | 0x7F800000u | (m << 13));
    if (e == 0) {
        float v = float(m) * (1.0f / 16777216.0f);  // subnormal (or zero): m * 2^-24, exact
        return sign ? -v : v;
    }
    return floatOf(sign | ((e - 15u + 127u) << 23) | (m << 13));
}

uint16_t floatToBf16(float f) {
    uint32_t u = bitsOf(f);
    if (std::isnan(f)) return uint16_t((u >> 16) | 0x40u);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return uint16_t(u >> 16);
}

float bf16ToFloat(uint16_t b) { return floatOf(uint32_t(b) << 16); }

float roundTo(vkconv::DType t, float v) {
    switch (t) {
        case vkconv::DType::F16: return halfToFloat(floatToHalf(v));
        case vkconv::DType::BF16: return bf16ToFloat(floatToBf16(v));
        default: return v;
    }
}

HostTensor randomTensor(vkconv::DType t, int64_t count, uint64_t seed) {
    HostTensor out;
    out.values.resize(size_t(count));
    out.bytes.resize(size_t(count) * vkconv::dtypeSize(t));
    Rng rng{seed * 0x2545F4914F6CDD1Dull + 1};
    for (int64_t i = 0; i < count; ++i) {
        uint64_t r = rng.next();
        float mag = 0.125f + 0.875f * float(double(r >> 40) * (1.0 / 16777216.0));  // [0.125, 1)
        float v = roundTo(t, (r & 1) ? -mag : mag);
        out.values[size_t(i)] = v;
        if (t == vkconv::DType::F32) {
            std::memcpy(&out.bytes[size_t(i) * 4], &v, 4);
        } else {
            uint16_t b = t == vkconv::DType::F16 ? floatToHalf(v) : floatToBf16(v);
            std::memcpy(&out.bytes[size_t(i) * 2], &b, 2);
        }
    }
    return out;
}

float decodeAt(vkconv::DType t, const uint8_t* bytes, int64_t i) {
    if (t == vkconv::DType::F32) {
        float v;
        std::memcpy(&v, bytes + i * 4, 4);
        return v;
    }
    uint16_t b;
    std::memcpy(&b, bytes + i * 2, 2);
    return t == vkconv::DType::F16 ? halfToFloat(b) : bf16ToFloat(b);
}

}  // namespace vkbench
