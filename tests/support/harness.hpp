// Runs one convolution on the GPU with fresh random data and checks every output element (or
// the reference's sample, for huge layers) against the float64 reference.
#pragma once
#include <gtest/gtest.h>
#include <vkconv/vkconv.hpp>

#include <optional>
#include <string>
#include <vector>

#include "reference.hpp"
#include "tensors.hpp"

namespace vkt {

// Allowed |gpu - ref| for one element: fp32 accumulation error (inputs are already rounded to
// the dtype, so only the sum rounds) grows with sqrt(L) times the magnitude sum absSum; the
// output's own rounding to the dtype is relative to |ref|; activations computed with fp32
// transcendental functions get a small absolute slack.
double tolerance(const vkconv::ConvDesc& d, double ref, double absSum);

// Integer data, fp32 storage and a piecewise-linear activation: every partial sum is a small
// integer, so the result must be bit-exact.
bool requiresExact(const vkconv::ConvDesc& d, DataMode mode);

// NaN words written over outputs (and workspace) before each run: an element the GPU forgets
// to write stays NaN and fails.
uint32_t poisonWord(vkconv::DType t);

struct CheckResult {
    bool ok = false;
    std::string error;  // what() of a vkconv::Error thrown on the way (then ok is false)
    std::optional<vkconv::ErrorCode> errorCode;
    std::string desc, algorithm, config;
    uint64_t seed = 0;
    DataMode mode = DataMode::Uniform;
    bool exact = false;
    // Plan::roundingAmplification(), applied to absSum in tolerance() (winograd F(4x4): 196/9;
    // such plans are never exact on integer data).
    double amplification = 1.0;
    // Plan::operandRounding() (winograd on the matrix units): added to the per-element bound, and
    // the RMS of |diff| / sum|x*w| over the checked outputs must stay within rmsLimit (compare()).
    double operandRounding = 0.0, rms = 0.0, rmsLimit = 0.0;
    int64_t checked = 0, failed = 0;
    int64_t nonFinite = 0;  // NaN/Inf anywhere in the output (all elements scanned)
    std::string sampleInfo;
    struct Worst {
        int64_t index = -1;
        OutCoord at{};
        double gpu = 0, ref = 0, tol = 0, absSum = 0;
    } worst;  // the element with the largest |gpu-ref|/tol (NaN/Inf first)
    double planMs = 0, runMs = 0, refMs = 0;
    std::string summary() const;
};

// Device buffers for one convolution; bias/residual/workspace stay empty when unused.
struct DeviceConv {
    vkconv::Buffer input, filter, bias, residual, output, workspace;
    vkconv::ConvTensors tensors(const vkconv::ConvDesc& d) const;  // views of exactly the tensor bytes
};
DeviceConv uploadConv(vkconv::Context& ctx, const vkconv::ConvDesc& d, const PackedConv& packed,
                      VkDeviceSize workspaceBytes);
void poison(DeviceConv& dev, vkconv::DType t);  // output and workspace
// For a plan created with PlanOptions::packedFilter: packs dev's filter once into a new buffer
// (over NaN, so a pack that misses a value fails), poisons the filter itself (the calls must read
// only the packed one) and points t.filter at the packed filter.  An empty buffer otherwise.
vkconv::Buffer packFilterInto(vkconv::Context& ctx, const vkconv::Plan& plan, DeviceConv& dev, vkconv::ConvTensors& t,
                              vkconv::DType dtype);
std::vector<float> downloadOutput(const vkconv::ConvDesc& d, const vkconv::Buffer& out, VkDeviceSize offset = 0);

// Compares a downloaded output (canonical order) with the reference.
// data (optional) lets a NaN found outside a sample be shown with its reference value.
CheckResult compare(const vkconv::ConvDesc& d, const std::vector<float>& gpu, const RefResult& ref, DataMode mode,
                    const ConvData* data = nullptr, double scale = 1.0, double operand = 0.0);

CheckResult runAndCheck(vkconv::Context& ctx, const vkconv::ConvDesc& d, const vkconv::PlanOptions& opt, uint64_t seed,
                        DataMode mode = DataMode::Uniform);
// The same with the input and the filter multiplied by inputScale and filterScale (powers of two
// keep 16-bit data exact; 0 makes that tensor all zeros): data far outside fp16's range.
// spread > 0 multiplies further by powers of two: 2^-spread to 2^spread by input pixel (n, h, w)
// and by filter k, and 2^spread or 2^-spread by channel (one in 16 above, past the first third).  Neighbouring tiles,
// filters and channels then span different ranges (per-tile and per-filter scales must take
// every channel's largest value and must not mix tiles or filters up).
CheckResult runAndCheckScaled(vkconv::Context& ctx, const vkconv::ConvDesc& d, const vkconv::PlanOptions& opt,
                              uint64_t seed, DataMode mode, double inputScale, double filterScale, int spread = 0);

// "" when Plan::create accepts a forced configuration (PlanOptions::tile), else the library's reason.
std::string planDeclines(vkconv::Context& ctx, const vkconv::ConvDesc& d, const vkconv::PlanOptions& opt);

// In a test body: skips the test where Plan::create declines a forced configuration (a tile beyond
// this device's limits), after asserting that the reason names `expected` ("": any reason).
#define VKT_SKIP_IF_DECLINED(ctx, desc, opts, expected)                                         \
    do {                                                                                        \
        const std::string vktWhy = ::vkt::planDeclines((ctx), (desc), (opts));                  \
        if (!vktWhy.empty()) {                                                                  \
            ASSERT_NE(vktWhy.find(expected), std::string::npos) << vktWhy;                      \
            GTEST_SKIP() << "tile '" << (opts).tile << "' declined on this device: " << vktWhy; \
        }                                                                                       \
    } while (0)

// In a test body: skips where `algo` declines `desc`, or declines the forced `tile` for shared
// memory (a tile beyond this device's limits); otherwise sets `opts` to that algorithm and tile.
#define VKT_FORCE_TILE_OR_SKIP(ctx, algo, desc, tile, opts)                                                         \
    do {                                                                                                            \
        const std::string vktAlgoWhy = ::vkconv::whyUnsupported((ctx), (desc), (algo));                             \
        if (!vktAlgoWhy.empty()) GTEST_SKIP() << (algo) << " declines " << (desc).toString() << ": " << vktAlgoWhy; \
        (opts).algorithm = (algo);                                                                                  \
        (opts).tile = (tile);                                                                                       \
        VKT_SKIP_IF_DECLINED((ctx), (desc), (opts), "shared memory");                                               \
    } while (0)

// Runs a forced configuration on integer data (16-bit exact, fp32 sums exact: a wrong staged
// word shows as an exact mismatch), then uniform data against the tolerance, expecting both to
// pass; records the plan as the test's "chosen" property and returns both results.
std::vector<CheckResult> checkIntegerThenUniform(vkconv::Context& ctx, const vkconv::ConvDesc& d,
                                                 const vkconv::PlanOptions& opt, uint64_t seed,
                                                 const std::string& caseName);

// Whether a matrix kernel's plan for d should use the fp16 scratch in its epilogue (" epi16" in
// its configuration): fp16 NHWC output in wide words (K/groups a multiple of `minWord`, the
// kernel's narrowest through that scratch: 8, or 4 for halo_coopmat and implicit_gemm_coopmat)
// with nothing fused, on the emulation or a device reporting a subgroup-scope fp16 accumulator
// of the plan's fragment (fragM x fragN: 16x16, or 8x8 on Mesa 26's lavapipe).  Split-K and NCHW
// outputs never do.
bool expectsHalfScratch(const vkconv::Context& ctx, const vkconv::ConvDesc& d, uint32_t fragM = 16, uint32_t fragN = 16,
                        uint32_t minWord = 8);
// The matrix fragment a plan's configuration names (" cm MxNxK"): false where it names none.
bool planFragment(const std::string& config, uint32_t& fragM, uint32_t& fragN);
// EXPECTs " epi16" in a matrix kernel plan's configuration exactly where expectsHalfScratch holds
// and the plan can take it (`possible`: false for split-K or pointwise_coopmat's wide epilogue).
void expectHalfScratch(const vkconv::Context& ctx, const vkconv::ConvDesc& d, const std::string& config,
                       bool possible = true, uint32_t minWord = 8);
// halo_coopmat and implicit_gemm_coopmat (vector pipeline, one pass): where 4 or 2 is the most
// of 8, 4 and 2 that divides K/groups of an NHWC output, EXPECTs stores of that many filters ("O4"
// or "O2" in the configuration); elsewhere EXPECTs neither.
void expectNhwcOutWord(const vkconv::ConvDesc& d, const std::string& config);

// For EXPECT_TRUE(vkt::passed(r)): the failure message is r.summary().
::testing::AssertionResult passed(const CheckResult& r);

VkDeviceSize roundUp(VkDeviceSize v, VkDeviceSize a);

}  // namespace vkt
