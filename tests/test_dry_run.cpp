// Every plan's record path, for devices that are not here: the fuzzer's problems are planned on
// the device profiles (tests/support/plan_fuzzer.hpp) and recorded into a dry-run device table
// (src/runtime/dry_run.hpp) that checks each command against the profile's limits.  A grid past
// maxWorkgroupCount (lavapipe allows 65535 groups in x, NVIDIA 2^31 - 1), an empty grid (a pass
// silently skipped), a descriptor range past maxStorageBufferRange or off the offset alignment,
// or a plan that records no dispatch fails.  Views sit at the device's smallest offset alignment
// where that is under 16 bytes (RADV: 4), so the element-wise pipelines are recorded too.  Links
// the library's internals (vkconv_internal): a separate binary from vkconv_tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>

#include "plan_fuzzer.hpp"
#include "runtime/context_access.hpp"
#include "runtime/dry_run.hpp"

using namespace vkt;

namespace {

// A fake buffer handle (never dereferenced by the dry run).
VkBuffer fakeBuffer(uintptr_t i) {
#if VK_USE_64_BIT_PTR_DEFINES
    return reinterpret_cast<VkBuffer>(0x10000 * (i + 1));
#else
    return VkBuffer(0x10000 * (i + 1));
#endif
}

vkconv::BufferView view(uintptr_t i, VkDeviceSize offset, int64_t bytes) {
    return {fakeBuffer(i), offset, VkDeviceSize(bytes)};
}

// Records `plan` (with its packed filter first where it has one) on fake views at `offset`.
void recordDry(const vkconv::Plan& plan, VkDeviceSize offset) {
    const vkconv::ConvDesc& d = plan.desc();
    const bool packed = plan.packedFilterSize() > 0;
    vkconv::ConvTensors t;
    t.input = view(0, offset, d.inputBytes());
    t.filter = packed ? view(1, offset, int64_t(plan.packedFilterSize())) : view(1, offset, d.filterBytes());
    if (d.hasBias) t.bias = view(2, offset, d.biasBytes());
    if (d.hasResidual) t.residual = view(3, offset, d.outputBytes());
    t.output = view(4, offset, d.outputBytes());
    if (plan.workspaceSize()) t.workspace = view(5, 0, int64_t(plan.workspaceSize()));
    const VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (packed) plan.recordPackFilter(cmd, view(6, 0, d.filterBytes()), t.filter);
    plan.record(cmd, t);
}

}  // namespace

TEST(DryRun, EveryPlanRecordsWithinTheDevicesLimits) {
    const auto [count, seed] = fuzzRun(0xd27);
    vkconv::Context live = vkconv::Context::create();
    const auto names = vkconv::algorithmNames();
    uint64_t recorded = 0, dispatches = 0;
    std::map<std::string, int> sequences;
    for (auto& prof : profiles(live.caps())) {
        vkconv::DryRunLog log;
        vkconv::enableDryRun(vkconv::implOf(prof.ctx), log);
        const uint32_t align = prof.ctx.caps().minStorageBufferOffsetAlignment;
        Fuzzer fz(seed + uint64_t(prof.name.size()));
        for (int i = 0; i < count; ++i) {
            const vkconv::ConvDesc d = fz.next();
            if (!vkconv::whyUnsupported(prof.ctx, d, "auto").empty()) continue;  // invalid, or past the device's limits
            for (size_t a = 0; a <= names.size(); ++a) {
                vkconv::PlanOptions o;
                o.algorithm = a == names.size() ? "auto" : names[a];
                if (!vkconv::whyUnsupported(prof.ctx, d, o.algorithm).empty()) continue;
                o.packedFilter = i % 3 == 0;
                std::optional<vkconv::Plan> made;
                try {
                    made.emplace(vkconv::Plan::create(prof.ctx, d, o));
                } catch (const vkconv::Error& e) {
                    // whyUnsupported asks with default options; a packed filter can move the
                    // choice behind coopmat_nhwc's transposes off the matrix units.
                    EXPECT_TRUE(o.packedFilter && e.code() == vkconv::ErrorCode::Unsupported) << e.what();
                    continue;
                }
                const vkconv::Plan& plan = *made;
                SCOPED_TRACE(prof.name + ": problem " + std::to_string(i) + " " + d.toString() + " " +
                             plan.algorithm() + " " + plan.config() + (o.packedFilter ? " packed" : ""));
                log.problems.clear();
                log.sequence.clear();
                recordDry(plan, align < 16 && i % 2 ? align : 0);
                for (const auto& p : log.problems) ADD_FAILURE() << p;
                const auto n = std::count(log.sequence.begin(), log.sequence.end(), 'D');
                EXPECT_GT(n, 0) << "recorded no dispatch";
                if (n == 0) continue;
                // The caller's barriers come before and after record() (plan.hpp); inside, one
                // barrier between dependent passes, never two in a row (each costs a drain, ~2.6 us
                // on the H200's driver; docs/performance.md, "Floors and ceilings").
                EXPECT_EQ(log.sequence.find("BB"), std::string::npos) << log.sequence;
                EXPECT_NE(log.sequence.front(), 'B') << log.sequence;
                EXPECT_NE(log.sequence.back(), 'B') << log.sequence;
                if (std::getenv("VKCONV_DRY_RUN_SEQUENCES"))
                    sequences[plan.algorithm() + " " + log.sequence]++;  // by hand: each plan's pass order
                dispatches += uint64_t(n);
                ++recorded;
            }
        }
    }
    std::cout << "[ info ] " << recorded << " plans recorded dry, " << dispatches << " dispatches checked" << std::endl;
    for (const auto& [seq, n] : sequences) std::cout << "[ seq ] " << n << " " << seq << std::endl;
    EXPECT_GT(recorded, uint64_t(count));
}

