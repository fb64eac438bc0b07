// "wgrad_depthwise": the weight gradient of depthwise layers (groups == C, any channel
// multiplier) (shaders/wgrad_depthwise.comp): per filter, every tap and the bias summed over the
// N x P x Q output pixels by the lanes of a workgroup, the pixels split over workgroups where the
// filters alone do not fill the GPU (fp32 partials, then shaders/wgrad_reduce.comp in a fixed
// order).
#include <algorithm>

#include "conv/dispatch.hpp"
#include "conv/gradient.hpp"
#include "conv/split_k.hpp"
#include "conv/wgrad_split.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kWorkgroup = 256;
constexpr uint32_t kMaxNhwcFilters = 32;  // NHWC: filters per workgroup (contiguous in dy)
// Every tap's sum stays in a register of each lane: up to 7x7 filters.
constexpr int64_t kMaxTaps = 49;
// Each split keeps at least this many pixels per lane; the partials are K x R x S values a split,
// small next to the pixels, so the cap is high.
constexpr uint64_t kMinItersPerSplit = 16;
constexpr uint64_t kMaxSplit = 256;

enum SpecWgradDepthwise : uint32_t {
    kSpecFilters = 101,
    kSpecR = 102,
    kSpecS = 103,
    kSpecSplitOut = 109,
};

// Filters per workgroup: 1 for NCHW dy (the lanes walk one filter's contiguous pixels), else the
// power of two up to 32 that covers K.
uint32_t filtersPerWorkgroup(const ConvDesc& d) {
    if (d.outputLayout == TensorLayout::NCHW) return 1;
    uint32_t kt = 1;
    while (kt < kMaxNhwcFilters && kt < uint64_t(d.k)) kt *= 2;
    return kt;
}

struct Choice {
    uint32_t filters = 1, split = 1;
    std::string why;
};

Choice choose(const ContextImpl& ctx, const WeightGradProblem& p, const PlanOptions& o) {
    const ConvDesc& d = p.conv;
    if (d.groups != d.c || d.groups == 1)
        return {1, 0, "not a depthwise layer (groups == C > 1; this one has groups " + std::to_string(d.groups) + ")"};
    if (d.r * d.s > kMaxTaps)
        return {1, 0,
                "filters of more than " + std::to_string(kMaxTaps) + " taps (this one " + std::to_string(d.r) + "x" +
                    std::to_string(d.s) + ") do not fit the registers"};
    SplitRequest req = parseSplitRequest(o.tile);
    if (!req.error.empty()) return {1, 0, req.error};
    if (!req.tile.empty()) return {1, 0, "wgrad_depthwise has no tiles; PlanOptions::tile takes s<splits> only"};
    if (std::string why = workgroupWhyNot(ctx, kWorkgroup, o.subgroupSize); !why.empty()) return {1, 0, why};
    Choice c;
    c.filters = filtersPerWorkgroup(d);
    const uint64_t groups = (uint64_t(d.k) + c.filters - 1) / c.filters;
    if (std::string why = gridWhyNot(ctx, groups, 1, "filter blocks", "splits"); !why.empty()) return {1, 0, why};
    const uint64_t lanes = kWorkgroup / c.filters;
    const uint64_t iters = (uint64_t(d.n) * uint64_t(d.outH()) * uint64_t(d.outW()) + lanes - 1) / lanes;
    WgradSplitLimit lim = wgradSplitLimit(ctx, d, o.workspaceLimit, ctx.caps.maxWorkgroupCount[1]);
    if (req.split) {
        uint64_t s = std::min(req.split, iters);
        if (s > 1 && s > lim.most)
            return {1, 0,
                    std::to_string(s) + " splits exceed " + lim.what +
                        (lim.most ? "; at most " + std::to_string(lim.most) : "")};
        c.split = uint32_t(s);
    } else {
        c.split = uint32_t(wgradSplitRule(ctx, groups, iters, kMinItersPerSplit, std::min(kMaxSplit, lim.most)));
    }
    return c;
}

