#include "runtime/dry_run.hpp"

namespace vkconv {

namespace {

struct DryRun {
    const DeviceCaps* caps = nullptr;
    DryRunLog* log = nullptr;
    bool bound = false;
};
thread_local DryRun tl;  // the stubs below are plain function pointers: no user data

void problem(const std::string& what) { tl.log->problems.push_back(what); }

VKAPI_ATTR void VKAPI_CALL bindPipeline(VkCommandBuffer, VkPipelineBindPoint point, VkPipeline) {
    if (point != VK_PIPELINE_BIND_POINT_COMPUTE) problem("a non-compute pipeline bound");
    tl.bound = true;
}

VKAPI_ATTR void VKAPI_CALL pushDescriptorSet(VkCommandBuffer, VkPipelineBindPoint, VkPipelineLayout, uint32_t set,
                                             uint32_t count, const VkWriteDescriptorSet* writes) {
    if (set != 0) problem("push descriptors into set " + std::to_string(set));
    for (uint32_t i = 0; i < count; ++i) {
        const VkWriteDescriptorSet& w = writes[i];
        if (w.descriptorType != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || !w.pBufferInfo || w.descriptorCount == 0) {
            problem("binding " + std::to_string(w.dstBinding) + ": not a storage buffer write");
            continue;
        }
        for (uint32_t j = 0; j < w.descriptorCount; ++j) {
            const VkDescriptorBufferInfo& b = w.pBufferInfo[j];
            const std::string at = "binding " + std::to_string(w.dstBinding) + ": ";
            if (b.buffer == VK_NULL_HANDLE) problem(at + "no buffer");
            if (tl.caps->minStorageBufferOffsetAlignment && b.offset % tl.caps->minStorageBufferOffsetAlignment)
                problem(at + "offset " + std::to_string(b.offset) +
                        " not a multiple of minStorageBufferOffsetAlignment");
            if (b.range != VK_WHOLE_SIZE && (b.range == 0 || b.range > tl.caps->maxStorageBufferRange))
                problem(at + "range " + std::to_string(b.range) + " outside 1.." +
                        std::to_string(tl.caps->maxStorageBufferRange));
        }
    }
}

VKAPI_ATTR void VKAPI_CALL pushConstants(VkCommandBuffer, VkPipelineLayout, VkShaderStageFlags, uint32_t offset,
                                         uint32_t size, const void*) {
    if (uint64_t(offset) + size > tl.caps->maxPushConstantsSize) problem("push constants past maxPushConstantsSize");
}

VKAPI_ATTR void VKAPI_CALL dispatch(VkCommandBuffer, uint32_t x, uint32_t y, uint32_t z) {
    tl.log->sequence += 'D';
    if (!tl.bound) problem("a dispatch before any pipeline was bound");
    const uint32_t g[3] = {x, y, z};
    for (int i = 0; i < 3; ++i)
        if (g[i] == 0 || g[i] > tl.caps->maxWorkgroupCount[i])
            problem("dispatch " + std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z) +
                    ": dimension " + std::to_string(i) + " outside 1.." +
                    std::to_string(tl.caps->maxWorkgroupCount[i]));
}

VKAPI_ATTR void VKAPI_CALL pipelineBarrier2(VkCommandBuffer, const VkDependencyInfo*) { tl.log->sequence += 'B'; }

}  // namespace

void enableDryRun(ContextImpl& ctx, DryRunLog& log) {
    if (ctx.device)
        throw Error(ErrorCode::InvalidArgument,
                    "enableDryRun: the context has a device; dry runs are for offline contexts");
    tl = DryRun{&ctx.caps, &log, false};
    ctx.dryRun = true;
    ctx.dt = VolkDeviceTable{};  // anything else the record path calls would crash: a test failure, not a silent pass
    ctx.dt.vkCmdBindPipeline = bindPipeline;
    ctx.dt.vkCmdPushDescriptorSetKHR = pushDescriptorSet;
    ctx.dt.vkCmdPushConstants = pushConstants;
    ctx.dt.vkCmdDispatch = dispatch;
    ctx.dt.vkCmdPipelineBarrier2 = pipelineBarrier2;
}

}  // namespace vkconv
