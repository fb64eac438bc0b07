#include "conv/dispatch.hpp"

#include <algorithm>
#include <string>

#include "runtime/context_impl.hpp"
#include "runtime/pass_probe.hpp"

namespace vkconv {

void bindConvTensors(const ContextImpl& ctx, VkCommandBuffer cmd, const ComputePipeline& p, const ConvTensors& t,
                     uint32_t bindingCount) {
    const BufferView views[] = {t.input,
                                t.filter,
                                t.bias.empty() ? t.input : t.bias,
                                t.residual.empty() ? t.input : t.residual,
                                t.output,
                                t.workspace.empty() ? t.output : t.workspace};
    VkDescriptorBufferInfo infos[6];
    VkWriteDescriptorSet writes[6];
    for (uint32_t i = 0; i < bindingCount; ++i) {
        infos[i] = {views[i].buffer, views[i].offset, views[i].size};
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
    }
    ctx.dt.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
    ctx.dt.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, bindingCount, writes);
    if (ctx.passProbe) ctx.passProbe->bound(p);
}

void cmdDispatch(const ContextImpl& ctx, VkCommandBuffer cmd, uint32_t x, uint32_t y, uint32_t z) {
    ctx.dt.vkCmdDispatch(cmd, x, y, z);
    if (ctx.passProbe) ctx.passProbe->dispatched(cmd);
}

void pushConstants(const ContextImpl& ctx, VkCommandBuffer cmd, const ComputePipeline& p, const ConvPushConstants& pc) {
    ctx.dt.vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
}

void dispatch1D(const ContextImpl& ctx, VkCommandBuffer cmd, uint64_t items, uint32_t workgroupSize) {
    uint64_t groups = (items + workgroupSize - 1) / workgroupSize;
    uint64_t maxX = ctx.caps.maxWorkgroupCount[0];
    uint64_t x = groups < maxX ? groups : maxX;
    uint64_t y = (groups + x - 1) / x;
    if (y > ctx.caps.maxWorkgroupCount[1])
        throw Error(ErrorCode::IndexOverflow,
                    "dispatch of " + std::to_string(groups) + " workgroups exceeds the device's grid");
    cmdDispatch(ctx, cmd, uint32_t(x), uint32_t(y), 1);
}

PipelineKey convPipelineKey(const std::string& shader, const ConvDesc& d, uint32_t workgroupSize,
                            uint32_t requiredSubgroup, uint32_t bindings) {
    PipelineKey key;
    key.shader = shader;
    key.spec = commonSpecConstants(d);
    key.spec.push_back({kSpecWorkgroupSize, workgroupSize});
    key.pushConstantBytes = sizeof(ConvPushConstants);
    key.bindings = bindings;
    key.requiredSubgroupSize = requiredSubgroup;
    key.fullSubgroups = requiredSubgroup != 0;
    return key;
}

std::string workgroupWhyNot(const ContextImpl& ctx, uint64_t invocations, uint32_t requiredSubgroup) {
    const std::string n = std::to_string(invocations);
    if (invocations > ctx.caps.maxWorkgroupInvocations)
        return "the device runs fewer than " + n + " invocations per workgroup";
    uint32_t most = ctx.caps.maxComputeWorkgroupSubgroups;
    if (requiredSubgroup && most && invocations > uint64_t(requiredSubgroup) * most)
        return "its " + n + "-invocation workgroups exceed subgroup size " + std::to_string(requiredSubgroup) +
               " x maxComputeWorkgroupSubgroups " + std::to_string(most);
    return "";
}

std::string gridWhyNot(const ContextImpl& ctx, uint64_t gx, uint64_t gy, const char* tileWhat, const char* columnWhat) {
    if (gx > ctx.caps.maxWorkgroupCount[0])
        return "too many " + std::string(tileWhat) + " (" + std::to_string(gx) + ") for one dispatch row";
    if (gy > ctx.caps.maxWorkgroupCount[1])
        return "too many " + std::string(columnWhat) + " (" + std::to_string(gy) + ") for one dispatch column";
    return "";
}

uint64_t workspaceRegionAlignment(const ContextImpl& ctx) {
    return std::max<uint64_t>(256, ctx.caps.minStorageBufferOffsetAlignment);
}

void computeBarrier(const ContextImpl& ctx, VkCommandBuffer cmd) {
    VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    mb.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    mb.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    mb.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    mb.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    di.memoryBarrierCount = 1;
    di.pMemoryBarriers = &mb;
    ctx.dt.vkCmdPipelineBarrier2(cmd, &di);
}

SingleDispatchInstance::SingleDispatchInstance(ContextImpl& ctx, const ConvDesc& d)
    : ctx_(ctx), pc_(makePushConstants(d)) {}

void SingleDispatchInstance::record(VkCommandBuffer cmd, const ConvTensors& t) const {
    const ComputePipeline& p = pipelineFor(t);
    bindConvTensors(ctx_, cmd, p, t);
    pushConstants(ctx_, cmd, p, pc_);
    cmdDispatch(ctx_, cmd, gx_, gy_, 1);
}

}  // namespace vkconv
