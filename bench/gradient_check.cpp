// The sampled float64 references of the backward passes behind --check: dx (backward-data) and
// dw, db (backward-weight), written from the convolution's definition (conv_desc.hpp) alone, as
// reference_check.cpp writes the forward pass.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <set>

#include "reference_check.hpp"
#include "tensor_data.hpp"

namespace vkbench {

using vkconv::Activation;
using vkconv::ConvDesc;
using vkconv::DType;
using vkconv::FilterLayout;
using vkconv::TensorLayout;

namespace {

// Positions of a 4-D result [A, B, C, D] to compare: all of a small one, else its up to 16
// corners and one random element in each of kCheckSample equal strata.
std::vector<std::array<int64_t, 4>> samplePositions(const std::array<int64_t, 4>& ext) {
    const int64_t total = ext[0] * ext[1] * ext[2] * ext[3];
    auto fromLinear = [&](int64_t i) {
        std::array<int64_t, 4> c{};
        for (int d = 3; d >= 0; --d) c[size_t(d)] = i % ext[size_t(d)], i /= ext[size_t(d)];
        return c;
    };
    std::vector<std::array<int64_t, 4>> out;
    if (total <= kCheckSample + 16) {
        for (int64_t i = 0; i < total; ++i) out.push_back(fromLinear(i));
        return out;
    }
    std::set<int64_t> picked;
    for (int m = 0; m < 16; ++m) {
        int64_t lin = 0;
        for (int d = 0; d < 4; ++d) lin = lin * ext[size_t(d)] + ((m >> d) & 1 ? ext[size_t(d)] - 1 : 0);
        if (picked.insert(lin).second) out.push_back(fromLinear(lin));
    }
    uint64_t state = 0x9e3779b97f4a7c15ull ^ uint64_t(total);
    for (int64_t i = 0; i < kCheckSample; ++i) {
        const int64_t lo = i * total / kCheckSample, hi = (i + 1) * total / kCheckSample;
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const int64_t lin = lo + int64_t((state >> 33) % uint64_t(hi - lo));
        if (picked.insert(lin).second) out.push_back(fromLinear(lin));
    }
    return out;
}

// Compares sampled elements as checkOutput does: |gpu - ref| <= 2^-23 (2 + sqrt(L)) 4 sum|terms|
// + eps_out |ref| (+ 1e-6 after an activation), NaN and inf failing; the accumulation term times
// the plan's amplification, plus its operandRounding x sum|terms|.
class Comparison {
public:
    Comparison(DType t, double reductionLength, bool activation, double amplification = 1.0,
               double operandRounding = 0.0)
        : epsOut_(t == DType::F32   ? std::ldexp(1.0, -23)
                  : t == DType::F16 ? std::ldexp(1.0, -10)
                                    : std::ldexp(1.0, -7)),
          accFactor_(std::ldexp(1.0, -23) * (2.0 + std::sqrt(reductionLength)) * 4.0 * amplification + operandRounding),
          slack_(activation ? 1e-6 : 0.0) {}

