// One Context used from several threads, as an engine's worker threads would: Plan::create on
// each at once (the same pipelines asked for by two threads together), then record() of every
// plan into each thread's own command buffer at once; the caller submits.  Every output is
// checked against the float64 reference.  context.hpp states the guarantee this tests.
#undef VK_NO_PROTOTYPES
#include <vulkan/vulkan_core.h>

#include <chrono>
#include <cstddef>
#include <iostream>
#include <latch>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "environment.hpp"
#include "harness.hpp"

using namespace vkt;
using vkconv::ConvDesc;
using vkconv::DType;
using vkconv::TensorLayout;

namespace {

class ThreadsTest : public VkconvTest {};

// Four problems over the families with different passes: a plain GEMM, winograd (transforms, a
// batched GEMM and a workspace), split-K (two passes) and a depthwise NHWC layer.
struct Job {
    ConvDesc desc;
    vkconv::PlanOptions options;
};

std::vector<Job> jobs() {
    std::vector<Job> j;
    ConvDesc a;
    a.n = 2, a.c = 24, a.h = a.w = 13, a.k = 20, a.r = a.s = 3, a.pad(1, 1);
    a.hasBias = true, a.activation = vkconv::Activation::Relu;
    j.push_back({a, {}});
    ConvDesc w = a;
    w.c = w.k = 16, w.hasBias = false, w.activation = vkconv::Activation::None;
    vkconv::PlanOptions wo;
    wo.algorithm = "winograd";
    j.push_back({w, wo});
    ConvDesc s;
    s.n = 1, s.c = 256, s.h = s.w = 4, s.k = 32, s.r = s.s = 3, s.pad(1, 1);
    vkconv::PlanOptions so;
    so.algorithm = "implicit_gemm_splitk";
    j.push_back({s, so});
    ConvDesc d;
    d.n = 2, d.c = d.k = d.groups = 32, d.h = d.w = 15, d.r = d.s = 3, d.pad(1, 1);
    d.dtype = DType::F16, d.inputLayout = d.outputLayout = TensorLayout::NHWC,
    d.filterLayout = vkconv::FilterLayout::KRSC;
    j.push_back({d, {}});
    // Twice each: two threads ask for the same pipelines at the same moment.
    const size_t n = j.size();
    for (size_t i = 0; i < n; ++i) j.push_back(j[i]);
    return j;
}

void check(VkResult r, const char* what) {
    if (r != VK_SUCCESS) throw std::runtime_error(std::string(what) + ": VkResult " + std::to_string(r));
}

}  // namespace

TEST_F(ThreadsTest, PlansCreatedAndRecordedOnSeveralThreads) {
    // A context of its own, so that no pipeline exists yet: the threads compile them together.
    vkconv::ContextCreateInfo info = testContextInfo();
    info.pipelineCacheDir = "none";
    vkconv::Context c = vkconv::Context::create(info);
    const std::vector<Job> work = jobs();
    const size_t n = work.size();

    // 1. Plan::create on every thread at once.
    const auto created = std::chrono::steady_clock::now();
    std::vector<std::optional<vkconv::Plan>> plans(n);
    std::vector<std::string> errors(n);
    {
        std::latch start{static_cast<std::ptrdiff_t>(n)};
        std::vector<std::thread> threads;
        for (size_t i = 0; i < n; ++i)
            threads.emplace_back([&, i] {
                start.arrive_and_wait();
                try {
                    plans[i].emplace(vkconv::Plan::create(c, work[i].desc, work[i].options));
                } catch (const std::exception& e) {
                    errors[i] = e.what();
                }
            });
        for (auto& t : threads) t.join();
    }
    std::cout << "[ info ] " << n << " plans on " << n << " threads: "
              << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - created).count()
              << " ms\n";
    for (size_t i = 0; i < n; ++i) ASSERT_TRUE(errors[i].empty()) << work[i].desc.toString() << ": " << errors[i];
    for (size_t i = 0; i < n / 2; ++i) {
        std::cout << "[ info ] " << work[i].desc.toString() << ": " << plans[i]->algorithm() << " "
                  << plans[i]->config() << "\n";
        EXPECT_EQ(plans[i]->algorithm(), plans[i + n / 2]->algorithm());
        EXPECT_EQ(plans[i]->config(), plans[i + n / 2]->config()) << "one problem, two threads, two plans";
    }

    // Data, buffers, poisoned outputs and workspaces: this thread (uploads use the context's queue).
    std::vector<ConvData> data;
    std::vector<DeviceConv> dev;
    for (size_t i = 0; i < n; ++i) {
        data.push_back(makeConvData(work[i].desc, 900 + i, DataMode::Uniform));
        dev.push_back(uploadConv(c, work[i].desc, packConv(work[i].desc, data.back()), plans[i]->workspaceSize()));
        poison(dev.back(), work[i].desc.dtype);
    }

    // 2. record() on every thread at once, each into a command buffer of its own pool (Vulkan:
    //    a pool is externally synchronised); each ends with the barrier its reader needs.
    std::vector<VkCommandPool> pools(n, VK_NULL_HANDLE);
    std::vector<VkCommandBuffer> cmds(n, VK_NULL_HANDLE);
    {
        std::latch start{static_cast<std::ptrdiff_t>(n)};
        std::vector<std::thread> threads;
        for (size_t i = 0; i < n; ++i)
            threads.emplace_back([&, i] {
                try {
                    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
                    pci.queueFamilyIndex = c.queueFamilyIndex();
                    check(vkCreateCommandPool(c.device(), &pci, nullptr, &pools[i]), "vkCreateCommandPool");
                    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
                    cai.commandPool = pools[i], cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, cai.commandBufferCount = 1;
                    check(vkAllocateCommandBuffers(c.device(), &cai, &cmds[i]), "vkAllocateCommandBuffers");
                    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
                    check(vkBeginCommandBuffer(cmds[i], &bi), "vkBeginCommandBuffer");
                    start.arrive_and_wait();
                    plans[i]->record(cmds[i], dev[i].tensors(work[i].desc));
                    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
                    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
                    mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT;
                    vkCmdPipelineBarrier(cmds[i], VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                         VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0,
                                         nullptr, 0, nullptr);
                    check(vkEndCommandBuffer(cmds[i]), "vkEndCommandBuffer");
                } catch (const std::exception& e) {
                    errors[i] = e.what();
                }
            });
        for (auto& t : threads) t.join();
    }
    for (size_t i = 0; i < n; ++i) ASSERT_TRUE(errors[i].empty()) << work[i].desc.toString() << ": " << errors[i];

    // The caller submits (the queue is externally synchronised), then every output is checked.
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = uint32_t(n), si.pCommandBuffers = cmds.data();
    ASSERT_EQ(vkQueueSubmit(c.queue(), 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
    ASSERT_EQ(vkQueueWaitIdle(c.queue()), VK_SUCCESS);
    for (VkCommandPool p : pools) vkDestroyCommandPool(c.device(), p, nullptr);
    for (size_t i = 0; i < n; ++i) {
        const ConvDesc& d = work[i].desc;
        const CheckResult r =
            compare(d, downloadOutput(d, dev[i].output), reference(d, data[i], 900 + i), DataMode::Uniform, &data[i],
                    plans[i]->roundingAmplification(), plans[i]->operandRounding());
        EXPECT_TRUE(passed(r)) << "job " << i << " " << d.toString() << " on " << plans[i]->algorithm() << " "
                               << plans[i]->config();
    }
    EXPECT_EQ(c.validationMessages(), 0u);
}