// The recorder itself: each limit it checks, broken once, is reported (so the test above can fail).
TEST(DryRun, TheRecorderFlagsBrokenLimits) {
    vkconv::Context live = vkconv::Context::create();
    vkconv::Context offline = vkconv::Context::createOffline(vkconv::DeviceCaps::fromJson(live.caps().toJson()));
    vkconv::DryRunLog log;
    vkconv::ContextImpl& c = vkconv::implOf(offline);
    vkconv::enableDryRun(c, log);
    const VkCommandBuffer cmd = VK_NULL_HANDLE;
    c.dt.vkCmdDispatch(cmd, 1, 1, 1);  // before any pipeline
    EXPECT_EQ(log.problems.size(), 1u);
    c.dt.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, VK_NULL_HANDLE);
    c.dt.vkCmdDispatch(cmd, 1, 1, 1);
    EXPECT_EQ(log.problems.size(), 1u);
    c.dt.vkCmdDispatch(cmd, 0, 1, 1);
    c.dt.vkCmdDispatch(cmd, 1, c.caps.maxWorkgroupCount[1] + 1, 1);
    EXPECT_EQ(log.problems.size(), 3u);
    VkDescriptorBufferInfo b{fakeBuffer(0), 0, 0};
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.descriptorCount = 1, w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, w.pBufferInfo = &b;
    c.dt.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, VK_NULL_HANDLE, 0, 1, &w);  // empty range
    b.range = VkDeviceSize(c.caps.maxStorageBufferRange) + 1;
    c.dt.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, VK_NULL_HANDLE, 0, 1, &w);
    b.range = 64, b.offset = 1;  // off every alignment but 1
    c.dt.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, VK_NULL_HANDLE, 0, 1, &w);
    EXPECT_EQ(log.problems.size(), c.caps.minStorageBufferOffsetAlignment > 1 ? 6u : 5u);
    c.dt.vkCmdPushConstants(cmd, VK_NULL_HANDLE, VK_SHADER_STAGE_COMPUTE_BIT, 0, c.caps.maxPushConstantsSize + 4,
                            nullptr);
    EXPECT_EQ(log.problems.size(), c.caps.minStorageBufferOffsetAlignment > 1 ? 7u : 6u);
    for (const auto& p : log.problems) std::cout << "[ flagged ] " << p << std::endl;
    EXPECT_THROW(vkconv::enableDryRun(vkconv::implOf(live), log), vkconv::Error);  // never on a real device
}

// What the fuzz found, kept as fixed cases.  On a device with 65535 groups in x (lavapipe, Intel),
// the scalar GEMM's 64-row tiles ran past it from ~4.2M output pixels: the tile choice (and a
// forced tile) now counts the grid.  Winograd's transformed filters, packed, are the filter
// binding: past maxStorageBufferRange winograd declines, where the plan used to fail at record.
TEST(DryRun, FoundCases) {
    vkconv::Context live = vkconv::Context::create();
    vkconv::DeviceCaps caps = live.caps();
    caps.maxWorkgroupCount[0] = caps.maxWorkgroupCount[1] = caps.maxWorkgroupCount[2] = 65535;
    caps.maxStorageBufferRange = std::min<uint32_t>(caps.maxStorageBufferRange, 128u << 20);
    vkconv::Context offline = vkconv::Context::createOffline(caps);
    vkconv::DryRunLog log;
    vkconv::enableDryRun(vkconv::implOf(offline), log);

    vkconv::ConvDesc big;  // 4,196,352 output pixels: 65,568 tiles of 64 rows
    big.c = 6, big.h = big.w = 2049, big.k = 4, big.r = big.s = 2, big.padTop = big.padBottom = 1, big.dilationW = 2;
    for (const char* algo : {"auto", "implicit_gemm", "implicit_gemm_analytic", "implicit_gemm_splitk"}) {
        SCOPED_TRACE(algo);
        vkconv::PlanOptions o;
        o.algorithm = algo;
        ASSERT_EQ(vkconv::whyUnsupported(offline, big, algo), "");
        const vkconv::Plan p = vkconv::Plan::create(offline, big, o);
        recordDry(p, 0);
        for (const auto& problem : log.problems) ADD_FAILURE() << p.config() << ": " << problem;
        log.problems.clear();
        o.tile = "64x16x8/4x4";  // forced, its grid is too wide
        if (std::string(algo) != "auto") {
            const std::string why = [&] {
                try {
                    vkconv::Plan::create(offline, big, o);
                } catch (const vkconv::Error& e) {
                    return std::string(e.what());
                }
                return std::string();
            }();
            EXPECT_NE(why.find("output pixel tiles"), std::string::npos) << why;
        }
    }

    vkconv::ConvDesc deep;  // fp32 F(4x4): 36 x 1024 x 1024 x 4 bytes of U, over 128 MiB
    deep.c = deep.k = 1024, deep.h = deep.w = 14, deep.r = deep.s = 3, deep.pad(1, 1);
    vkconv::PlanOptions packed;
    packed.packedFilter = true;
    packed.algorithm = "winograd";
    packed.tile = "4x4";
    try {
        vkconv::Plan::create(offline, deep, packed);
        ADD_FAILURE() << "winograd planned a packed U past maxStorageBufferRange";
    } catch (const vkconv::Error& e) {
        EXPECT_NE(std::string(e.what()).find("maxStorageBufferRange"), std::string::npos) << e.what();
    }
    packed.algorithm = "auto";
    packed.tile.clear();
    const vkconv::Plan p = vkconv::Plan::create(offline, deep, packed);
    recordDry(p, 0);
    EXPECT_TRUE(log.problems.empty()) << p.algorithm() << " " << p.config();
}
