#include "conv/wgrad_split.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "conv/dispatch.hpp"
#include "conv/tile_score.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {
constexpr uint32_t kReduceWorkgroup = 256;  // wgrad_reduce.comp (capped by the device)
}

uint64_t wgradSplitElements(const ConvDesc& d) {
    return uint64_t(d.k) * uint64_t(d.channelsPerGroup()) * uint64_t(d.r) * uint64_t(d.s) +
           (d.hasBias ? uint64_t(d.k) : 0);
}

WgradSplitLimit wgradSplitLimit(const ContextImpl& ctx, const ConvDesc& d, VkDeviceSize workspaceLimit,
                                uint64_t gridLimit) {
    const uint64_t elems = wgradSplitElements(d), bytes = elems * 4;
    WgradSplitLimit l{std::numeric_limits<uint64_t>::max(), ""};
    auto tighten = [&](uint64_t most, std::string what) {
        if (most < l.most) l = {most, std::move(what)};
    };
    tighten(uint64_t(std::numeric_limits<int32_t>::max()) / elems,
            "the shaders' 32-bit indexing (splits x " + std::to_string(elems) + " partials must stay below 2^31)");
    tighten(ctx.caps.maxStorageBufferRange / bytes, "maxStorageBufferRange " +
                                                        std::to_string(ctx.caps.maxStorageBufferRange) + " (" +
                                                        std::to_string(bytes) + " workspace bytes per split)");
    tighten(workspaceLimit / bytes, "PlanOptions::workspaceLimit " + std::to_string(workspaceLimit) + " (" +
                                        std::to_string(bytes) + " workspace bytes per split)");
    tighten(gridLimit, "the device's workgroup count along the splits' grid axis, " + std::to_string(gridLimit));
    return l;
}

uint64_t wgradSplitRule(const ContextImpl& ctx, uint64_t tiles, uint64_t chunks, uint64_t minChunks, uint64_t most) {
    const double target = ctx.model.wgradSplitFill * ctx.model.computeUnits;
    uint64_t want = uint64_t(std::ceil(target / double(std::max<uint64_t>(tiles, 1))));
    return std::max<uint64_t>(1, std::min({want, chunks / std::max<uint64_t>(minChunks, 1), most}));
}

WgradReduce::WgradReduce(ContextImpl& ctx, const WeightGradProblem& p)
    : ctx_(ctx),
      elements_(wgradSplitElements(p.conv)),
      workgroup_(std::min({kReduceWorkgroup, ctx.caps.maxWorkgroupInvocations, ctx.caps.maxWorkgroupSize[0]})) {
    pipeline_ = &ctx.pipelines->get(
        gradPipelineKey(std::string("wgrad_reduce_") + dtypeSuffix(p.conv.dtype), p.conv, p.accumulate, workgroup_));
}

void WgradReduce::record(VkCommandBuffer cmd, const WeightGradTensors& t, const ConvPushConstants& pc) const {
    computeBarrier(ctx_, cmd);  // the partials are complete once pass 1 has finished
    bindWeightGradTensors(ctx_, cmd, *pipeline_, t);
    pushConstants(ctx_, cmd, *pipeline_, pc);
    dispatch1D(ctx_, cmd, elements_, workgroup_);
}

}  // namespace vkconv
