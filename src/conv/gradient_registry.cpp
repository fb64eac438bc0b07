// The backward passes' algorithm tables, and what their kernels share: push constants,
// specialization constants and bindings.
#include "conv/dispatch.hpp"
#include "conv/gradient.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

void AlgorithmInstance::record(VkCommandBuffer, const ConvTensors&) const {
    throw Error(ErrorCode::InvalidArgument, name() + " runs a backward pass, not the forward convolution");
}
void AlgorithmInstance::recordDataGrad(VkCommandBuffer, const DataGradTensors&) const {
    throw Error(ErrorCode::InvalidArgument, name() + " does not run the backward-data pass");
}
void AlgorithmInstance::recordWeightGrad(VkCommandBuffer, const WeightGradTensors&) const {
    throw Error(ErrorCode::InvalidArgument, name() + " does not run the backward-weight pass");
}

const std::vector<DataGradAlgorithm>& dataGradAlgorithms() {
    static const std::vector<DataGradAlgorithm> registry = {
        {"dgrad_direct",
         "one invocation per dx element, over the filter taps whose stride phase reaches it; every problem "
         "(reference)",
         dgradDirectWhyNot, dgradDirectInstantiate, dgradDirectVariants},
        {"dgrad_implicit_gemm",
         "tiled implicit GEMM per stride phase (phase pixels x channels, reduced over K/groups x the phase's taps), "
         "no zero insertion; every problem",
         dgradImplicitGemmWhyNot, dgradImplicitGemmInstantiate, dgradImplicitGemmVariants},
        {"dgrad_forward",
         "stride 1: the forward convolution of dy with the flipped, transposed filter (a pack pass), on the forward "
         "router's kernel (PlanOptions::tile: ALGO or ALGO:TILE forces it); no accumulate",
         dgradForwardWhyNot, dgradForwardInstantiate, dgradForwardVariants},
        {"dgrad_phases",
         "every stride: per stride phase, the forward convolution of dy with the phase's flipped, transposed "
         "sub-filter on the forward router's kernel into the workspace, then a scatter pass into dx with its "
         "epilogue (PlanOptions::tile: ALGO or ALGO:TILE forces every phase's)",
         dgradPhasesWhyNot, dgradPhasesInstantiate, dgradPhasesVariants},
    };
    return registry;
}

const std::vector<WeightGradAlgorithm>& weightGradAlgorithms() {
    static const std::vector<WeightGradAlgorithm> registry = {
        {"wgrad_direct",
         "one invocation per dw element summing over N x P x Q, and one workgroup per bias element; every "
         "problem (reference)",
         wgradDirectWhyNot, wgradDirectInstantiate, wgradDirectVariants},
        {"wgrad_implicit_gemm",
         "implicit GEMM per group (filters x taps, reduced over N x P x Q), the reduction split over workgroups "
         "with fp32 partials added in a fixed order; the bias gradient fused",
         wgradImplicitGemmWhyNot, wgradImplicitGemmInstantiate, wgradImplicitGemmVariants},
        {"wgrad_depthwise",
         "depthwise layers: every tap of a filter summed by the lanes of a workgroup, the pixels split over "
         "workgroups with fp32 partials added in a fixed order; the bias gradient alongside",
         wgradDepthwiseWhyNot, wgradDepthwiseInstantiate, wgradDepthwiseVariants},
        {"wgrad_coopmat",
         "implicit GEMM per group on the matrix units (fp16 / bf16 fragments, fp32 accumulation), filters x taps "
         "reduced over N x P x Q, split over workgroups with fp32 partials added in a fixed order; the bias "
         "gradient fused",
         wgradCoopmatWhyNot, wgradCoopmatInstantiate, wgradCoopmatVariants},
    };
    return registry;
}

const DataGradAlgorithm* findDataGradAlgorithm(const std::string& name) {
    for (const auto& a : dataGradAlgorithms())
        if (name == a.name) return &a;
    return nullptr;
}

const WeightGradAlgorithm* findWeightGradAlgorithm(const std::string& name) {
    for (const auto& a : weightGradAlgorithms())
        if (name == a.name) return &a;
    return nullptr;
}

ConvPushConstants dataGradPushConstants(const DataGradProblem& problem) {
    ConvPushConstants pc = makePushConstants(problem.conv);
    pc.P = uint32_t(problem.p);
    pc.Q = uint32_t(problem.q);
    return pc;
}

std::vector<SpecConstant> gradSpecConstants(const ConvDesc& conv, bool accumulate) {
    std::vector<SpecConstant> spec = commonSpecConstants(conv);
    spec.push_back({kSpecAccumulate, accumulate ? 1u : 0u});
    return spec;
}

PipelineKey gradPipelineKey(const std::string& shader, const ConvDesc& conv, bool accumulate, uint32_t workgroupSize,
                            uint32_t requiredSubgroup) {
    PipelineKey key = convPipelineKey(shader, conv, workgroupSize, requiredSubgroup, kConvBindings + 1);
    key.spec.push_back({kSpecAccumulate, accumulate ? 1u : 0u});
    return key;
}

void bindDataGradTensors(const ContextImpl& ctx, VkCommandBuffer cmd, const ComputePipeline& p,
                         const DataGradTensors& t) {
    ConvTensors c;
    c.input = t.gradOutput, c.filter = t.filter, c.bias = t.bias, c.residual = t.residual;
    c.output = t.gradInput, c.workspace = t.workspace;
    bindConvTensors(ctx, cmd, p, c, kConvBindings + 1);
}

void bindWeightGradTensors(const ContextImpl& ctx, VkCommandBuffer cmd, const ComputePipeline& p,
                           const WeightGradTensors& t) {
    ConvTensors c;
    c.input = t.input, c.filter = t.gradOutput, c.bias = t.gradBias;
    c.output = t.gradFilter, c.workspace = t.workspace;
    bindConvTensors(ctx, cmd, p, c, kConvBindings + 1);
}

}  // namespace vkconv
