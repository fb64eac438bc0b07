// The sampled float64 reference behind --check (self-contained: the test suite's reference is
// built only with the tests).
#include "reference_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "tensor_data.hpp"

namespace vkbench {

using vkconv::Activation;
using vkconv::ConvDesc;
using vkconv::DType;
using vkconv::FilterLayout;
using vkconv::TensorLayout;

int64_t activationOffset(TensorLayout l, int64_t n, int64_t c, int64_t h, int64_t w, int64_t C, int64_t H, int64_t W) {
    return l == TensorLayout::NCHW ? ((n * C + c) * H + h) * W + w : ((n * H + h) * W + w) * C + c;
}

int64_t filterOffset(FilterLayout l, int64_t k, int64_t c, int64_t r, int64_t s, int64_t Cg, int64_t R, int64_t S) {
    return l == FilterLayout::KCRS ? ((k * Cg + c) * R + r) * S + s : ((k * R + r) * S + s) * Cg + c;
}

double activate(Activation a, double v, double alpha) {
    switch (a) {
        case Activation::Relu: return v > 0 ? v : 0.0;
        case Activation::Relu6: return std::min(std::max(v, 0.0), 6.0);
        case Activation::LeakyRelu: return v < 0 ? v * alpha : v;
        case Activation::Gelu: return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)));
        case Activation::Silu: return v / (1.0 + std::exp(-v));
        case Activation::Sigmoid: return 1.0 / (1.0 + std::exp(-v));
        default: return v;
    }
}

namespace {

struct Coord {
    int64_t n, k, p, q;
};

// The sampled output coordinates: corners first, then kCheckSample spread over the tensor.
std::vector<Coord> samplePositions(const ConvDesc& d) {
    const int64_t N = d.n, K = d.k, P = d.outH(), Q = d.outW();
    const int64_t total = N * K * P * Q;
    std::vector<Coord> out;
    auto fromLinear = [&](int64_t i) {  // logical NKPQ order
        Coord c;
        c.q = i % Q;
        i /= Q;
        c.p = i % P;
        i /= P;
        c.k = i % K;
        c.n = i / K;
        return c;
    };
    if (total <= kCheckSample + 16) {
        for (int64_t i = 0; i < total; ++i) out.push_back(fromLinear(i));
        return out;
    }
    std::set<int64_t> picked;
    for (int64_t n : {int64_t(0), N - 1})
        for (int64_t k : {int64_t(0), K - 1})
            for (int64_t p : {int64_t(0), P - 1})
                for (int64_t q : {int64_t(0), Q - 1}) {
                    int64_t lin = ((n * K + k) * P + p) * Q + q;
                    if (picked.insert(lin).second) out.push_back({n, k, p, q});
                }
    // One random element in each of kCheckSample equal strata: spread over every region.
    uint64_t state = 0x1234567ull ^ uint64_t(total);
    for (int64_t i = 0; i < kCheckSample; ++i) {
        int64_t lo = i * total / kCheckSample, hi = (i + 1) * total / kCheckSample;
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        int64_t lin = lo + int64_t((state >> 33) % uint64_t(hi - lo));
        if (picked.insert(lin).second) out.push_back(fromLinear(lin));
    }
    return out;
}

}  // namespace

