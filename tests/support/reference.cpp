#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>

namespace vkt {
using vkconv::Activation;

double activate(Activation a, double x, double alpha) {
    switch (a) {
        case Activation::None: return x;
        case Activation::Relu: return x < 0 ? 0.0 : x;
        case Activation::Relu6: return std::min(std::max(x, 0.0), 6.0);
        case Activation::LeakyRelu: return x < 0 ? alpha * x : x;
        case Activation::Gelu: return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
        case Activation::Silu: return x / (1.0 + std::exp(-x));
        case Activation::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    }
    return x;
}

OutCoord outCoord(const vkconv::ConvDesc& d, int64_t idx) {
    const int64_t P = d.outH(), Q = d.outW();
    OutCoord c;
    c.q = idx % Q;
    idx /= Q;
    c.p = idx % P;
    idx /= P;
    c.k = idx % d.k;
    c.n = idx / d.k;
    return c;
}

void referenceAt(const vkconv::ConvDesc& d, const ConvData& data, int64_t idx, double& value, double& absSum) {
    const OutCoord o = outCoord(d, idx);
    const int64_t cg = d.channelsPerGroup(), g = o.k / d.filtersPerGroup();
    const int64_t ih0 = o.p * d.strideH - d.padTop, iw0 = o.q * d.strideW - d.padLeft;
    double acc = 0, abs = 0;
    for (int64_t cl = 0; cl < cg; ++cl) {
        const float* x = data.input.data() + ((o.n * d.c + g * cg + cl) * d.h) * d.w;
        const float* wt = data.filter.data() + ((o.k * cg + cl) * d.r) * d.s;
        for (int64_t r = 0; r < d.r; ++r) {
            const int64_t ih = ih0 + r * d.dilationH;
            if (ih < 0 || ih >= d.h) continue;
            for (int64_t s = 0; s < d.s; ++s) {
                const int64_t iw = iw0 + s * d.dilationW;
                if (iw < 0 || iw >= d.w) continue;
                const double prod = double(x[ih * d.w + iw]) * double(wt[r * d.s + s]);
                acc += prod;
                abs += std::fabs(prod);
            }
        }
    }
    if (d.hasBias) {
        acc += data.bias[size_t(o.k)];
        abs += std::fabs(double(data.bias[size_t(o.k)]));
    }
    if (d.hasResidual) {
        acc += data.residual[size_t(idx)];
        abs += std::fabs(double(data.residual[size_t(idx)]));
    }
    value = activate(d.activation, acc, double(d.activationAlpha));
    absSum = abs;
}

namespace {
// Runs body(i) for i in [0, count) on every hardware thread (at least 2: the CI box has 2).
template <class F>
void parallelFor(int64_t count, F body) {
    const int64_t threads = std::max<int64_t>(
        1, std::min<int64_t>(std::max(2u, std::thread::hardware_concurrency()), (count + 1023) / 1024));
    std::vector<std::thread> pool;
    for (int64_t t = 0; t < threads; ++t)
        pool.emplace_back([=, &body] {
            for (int64_t i = count * t / threads; i < count * (t + 1) / threads; ++i) body(i);
        });
    for (auto& th : pool) th.join();
}
}  // namespace

RefResult referenceAll(const vkconv::ConvDesc& d, const ConvData& data) {
    RefResult r;
    const int64_t total = d.outputElements();
    r.indices.resize(size_t(total));
    r.value.resize(size_t(total));
    r.absSum.resize(size_t(total));
    parallelFor(total, [&](int64_t i) {
        r.indices[size_t(i)] = i;
        referenceAt(d, data, i, r.value[size_t(i)], r.absSum[size_t(i)]);
    });
    r.sampleInfo = "all " + std::to_string(total) + " outputs";
    return r;
}

RefResult referenceSample(const vkconv::ConvDesc& d, const ConvData& data, std::vector<int64_t> indices,
                          std::string info) {
    RefResult r;
    r.sampled = true;
    r.indices = std::move(indices);
    r.value.resize(r.indices.size());
    r.absSum.resize(r.indices.size());
    parallelFor(int64_t(r.indices.size()), [&](int64_t i) {
        referenceAt(d, data, r.indices[size_t(i)], r.value[size_t(i)], r.absSum[size_t(i)]);
    });
    r.sampleInfo = std::move(info);
    return r;
}

std::vector<int64_t> chooseSample(const vkconv::ConvDesc& d, uint64_t seed, std::string* info) {
    const int64_t P = d.outH(), Q = d.outW(), total = d.outputElements();
    std::vector<int64_t> idx;
    std::mt19937_64 rng(seed ^ 0x5A3D1E5Bull);
    std::uniform_int_distribution<int64_t> dist(0, total - 1);
    for (size_t i = 0; i < kRandomSampleCount; ++i) idx.push_back(dist(rng));
    for (int64_t n : {int64_t(0), d.n - 1})
        for (int64_t k : {int64_t(0), d.k - 1}) {
            const int64_t base = (n * d.k + k) * P * Q;
            for (int64_t q = 0; q < Q; ++q) {
                idx.push_back(base + q);
                idx.push_back(base + (P - 1) * Q + q);
            }
            for (int64_t p = 0; p < P; ++p) {
                idx.push_back(base + p * Q);
                idx.push_back(base + p * Q + Q - 1);
            }
        }
    idx.push_back(0);
    idx.push_back(total - 1);
    std::sort(idx.begin(), idx.end());
    idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
    if (info)
        *info = "sample of " + std::to_string(idx.size()) + " of " + std::to_string(total) + " outputs (" +
                std::to_string(kRandomSampleCount) +
                " random + border rows/columns and corners of the first and last (n,k))";
    return idx;
}

RefResult reference(const vkconv::ConvDesc& d, const ConvData& data, uint64_t seed) {
    if (d.flops() / 2 <= kFullReferenceMaxMacs) return referenceAll(d, data);
    std::string info;
    auto idx = chooseSample(d, seed, &info);
    return referenceSample(d, data, std::move(idx), std::move(info));
}

}  // namespace vkt
