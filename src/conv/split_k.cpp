#include "conv/split_k.hpp"

#include <algorithm>
#include <limits>

#include "conv/conv_params.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {
constexpr uint32_t kReduceWorkgroup = 256;  // splitk_reduce.comp (capped by the device)
}

SplitLimit splitLimit(const ContextImpl& ctx, const ConvDesc& d, uint64_t slices, VkDeviceSize workspaceLimit) {
    const uint64_t elems = uint64_t(d.outputElements()), bytes = elems * 4;  // one fp32 copy of the output
    SplitLimit l{std::numeric_limits<uint64_t>::max(), ""};
    auto tighten = [&](uint64_t most, std::string what) {
        if (most < l.most) l = {most, std::move(what)};
    };
    tighten(uint64_t(std::numeric_limits<int32_t>::max()) / elems, "the shaders' 32-bit indexing (splits x " +
                                                                       std::to_string(elems) +
                                                                       " workspace elements must stay below 2^31)");
    tighten(ctx.caps.maxStorageBufferRange / bytes, "maxStorageBufferRange " +
                                                        std::to_string(ctx.caps.maxStorageBufferRange) + " (" +
                                                        std::to_string(bytes) + " workspace bytes per split)");
    tighten(workspaceLimit / bytes, "PlanOptions::workspaceLimit " + std::to_string(workspaceLimit) + " (" +
                                        std::to_string(bytes) + " workspace bytes per split)");
    tighten(ctx.caps.maxWorkgroupCount[2],
            "maxComputeWorkGroupCount[2] " + std::to_string(ctx.caps.maxWorkgroupCount[2]));
    tighten(uint64_t(std::numeric_limits<uint32_t>::max()) / slices, "32-bit slice arithmetic");
    return l;
}

SplitRequest parseSplitRequest(const std::string& s) {
    SplitRequest r;
    r.spec = parseTile(s);
    if (!r.spec.ok()) {
        r.error = r.spec.error;
        return r;
    }
    if (std::optional<uint32_t> v = r.spec.takeTrailing('s', true)) {
        r.split = *v;
        if (r.split == 0) r.error = "split count in tile '" + s + "' must be at least 1";
    }
    r.tile = r.spec.str();
    r.spec.text = r.tile;
    return r;
}

SplitReduce::SplitReduce(ContextImpl& ctx, const ConvDesc& d)
    : ctx_(ctx),
      elements_(uint64_t(d.outputElements())),
      workgroup_(std::min({kReduceWorkgroup, ctx.caps.maxWorkgroupInvocations, ctx.caps.maxWorkgroupSize[0]})) {
    pipeline_ = &ctx.pipelines->get(
        convPipelineKey(std::string("splitk_reduce_") + dtypeSuffix(d.dtype), d, workgroup_, 0, kSplitBindings));
}

void SplitReduce::record(VkCommandBuffer cmd, const ConvTensors& t, const ConvPushConstants& pc) const {
    computeBarrier(ctx_, cmd);  // the partials are complete once pass 1 has finished
    bindConvTensors(ctx_, cmd, *pipeline_, t, kSplitBindings);
    pushConstants(ctx_, cmd, *pipeline_, pc);
    dispatch1D(ctx_, cmd, elements_, workgroup_);
}

}  // namespace vkconv