CheckResult checkOutput(const ConvDesc& d, const std::vector<float>& x, const std::vector<float>& w,
                        const std::vector<float>& bias, const uint8_t* output, double amplification,
                        double operandRounding) {
    const int64_t C = d.c, H = d.h, W = d.w, K = d.k, R = d.r, S = d.s, P = d.outH(), Q = d.outW();
    const int64_t Cg = d.channelsPerGroup(), Kg = d.filtersPerGroup();
    const double L = double(d.reductionLength());
    const double epsOut = d.dtype == DType::F32   ? std::ldexp(1.0, -23)
                          : d.dtype == DType::F16 ? std::ldexp(1.0, -10)
                                                  : std::ldexp(1.0, -7);
    const double accFactor = std::ldexp(1.0, -23) * (2.0 + std::sqrt(L)) * 4.0;
    const double actSlack = d.activation == Activation::None ? 0.0 : 1e-6;

    CheckResult res;
    double maxDiff = 0, maxRef = 0;
    bool nonFinite = false;
    struct Point {
        int64_t off;
        double ref, absSum;
        Coord at;
    };
    std::vector<Point> points;
    double maxAbs = 0, sumSq = 0;
    for (const Coord& o : samplePositions(d)) {
        double acc = 0, absSum = 0;
        int64_t cBase = (o.k / Kg) * Cg;
        for (int64_t r = 0; r < R; ++r) {
            int64_t ih = o.p * d.strideH - d.padTop + r * d.dilationH;
            if (ih < 0 || ih >= H) continue;
            for (int64_t s = 0; s < S; ++s) {
                int64_t iw = o.q * d.strideW - d.padLeft + s * d.dilationW;
                if (iw < 0 || iw >= W) continue;
                for (int64_t c = 0; c < Cg; ++c) {
                    double prod = double(x[size_t(activationOffset(d.inputLayout, o.n, cBase + c, ih, iw, C, H, W))]) *
                                  double(w[size_t(filterOffset(d.filterLayout, o.k, c, r, s, Cg, R, S))]);
                    acc += prod;
                    absSum += std::fabs(prod);
                }
            }
        }
        if (d.hasBias) {
            acc += double(bias[size_t(o.k)]);
            absSum += std::fabs(double(bias[size_t(o.k)]));
        }
        double ref = activate(d.activation, acc, double(d.activationAlpha));
        int64_t off = d.outputLayout == TensorLayout::NCHW ? ((o.n * K + o.k) * P + o.p) * Q + o.q
                                                           : ((o.n * P + o.p) * Q + o.q) * K + o.k;
        points.push_back({off, ref, absSum, o});
        maxAbs = std::max(maxAbs, absSum);
    }
    for (const Point& pt : points) {
        const Coord& o = pt.at;
        const double ref = pt.ref;
        const double absSum = amplification == 1.0 ? pt.absSum : amplification * maxAbs;
        double gpu = double(decodeAt(d.dtype, output, pt.off));
        double diff = std::fabs(gpu - ref);
        double tol = accFactor * absSum + epsOut * std::fabs(ref) + actSlack + operandRounding * maxAbs;
        if (operandRounding > 0 && std::isfinite(gpu)) sumSq += (diff / maxAbs) * (diff / maxAbs);
        ++res.checked;
        bool finite = std::isfinite(gpu);
        if (!finite) nonFinite = true;
        if (!finite || !(diff <= tol)) {
            if (res.bad++ == 0) {
                char buf[200];
                std::snprintf(buf, sizeof buf, "n%lld k%lld p%lld q%lld: gpu %.9g, reference %.9g, tolerance %.3g",
                              (long long)o.n, (long long)o.k, (long long)o.p, (long long)o.q, gpu, ref, tol);
                res.detail = buf;
            }
        }
        if (finite) maxDiff = std::max(maxDiff, diff);
        maxRef = std::max(maxRef, std::fabs(ref));
    }
    if (!nonFinite) res.maxRelErr = maxRef > 0 ? maxDiff / maxRef : maxDiff;
    if (operandRounding > 0 && res.checked >= 64 && maxAbs > 0) {
        const double rms = std::sqrt(sumSq / double(res.checked)),
                     limit = operandRounding / (8.0 * std::sqrt(double(Cg)));
        if (!(rms <= limit)) {
            if (res.bad++ == 0) {
                char buf[200];
                std::snprintf(buf, sizeof buf,
                              "RMS |gpu - ref| / sum|x*w| %.3g over the sample exceeds %.3g (rounded operands)", rms,
                              limit);
                res.detail = buf;
            }
        }
    }
    res.status = res.bad == 0 ? "pass" : "fail";
    return res;
}

}  // namespace vkbench
