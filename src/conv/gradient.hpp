// The backward passes: their problems, their tensors as the kernels bind them, and their
// algorithm tables (gradient_registry.cpp) and routers (gradient_router.cpp).  Each algorithm
// `x` lives in algo_x.cpp, as the forward ones do.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "conv/algorithm.hpp"
#include "conv/conv_params.hpp"
#include "conv/router.hpp"

namespace vkconv {

// dx = conv^T(dy, w), then the epilogue that conv's own epilogue fields describe on dx: bias[c]
// (C elements), a residual shaped like dx, the activation (a transposed convolution's epilogue;
// all off for ConvPass::BackwardData), and with `accumulate` the old dx added first.
struct DataGradProblem {
    ConvDesc conv;
    int64_t p = 1, q = 1;  // dy's height and width: conv.outH()/outW(), but fewer for a
                           // ConvTranspose2d whose outputPadding reaches the stride
    bool accumulate = false;
    int64_t gradOutputElements() const { return conv.n * conv.k * p * q; }
};

// The backward-data problem of a plan: dx's epilogue is a transposed convolution's, or none (the
// forward bias does not reach dx), and dy's size is the transposed input's or the forward output's.
DataGradProblem dataGradProblem(const ConvDesc& desc, const PlanOptions& o, const ConvTransposeDesc* transposed);
// A transposed convolution's options as its plan runs them (pass BackwardData); throws the named
// errors of options that have no meaning for it.
PlanOptions transposedOptions(const PlanOptions& options);

// Binding order of every backward-data kernel (shaders/include/dgrad_bindings.glsl).
struct DataGradTensors {
    BufferView gradOutput, filter, bias, residual, gradInput, workspace;
};

// dw = sum over n, p, q of dy * x (conv's filter layout), and with conv.hasBias db = sum of dy;
// with `accumulate` the old dw and db are added.
struct WeightGradProblem {
    ConvDesc conv;
    bool accumulate = false;
};

// Binding order of every backward-weight kernel (shaders/include/wgrad_bindings.glsl).
struct WeightGradTensors {
    BufferView input, gradOutput, gradFilter, gradBias, workspace;
};

template <class Problem>
struct GradAlgorithm {
    const char* name;
    const char* summary;
    std::string (*whyNot)(const ContextImpl& ctx, const Problem& problem, const PlanOptions& opts);
    std::unique_ptr<AlgorithmInstance> (*instantiate)(ContextImpl& ctx, const Problem& problem,
                                                      const PlanOptions& opts);
    // Every pipeline variant the algorithm ships on this device, for the compile lab.
    std::vector<std::pair<Problem, PlanOptions>> (*variants)(const ContextImpl& ctx);
};
using DataGradAlgorithm = GradAlgorithm<DataGradProblem>;
using WeightGradAlgorithm = GradAlgorithm<WeightGradProblem>;

const std::vector<DataGradAlgorithm>& dataGradAlgorithms();
const std::vector<WeightGradAlgorithm>& weightGradAlgorithms();
const DataGradAlgorithm* findDataGradAlgorithm(const std::string& name);
const WeightGradAlgorithm* findWeightGradAlgorithm(const std::string& name);

struct GradRoute {
    std::string algorithm;
    std::vector<RouteStep> steps;  // every rule consulted, in order; the last one chose
};
GradRoute routeDataGrad(const ContextImpl& ctx, const DataGradProblem& problem, const PlanOptions& opts);
GradRoute routeWeightGrad(const ContextImpl& ctx, const WeightGradProblem& problem, const PlanOptions& opts);

// The forward push constants with dy's size (DataGradProblem::p, q).
ConvPushConstants dataGradPushConstants(const DataGradProblem& problem);
// The common specialization constants plus ACCUMULATE (shaders/include/conv_params.glsl).
std::vector<SpecConstant> gradSpecConstants(const ConvDesc& conv, bool accumulate);
PipelineKey gradPipelineKey(const std::string& shader, const ConvDesc& conv, bool accumulate, uint32_t workgroupSize,
                            uint32_t requiredSubgroup = 0);
// Binds the six tensors in the kernels' binding order (an absent one to a present buffer).
void bindDataGradTensors(const ContextImpl& ctx, VkCommandBuffer cmd, const ComputePipeline& p,
                         const DataGradTensors& t);
void bindWeightGradTensors(const ContextImpl& ctx, VkCommandBuffer cmd, const ComputePipeline& p,
                           const WeightGradTensors& t);

#define VKCONV_DECLARE_DGRAD(prefix)                                                                                  \
    std::string prefix##WhyNot(const ContextImpl&, const DataGradProblem&, const PlanOptions&);                       \
    std::unique_ptr<AlgorithmInstance> prefix##Instantiate(ContextImpl&, const DataGradProblem&, const PlanOptions&); \
    std::vector<std::pair<DataGradProblem, PlanOptions>> prefix##Variants(const ContextImpl&);
#define VKCONV_DECLARE_WGRAD(prefix)                                                               \
    std::string prefix##WhyNot(const ContextImpl&, const WeightGradProblem&, const PlanOptions&);  \
    std::unique_ptr<AlgorithmInstance> prefix##Instantiate(ContextImpl&, const WeightGradProblem&, \
                                                           const PlanOptions&);                    \
    std::vector<std::pair<WeightGradProblem, PlanOptions>> prefix##Variants(const ContextImpl&);

VKCONV_DECLARE_DGRAD(dgradDirect)  // dgrad_direct
VKCONV_DECLARE_WGRAD(wgradDirect)  // wgrad_direct

// Backward-data: stride phases on a tiled GEMM (dgrad_implicit_gemm), stride 1 on a forward kernel (dgrad_forward).
VKCONV_DECLARE_DGRAD(dgradImplicitGemm)
VKCONV_DECLARE_DGRAD(dgradForward)
VKCONV_DECLARE_DGRAD(dgradPhases)  // dgrad_phases: every stride, a forward kernel per stride phase

// Backward-weight: a split implicit GEMM per group (wgrad_implicit_gemm), depthwise lane sums (wgrad_depthwise).
VKCONV_DECLARE_WGRAD(wgradImplicitGemm)
VKCONV_DECLARE_WGRAD(wgradDepthwise)
VKCONV_DECLARE_WGRAD(wgradCoopmat)  // wgrad_coopmat: the implicit GEMM on the matrix units (fp16, bf16)
#undef VKCONV_DECLARE_DGRAD
#undef VKCONV_DECLARE_WGRAD
// The forward algorithm dgrad_forward would run (the forward router's pick), "" where it declines.
std::string dgradForwardInnerRoute(const ContextImpl& ctx, const DataGradProblem& p, const PlanOptions& o);
// The forward algorithms dgrad_phases would run on its phases ("a/b"), "" where it declines.
std::string dgradPhasesInnerRoutes(const ContextImpl& ctx, const DataGradProblem& p, const PlanOptions& o);

}  // namespace vkconv
