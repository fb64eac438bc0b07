// Seeded random tensors, rounding to the storage dtype, and packing to/from device bytes.
// Host tensors are always kept in canonical order: activations N,C,H,W and filters K,C/g,R,S.
// Layout only matters when packing to (or unpacking from) device bytes.
#pragma once
#include <vkconv/conv_desc.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace vkt {

// Uniform: floats uniform in [-1,1]; Integer: small integers in [-3,3] (exact in every dtype,
// so fp32 sums of them are exact and any difference points at a real bug).
enum class DataMode { Uniform, Integer };
const char* toString(DataMode m);

using Dims = std::array<int64_t, 4>;  // canonical order

float roundTo(float v, vkconv::DType t);
float decode(const uint8_t* p, vkconv::DType t);  // one element at p
void encode(float v, vkconv::DType t, uint8_t* p);

// `count` values rounded to t; never all zero.
std::vector<float> randomTensor(size_t count, vkconv::DType t, uint64_t seed, DataMode mode);

// channelsLast moves canonical dim 1 last: NCHW->NHWC for activations, KCRS->KRSC for filters.
std::vector<uint8_t> pack(const std::vector<float>& canonical, const Dims& dims, bool channelsLast, vkconv::DType t);
std::vector<float> unpack(const uint8_t* bytes, const Dims& dims, bool channelsLast, vkconv::DType t);

Dims inputDims(const vkconv::ConvDesc& d);
Dims filterDims(const vkconv::ConvDesc& d);
Dims outputDims(const vkconv::ConvDesc& d);  // also the residual's
bool inputChannelsLast(const vkconv::ConvDesc& d);
bool filterChannelsLast(const vkconv::ConvDesc& d);
bool outputChannelsLast(const vkconv::ConvDesc& d);

// Host copies of everything a convolution reads, dtype-rounded, canonical order.
struct ConvData {
    std::vector<float> input, filter, bias, residual;  // bias/residual empty when unused
};
ConvData makeConvData(const vkconv::ConvDesc& d, uint64_t seed, DataMode mode);

// Device bytes of each tensor in the descriptor's layouts.
struct PackedConv {
    std::vector<uint8_t> input, filter, bias, residual;
};
PackedConv packConv(const vkconv::ConvDesc& d, const ConvData& data);

}  // namespace vkt
