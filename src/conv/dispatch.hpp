// Recording helpers every algorithm shares: binding the five tensors with push descriptors
// (bias/residual fall back to a dummy binding when absent) and 1-D grids of any size.
#pragma once
#include "conv/algorithm.hpp"
#include "conv/conv_params.hpp"
#include "runtime/pipeline.hpp"
#include "vkconv/plan.hpp"

namespace vkconv {

struct ContextImpl;

// Binding numbers (shaders/include/conv_bindings.glsl).
enum Binding : uint32_t {
    kBindInput = 0,
    kBindFilter = 1,
    kBindBias = 2,
    kBindResidual = 3,
    kBindOutput = 4,
    kBindWorkspace = 5
};
constexpr uint32_t kConvBindings = 5;

void bindConvTensors(const ContextImpl& ctx, VkCommandBuffer cmd, const ComputePipeline& p, const ConvTensors& t,
                     uint32_t bindingCount = kConvBindings);
void pushConstants(const ContextImpl& ctx, VkCommandBuffer cmd, const ComputePipeline& p, const ConvPushConstants& pc);

// vkCmdDispatch, followed by a timestamp while a pass probe is set (vkconv-bench --passes); every
// algorithm dispatches through this.
void cmdDispatch(const ContextImpl& ctx, VkCommandBuffer cmd, uint32_t x, uint32_t y, uint32_t z);

// Dispatches ceil(items / workgroupSize) groups, folded into x*y when x would exceed the limit
// (shaders use globalLinearIndex()).
void dispatch1D(const ContextImpl& ctx, VkCommandBuffer cmd, uint64_t items, uint32_t workgroupSize);

// The pipeline key every algorithm starts from: its shader, the problem's common specialization
// constants plus the workgroup size, the push-constant block and `bindings` tensor bindings; a
// required subgroup size (0: the device's choice) comes with full subgroups.
PipelineKey convPipelineKey(const std::string& shader, const ConvDesc& d, uint32_t workgroupSize,
                            uint32_t requiredSubgroup = 0, uint32_t bindings = kConvBindings);

// The device limits every algorithm's whyNot checks, "" when they hold, else the reason:
// `invocations` per workgroup (at `requiredSubgroup`, 0 for the device's choice), and a (gx, gy)
// grid, whose x and y units tileWhat and columnWhat name in the message.
std::string workgroupWhyNot(const ContextImpl& ctx, uint64_t invocations, uint32_t requiredSubgroup);
std::string gridWhyNot(const ContextImpl& ctx, uint64_t gx, uint64_t gy, const char* tileWhat, const char* columnWhat);

// An algorithm instance that records one dispatch over a (gx, gy) grid: the tensors bound, the
// problem's push constants, the pipeline the subclass picks (per call: e.g. by view alignment).
class SingleDispatchInstance : public AlgorithmInstance {
public:
    void record(VkCommandBuffer cmd, const ConvTensors& t) const override;

protected:
    SingleDispatchInstance(ContextImpl& ctx, const ConvDesc& d);
    virtual const ComputePipeline& pipelineFor(const ConvTensors& t) const = 0;

    ContextImpl& ctx_;
    ConvPushConstants pc_;
    uint32_t gx_ = 0, gy_ = 0;
};

// A compute-to-compute barrier between passes of one algorithm (split-K).
void computeBarrier(const ContextImpl& ctx, VkCommandBuffer cmd);

// Regions an algorithm carves out of its workspace start at multiples of this (each is bound as
// its own view): the device's minStorageBufferOffsetAlignment, at least 256 bytes.
uint64_t workspaceRegionAlignment(const ContextImpl& ctx);
constexpr uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace vkconv
