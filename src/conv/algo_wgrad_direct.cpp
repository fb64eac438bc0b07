// "wgrad_direct": one invocation per dw element summing over N x P x Q
// (shaders/wgrad_direct.comp), and the bias gradient by one workgroup per filter in a fixed
// reduction tree (shaders/wgrad_bias.comp), so every run gives the same bits.  Accepts every valid
// problem; the backward-weight pass's reference on the GPU and the router's last resort.
#include "conv/dispatch.hpp"
#include "conv/gradient.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kWorkgroup = 64;
constexpr uint32_t kBiasWorkgroup = 256;  // shaders/wgrad_bias.comp's reduction tree

class WgradDirectInstance final : public AlgorithmInstance {
public:
    WgradDirectInstance(ContextImpl& ctx, const WeightGradProblem& p, uint32_t sg)
        : ctx_(ctx), problem_(p), pc_(makePushConstants(p.conv)), wg_(sg > kWorkgroup ? sg : kWorkgroup), sg_(sg) {
        const std::string dt = dtypeSuffix(p.conv.dtype);
        pipeline_ = &ctx.pipelines->get(gradPipelineKey("wgrad_direct_" + dt, p.conv, p.accumulate, wg_, sg));
        if (p.conv.hasBias)
            bias_ = &ctx.pipelines->get(gradPipelineKey("wgrad_bias_" + dt, p.conv, p.accumulate, kBiasWorkgroup));
    }
    void recordWeightGrad(VkCommandBuffer cmd, const WeightGradTensors& t) const override {
        bindWeightGradTensors(ctx_, cmd, *pipeline_, t);
        pushConstants(ctx_, cmd, *pipeline_, pc_);
        dispatch1D(ctx_, cmd, uint64_t(problem_.conv.filterElements()), wg_);
        if (bias_) {
            bindWeightGradTensors(ctx_, cmd, *bias_, t);
            pushConstants(ctx_, cmd, *bias_, pc_);
            dispatch1D(ctx_, cmd, uint64_t(problem_.conv.k) * kBiasWorkgroup, kBiasWorkgroup);
        }
    }
    std::string name() const override { return "wgrad_direct"; }
    std::string config() const override {
        return "wg" + std::to_string(wg_) + " 1 dw/invocation" + (sg_ ? " sg" + std::to_string(sg_) : std::string());
    }

private:
    ContextImpl& ctx_;
    WeightGradProblem problem_;
    ConvPushConstants pc_;
    uint32_t wg_, sg_;
    const ComputePipeline* pipeline_;
    const ComputePipeline* bias_ = nullptr;
};

}  // namespace

std::string wgradDirectWhyNot(const ContextImpl&, const WeightGradProblem&, const PlanOptions& o) {
    return o.tile.empty() ? "" : "wgrad_direct has no tile configurations";
}

std::unique_ptr<AlgorithmInstance> wgradDirectInstantiate(ContextImpl& ctx, const WeightGradProblem& p,
                                                          const PlanOptions& o) {
    return std::make_unique<WgradDirectInstance>(ctx, p, o.subgroupSize);
}

std::vector<std::pair<WeightGradProblem, PlanOptions>> wgradDirectVariants(const ContextImpl&) {
    std::vector<std::pair<WeightGradProblem, PlanOptions>> v;
    for (DType t : {DType::F32, DType::F16, DType::BF16}) {
        WeightGradProblem p;
        p.conv.c = p.conv.k = 64;
        p.conv.h = p.conv.w = 56;
        p.conv.r = p.conv.s = 3;
        p.conv.pad(1, 1);
        p.conv.dtype = t;
        p.conv.hasBias = true;
        PlanOptions o{"wgrad_direct"};
        o.pass = ConvPass::BackwardWeight;
        v.push_back({p, o});
    }
    return v;
}

}  // namespace vkconv