    void add(double gpu, double ref, double absSum, const char* what, const std::array<int64_t, 4>& at) {
        const double diff = std::fabs(gpu - ref), tol = accFactor_ * absSum + epsOut_ * std::fabs(ref) + slack_;
        ++res_.checked;
        const bool finite = std::isfinite(gpu);
        nonFinite_ = nonFinite_ || !finite;
        if (!finite || !(diff <= tol)) {
            if (res_.bad++ == 0) {
                char buf[200];
                std::snprintf(buf, sizeof buf, "%s[%lld,%lld,%lld,%lld]: gpu %.9g, reference %.9g, tolerance %.3g",
                              what, (long long)at[0], (long long)at[1], (long long)at[2], (long long)at[3], gpu, ref,
                              tol);
                res_.detail = buf;
            }
        }
        if (finite) maxDiff_ = std::max(maxDiff_, diff);
        maxRef_ = std::max(maxRef_, std::fabs(ref));
    }
    CheckResult result() {
        if (!nonFinite_) res_.maxRelErr = maxRef_ > 0 ? maxDiff_ / maxRef_ : maxDiff_;
        res_.status = res_.bad == 0 ? "pass" : "fail";
        return res_;
    }

private:
    double epsOut_, accFactor_, slack_;
    double maxDiff_ = 0, maxRef_ = 0;
    bool nonFinite_ = false;
    CheckResult res_;
};

}  // namespace

CheckResult checkDataGrad(const ConvDesc& d, int64_t yH, int64_t yW, const std::vector<float>& dy,
                          const std::vector<float>& w, const std::vector<float>& bias, const uint8_t* dx,
                          double amplification, double operandRounding) {
    const int64_t C = d.c, H = d.h, W = d.w, K = d.k, R = d.r, S = d.s;
    const int64_t Cg = d.channelsPerGroup(), Kg = d.filtersPerGroup();
    Comparison cmp(d.dtype, double(Kg * R * S), d.activation != Activation::None, amplification, operandRounding);
    for (const auto& at : samplePositions({d.n, C, H, W})) {
        const int64_t n = at[0], c = at[1], h = at[2], x = at[3];
        const int64_t g = c / Cg, cl = c % Cg;
        double acc = 0, absSum = 0;
        for (int64_t r = 0; r < R; ++r) {
            // The output rows p whose tap r reads input row h: p * stride = h + pad - r * dil.
            const int64_t ph = h + d.padTop - r * d.dilationH;
            if (ph < 0 || ph % d.strideH) continue;
            const int64_t p = ph / d.strideH;
            if (p >= yH) continue;
            for (int64_t s = 0; s < S; ++s) {
                const int64_t qw = x + d.padLeft - s * d.dilationW;
                if (qw < 0 || qw % d.strideW) continue;
                const int64_t q = qw / d.strideW;
                if (q >= yW) continue;
                for (int64_t kl = 0; kl < Kg; ++kl) {
                    const int64_t k = g * Kg + kl;
                    const double prod = double(dy[size_t(activationOffset(d.outputLayout, n, k, p, q, K, yH, yW))]) *
                                        double(w[size_t(filterOffset(d.filterLayout, k, cl, r, s, Cg, R, S))]);
                    acc += prod;
                    absSum += std::fabs(prod);
                }
            }
        }
        if (!bias.empty()) {
            acc += double(bias[size_t(c)]);
            absSum += std::fabs(double(bias[size_t(c)]));
        }
        const double ref = activate(d.activation, acc, double(d.activationAlpha));
        const double gpu = double(decodeAt(d.dtype, dx, activationOffset(d.inputLayout, n, c, h, x, C, H, W)));
        cmp.add(gpu, ref, absSum, "dx", at);
    }
    return cmp.result();
}

CheckResult checkWeightGrad(const ConvDesc& d, int64_t yH, int64_t yW, const std::vector<float>& x,
                            const std::vector<float>& dy, const uint8_t* dw, const uint8_t* db) {
    const int64_t N = d.n, C = d.c, H = d.h, W = d.w, K = d.k, R = d.r, S = d.s;
    const int64_t Cg = d.channelsPerGroup(), Kg = d.filtersPerGroup();
    Comparison cmp(d.dtype, double(N * yH * yW), false);
    for (const auto& at : samplePositions({K, Cg, R, S})) {
        const int64_t k = at[0], cl = at[1], r = at[2], s = at[3];
        const int64_t c = (k / Kg) * Cg + cl;
        double acc = 0, absSum = 0;
        for (int64_t n = 0; n < N; ++n)
            for (int64_t p = 0; p < yH; ++p) {
                const int64_t h = p * d.strideH - d.padTop + r * d.dilationH;
                if (h < 0 || h >= H) continue;
                for (int64_t q = 0; q < yW; ++q) {
                    const int64_t iw = q * d.strideW - d.padLeft + s * d.dilationW;
                    if (iw < 0 || iw >= W) continue;
                    const double prod = double(x[size_t(activationOffset(d.inputLayout, n, c, h, iw, C, H, W))]) *
                                        double(dy[size_t(activationOffset(d.outputLayout, n, k, p, q, K, yH, yW))]);
                    acc += prod;
                    absSum += std::fabs(prod);
                }
            }
        const double gpu = double(decodeAt(d.dtype, dw, filterOffset(d.filterLayout, k, cl, r, s, Cg, R, S)));
        cmp.add(gpu, acc, absSum, "dw", at);
    }
    if (db) {
        // The bias gradient: every channel up to 256, else 256 spread over them.
        const int64_t count = std::min<int64_t>(K, 256);
        for (int64_t i = 0; i < count; ++i) {
            const int64_t k = i * K / count;
            double acc = 0, absSum = 0;
            for (int64_t n = 0; n < N; ++n)
                for (int64_t p = 0; p < yH; ++p)
                    for (int64_t q = 0; q < yW; ++q) {
                        const double v = double(dy[size_t(activationOffset(d.outputLayout, n, k, p, q, K, yH, yW))]);
                        acc += v;
                        absSum += std::fabs(v);
                    }
            cmp.add(double(decodeAt(d.dtype, db, k)), acc, absSum, "db", {k, 0, 0, 0});
        }
    }
    return cmp.result();
}

}  // namespace vkbench
