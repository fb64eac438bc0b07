// What the split backward-weight kernels share (wgrad_implicit_gemm, wgrad_depthwise): the
// workspace of fp32 partials (shaders/include/wgrad_partials.glsl), the limits on the split
// count, the split rule, and the second pass (shaders/wgrad_reduce.comp).
#pragma once
#include <cstdint>
#include <string>

#include "conv/gradient.hpp"

namespace vkconv {

// fp32 values one split writes: dw's K x C/groups x R x S, then the K bias sums.
uint64_t wgradSplitElements(const ConvDesc& d);

// The most splits the workspace may hold (32-bit indexing, maxStorageBufferRange,
// PlanOptions::workspaceLimit, the grid's `gridLimit`), and the limit that sets it (for messages).
struct WgradSplitLimit {
    uint64_t most;
    std::string what;
};
WgradSplitLimit wgradSplitLimit(const ContextImpl& ctx, const ConvDesc& d, VkDeviceSize workspaceLimit,
                                uint64_t gridLimit);

// The split rule: enough workgroups for the device model's wgradSplitFill per compute unit over
// `tiles` output tiles, each split keeping at least `minChunks` of the `chunks` reduction steps, at
// most `most` (the caller's cap and wgradSplitLimit).  1: no split (the kernel writes dw itself).
uint64_t wgradSplitRule(const ContextImpl& ctx, uint64_t tiles, uint64_t chunks, uint64_t minChunks, uint64_t most);

// Pass 2: the splits added in order, the old gradient with accumulate, the storage dtype.
class WgradReduce {
public:
    WgradReduce(ContextImpl& ctx, const WeightGradProblem& p);
    void record(VkCommandBuffer cmd, const WeightGradTensors& t, const ConvPushConstants& pc) const;

private:
    ContextImpl& ctx_;
    uint64_t elements_;
    uint32_t workgroup_;
    const ComputePipeline* pipeline_;
};

}  // namespace vkconv
