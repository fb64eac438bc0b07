#include <algorithm>
#include <cctype>
#include <string>

#include "vkconv/error.hpp"
#include "vkconv/types.hpp"

namespace vkconv {

const char* toString(ErrorCode code) {
    switch (code) {
        case ErrorCode::InvalidArgument: return "invalid argument";
        case ErrorCode::OutputEmpty: return "empty output";
        case ErrorCode::IndexOverflow: return "index overflow";
        case ErrorCode::BufferTooSmall: return "buffer too small";
        case ErrorCode::Unsupported: return "unsupported";
        case ErrorCode::UnknownAlgorithm: return "unknown algorithm";
        case ErrorCode::Vulkan: return "Vulkan error";
        case ErrorCode::NoDevice: return "no device";
        case ErrorCode::Io: return "I/O error";
        case ErrorCode::Timeout: return "timeout";
    }
    return "error";
}

std::string_view toString(DType t) {
    switch (t) {
        case DType::F32: return "fp32";
        case DType::F16: return "fp16";
        case DType::BF16: return "bf16";
    }
    return "?";
}
std::string_view toString(TensorLayout l) {
    return l == TensorLayout::NCHW ? "nchw" : l == TensorLayout::NHWC ? "nhwc" : "?";
}
std::string_view toString(FilterLayout l) {
    return l == FilterLayout::KCRS ? "kcrs" : l == FilterLayout::KRSC ? "krsc" : "?";
}
std::string_view toString(Activation a) {
    switch (a) {
        case Activation::None: return "none";
        case Activation::Relu: return "relu";
        case Activation::Relu6: return "relu6";
        case Activation::LeakyRelu: return "leaky_relu";
        case Activation::Gelu: return "gelu";
        case Activation::Silu: return "silu";
        case Activation::Sigmoid: return "sigmoid";
    }
    return "?";
}

std::string_view toString(ConvPass p) {
    switch (p) {
        case ConvPass::Forward: return "fwd";
        case ConvPass::BackwardData: return "bwd-data";
        case ConvPass::BackwardWeight: return "bwd-weight";
    }
    return "?";
}

static std::string lower(std::string_view s) {
    std::string r(s);
    std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return r;
}

std::optional<DType> parseDType(std::string_view s) {
    auto l = lower(s);
    if (l == "fp32" || l == "f32" || l == "float32") return DType::F32;
    if (l == "fp16" || l == "f16" || l == "float16" || l == "half") return DType::F16;
    if (l == "bf16" || l == "bfloat16") return DType::BF16;
    return std::nullopt;
}
std::optional<TensorLayout> parseTensorLayout(std::string_view s) {
    auto l = lower(s);
    if (l == "nchw") return TensorLayout::NCHW;
    if (l == "nhwc") return TensorLayout::NHWC;
    return std::nullopt;
}
std::optional<FilterLayout> parseFilterLayout(std::string_view s) {
    auto l = lower(s);
    if (l == "kcrs") return FilterLayout::KCRS;
    if (l == "krsc") return FilterLayout::KRSC;
    return std::nullopt;
}
std::optional<Activation> parseActivation(std::string_view s) {
    auto l = lower(s);
    for (auto a : {Activation::None, Activation::Relu, Activation::Relu6, Activation::LeakyRelu, Activation::Gelu,
                   Activation::Silu, Activation::Sigmoid})
        if (l == toString(a)) return a;
    if (l == "leakyrelu") return Activation::LeakyRelu;
    return std::nullopt;
}
std::optional<ConvPass> parseConvPass(std::string_view s) {
    auto l = lower(s);
    for (auto p : {ConvPass::Forward, ConvPass::BackwardData, ConvPass::BackwardWeight})
        if (l == toString(p)) return p;
    if (l == "forward") return ConvPass::Forward;
    if (l == "backward-data" || l == "dgrad") return ConvPass::BackwardData;
    if (l == "backward-weight" || l == "wgrad") return ConvPass::BackwardWeight;
    return std::nullopt;
}

}  // namespace vkconv
