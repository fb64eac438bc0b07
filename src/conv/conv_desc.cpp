// Device-independent validation of a ConvDesc.  Every message names the field and its value.
#include <cmath>
#include <sstream>

#include "vkconv/conv_desc.hpp"
#include "vkconv/error.hpp"

namespace vkconv {

namespace {

constexpr int64_t kMaxIndex = (int64_t(1) << 31) - 1;  // shaders index with 32-bit integers

void requirePositive(const char* name, int64_t v) {
    if (v < 1)
        throw Error(ErrorCode::InvalidArgument, std::string(name) + " must be >= 1 (got " + std::to_string(v) + ")");
    if (v > kMaxIndex)
        throw Error(ErrorCode::IndexOverflow, std::string(name) + " = " + std::to_string(v) + " exceeds 2^31-1");
}

void requireNonNegative(const char* name, int64_t v) {
    if (v < 0)
        throw Error(ErrorCode::InvalidArgument, std::string(name) + " must be >= 0 (got " + std::to_string(v) + ")");
    if (v > kMaxIndex)
        throw Error(ErrorCode::IndexOverflow, std::string(name) + " = " + std::to_string(v) + " exceeds 2^31-1");
}

// Product of positive factors, or -1 once it passes kMaxIndex (no int64 overflow on the way).
int64_t boundedProduct(std::initializer_list<int64_t> factors) {
    int64_t p = 1;
    for (int64_t f : factors) {
        if (f != 0 && p > kMaxIndex / f) return -1;
        p *= f;
    }
    return p;
}

void requireIndexable(const char* tensor, std::initializer_list<int64_t> dims) {
    if (boundedProduct(dims) < 0) {
        long double count = 1;
        for (auto d : dims) count *= (long double)d;
        std::ostringstream m;
        m << tensor << " has " << double(count) << " elements; 32-bit indexing limits each tensor to 2^31-1 elements"
          << " (split the batch)";
        throw Error(ErrorCode::IndexOverflow, m.str());
    }
}

}  // namespace

void ConvDesc::validate() const {
    requirePositive("n", n);
    requirePositive("c", c);
    requirePositive("h", h);
    requirePositive("w", w);
    requirePositive("k", k);
    requirePositive("r", r);
    requirePositive("s", s);
    requireNonNegative("padTop", padTop);
    requireNonNegative("padBottom", padBottom);
    requireNonNegative("padLeft", padLeft);
    requireNonNegative("padRight", padRight);
    requirePositive("strideH", strideH);
    requirePositive("strideW", strideW);
    requirePositive("dilationH", dilationH);
    requirePositive("dilationW", dilationW);
    requirePositive("groups", groups);
    if (uint32_t(dtype) > 2)
        throw Error(ErrorCode::InvalidArgument, "dtype has an unknown value " + std::to_string(uint32_t(dtype)));
    if (uint32_t(inputLayout) > 1 || uint32_t(outputLayout) > 1)
        throw Error(ErrorCode::InvalidArgument, "inputLayout/outputLayout has an unknown value");
    if (uint32_t(filterLayout) > 1) throw Error(ErrorCode::InvalidArgument, "filterLayout has an unknown value");
    if (uint32_t(activation) > 6) throw Error(ErrorCode::InvalidArgument, "activation has an unknown value");
    if (!std::isfinite(activationAlpha)) throw Error(ErrorCode::InvalidArgument, "activationAlpha is not finite");
    if (c % groups != 0)
        throw Error(ErrorCode::InvalidArgument,
                    "c = " + std::to_string(c) + " is not divisible by groups = " + std::to_string(groups));
    if (k % groups != 0)
        throw Error(ErrorCode::InvalidArgument,
                    "k = " + std::to_string(k) + " is not divisible by groups = " + std::to_string(groups));

    // Padded extents and the receptive field must themselves be 32-bit indexable.
    int64_t paddedH = h + padTop + padBottom, paddedW = w + padLeft + padRight;
    int64_t fieldH = dilationH * (r - 1) + 1, fieldW = dilationW * (s - 1) + 1;
    if (paddedH > kMaxIndex || paddedW > kMaxIndex || fieldH > kMaxIndex || fieldW > kMaxIndex)
        throw Error(ErrorCode::IndexOverflow, "padded input or dilated filter extent exceeds 2^31-1");
    if (fieldH > paddedH)
        throw Error(ErrorCode::OutputEmpty,
                    "dilated filter height dilationH*(r-1)+1 = " + std::to_string(fieldH) +
                        " exceeds padded input height h+padTop+padBottom = " + std::to_string(paddedH));
    if (fieldW > paddedW)
        throw Error(ErrorCode::OutputEmpty,
                    "dilated filter width dilationW*(s-1)+1 = " + std::to_string(fieldW) +
                        " exceeds padded input width w+padLeft+padRight = " + std::to_string(paddedW));

    requireIndexable("input", {n, c, h, w});
    requireIndexable("filter", {k, c / groups, r, s});
    requireIndexable("output", {n, k, outH(), outW()});
    // Strided positions p*stride + r*dil must also stay in range.
    if (boundedProduct({outH(), strideH}) < 0 || boundedProduct({outW(), strideW}) < 0)
        throw Error(ErrorCode::IndexOverflow, "output position times stride exceeds 2^31-1");
}

std::string ConvDesc::toString() const {
    std::ostringstream o;
    o << "n" << n << " c" << c << " h" << h << " w" << w << " k" << k << " r" << r << " s" << s << " pad" << padTop
      << "," << padBottom << "," << padLeft << "," << padRight << " str" << strideH << "," << strideW << " dil"
      << dilationH << "," << dilationW << " g" << groups << " " << vkconv::toString(dtype) << " "
      << vkconv::toString(inputLayout) << "->" << vkconv::toString(outputLayout) << " "
      << vkconv::toString(filterLayout);
    if (hasBias) o << " +bias";
    if (hasResidual) o << " +res";
    if (activation != Activation::None) o << " " << vkconv::toString(activation);
    return o.str();
}

}  // namespace vkconv
