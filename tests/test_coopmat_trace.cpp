// implicit_gemm_coopmat's profiling trace (ContextImpl::coopmatTrace, vkconv-bench --trace): the
// trace build computes the same output, and its workspace holds the layout
// shaders/include/coopmat_trace.glsl documents (bench/coopmat_trace.py reads it): the header's
// grid and tile, one record per subgroup with its slice count and index, and clock readings in
// phase order.  Test names contain "coopmat": the emulated runs (lavapipe) take them.
// The flag lives in the context's internals (runtime/context_impl.hpp, compiled here with volk's
// prototype-free headers: tests/CMakeLists.txt).
#include <cstring>
#include <string>
#include <vector>

#include "environment.hpp"
#include "harness.hpp"
#include "runtime/context_access.hpp"

using namespace vkt;
using vkconv::ConvDesc;
using vkconv::DType;

namespace {

uint64_t word(const std::vector<uint32_t>& w, size_t i) { return uint64_t(w[2 * i]) | (uint64_t(w[2 * i + 1]) << 32); }

// a reads no later than b.  Lavapipe's clocks are 32 bits wide (high words 0) and wrap every
// 2^32 ticks (4.3 s of its nanosecond clock), so there the order is modular: b - a < 2^31.
bool notAfter(uint64_t a, uint64_t b, bool narrow) { return narrow ? int32_t(uint32_t(b - a)) >= 0 : a <= b; }

// The context's trace flag on for one scope (plans made meanwhile run the trace build).
struct TraceOn {
    vkconv::ContextImpl& impl;
    bool old;
    explicit TraceOn(const vkconv::Context& c) : impl(vkconv::implOf(c)), old(impl.coopmatTrace) {
        impl.coopmatTrace = true;
    }
    ~TraceOn() { impl.coopmatTrace = old; }
    TraceOn(const TraceOn&) = delete;
    TraceOn& operator=(const TraceOn&) = delete;
};

}  // namespace

class CoopmatTrace : public VkconvTest {};

TEST_F(CoopmatTrace, coopmat_TraceLayoutAndResult) {
    TraceOn trace(ctx());
    ConvDesc d;
    d.n = 2, d.c = 64, d.h = 9, d.w = 11, d.k = 40, d.r = 3, d.s = 3;  // 198 pixels: 4 row tiles, the last partial
    d.pad(1, 1);
    d.dtype = DType::F16;
    d.inputLayout = d.outputLayout = vkconv::TensorLayout::NHWC;
    d.filterLayout = vkconv::FilterLayout::KRSC;
    vkconv::PlanOptions o;
    o.algorithm = "implicit_gemm_coopmat";
    o.tile = "64x64x32/2x4/s1";  // one pass: split-K plans run no trace
    const std::string why = planDeclines(ctx(), d, o);
    if (!why.empty()) GTEST_SKIP() << "implicit_gemm_coopmat declines: " << why;
    vkconv::Plan plan = vkconv::Plan::create(ctx(), d, o);
    if (plan.config().find(" trace") == std::string::npos)
        GTEST_SKIP() << "no trace build here (" << plan.config() << "; shader clock " << ctx().caps().shaderClock
                     << ")";

    // The output first: the clock reads must not change what the kernel computes.
    const auto r = runAndCheck(ctx(), d, o, 7100, DataMode::Uniform);
    EXPECT_TRUE(passed(r));

    const ConvData data = makeConvData(d, 7101, DataMode::Uniform);
    DeviceConv dev = uploadConv(ctx(), d, packConv(d, data), plan.workspaceSize());
    poison(dev, d.dtype);
    plan.run(dev.tensors(d));
    std::vector<uint32_t> w(size_t(plan.workspaceSize() / 4));
    dev.workspace.download(w.data(), w.size() * 4);

    const uint32_t gx = 4, gy = 1, subgroups = 8, slices = 9 * 2;  // 198 / 64 rows, 40 <= 64 filters; 9 taps x 64/32
    ASSERT_EQ(w[0], 0x52544B56u);
    EXPECT_EQ(w[1], 1u);
    EXPECT_EQ(w[2], gx);
    EXPECT_EQ(w[3], gy);
    EXPECT_EQ(w[4], subgroups);
    const uint32_t words = w[5], traced = w[6];
    EXPECT_EQ(w[7], 64u);  // BM
    EXPECT_EQ(w[8], 64u);  // BN
    EXPECT_EQ(w[9], 32u);  // BK
    EXPECT_EQ(w[10], slices);
    // Subgroup blocks of 32x16: 2 x 1 accumulators of 16x16 fragments, 4 x 2 of 8x8 (the plan's
    // "cm MxNxK": Mesa 26's lavapipe has only 8x8x8).
    uint32_t fragM = 0, fragN = 0;
    ASSERT_TRUE(planFragment(plan.config(), fragM, fragN)) << plan.config();
    const uint32_t rounds = w[11], fmfn = (32 / fragM) * (16 / fragN);
    ASSERT_EQ(words, 8u + 3u * traced + 3u * rounds);
    ASSERT_EQ(plan.workspaceSize(), (8u + uint64_t(gx) * gy * subgroups * words) * 8u);
    // 32-bit clocks: every reading's high word is 0 (the six slots every record writes; those past
    // the traced slices and rounds keep the poison).
    bool narrow = true;
    for (uint32_t rec = 0; rec < gx * gy * subgroups; ++rec)
        for (size_t i = 0; i < 6; ++i) narrow = narrow && (word(w, 8 + size_t(rec) * words + i) >> 32) == 0;
    for (uint32_t rec = 0; rec < gx * gy * subgroups; ++rec) {
        const size_t b = 8 + size_t(rec) * words;
        EXPECT_EQ(w[2 * (b + 6)], slices) << "record " << rec;
        EXPECT_EQ(w[2 * (b + 6) + 1], rec % subgroups) << "record " << rec;
        EXPECT_EQ(w[2 * (b + 7)], fmfn) << "record " << rec;
        // Subgroup clock: start <= staged <= each slice's products <= arrival <= exit <= epilogue.
        uint64_t prev = word(w, b + 1);
        std::vector<size_t> order = {b + 2};
        for (uint32_t s = 0; s < std::min(slices, traced); ++s)
            for (uint32_t k = 0; k < 3; ++k) order.push_back(b + 8 + 3 * s + k);
        order.push_back(b + 3);
        for (uint32_t e = 0; e < std::min(fmfn, rounds); ++e)
            for (uint32_t k = 0; k < 3; ++k) order.push_back(b + 8 + 3 * traced + 3 * e + k);
        order.push_back(b + 4);
        for (size_t i : order) {
            const uint64_t t = word(w, i);
            EXPECT_TRUE(notAfter(prev, t, narrow)) << prev << " then " << t << ", record " << rec << " word " << i - b;
            prev = t;
        }
        EXPECT_TRUE(notAfter(word(w, b), word(w, b + 5), narrow))
            << word(w, b) << " then " << word(w, b + 5) << ", record " << rec << ": device clock";
    }
}
