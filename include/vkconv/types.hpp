#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "vkconv/export.hpp"

namespace vkconv {

// Storage type of activations, filters, bias and residual.  Arithmetic always accumulates in fp32.
enum class DType : uint32_t { F32 = 0, F16 = 1, BF16 = 2 };
enum class TensorLayout : uint32_t { NCHW = 0, NHWC = 1 };
enum class FilterLayout : uint32_t { KCRS = 0, KRSC = 1 };  // KCRS is PyTorch's weight layout
enum class Activation : uint32_t { None = 0, Relu = 1, Relu6 = 2, LeakyRelu = 3, Gelu = 4, Silu = 5, Sigmoid = 6 };
// Which pass of a convolution a plan runs (cuDNN's and MIOpen's names): the forward convolution
// y = conv(x, w); backward-data dx from dy and w (a transposed convolution); backward-weight dw
// (and the bias gradient) from x and dy.
enum class ConvPass : uint32_t { Forward = 0, BackwardData = 1, BackwardWeight = 2 };

constexpr uint32_t dtypeSize(DType t) { return t == DType::F32 ? 4u : 2u; }

VKCONV_API std::string_view toString(DType t);
VKCONV_API std::string_view toString(TensorLayout l);
VKCONV_API std::string_view toString(FilterLayout l);
VKCONV_API std::string_view toString(Activation a);
VKCONV_API std::string_view toString(ConvPass p);  // "fwd", "bwd-data", "bwd-weight"

// Parsers for command lines and CSV files; nullopt when the name is unknown.
VKCONV_API std::optional<DType> parseDType(std::string_view s);
VKCONV_API std::optional<TensorLayout> parseTensorLayout(std::string_view s);
VKCONV_API std::optional<FilterLayout> parseFilterLayout(std::string_view s);
VKCONV_API std::optional<Activation> parseActivation(std::string_view s);
VKCONV_API std::optional<ConvPass> parseConvPass(std::string_view s);

}  // namespace vkconv
