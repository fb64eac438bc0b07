// "dgrad_direct": one invocation per dx element (shaders/dgrad_direct.comp), over only the taps
// whose stride phase reaches it.  Accepts every valid problem; the backward-data pass's reference
// on the GPU and the router's last resort.
#include "conv/dispatch.hpp"
#include "conv/gradient.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kWorkgroup = 64;

class DgradDirectInstance final : public AlgorithmInstance {
public:
    DgradDirectInstance(ContextImpl& ctx, const DataGradProblem& p, uint32_t sg)
        : ctx_(ctx), problem_(p), pc_(dataGradPushConstants(p)), wg_(sg > kWorkgroup ? sg : kWorkgroup), sg_(sg) {
        pipeline_ = &ctx.pipelines->get(
            gradPipelineKey(std::string("dgrad_direct_") + dtypeSuffix(p.conv.dtype), p.conv, p.accumulate, wg_, sg));
    }
    void recordDataGrad(VkCommandBuffer cmd, const DataGradTensors& t) const override {
        bindDataGradTensors(ctx_, cmd, *pipeline_, t);
        pushConstants(ctx_, cmd, *pipeline_, pc_);
        dispatch1D(ctx_, cmd, uint64_t(problem_.conv.inputElements()), wg_);
    }
    std::string name() const override { return "dgrad_direct"; }
    std::string config() const override {
        return "wg" + std::to_string(wg_) + " 1 dx/invocation" + (sg_ ? " sg" + std::to_string(sg_) : std::string());
    }

private:
    ContextImpl& ctx_;
    DataGradProblem problem_;
    ConvPushConstants pc_;
    uint32_t wg_, sg_;
    const ComputePipeline* pipeline_;
};

}  // namespace

std::string dgradDirectWhyNot(const ContextImpl&, const DataGradProblem&, const PlanOptions& o) {
    return o.tile.empty() ? "" : "dgrad_direct has no tile configurations";
}

std::unique_ptr<AlgorithmInstance> dgradDirectInstantiate(ContextImpl& ctx, const DataGradProblem& p,
                                                          const PlanOptions& o) {
    return std::make_unique<DgradDirectInstance>(ctx, p, o.subgroupSize);
}

std::vector<std::pair<DataGradProblem, PlanOptions>> dgradDirectVariants(const ContextImpl&) {
    std::vector<std::pair<DataGradProblem, PlanOptions>> v;
    for (DType t : {DType::F32, DType::F16, DType::BF16}) {
        DataGradProblem p;
        p.conv.c = p.conv.k = 64;
        p.conv.h = p.conv.w = 56;
        p.conv.r = p.conv.s = 3;
        p.conv.pad(1, 1);
        p.conv.dtype = t;
        p.p = p.conv.outH(), p.q = p.conv.outW();
        PlanOptions o{"dgrad_direct"};
        o.pass = ConvPass::BackwardData;
        v.push_back({p, o});
    }
    return v;
}

}  // namespace vkconv
