#include "gradient_check.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "environment.hpp"
#include "harness.hpp"
#include "reference.hpp"

namespace vkt {
using vkconv::ConvDesc;
using vkconv::DType;

void referenceDataGrad(const ConvDesc& d, int64_t P, int64_t Q, const std::vector<float>& dy,
                       const std::vector<float>& w, std::vector<double>& dx, std::vector<double>& absSum) {
    const int64_t Cg = d.channelsPerGroup(), Kg = d.filtersPerGroup();
    dx.assign(size_t(d.inputElements()), 0.0);
    absSum.assign(size_t(d.inputElements()), 0.0);
    // Scatter every dy element through every tap onto the input position it came from.
    for (int64_t n = 0; n < d.n; ++n)
        for (int64_t k = 0; k < d.k; ++k)
            for (int64_t p = 0; p < P; ++p)
                for (int64_t q = 0; q < Q; ++q) {
                    const double g = dy[size_t(((n * d.k + k) * P + p) * Q + q)];
                    if (g == 0.0) continue;
                    const int64_t cBase = (k / Kg) * Cg;
                    for (int64_t c = 0; c < Cg; ++c)
                        for (int64_t r = 0; r < d.r; ++r) {
                            const int64_t h = p * d.strideH - d.padTop + r * d.dilationH;
                            if (h < 0 || h >= d.h) continue;
                            for (int64_t s = 0; s < d.s; ++s) {
                                const int64_t x = q * d.strideW - d.padLeft + s * d.dilationW;
                                if (x < 0 || x >= d.w) continue;
                                const double prod = g * w[size_t(((k * Cg + c) * d.r + r) * d.s + s)];
                                const size_t i = size_t(((n * d.c + cBase + c) * d.h + h) * d.w + x);
                                dx[i] += prod;
                                absSum[i] += std::fabs(prod);
                            }
                        }
                }
}

void referenceWeightGrad(const ConvDesc& d, const std::vector<float>& x, const std::vector<float>& dy,
                         std::vector<double>& dw, std::vector<double>& dwAbs, std::vector<double>& db,
                         std::vector<double>& dbAbs) {
    const int64_t Cg = d.channelsPerGroup(), Kg = d.filtersPerGroup(), P = d.outH(), Q = d.outW();
    dw.assign(size_t(d.filterElements()), 0.0);
    dwAbs.assign(size_t(d.filterElements()), 0.0);
    db.assign(size_t(d.k), 0.0);
    dbAbs.assign(size_t(d.k), 0.0);
    for (int64_t k = 0; k < d.k; ++k) {
        const int64_t cBase = (k / Kg) * Cg;
        for (int64_t c = 0; c < Cg; ++c)
            for (int64_t r = 0; r < d.r; ++r)
                for (int64_t s = 0; s < d.s; ++s) {
                    double acc = 0, abs = 0;
                    for (int64_t n = 0; n < d.n; ++n)
                        for (int64_t p = 0; p < P; ++p) {
                            const int64_t h = p * d.strideH - d.padTop + r * d.dilationH;
                            if (h < 0 || h >= d.h) continue;
                            for (int64_t q = 0; q < Q; ++q) {
                                const int64_t xw = q * d.strideW - d.padLeft + s * d.dilationW;
                                if (xw < 0 || xw >= d.w) continue;
                                const double prod = double(dy[size_t(((n * d.k + k) * P + p) * Q + q)]) *
                                                    x[size_t(((n * d.c + cBase + c) * d.h + h) * d.w + xw)];
                                acc += prod;
                                abs += std::fabs(prod);
                            }
                        }
                    const size_t i = size_t(((k * Cg + c) * d.r + r) * d.s + s);
                    dw[i] = acc, dwAbs[i] = abs;
                }
        for (int64_t n = 0; n < d.n; ++n)
            for (int64_t i = 0; i < P * Q; ++i) {
                const double g = dy[size_t((n * d.k + k) * P * Q + i)];
                db[size_t(k)] += g, dbAbs[size_t(k)] += std::fabs(g);
            }
    }
}

namespace {

double spacing(DType t) {
    return t == DType::F32 ? std::ldexp(1.0, -23) : t == DType::F16 ? std::ldexp(1.0, -10) : std::ldexp(1.0, -7);
}

// fp32 accumulation over a reduction of length L (it grows as sqrt(L) for sums of rounded terms
// of mixed sign), times the plan's Plan::roundingAmplification() (a backward-data plan that runs
// winograd as a forward convolution), plus the storage type's rounding of the result, plus the
// plan's Plan::operandRounding() x the same sum (partial sums it stores in the storage type).
double gradTolerance(DType t, double L, double ref, double absSum, bool activation, double amp, double operand) {
    return std::ldexp(1.0, -23) * (2.0 + std::sqrt(L)) * 4.0 * amp * absSum + operand * absSum +
           spacing(t) * std::fabs(ref) + (activation ? 1e-6 : 0.0);
}

vkconv::Buffer upload(const std::vector<uint8_t>& bytes) {
    auto b = vkconv::Buffer::create(ctx(), (std::max<size_t>(bytes.size(), 4) + 3) / 4 * 4);
    b.upload(bytes.data(), bytes.size());
    return b;
}

vkconv::Buffer poisoned(size_t bytes, DType t) {
    auto b = vkconv::Buffer::create(ctx(), (std::max<size_t>(bytes, 4) + 3) / 4 * 4);
    b.fill(poisonWord(t));
    return b;
}

std::vector<float> download(const vkconv::Buffer& b, const Dims& dims, bool channelsLast, DType t) {
    std::vector<uint8_t> bytes(size_t(dims[0] * dims[1] * dims[2] * dims[3]) * vkconv::dtypeSize(t));
    b.download(bytes.data(), bytes.size());
    return unpack(bytes.data(), dims, channelsLast, t);
}

void compareInto(GradCheck& r, const char* tensor, const std::vector<float>& gpu, const std::vector<double>& ref,
                 const std::vector<double>& absSum, DType t, double L, bool activation, double amp = 1.0,
                 double operand = 0.0) {
    double& worstScore = r.worst.score;  // across tensors: the worst of dw and db
    for (size_t i = 0; i < gpu.size(); ++i) {
        const double g = gpu[i];
        const double tol = gradTolerance(t, L, ref[i], absSum[i], activation, amp, operand);
        const bool bad = !std::isfinite(g) || std::fabs(g - ref[i]) > tol;
        if (!std::isfinite(g)) ++r.nonFinite;
        if (bad) ++r.failed;
        const double score = std::isfinite(g) ? std::fabs(g - ref[i]) / std::max(tol, 1e-300) : HUGE_VAL;
        if (score > worstScore) {
            worstScore = score;
            r.worst = {tensor, int64_t(i), g, ref[i], tol, absSum[i], score};
        }
    }
    r.checked += int64_t(gpu.size());
}

GradCheck failure(GradCheck r, const vkconv::Error& e) {
    r.ok = false;
    r.error = e.what();
    r.errorCode = e.code();
    return r;
}

// The filter a plan reads: w itself, or with PlanOptions::packedFilter the plan's packed filter,
// written from w, after which w is poisoned (a plan that still read it would fail the check).
vkconv::BufferView packedFilter(const vkconv::Plan& plan, vkconv::Buffer& w, int64_t bytes, vkconv::DType t,
                                vkconv::Buffer& packed) {
    const vkconv::BufferView view = w.view(0, VkDeviceSize(bytes));
    if (!plan.packedFilterSize()) return view;
    packed = poisoned(size_t(plan.packedFilterSize()), t);
    const vkconv::BufferView p = packed.view(0, plan.packedFilterSize());
    plan.packFilter(view, p);
    w = poisoned(size_t(bytes), t);
    return p;
}

}  // namespace

std::string GradCheck::summary() const {
    std::ostringstream o;
    o.precision(9);
    o << pass << " of " << desc << "\n  algorithm: " << (algorithm.empty() ? "?" : algorithm) << " [" << config
      << "]  seed " << seed << "  data " << toString(mode) << "\n";
    if (!error.empty()) return o.str() + "  threw " + error + "\n";
    o << "  checked " << checked << ", failed " << failed << ", non-finite " << nonFinite << "\n";
    if (worst.index >= 0)
        o << "  worst: " << worst.tensor << "[" << worst.index << "] gpu " << worst.gpu << " ref " << worst.ref
          << " |diff| " << std::fabs(worst.gpu - worst.ref) << " tol " << worst.tol << " absSum " << worst.absSum;
    return o.str();
}

vkconv::ConvDesc gradientBase() {
    vkconv::ConvDesc d;
    d.n = 2, d.c = 6, d.h = 9, d.w = 7, d.k = 5, d.r = d.s = 3;
    d.pad(1, 1);
    return d;
}

vkconv::ConvTransposeDesc squareTransposed(int64_t in, int64_t out, int64_t hw, int64_t k, int64_t stride,
                                           int64_t pad) {
    vkconv::ConvTransposeDesc t;
    t.inChannels = in, t.outChannels = out, t.h = t.w = hw, t.kernelH = t.kernelW = k;
    t.strideH = t.strideW = stride;
    t.pad(pad, pad);
    return t;
}

std::string declineReason(const vkconv::ConvDesc& d, const vkconv::PlanOptions& o) {
    try {
        (void)vkconv::Plan::create(ctx(), d, o);
        return "";
    } catch (const vkconv::Error& e) {
        EXPECT_EQ(e.code(), vkconv::ErrorCode::Unsupported) << e.what();
        return e.what();
    }
}

int gradientSweepCount(int full) {
    const char* v = std::getenv("VKCONV_SWEEP_COUNT");
    if (!v || !*v) return full;
    const long n = std::strtol(v, nullptr, 10);
    return n > 0 && n < full ? int(n) : full;
}

::testing::AssertionResult passed(const GradCheck& r) {
    if (r.ok) return ::testing::AssertionSuccess() << r.summary();
    return ::testing::AssertionFailure() << r.summary();
}

GradCheck checkDataGrad(const ConvDesc& d, vkconv::PlanOptions opts, uint64_t seed, DataMode mode) {
    GradCheck r;
    r.desc = d.toString(), r.pass = "bwd-data", r.seed = seed, r.mode = mode, r.algorithm = opts.algorithm;
    opts.pass = vkconv::ConvPass::BackwardData;
    try {
        const vkconv::Plan plan = vkconv::Plan::create(ctx(), d, opts);
        r.algorithm = plan.algorithm(), r.config = plan.config();
        const int64_t P = d.outH(), Q = d.outW();
        const Dims dyDims{d.n, d.k, P, Q}, dxDims = inputDims(d), wDims = filterDims(d);
        const bool dyLast = d.outputLayout == vkconv::TensorLayout::NHWC;
        const bool dxLast = d.inputLayout == vkconv::TensorLayout::NHWC;
        const bool wLast = d.filterLayout == vkconv::FilterLayout::KRSC;
        const auto dy = randomTensor(size_t(d.outputElements()), d.dtype, seed * 8 + 1, mode);
        const auto w = randomTensor(size_t(d.filterElements()), d.dtype, seed * 8 + 2, mode);
        auto dyBuf = upload(pack(dy, dyDims, dyLast, d.dtype)), wBuf = upload(pack(w, wDims, wLast, d.dtype));
        std::vector<float> old;
        vkconv::Buffer dxBuf;
        if (opts.accumulate) {
            old = randomTensor(size_t(d.inputElements()), d.dtype, seed * 8 + 3, mode);
            dxBuf = upload(pack(old, dxDims, dxLast, d.dtype));
        } else {
            dxBuf = poisoned(size_t(d.inputBytes()), d.dtype);
        }
        vkconv::Buffer ws;
        vkconv::BackwardDataTensors t;
        t.gradOutput = dyBuf.view(0, VkDeviceSize(d.outputBytes()));
        vkconv::Buffer packedBuf;
        t.filter = packedFilter(plan, wBuf, d.filterBytes(), d.dtype, packedBuf);
        t.gradInput = dxBuf.view(0, VkDeviceSize(d.inputBytes()));
        if (plan.workspaceSize()) {
            ws = poisoned(size_t(plan.workspaceSize()), DType::F32);
            t.workspace = ws.view(0, plan.workspaceSize());
        }
        plan.run(t);
        const auto gpu = download(dxBuf, dxDims, dxLast, d.dtype);
        std::vector<double> ref, abs;
        referenceDataGrad(d, P, Q, dy, w, ref, abs);
        for (size_t i = 0; i < old.size(); ++i) ref[i] += old[i], abs[i] += std::fabs(old[i]);
        compareInto(r, "dx", gpu, ref, abs, d.dtype, double(d.filtersPerGroup() * d.r * d.s), false,
                    plan.roundingAmplification(), plan.operandRounding());
        r.ok = r.failed == 0;
    } catch (const vkconv::Error& e) {
        return failure(r, e);
    }
    return r;
}

GradCheck checkWeightGrad(const ConvDesc& d, vkconv::PlanOptions opts, uint64_t seed, DataMode mode) {
    GradCheck r;
    r.desc = d.toString(), r.pass = "bwd-weight", r.seed = seed, r.mode = mode, r.algorithm = opts.algorithm;
    opts.pass = vkconv::ConvPass::BackwardWeight;
    try {
        const vkconv::Plan plan = vkconv::Plan::create(ctx(), d, opts);
        r.algorithm = plan.algorithm(), r.config = plan.config();
        const Dims dyDims = outputDims(d), xDims = inputDims(d), wDims = filterDims(d);
        const bool dyLast = d.outputLayout == vkconv::TensorLayout::NHWC;
        const bool xLast = d.inputLayout == vkconv::TensorLayout::NHWC;
        const bool wLast = d.filterLayout == vkconv::FilterLayout::KRSC;
        const auto x = randomTensor(size_t(d.inputElements()), d.dtype, seed * 8 + 4, mode);
        const auto dy = randomTensor(size_t(d.outputElements()), d.dtype, seed * 8 + 5, mode);
        auto xBuf = upload(pack(x, xDims, xLast, d.dtype)), dyBuf = upload(pack(dy, dyDims, dyLast, d.dtype));
        std::vector<float> oldW, oldB;
        vkconv::Buffer dwBuf, dbBuf;
        const Dims biasDims{1, d.k, 1, 1};
        if (opts.accumulate) {
            oldW = randomTensor(size_t(d.filterElements()), d.dtype, seed * 8 + 6, mode);
            dwBuf = upload(pack(oldW, wDims, wLast, d.dtype));
            if (d.hasBias) {
                oldB = randomTensor(size_t(d.k), d.dtype, seed * 8 + 7, mode);
                dbBuf = upload(pack(oldB, biasDims, false, d.dtype));
            }
        } else {
            dwBuf = poisoned(size_t(d.filterBytes()), d.dtype);
            if (d.hasBias) dbBuf = poisoned(size_t(d.biasBytes()), d.dtype);
        }
        vkconv::Buffer ws;
        vkconv::BackwardWeightTensors t;
        t.input = xBuf.view(0, VkDeviceSize(d.inputBytes()));
        t.gradOutput = dyBuf.view(0, VkDeviceSize(d.outputBytes()));
        t.gradFilter = dwBuf.view(0, VkDeviceSize(d.filterBytes()));
        if (d.hasBias) t.gradBias = dbBuf.view(0, VkDeviceSize(d.biasBytes()));
        if (plan.workspaceSize()) {
            ws = poisoned(size_t(plan.workspaceSize()), DType::F32);
            t.workspace = ws.view(0, plan.workspaceSize());
        }
        plan.run(t);
        std::vector<double> dw, dwAbs, db, dbAbs;
        referenceWeightGrad(d, x, dy, dw, dwAbs, db, dbAbs);
        for (size_t i = 0; i < oldW.size(); ++i) dw[i] += oldW[i], dwAbs[i] += std::fabs(oldW[i]);
        for (size_t i = 0; i < oldB.size(); ++i) db[i] += oldB[i], dbAbs[i] += std::fabs(oldB[i]);
        const double L = double(d.n * d.outH() * d.outW());
        compareInto(r, "dw", download(dwBuf, wDims, wLast, d.dtype), dw, dwAbs, d.dtype, L, false);
        if (d.hasBias) compareInto(r, "db", download(dbBuf, biasDims, false, d.dtype), db, dbAbs, d.dtype, L, false);
        r.ok = r.failed == 0;
    } catch (const vkconv::Error& e) {
        return failure(r, e);
    }
    return r;
}

GradCheck checkTransposed(const vkconv::ConvTransposeDesc& d, const vkconv::PlanOptions& opts, uint64_t seed,
                          DataMode mode) {
    GradCheck r;
    r.desc = d.toString(), r.pass = "transposed", r.seed = seed, r.mode = mode, r.algorithm = opts.algorithm;
    try {
        const vkconv::Plan plan = vkconv::Plan::create(ctx(), d, opts);
        r.algorithm = plan.algorithm(), r.config = plan.config();
        const ConvDesc conv = d.convDesc();
        const Dims inDims{d.n, d.inChannels, d.h, d.w}, outDims{d.n, d.outChannels, d.outH(), d.outW()};
        const Dims wDims = filterDims(conv);
        const bool inLast = d.inputLayout == vkconv::TensorLayout::NHWC;
        const bool outLast = d.outputLayout == vkconv::TensorLayout::NHWC;
        const bool wLast = d.filterLayout == vkconv::FilterLayout::KRSC;
        const auto in = randomTensor(size_t(d.inputElements()), d.dtype, seed * 8 + 1, mode);
        const auto w = randomTensor(size_t(d.filterElements()), d.dtype, seed * 8 + 2, mode);
        std::vector<float> bias, res;
        vkconv::ConvTensors t;
        auto inBuf = upload(pack(in, inDims, inLast, d.dtype)), wBuf = upload(pack(w, wDims, wLast, d.dtype));
        vkconv::Buffer biasBuf, resBuf, ws;
        t.input = inBuf.view(0, VkDeviceSize(d.inputBytes()));
        vkconv::Buffer packedBuf;
        t.filter = packedFilter(plan, wBuf, d.filterBytes(), d.dtype, packedBuf);
        if (d.hasBias) {
            bias = randomTensor(size_t(d.outChannels), d.dtype, seed * 8 + 3, mode);
            biasBuf = upload(pack(bias, {1, d.outChannels, 1, 1}, false, d.dtype));
            t.bias = biasBuf.view(0, VkDeviceSize(d.biasBytes()));
        }
        if (d.hasResidual) {
            res = randomTensor(size_t(d.outputElements()), d.dtype, seed * 8 + 4, mode);
            resBuf = upload(pack(res, outDims, outLast, d.dtype));
            t.residual = resBuf.view(0, VkDeviceSize(d.outputBytes()));
        }
        auto outBuf = poisoned(size_t(d.outputBytes()), d.dtype);
        t.output = outBuf.view(0, VkDeviceSize(d.outputBytes()));
        if (plan.workspaceSize()) {
            ws = poisoned(size_t(plan.workspaceSize()), DType::F32);
            t.workspace = ws.view(0, plan.workspaceSize());
        }
        plan.run(t);
        std::vector<double> ref, abs;
        referenceDataGrad(conv, d.h, d.w, in, w, ref, abs);
        const int64_t plane = d.outH() * d.outW();
        for (size_t i = 0; i < ref.size(); ++i) {
            const int64_t c = int64_t(i) / plane % d.outChannels;
            if (d.hasBias) ref[i] += bias[size_t(c)], abs[i] += std::fabs(bias[size_t(c)]);
            if (d.hasResidual) ref[i] += res[i], abs[i] += std::fabs(res[i]);
            ref[i] = activate(d.activation, ref[i], double(d.activationAlpha));
        }
        compareInto(r, "output", download(outBuf, outDims, outLast, d.dtype), ref, abs, d.dtype,
                    double(conv.filtersPerGroup() * d.kernelH * d.kernelW), d.activation != vkconv::Activation::None,
                    plan.roundingAmplification(), plan.operandRounding());
        r.ok = r.failed == 0;
    } catch (const vkconv::Error& e) {
        return failure(r, e);
    }
    return r;
}

}  // namespace vkt
