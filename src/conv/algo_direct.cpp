// Level 0 "direct": one invocation per output element (shaders/direct.comp).  Accepts every
// valid problem; the reference for all other algorithms and the router's last resort.
#include "conv/algorithm.hpp"
#include "conv/dispatch.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kWorkgroup = 64;

class DirectInstance final : public AlgorithmInstance {
public:
    DirectInstance(ContextImpl& ctx, const ConvDesc& d, uint32_t sg)
        : ctx_(ctx), desc_(d), pc_(makePushConstants(d)), wg_(sg > kWorkgroup ? sg : kWorkgroup), sg_(sg) {
        pipeline_ = &ctx.pipelines->get(convPipelineKey(std::string("direct_") + dtypeSuffix(d.dtype), d, wg_, sg));
    }
    void record(VkCommandBuffer cmd, const ConvTensors& t) const override {
        bindConvTensors(ctx_, cmd, *pipeline_, t);
        pushConstants(ctx_, cmd, *pipeline_, pc_);
        dispatch1D(ctx_, cmd, uint64_t(desc_.outputElements()), wg_);
    }
    std::string name() const override { return "direct"; }
    std::string config() const override {
        return "wg" + std::to_string(wg_) + " 1 output/invocation" +
               (sg_ ? " sg" + std::to_string(sg_) : std::string());
    }

private:
    ContextImpl& ctx_;
    ConvDesc desc_;
    ConvPushConstants pc_;
    uint32_t wg_, sg_;
    const ComputePipeline* pipeline_;
};

}  // namespace

std::string directWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions& o) {
    return o.tile.empty() ? "" : "direct has no tile configurations";
}

std::unique_ptr<AlgorithmInstance> directInstantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return std::make_unique<DirectInstance>(ctx, d, o.subgroupSize);
}

std::vector<std::pair<ConvDesc, PlanOptions>> directVariants(const ContextImpl&) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    for (DType t : {DType::F32, DType::F16, DType::BF16}) {
        ConvDesc d;
        d.c = 64;
        d.h = d.w = 56;
        d.k = 64;
        d.r = d.s = 3;
        d.pad(1, 1);
        d.dtype = t;
        v.push_back({d, PlanOptions{"direct"}});
    }
    return v;
}

}  // namespace vkconv
