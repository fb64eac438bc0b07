#include "tensors.hpp"

#include <cstring>
#include <random>

#include "half.hpp"

namespace vkt {
using vkconv::DType;

const char* toString(DataMode m) { return m == DataMode::Integer ? "integer" : "uniform"; }

float roundTo(float v, DType t) {
    switch (t) {
        case DType::F16: return roundToHalf(v);
        case DType::BF16: return roundToBf16(v);
        default: return v;
    }
}

float decode(const uint8_t* p, DType t) {
    if (t == DType::F32) {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    uint16_t h;
    std::memcpy(&h, p, 2);
    return t == DType::F16 ? halfToFloat(h) : bf16ToFloat(h);
}

void encode(float v, DType t, uint8_t* p) {
    if (t == DType::F32) {
        std::memcpy(p, &v, 4);
        return;
    }
    const uint16_t h = t == DType::F16 ? floatToHalf(v) : floatToBf16(v);
    std::memcpy(p, &h, 2);
}

std::vector<float> randomTensor(size_t count, DType t, uint64_t seed, DataMode mode) {
    std::mt19937_64 rng(seed);
    std::vector<float> v(count);
    if (mode == DataMode::Integer) {
        std::uniform_int_distribution<int> dist(-3, 3);
        for (auto& x : v) x = float(dist(rng));
    } else {
        std::uniform_real_distribution<double> dist(-1.0, 1.0);
        for (auto& x : v) x = roundTo(float(dist(rng)), t);
    }
    bool any = false;
    for (float x : v) any = any || x != 0.0f;
    if (!any && !v.empty()) v[0] = 1.0f;  // an all-zero tensor would hide most bugs
    return v;
}

// Element (a,b,c,d) of canonical dims (A,B,C,D) sits at ((a*C + c)*D + d)*B + b when
// channels-last, ((a*B + b)*C + c)*D + d otherwise.  Calls f(canonical index, packed index).
template <typename F>
void forEachElement(const Dims& dims, bool channelsLast, F&& f) {
    const auto [A, B, C, D] = dims;
    size_t i = 0;
    for (int64_t a = 0; a < A; ++a)
        for (int64_t b = 0; b < B; ++b)
            for (int64_t c = 0; c < C; ++c)
                for (int64_t d = 0; d < D; ++d, ++i) f(i, channelsLast ? size_t(((a * C + c) * D + d) * B + b) : i);
}

std::vector<uint8_t> pack(const std::vector<float>& canonical, const Dims& dims, bool channelsLast, DType t) {
    const size_t es = vkconv::dtypeSize(t);
    std::vector<uint8_t> out(canonical.size() * es);
    forEachElement(dims, channelsLast, [&](size_t i, size_t j) { encode(canonical[i], t, out.data() + j * es); });
    return out;
}

std::vector<float> unpack(const uint8_t* bytes, const Dims& dims, bool channelsLast, DType t) {
    const size_t es = vkconv::dtypeSize(t);
    std::vector<float> out(size_t(dims[0] * dims[1] * dims[2] * dims[3]));
    forEachElement(dims, channelsLast, [&](size_t i, size_t j) { out[i] = decode(bytes + j * es, t); });
    return out;
}

Dims inputDims(const vkconv::ConvDesc& d) { return {d.n, d.c, d.h, d.w}; }
Dims filterDims(const vkconv::ConvDesc& d) { return {d.k, d.channelsPerGroup(), d.r, d.s}; }
Dims outputDims(const vkconv::ConvDesc& d) { return {d.n, d.k, d.outH(), d.outW()}; }
bool inputChannelsLast(const vkconv::ConvDesc& d) { return d.inputLayout == vkconv::TensorLayout::NHWC; }
bool filterChannelsLast(const vkconv::ConvDesc& d) { return d.filterLayout == vkconv::FilterLayout::KRSC; }
bool outputChannelsLast(const vkconv::ConvDesc& d) { return d.outputLayout == vkconv::TensorLayout::NHWC; }

ConvData makeConvData(const vkconv::ConvDesc& d, uint64_t seed, DataMode mode) {
    // Distinct, reproducible streams per tensor.
    ConvData c;
    c.input = randomTensor(size_t(d.inputElements()), d.dtype, seed * 4 + 0x1111, mode);
    c.filter = randomTensor(size_t(d.filterElements()), d.dtype, seed * 4 + 0x2222, mode);
    if (d.hasBias) c.bias = randomTensor(size_t(d.k), d.dtype, seed * 4 + 0x3333, mode);
    if (d.hasResidual) c.residual = randomTensor(size_t(d.outputElements()), d.dtype, seed * 4 + 0x4444, mode);
    return c;
}

PackedConv packConv(const vkconv::ConvDesc& d, const ConvData& data) {
    PackedConv p;
    p.input = pack(data.input, inputDims(d), inputChannelsLast(d), d.dtype);
    p.filter = pack(data.filter, filterDims(d), filterChannelsLast(d), d.dtype);
    if (d.hasBias) p.bias = pack(data.bias, {1, d.k, 1, 1}, false, d.dtype);
    if (d.hasResidual) p.residual = pack(data.residual, outputDims(d), outputChannelsLast(d), d.dtype);
    return p;
}

}  // namespace vkt
