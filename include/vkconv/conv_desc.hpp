// The convolution problem: sizes, geometry, layouts, storage type and fused epilogue.
//   y[n,k,p,q] = act( sum_{c in group(k), r, s} x[n,c,p*stride_h - pad_top + r*dil_h, q*stride_w - pad_left + s*dil_w]
//                                                 * w[k, c - g*C/groups, r, s]  + bias[k] + residual[n,k,p,q] )
// with out-of-range input positions reading as zero (implicit padding; nothing is materialised).
#pragma once
#include <cstdint>
#include <string>

#include "vkconv/export.hpp"
#include "vkconv/types.hpp"

namespace vkconv {

struct VKCONV_API ConvDesc {
    int64_t n = 1, c = 1, h = 1, w = 1;  // input
    int64_t k = 1, r = 1, s = 1;         // filter: K output channels, R x S taps
    int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
    int64_t strideH = 1, strideW = 1;
    int64_t dilationH = 1, dilationW = 1;
    int64_t groups = 1;  // groups == c == k: depthwise

    DType dtype = DType::F32;
    TensorLayout inputLayout = TensorLayout::NCHW;
    TensorLayout outputLayout = TensorLayout::NCHW;
    FilterLayout filterLayout = FilterLayout::KCRS;

    // Fused epilogue: y = act(conv + bias + residual)
    bool hasBias = false;      // bias: K elements of dtype
    bool hasResidual = false;  // residual: same shape, layout and dtype as the output
    Activation activation = Activation::None;
    float activationAlpha = 0.01f;  // negative slope of LeakyRelu

    // Derived sizes (valid after validate() succeeded).
    // 0 for a stride below 1 (validate() names it), so that sizes of an invalid descriptor
    // never divide by zero.
    int64_t outH() const { return strideH < 1 ? 0 : (h + padTop + padBottom - dilationH * (r - 1) - 1) / strideH + 1; }
    int64_t outW() const { return strideW < 1 ? 0 : (w + padLeft + padRight - dilationW * (s - 1) - 1) / strideW + 1; }
    int64_t channelsPerGroup() const { return c / groups; }
    int64_t filtersPerGroup() const { return k / groups; }
    int64_t reductionLength() const { return channelsPerGroup() * r * s; }

    int64_t inputElements() const { return n * c * h * w; }
    int64_t filterElements() const { return k * channelsPerGroup() * r * s; }
    int64_t outputElements() const { return n * k * outH() * outW(); }
    int64_t inputBytes() const { return inputElements() * dtypeSize(dtype); }
    int64_t filterBytes() const { return filterElements() * dtypeSize(dtype); }
    int64_t biasBytes() const { return hasBias ? k * dtypeSize(dtype) : 0; }
    int64_t outputBytes() const { return outputElements() * dtypeSize(dtype); }

    // 2 * N * K * (C/groups) * R * S * P * Q
    double flops() const {
        return 2.0 * double(n) * double(k) * double(reductionLength()) * double(outH()) * double(outW());
    }

    // Device-independent checks; throws vkconv::Error naming the field.  Plan::create also
    // checks what depends on the device (dtype support, maxStorageBufferRange).
    void validate() const;

    std::string toString() const;  // e.g. "n1 c64 h56 w56 k64 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1 f32 nchw->nchw kcrs"

    // Convenience for symmetric padding.
    ConvDesc& pad(int64_t ph, int64_t pw) {
        padTop = padBottom = ph;
        padLeft = padRight = pw;
        return *this;
    }
};

}  // namespace vkconv