class WgradDepthwiseInstance final : public AlgorithmInstance {
public:
    WgradDepthwiseInstance(ContextImpl& ctx, const WeightGradProblem& p, const PlanOptions& o, const Choice& c)
        : ctx_(ctx),
          problem_(p),
          pc_(makePushConstants(p.conv)),
          filters_(c.filters),
          split_(c.split),
          sg_(o.subgroupSize) {
        const ConvDesc& d = p.conv;
        pc_.splitK = split_;
        PipelineKey key =
            gradPipelineKey(std::string("wgrad_depthwise_") + dtypeSuffix(d.dtype), d, p.accumulate, kWorkgroup, sg_);
        key.spec.push_back({kSpecFilters, filters_});
        key.spec.push_back({kSpecR, uint32_t(d.r)});
        key.spec.push_back({kSpecS, uint32_t(d.s)});
        key.spec.push_back({kSpecSplitOut, split_ > 1 ? 1u : 0u});
        pipeline_ = &ctx.pipelines->get(key);
        if (split_ > 1) reduce_ = std::make_unique<WgradReduce>(ctx, p);
        gx_ = uint32_t((d.k + filters_ - 1) / filters_);
    }
    void recordWeightGrad(VkCommandBuffer cmd, const WeightGradTensors& t) const override {
        bindWeightGradTensors(ctx_, cmd, *pipeline_, t);
        pushConstants(ctx_, cmd, *pipeline_, pc_);
        cmdDispatch(ctx_, cmd, gx_, split_, 1);
        if (reduce_) reduce_->record(cmd, t, pc_);
    }
    VkDeviceSize workspaceSize() const override {
        return split_ > 1 ? VkDeviceSize(split_) * wgradSplitElements(problem_.conv) * 4 : 0;
    }
    std::string name() const override { return "wgrad_depthwise"; }
    std::string config() const override {
        return std::to_string(filters_) + " filter(s) x " + std::to_string(kWorkgroup / filters_) + " lanes" +
               (split_ > 1 ? " split " + std::to_string(split_) : " one pass") +
               (sg_ ? " sg" + std::to_string(sg_) : std::string());
    }

private:
    ContextImpl& ctx_;
    WeightGradProblem problem_;
    ConvPushConstants pc_;
    uint32_t filters_, split_, sg_;
    const ComputePipeline* pipeline_;
    std::unique_ptr<WgradReduce> reduce_;
    uint32_t gx_ = 0;
};

}  // namespace

std::string wgradDepthwiseWhyNot(const ContextImpl& ctx, const WeightGradProblem& p, const PlanOptions& o) {
    return choose(ctx, p, o).why;
}

std::unique_ptr<AlgorithmInstance> wgradDepthwiseInstantiate(ContextImpl& ctx, const WeightGradProblem& p,
                                                             const PlanOptions& o) {
    return std::make_unique<WgradDepthwiseInstance>(ctx, p, o, choose(ctx, p, o));
}

// Every dtype x filter size (3x3, 5x5, 7x7) x layouts (NCHW: one filter a workgroup; NHWC: 32)
// x (one pass, split) x subgroup size, with bias and accumulate.
std::vector<std::pair<WeightGradProblem, PlanOptions>> wgradDepthwiseVariants(const ContextImpl& ctx) {
    std::vector<std::pair<WeightGradProblem, PlanOptions>> v;
    for (DType t : {DType::F32, DType::F16, DType::BF16})
        for (int64_t size : {3, 5, 7})
            for (bool nhwc : {false, true})
                for (const char* split : {"s1", "s2"})
                    for (uint32_t sg : variantSubgroupSizes(ctx)) {
                        WeightGradProblem p;
                        p.conv.n = 2;
                        p.conv.c = p.conv.k = p.conv.groups = 64;
                        p.conv.h = p.conv.w = 28;
                        p.conv.r = p.conv.s = size;
                        p.conv.pad(size / 2, size / 2);
                        p.conv.dtype = t;
                        p.conv.hasBias = true;
                        p.accumulate = true;
                        if (nhwc) makeNhwc(p.conv);
                        PlanOptions o{"wgrad_depthwise", sg, split};
                        o.pass = ConvPass::BackwardWeight;
                        o.accumulate = true;
                        v.push_back({p, o});
                    }
    return v;
}

}  // namespace vkconv
