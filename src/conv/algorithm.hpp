// The algorithm interface.  Each algorithm lives in its own algo_*.cpp, says why it declines a
// problem (or "" when it accepts), and instantiates a recorder bound to one ConvDesc.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "vkconv/plan.hpp"

namespace vkconv {

struct ContextImpl;
struct DataGradTensors;
struct WeightGradTensors;

class AlgorithmInstance {
public:
    virtual ~AlgorithmInstance() = default;
    // tensors were checked against the desc by Plan (sizes, alignment, presence).  Each instance
    // runs one pass and overrides that pass's record (gradient.hpp for the backward ones).
    virtual void record(VkCommandBuffer cmd, const ConvTensors& tensors) const;
    virtual void recordDataGrad(VkCommandBuffer cmd, const DataGradTensors& tensors) const;
    virtual void recordWeightGrad(VkCommandBuffer cmd, const WeightGradTensors& tensors) const;
    virtual VkDeviceSize workspaceSize() const { return 0; }
    virtual std::string name() const = 0;
    virtual std::string config() const = 0;
    virtual double roundingAmplification() const { return 1.0; }  // Plan::roundingAmplification
    virtual double operandRounding() const { return 0.0; }        // Plan::operandRounding
    // PlanOptions::packedFilter (the instance was created with it): the bytes of its own packed
    // filter and the passes that write it; 0 where it reads the filter as given (Plan's packed
    // filter is then a copy).  record() then reads tensors.filter in the packed form.
    virtual VkDeviceSize packedFilterSize() const { return 0; }
    virtual void recordPackFilter(VkCommandBuffer /*cmd*/, const BufferView& /*filter*/,
                                  const BufferView& /*packed*/) const {}
};

struct Algorithm {
    const char* name;
    const char* summary;
    // "" when the algorithm runs this problem on this device, else the reason it declines.
    std::string (*whyNot)(const ContextImpl& ctx, const ConvDesc& desc, const PlanOptions& opts);
    std::unique_ptr<AlgorithmInstance> (*instantiate)(ContextImpl& ctx, const ConvDesc& desc, const PlanOptions& opts);
    // Representative problems covering every pipeline variant this algorithm ships on this
    // device (dtype x tile x subgroup size): the compile lab builds a plan for each.
    std::vector<std::pair<ConvDesc, PlanOptions>> (*variants)(const ContextImpl& ctx);
    // PlanOptions::tile values worth timing besides the algorithm's own choice ("") where
    // findAlgorithms is asked for variants, and with `exhaustive` every tile it has; each is
    // offered to whyNot first.  nullptr: none.
    std::vector<std::string> (*tuningTiles)(bool exhaustive) = nullptr;
    // A rung of the benchmark's optimization ladder (bench/levels.py) that "auto" never picks:
    // find and a named PlanOptions::algorithm still run it.
    bool ladder = false;
};

// For the `variants` lists: 0 (the driver's choice) plus 32 and 64 where the device lets compute
// require them, and the NHWC activations / KRSC filters pairing.
std::vector<uint32_t> variantSubgroupSizes(const ContextImpl& ctx);
void makeNhwc(ConvDesc& d);

const std::vector<Algorithm>& algorithms();  // registry, in level order
const Algorithm* findAlgorithm(const std::string& name);

// Where a 16-bit NCHW layer runs (algo_implicit_gemm_nhwc.cpp): behind coopmat_nhwc's
// transposes, on plain winograd reading NCHW, on slicedk_coopmat reading NCHW (what the
// transposes would run), or as its own layout's router picks.
enum class NchwRoute { InLayout, Transposes, PlainWinograd, SlicedK };
NchwRoute nchwMatrixRoute(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o);

}  // namespace vkconv
