#include "conv/filter_copy.hpp"

#include <algorithm>

#include "conv/dispatch.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

void recordFilterCopy(ContextImpl& ctx, VkCommandBuffer cmd, const ConvDesc& d, const BufferView& filter,
                      const BufferView& packed) {
    const uint32_t wg = std::min({256u, ctx.caps.maxWorkgroupInvocations, ctx.caps.maxWorkgroupSize[0]});
    const ComputePipeline& p =
        ctx.pipelines->get(convPipelineKey(std::string("tensor_copy_") + dtypeSuffix(d.dtype), d, wg));
    ConvPushConstants pc = makePushConstants(d);
    pc.aux0 = uint32_t(d.filterElements());  // < 2^32: the filter fits maxStorageBufferRange (Plan::create)
    bindConvTensors(ctx, cmd, p, ConvTensors{filter, filter, {}, {}, packed, {}});
    pushConstants(ctx, cmd, p, pc);
    dispatch1D(ctx, cmd, uint64_t(d.filterElements()), wg);
}

}  // namespace vkconv
