#include "runtime/gpu_timer.hpp"

#include "runtime/context_impl.hpp"

namespace vkconv {

GpuTimer::GpuTimer(ContextImpl& ctx, uint32_t maxIntervals) : ctx_(ctx), max_(maxIntervals) {
    if (!ctx.caps.timestamps) throw Error(ErrorCode::Unsupported, "the compute queue cannot write timestamps");
    VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    ci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    ci.queryCount = 2 * maxIntervals;
    VKCONV_CHECK(ctx.dt.vkCreateQueryPool(ctx.device, &ci, nullptr, &pool_));
}

GpuTimer::~GpuTimer() { ctx_.dt.vkDestroyQueryPool(ctx_.device, pool_, nullptr); }

void GpuTimer::reset(VkCommandBuffer cmd) { ctx_.dt.vkCmdResetQueryPool(cmd, pool_, 0, 2 * max_); }

void GpuTimer::begin(VkCommandBuffer cmd, uint32_t i) {
    ctx_.dt.vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, 2 * i);
}

void GpuTimer::end(VkCommandBuffer cmd, uint32_t i) {
    ctx_.dt.vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, 2 * i + 1);
}

std::vector<double> GpuTimer::intervalsNs(uint32_t count) {
    std::vector<uint64_t> raw(2 * count);
    VKCONV_CHECK(ctx_.dt.vkGetQueryPoolResults(ctx_.device, pool_, 0, 2 * count, raw.size() * 8, raw.data(), 8,
                                               VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    std::vector<double> out(count);
    uint64_t mask = ctx_.caps.timestampMask;
    for (uint32_t i = 0; i < count; ++i) {
        uint64_t t0 = raw[2 * i] & mask, t1 = raw[2 * i + 1] & mask;
        uint64_t ticks = (t1 - t0) & mask;  // wraps correctly within the valid bits
        out[i] = double(ticks) * double(ctx_.caps.timestampPeriod);
    }
    return out;
}

}  // namespace vkconv
