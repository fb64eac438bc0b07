// Host-side tensors for the benchmark: random non-zero values rounded to the storage type, the
// bytes to upload, and decoding of downloaded outputs.
#pragma once
#include <cstdint>
#include <vector>

#include "vkconv/types.hpp"

namespace vkbench {

uint16_t floatToHalf(float f);  // round to nearest even; overflow to inf; NaN stays NaN
float halfToFloat(uint16_t h);
uint16_t floatToBf16(float f);  // round to nearest even; NaN stays a quiet NaN
float bf16ToFloat(uint16_t b);

// Rounds v to the storage type (what the GPU reads back as fp32).
float roundTo(vkconv::DType t, float v);

struct HostTensor {
    std::vector<float> values;   // already rounded to the storage type
    std::vector<uint8_t> bytes;  // encoded in the storage type, ready to upload
};

// `count` values uniform in +-[0.125, 1] (never zero), rounded to `t`; deterministic per seed.
HostTensor randomTensor(vkconv::DType t, int64_t count, uint64_t seed);

// Element i of a buffer of storage type t.
float decodeAt(vkconv::DType t, const uint8_t* bytes, int64_t i);

}  // namespace vkbench
