// GPU timestamps around recorded work (vkCmdWriteTimestamp2 at ALL_COMMANDS), in nanoseconds.
#pragma once
#include <vector>

#include "runtime/vk.hpp"

namespace vkconv {

struct ContextImpl;

class GpuTimer {
public:
    GpuTimer(ContextImpl& ctx, uint32_t maxIntervals);
    ~GpuTimer();
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;

    void reset(VkCommandBuffer cmd);  // must be recorded before the first begin()
    void begin(VkCommandBuffer cmd, uint32_t interval);
    void end(VkCommandBuffer cmd, uint32_t interval);
    std::vector<double> intervalsNs(uint32_t count);  // after the work completed

private:
    ContextImpl& ctx_;
    VkQueryPool pool_ = VK_NULL_HANDLE;
    uint32_t max_;
};

}  // namespace vkconv
