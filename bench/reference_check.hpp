// --check: float64 references over a sample of output elements, for each pass.
#pragma once
#include <cstdint>
#include <vector>

#include "common.hpp"
#include "vkconv/conv_desc.hpp"

namespace vkbench {

// Element offsets in each layout and the fused activations in float64, shared by the forward and
// the backward references.
int64_t activationOffset(vkconv::TensorLayout l, int64_t n, int64_t c, int64_t h, int64_t w, int64_t C, int64_t H,
                         int64_t W);
int64_t filterOffset(vkconv::FilterLayout l, int64_t k, int64_t c, int64_t r, int64_t s, int64_t Cg, int64_t R,
                     int64_t S);
double activate(vkconv::Activation a, double v, double alpha);

// How many outputs are sampled (plus the up to 16 corners n/k/p/q in {first, last}); outputs
// of smaller tensors are all checked.
constexpr int64_t kCheckSample = 2048;

// Compares the GPU's output (raw bytes in desc.dtype and desc.outputLayout) with a float64
// convolution of the same dtype-rounded inputs at the sampled positions.  An element passes when
//   |gpu - ref| <= 2^-23 * (2 + sqrt(L)) * 4 * (sum |x*w| + |bias|) + eps_out * |ref|  (+1e-6 with an activation)
// with L = C/groups * R * S and eps_out = 2^-23 (fp32), 2^-10 (fp16), 2^-7 (bf16); NaN/inf fail.
// amplification > 1 (Plan::roundingAmplification(): winograd F(4x4,3x3)) multiplies the first
// term, with sum |x*w| taken as the largest over the sample (an output's rounding then comes from
// its whole tile's input patch, not only its own receptive field).  operandRounding > 0
// (Plan::operandRounding(): winograd on the matrix units, 16-bit transformed operands) adds
// operandRounding x that largest sum |x*w| to every bound, and the RMS of |gpu - ref| / (that sum)
// over the sample must stay within operandRounding / (8 sqrt(C/groups)) (tests/support/harness.cpp).
CheckResult checkOutput(const vkconv::ConvDesc& desc, const std::vector<float>& input, const std::vector<float>& filter,
                        const std::vector<float>& bias, const uint8_t* output, double amplification = 1.0,
                        double operandRounding = 0.0);

// The backward passes (gradient_check.cpp), sampled and judged as checkOutput judges the forward
// pass, with L the reduction length of each element.  dy is yH x yW (the desc's output, or a
// transposed convolution's input).
// Backward-data: dx (raw bytes in desc.dtype and desc.inputLayout) = the transpose of the
// convolution applied to dy, L = K/groups * R * S; then, for a transposed convolution's own
// epilogue, + bias[c] (bias empty: none) and desc.activation.  The plan's amplification
// multiplies the accumulation term and its operandRounding x sum|dy*w| is added (a plan that
// stores partial sums in the 16-bit storage type, as dgrad_phases' phase outputs).
CheckResult checkDataGrad(const vkconv::ConvDesc& desc, int64_t yH, int64_t yW, const std::vector<float>& dy,
                          const std::vector<float>& filter, const std::vector<float>& bias, const uint8_t* dx,
                          double amplification = 1.0, double operandRounding = 0.0);
// Backward-weight: dw (in desc.filterLayout) = sum over n, p, q of x * dy, L = N * yH * yW; and
// where db is not null, the bias gradient (K elements, dy summed over n, p, q).
CheckResult checkWeightGrad(const vkconv::ConvDesc& desc, int64_t yH, int64_t yW, const std::vector<float>& input,
                            const std::vector<float>& dy, const uint8_t* dw, const uint8_t* db);

}  // namespace vkbench
