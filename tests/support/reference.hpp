// float64 CPU reference convolution (any valid ConvDesc) over the same dtype-rounded inputs
// the GPU reads.  Besides each output it returns absSum = sum|x*w| + |bias| + |residual|,
// the scale of the rounding error an fp32 accumulation may make (see harness tolerance()).
#pragma once
#include <vkconv/conv_desc.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "tensors.hpp"

namespace vkt {

// Layers with more multiply-adds than this are checked on a sample of outputs.
constexpr double kFullReferenceMaxMacs = 2e8;
constexpr size_t kRandomSampleCount = 3000;

struct RefResult {
    bool sampled = false;
    std::vector<int64_t> indices;  // canonical (n,k,p,q) linear indices; all of them when !sampled
    std::vector<double> value, absSum;
    std::string sampleInfo;  // how the sample was drawn; "all N outputs" otherwise
};

double activate(vkconv::Activation a, double x, double alpha);

// One output at canonical linear index idx = ((n*K + k)*P + p)*Q + q.
void referenceAt(const vkconv::ConvDesc& d, const ConvData& data, int64_t idx, double& value, double& absSum);

// All outputs, or only `indices`; spread over every hardware thread.
RefResult referenceAll(const vkconv::ConvDesc& d, const ConvData& data);
RefResult referenceSample(const vkconv::ConvDesc& d, const ConvData& data, std::vector<int64_t> indices,
                          std::string info);

// kRandomSampleCount random outputs plus, for the first and last (n,k), the whole border
// (first/last output row and column, corners included), plus the first and last index.
std::vector<int64_t> chooseSample(const vkconv::ConvDesc& d, uint64_t seed, std::string* info);

// referenceAll when d has at most kFullReferenceMaxMacs multiply-adds, else a sample.
RefResult reference(const vkconv::ConvDesc& d, const ConvData& data, uint64_t seed);

// Decodes a canonical output index.
struct OutCoord {
    int64_t n, k, p, q;
};
OutCoord outCoord(const vkconv::ConvDesc& d, int64_t idx);

}  // namespace vkt
