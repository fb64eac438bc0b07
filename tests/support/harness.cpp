#include "harness.hpp"

#include "util/test_hooks.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

namespace vkt {
using vkconv::Activation;
using vkconv::DType;

// The output type's spacing relative to a value (an upper bound: the spacing at [2^e, 2^(e+1))).
double outputSpacing(DType t) {
    return t == DType::F32 ? std::ldexp(1.0, -23) : t == DType::F16 ? std::ldexp(1.0, -10) : std::ldexp(1.0, -7);
}

double tolerance(const vkconv::ConvDesc& d, double ref, double absSum) {
    const double epsAcc = std::ldexp(1.0, -23);
    const double epsOut = outputSpacing(d.dtype);
    const double L = double(d.reductionLength());
    const double actSlack = d.activation != Activation::None ? 1e-6 : 0.0;
    return epsAcc * (2.0 + std::sqrt(L)) * 4.0 * absSum + epsOut * std::fabs(ref) + actSlack;
}

bool requiresExact(const vkconv::ConvDesc& d, DataMode mode) {
    return mode == DataMode::Integer && d.dtype == DType::F32 &&
           (d.activation == Activation::None || d.activation == Activation::Relu || d.activation == Activation::Relu6);
}

uint32_t poisonWord(DType t) {
    switch (t) {
        case DType::F16: return 0x7E007E00u;
        case DType::BF16: return 0x7FC07FC0u;
        default: return 0x7FC00000u;
    }
}

VkDeviceSize roundUp(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

std::string CheckResult::summary() const {
    std::ostringstream o;
    o.precision(9);
    o << "desc: " << desc << "\n  algorithm: " << (algorithm.empty() ? "?" : algorithm) << " [" << config << "]"
      << "  seed " << seed << "  data " << toString(mode) << (exact ? " (exact required)" : "") << "\n";
    if (!error.empty()) {
        o << "  threw " << error << "\n";
        return o.str();
    }
    o << "  checked " << checked << " (" << sampleInfo << "), failed " << failed << ", non-finite in whole output "
      << nonFinite << "\n";
    if (worst.index >= 0)
        o << "  worst: index " << worst.index << " (n,k,p,q)=(" << worst.at.n << "," << worst.at.k << "," << worst.at.p
          << "," << worst.at.q << ") gpu " << worst.gpu << " ref " << worst.ref << " |diff| "
          << std::fabs(worst.gpu - worst.ref) << " tol " << worst.tol << " absSum " << worst.absSum << "\n";
    if (rmsLimit > 0)
        o << "  rounded operands: RMS |diff| / sum|x*w| " << rms << " (limit " << rmsLimit
          << "; per-element bound adds " << operandRounding << " x sum|x*w|)\n";
    o << "  times: plan " << planMs << " ms, run " << runMs << " ms, reference " << refMs << " ms";
    return o.str();
}

vkconv::ConvTensors DeviceConv::tensors(const vkconv::ConvDesc& d) const {
    vkconv::ConvTensors t;
    t.input = input.view(0, VkDeviceSize(d.inputBytes()));
    t.filter = filter.view(0, VkDeviceSize(d.filterBytes()));
    if (d.hasBias) t.bias = bias.view(0, VkDeviceSize(d.biasBytes()));
    if (d.hasResidual) t.residual = residual.view(0, VkDeviceSize(d.outputBytes()));
    t.output = output.view(0, VkDeviceSize(d.outputBytes()));
    if (workspace.handle() != VK_NULL_HANDLE) t.workspace = workspace.view();
    return t;
}

namespace {
// Sizes are rounded up to whole words so that Buffer::fill (vkCmdFillBuffer) covers them.
vkconv::Buffer makeBuffer(vkconv::Context& ctx, const std::vector<uint8_t>& bytes) {
    auto b = vkconv::Buffer::create(ctx, roundUp(std::max<VkDeviceSize>(bytes.size(), 4), 4));
    b.upload(bytes.data(), bytes.size());
    return b;
}
double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

DeviceConv uploadConv(vkconv::Context& ctx, const vkconv::ConvDesc& d, const PackedConv& packed,
                      VkDeviceSize workspaceBytes) {
    DeviceConv dev;
    dev.input = makeBuffer(ctx, packed.input);
    dev.filter = makeBuffer(ctx, packed.filter);
    if (d.hasBias) dev.bias = makeBuffer(ctx, packed.bias);
    if (d.hasResidual) dev.residual = makeBuffer(ctx, packed.residual);
    dev.output = vkconv::Buffer::create(ctx, roundUp(VkDeviceSize(d.outputBytes()), 4));
    if (workspaceBytes > 0) dev.workspace = vkconv::Buffer::create(ctx, roundUp(workspaceBytes, 4));
    return dev;
}

void poison(DeviceConv& dev, DType t) {
    dev.output.fill(poisonWord(t));
    // NaN also in the workspace: an algorithm that relies on it being zeroed must fail.
    if (dev.workspace.handle() != VK_NULL_HANDLE) dev.workspace.fill(poisonWord(DType::F32));
}

vkconv::Buffer packFilterInto(vkconv::Context& ctx, const vkconv::Plan& plan, DeviceConv& dev, vkconv::ConvTensors& t,
                              DType dtype) {
    const VkDeviceSize bytes = plan.packedFilterSize();
    if (bytes == 0) return {};
    auto packed = vkconv::Buffer::create(ctx, roundUp(bytes, 4));
    packed.fill(poisonWord(dtype));
    plan.packFilter(t.filter, packed.view(0, bytes));
    dev.filter.fill(poisonWord(dtype));
    t.filter = packed.view(0, bytes);
    return packed;
}

std::vector<float> downloadOutput(const vkconv::ConvDesc& d, const vkconv::Buffer& out, VkDeviceSize offset) {
    std::vector<uint8_t> bytes(size_t(d.outputBytes()));
    out.download(bytes.data(), bytes.size(), offset);
    return unpack(bytes.data(), outputDims(d), outputChannelsLast(d), d.dtype);
}

CheckResult compare(const vkconv::ConvDesc& d, const std::vector<float>& gpu, const RefResult& ref, DataMode mode,
                    const ConvData* data, double scale, double operand) {
    CheckResult r;
    r.desc = d.toString();
    r.mode = mode;
    r.amplification = scale;
    r.operandRounding = operand;
    r.exact = requiresExact(d, mode) && scale == 1.0 && operand == 0.0;
    r.sampleInfo = ref.sampleInfo;
    // An amplified (winograd F(4x4)) output's rounding comes from its whole tile's input patch, not
    // only its own receptive field (an output whose taps all read padding is not exactly 0): its
    // magnitude sum is taken as the largest of its (n, k) plane among the checked outputs.
    std::map<int64_t, double> planeAbs;
    if (scale != 1.0 || operand != 0.0)
        for (size_t i = 0; i < ref.indices.size(); ++i) {
            const OutCoord c = outCoord(d, ref.indices[i]);
            double& m = planeAbs[c.n * d.k + c.k];
            m = std::max(m, ref.absSum[i]);
        }
    auto planeFor = [&](int64_t idx, double own) {
        if (planeAbs.empty()) return own;
        const OutCoord c = outCoord(d, idx);
        auto it = planeAbs.find(c.n * d.k + c.k);
        return std::max(own, it == planeAbs.end() ? own : it->second);
    };
    auto absFor = [&](int64_t idx, double own) { return scale == 1.0 ? own : scale * planeFor(idx, own); };
    // Rounded operands (winograd on the matrix units): the per-element bound adds
    // operand x (the plane's sum |x*w|), a worst case that sums every rounding with one sign.
    // Real roundings cancel (measured: the largest error ~1/30 of that bound at 16+ channels per
    // group, their RMS ~2/sqrt(C/groups) of 2^-11 or 2^-8), so the RMS over the checked outputs
    // must also stay within operand / (8 sqrt(C/groups)): a wrong coefficient or index (errors of
    // the order of the outputs themselves) fails that even where the worst case would admit it.
    // The RMS counts only what exceeds the output's own rounding (half its spacing at the value):
    // a bf16 output of fp16 operands (scaled winograd) rounds by more than the operands do.
    auto tolFor = [&](int64_t idx, double v, double own) {
        return tolerance(d, v, absFor(idx, own)) + operand * planeFor(idx, own);
    };
    double sumSq = 0;
    double worstScore = -1;
    auto consider = [&](int64_t idx, double g, double rv, double tol, double abs, bool bad) {
        const double diff = std::fabs(g - rv);
        const double score = std::isfinite(g) ? diff / std::max(tol, 1e-300) : HUGE_VAL;
        if (bad) ++r.failed;
        if (score > worstScore) {
            worstScore = score;
            r.worst = {idx, outCoord(d, idx), g, rv, tol, abs};
        }
    };
    for (size_t i = 0; i < ref.indices.size(); ++i) {
        const int64_t idx = ref.indices[i];
        const double g = gpu[size_t(idx)];
        const double tol = r.exact ? 0.0 : tolFor(idx, ref.value[i], ref.absSum[i]);
        const bool bad = !std::isfinite(g) || std::fabs(g - ref.value[i]) > tol;
        if (operand != 0.0 && std::isfinite(g)) {
            const double beyond =
                std::max(0.0, std::fabs(g - ref.value[i]) - 0.5 * outputSpacing(d.dtype) * std::fabs(ref.value[i]));
            const double e = beyond / std::max(planeFor(idx, ref.absSum[i]), 1e-300);
            sumSq += e * e;
        }
        consider(idx, g, ref.value[i], tol, ref.absSum[i], bad);
    }
    r.checked = int64_t(ref.indices.size());
    if (operand != 0.0 && r.checked >= 64) {
        r.rms = std::sqrt(sumSq / double(r.checked));
        r.rmsLimit = operand / (8.0 * std::sqrt(double(d.channelsPerGroup())));
        if (!(r.rms <= r.rmsLimit)) ++r.failed;
    }
    // A sample still scans the whole output for NaN/Inf: unwritten (poisoned) elements fail.
    for (size_t i = 0; i < gpu.size(); ++i) {
        if (std::isfinite(gpu[i])) continue;
        if (r.nonFinite++ == 0 && ref.sampled && worstScore < HUGE_VAL) {
            double v = NAN, a = NAN;
            if (data) referenceAt(d, *data, int64_t(i), v, a);
            worstScore = HUGE_VAL;
            r.worst = {int64_t(i), outCoord(d, int64_t(i)), gpu[i], v, tolFor(int64_t(i), v, a), a};
        }
    }
    r.ok = r.failed == 0 && r.nonFinite == 0;
    return r;
}

CheckResult runAndCheck(vkconv::Context& ctx, const vkconv::ConvDesc& d, const vkconv::PlanOptions& opt, uint64_t seed,
                        DataMode mode) {
    return runAndCheckScaled(ctx, d, opt, seed, mode, 1.0, 1.0);
}

CheckResult runAndCheckScaled(vkconv::Context& ctx, const vkconv::ConvDesc& d, const vkconv::PlanOptions& opt,
                              uint64_t seed, DataMode mode, double inputScale, double filterScale, int spread) {
    CheckResult r;
    std::string algorithm = opt.algorithm, config;
    double planMs = 0, runMs = 0;
    try {
        auto t0 = std::chrono::steady_clock::now();
        vkconv::Plan plan = vkconv::Plan::create(ctx, d, opt);
        planMs = msSince(t0);
        algorithm = plan.algorithm();
        config = plan.config();
        ConvData data = makeConvData(d, seed, mode);
        for (float& v : data.input) v = float(v * inputScale);
        for (float& v : data.filter) v = float(v * filterScale);
        // One channel in 16 (5, 21, ...: never a subgroup's first lane at 32, 8 or 4 lanes and two
        // channels a lane) 2^spread above, the rest 2^spread below; none in the input's (a
        // filter's) first third, so that a maximum over a subgroup's first pass of pairs alone
        // misses them for the tests' counts (48, 64 at 8 or 4 lanes; 200 at 32).  The same
        // channels everywhere: no tile may mix outputs whose sums differ by 2^(4 spread), which
        // fp16 V cannot hold in any winograd (its transform mixes the patch's pixels).
        auto channelExp = [&](int64_t c, int64_t channels) {
            return c % 16 == 5 && 3 * c >= channels ? spread : -spread;
        };
        if (spread > 0) {  // data.input is logical NCHW, data.filter KCRS
            const int64_t span = 2 * int64_t(spread) + 1, hw = int64_t(d.h) * d.w, chw = int64_t(d.c) * hw;
            for (size_t i = 0; i < data.input.size(); ++i) {
                const int64_t n = int64_t(i) / chw, c = int64_t(i) / hw % d.c, p = int64_t(i) % hw, h = p / d.w,
                              w = p % d.w;
                data.input[i] =
                    std::ldexp(data.input[i], int((h * 7 + w * 3 + n * 5) % span) - spread + channelExp(c, d.c));
            }
            const int64_t perFilter = int64_t(d.filterElements()) / d.k, rs = int64_t(d.r) * d.s;
            for (size_t i = 0; i < data.filter.size(); ++i) {
                const int64_t k = int64_t(i) / perFilter, c = int64_t(i) % perFilter / rs;
                data.filter[i] = std::ldexp(data.filter[i], int(k * 5 % span) - spread + channelExp(c, perFilter / rs));
            }
        }
        DeviceConv dev = uploadConv(ctx, d, packConv(d, data), plan.workspaceSize());
        poison(dev, d.dtype);
        vkconv::ConvTensors t = dev.tensors(d);
        const vkconv::Buffer packed = packFilterInto(ctx, plan, dev, t, d.dtype);
        t0 = std::chrono::steady_clock::now();
        plan.run(t);
        runMs = msSince(t0);
        const std::vector<float> gpu = downloadOutput(d, dev.output);
        t0 = std::chrono::steady_clock::now();
        const RefResult ref = reference(d, data, seed);
        const double refMs = msSince(t0);
        r = compare(d, gpu, ref, mode, &data, plan.roundingAmplification(), plan.operandRounding());
        r.refMs = refMs;
    } catch (const vkconv::Error& e) {
        r = CheckResult{};
        r.desc = d.toString();
        r.mode = mode;
        r.error = e.what();
        r.errorCode = e.code();
    }
    r.seed = seed;
    r.algorithm = algorithm;
    r.config = config;
    r.planMs = planMs;
    r.runMs = runMs;
    return r;
}

::testing::AssertionResult passed(const CheckResult& r) {
    if (r.ok) return ::testing::AssertionSuccess() << r.summary();
    return ::testing::AssertionFailure() << r.summary();
}

std::vector<CheckResult> checkIntegerThenUniform(vkconv::Context& ctx, const vkconv::ConvDesc& d,
                                                 const vkconv::PlanOptions& opt, uint64_t seed,
                                                 const std::string& caseName) {
    std::vector<CheckResult> out;
    for (auto mode : {DataMode::Integer, DataMode::Uniform}) {
        out.push_back(runAndCheck(ctx, d, opt, seed, mode));
        const CheckResult& r = out.back();
        EXPECT_TRUE(passed(r)) << "case " << caseName << " tile '" << opt.tile << "' (" << toString(mode) << " data)";
        ::testing::Test::RecordProperty("chosen", r.algorithm + " " + r.config);
    }
    return out;
}

bool expectsHalfScratch(const vkconv::Context& ctx, const vkconv::ConvDesc& d, uint32_t fragM, uint32_t fragN,
                        uint32_t minWord) {
    if (d.dtype != vkconv::DType::F16 || d.outputLayout != vkconv::TensorLayout::NHWC ||
        d.filtersPerGroup() % minWord != 0 || d.hasBias || d.hasResidual || d.activation != vkconv::Activation::None)
        return false;
    if (vkconv::testHookOr("coopmat_emulate", false)) return true;
    for (const auto& c : ctx.caps().coopMatConfigs)
        if (c.scope == VK_SCOPE_SUBGROUP_KHR && c.m == fragM && c.n == fragN && c.c == VK_COMPONENT_TYPE_FLOAT16_KHR &&
            c.result == VK_COMPONENT_TYPE_FLOAT16_KHR)
            return true;
    return false;
}

bool planFragment(const std::string& config, uint32_t& fragM, uint32_t& fragN) {
    const size_t cm = config.find(" cm ");
    if (cm == std::string::npos) return false;
    const std::string frag = config.substr(cm + 4);  // "MxNxK ..."
    fragM = uint32_t(std::stoul(frag)), fragN = uint32_t(std::stoul(frag.substr(frag.find('x') + 1)));
    return true;
}

void expectHalfScratch(const vkconv::Context& ctx, const vkconv::ConvDesc& d, const std::string& config, bool possible,
                       uint32_t minWord) {
    uint32_t fragM = 16, fragN = 16;  // kernels that name no fragment take 16x16 only
    planFragment(config, fragM, fragN);
    EXPECT_EQ(config.find(" epi16") != std::string::npos, possible && expectsHalfScratch(ctx, d, fragM, fragN, minWord))
        << config;
}

void expectNhwcOutWord(const vkconv::ConvDesc& d, const std::string& config) {
    const int64_t kg = d.filtersPerGroup();
    const bool narrow = d.outputLayout == vkconv::TensorLayout::NHWC && kg % 8 != 0 && kg % 2 == 0 &&
                        config.find(" split ") == std::string::npos;
    EXPECT_EQ(config.find("O4 ") != std::string::npos, narrow && kg % 4 == 0) << config;
    EXPECT_EQ(config.find("O2 ") != std::string::npos, narrow && kg % 4 != 0) << config;
}

std::string planDeclines(vkconv::Context& ctx, const vkconv::ConvDesc& d, const vkconv::PlanOptions& opt) {
    try {
        (void)vkconv::Plan::create(ctx, d, opt);
    } catch (const vkconv::Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace vkt
