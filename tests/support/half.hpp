// Host-side conversions between fp32 and the 16-bit storage types vkconv uses.
// fp16: IEEE binary16, round-to-nearest-even, subnormals kept, inf/nan preserved.
// bf16: the top 16 bits of a float, round-to-nearest-even, nan kept quiet.
#pragma once
#include <cstdint>

namespace vkt {

uint16_t floatToHalf(float f);
float halfToFloat(uint16_t h);
uint16_t floatToBf16(float f);
float bf16ToFloat(uint16_t b);

// Rounds f to the nearest value representable in fp16 / bf16 (as a float).
inline float roundToHalf(float f) { return halfToFloat(floatToHalf(f)); }
inline float roundToBf16(float f) { return bf16ToFloat(floatToBf16(f)); }

}  // namespace vkt
