// Device-independent validation of a ConvTransposeDesc: its own fields first (with PyTorch's
// names where they differ), then the forward convolution it is the backward-data pass of.
#include <sstream>

#include "vkconv/conv_transpose_desc.hpp"
#include "vkconv/error.hpp"

namespace vkconv {

ConvDesc ConvTransposeDesc::convDesc() const {
    ConvDesc d;
    d.n = n;
    d.c = outChannels;
    d.h = outH();
    d.w = outW();
    d.k = inChannels;
    d.r = kernelH;
    d.s = kernelW;
    d.padTop = padTop, d.padBottom = padBottom, d.padLeft = padLeft, d.padRight = padRight;
    d.strideH = strideH, d.strideW = strideW;
    d.dilationH = dilationH, d.dilationW = dilationW;
    d.groups = groups;
    d.dtype = dtype;
    d.inputLayout = outputLayout;  // the forward convolution's input is this output
    d.outputLayout = inputLayout;
    d.filterLayout = filterLayout;
    return d;
}

void ConvTransposeDesc::validate() const {
    auto positive = [](const char* name, int64_t v) {
        if (v < 1)
            throw Error(ErrorCode::InvalidArgument,
                        std::string(name) + " must be >= 1 (got " + std::to_string(v) + ")");
    };
    positive("n", n), positive("inChannels", inChannels), positive("h", h), positive("w", w);
    positive("outChannels", outChannels), positive("kernelH", kernelH), positive("kernelW", kernelW);
    positive("strideH", strideH), positive("strideW", strideW);
    positive("dilationH", dilationH), positive("dilationW", dilationW), positive("groups", groups);
    const std::pair<const char*, int64_t> nonNegative[] = {
        {"padTop", padTop},     {"padBottom", padBottom},           {"padLeft", padLeft},
        {"padRight", padRight}, {"outputPaddingH", outputPaddingH}, {"outputPaddingW", outputPaddingW}};
    for (auto [name, v] : nonNegative)
        if (v < 0)
            throw Error(ErrorCode::InvalidArgument,
                        std::string(name) + " must be >= 0 (got " + std::to_string(v) + ")");
    // Sizes from here on are multiplied: keep them where int64 arithmetic cannot wrap before the
    // forward convolution's own 2^31-1 checks run.
    constexpr int64_t kMax = (int64_t(1) << 31) - 1;
    for (int64_t v : {n, inChannels, h, w, outChannels, kernelH, kernelW, strideH, strideW, dilationH, dilationW,
                      padTop, padBottom, padLeft, padRight, outputPaddingH, outputPaddingW})
        if (v > kMax)
            throw Error(ErrorCode::IndexOverflow,
                        "a ConvTransposeDesc field (" + std::to_string(v) + ") exceeds 2^31-1: " + toString());
    if (outputPaddingH >= strideH && outputPaddingH >= dilationH)
        throw Error(ErrorCode::InvalidArgument, "outputPaddingH = " + std::to_string(outputPaddingH) +
                                                    " must be smaller than strideH = " + std::to_string(strideH) +
                                                    " or dilationH = " + std::to_string(dilationH));
    if (outputPaddingW >= strideW && outputPaddingW >= dilationW)
        throw Error(ErrorCode::InvalidArgument, "outputPaddingW = " + std::to_string(outputPaddingW) +
                                                    " must be smaller than strideW = " + std::to_string(strideW) +
                                                    " or dilationW = " + std::to_string(dilationW));
    if (inChannels % groups != 0)
        throw Error(ErrorCode::InvalidArgument, "inChannels = " + std::to_string(inChannels) +
                                                    " is not divisible by groups = " + std::to_string(groups));
    if (outChannels % groups != 0)
        throw Error(ErrorCode::InvalidArgument, "outChannels = " + std::to_string(outChannels) +
                                                    " is not divisible by groups = " + std::to_string(groups));
    if (outH() < 1 || outW() < 1)
        throw Error(ErrorCode::OutputEmpty, "the output is " + std::to_string(outH()) + " x " + std::to_string(outW()) +
                                                ": the padding removes more than the full result has (" + toString() +
                                                ")");
    if (uint32_t(activation) > 6) throw Error(ErrorCode::InvalidArgument, "activation has an unknown value");
    convDesc().validate();
}

std::string ConvTransposeDesc::toString() const {
    std::ostringstream o;
    o << "convT n" << n << " in" << inChannels << " h" << h << " w" << w << " out" << outChannels << " r" << kernelH
      << " s" << kernelW << " pad" << padTop << "," << padBottom << "," << padLeft << "," << padRight << " opad"
      << outputPaddingH << "," << outputPaddingW << " str" << strideH << "," << strideW << " dil" << dilationH << ","
      << dilationW << " g" << groups << " " << vkconv::toString(dtype) << " " << vkconv::toString(inputLayout) << "->"
      << vkconv::toString(outputLayout) << " " << vkconv::toString(filterLayout);
    if (hasBias) o << " +bias";
    if (hasResidual) o << " +res";
    if (activation != Activation::None) o << " " << vkconv::toString(activation);
    return o.str();
}

}  // namespace vkconv
