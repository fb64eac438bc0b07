// A transposed convolution with PyTorch's ConvTranspose2d semantics: the backward-data pass of
// the forward convolution convDesc() returns, plus a fused epilogue on its output.
//   out[n,co,oh,ow] = act( sum_{ci in group(co), r, s : ih*stride_h - pad_top + r*dil_h == oh, ...}
//                          in[n,ci,ih,iw] * w[ci, co - g*outChannels/groups, r, s] + bias[co] + residual[n,co,oh,ow] )
// The filter is PyTorch's weight [inChannels, outChannels/groups, kernelH, kernelW] (KCRS), or
// [inChannels, kernelH, kernelW, outChannels/groups] (KRSC): the forward convolution's own filter.
#pragma once
#include <cstdint>
#include <string>

#include "vkconv/conv_desc.hpp"
#include "vkconv/export.hpp"
#include "vkconv/types.hpp"

namespace vkconv {

struct VKCONV_API ConvTransposeDesc {
    int64_t n = 1, inChannels = 1, h = 1, w = 1;  // input
    int64_t outChannels = 1, kernelH = 1, kernelW = 1;
    // PyTorch's padding: dilation*(kernel-1) - padding zeros are added to each side of the input
    // (equivalently, `padding` rows and columns are removed from the full result's borders).
    int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
    // Extra rows/columns at the bottom/right of the output (PyTorch's output_padding): they pick
    // one of the output sizes that a strided forward convolution maps to the same input size.
    // Each must be smaller than its stride or its dilation.
    int64_t outputPaddingH = 0, outputPaddingW = 0;
    int64_t strideH = 1, strideW = 1;
    int64_t dilationH = 1, dilationW = 1;
    int64_t groups = 1;

    DType dtype = DType::F32;
    TensorLayout inputLayout = TensorLayout::NCHW;
    TensorLayout outputLayout = TensorLayout::NCHW;
    FilterLayout filterLayout = FilterLayout::KCRS;

    // Fused epilogue on the output: out = act(convT + bias + residual)
    bool hasBias = false;      // bias: outChannels elements of dtype
    bool hasResidual = false;  // residual: same shape, layout and dtype as the output
    Activation activation = Activation::None;
    float activationAlpha = 0.01f;

    // (h-1)*stride - padTop - padBottom + dilation*(kernel-1) + outputPadding + 1; may be < 1 for
    // an invalid descriptor (validate() names it).
    int64_t outH() const {
        return (h - 1) * strideH - padTop - padBottom + dilationH * (kernelH - 1) + outputPaddingH + 1;
    }
    int64_t outW() const {
        return (w - 1) * strideW - padLeft - padRight + dilationW * (kernelW - 1) + outputPaddingW + 1;
    }

    int64_t inputElements() const { return n * inChannels * h * w; }
    int64_t outputElements() const { return n * outChannels * outH() * outW(); }
    int64_t filterElements() const { return inChannels * (outChannels / groups) * kernelH * kernelW; }
    int64_t inputBytes() const { return inputElements() * dtypeSize(dtype); }
    int64_t outputBytes() const { return outputElements() * dtypeSize(dtype); }
    int64_t filterBytes() const { return filterElements() * dtypeSize(dtype); }
    int64_t biasBytes() const { return hasBias ? outChannels * dtypeSize(dtype) : 0; }
    double flops() const { return convDesc().flops(); }

    // The forward convolution whose backward-data pass this is: its input is this output (c =
    // outChannels, h x w = outH() x outW()), its output this input (k = inChannels), the same
    // filter, padding, stride, dilation and groups, and no epilogue.  With outputPadding at or
    // above the stride (allowed below the dilation), its outH()/outW() exceed h/w: the extra rows
    // of its output are not part of the transposed convolution's input.
    ConvDesc convDesc() const;

    // Device-independent checks; throws vkconv::Error naming the field.
    void validate() const;
    std::string toString() const;

    ConvTransposeDesc& pad(int64_t ph, int64_t pw) {
        padTop = padBottom = ph;
        padLeft = padRight = pw;
        return *this;
    }
};

}  // namespace vkconv
