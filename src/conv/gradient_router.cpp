// The backward passes' routers: "auto"'s choice, read top to bottom as the forward router is
// (router.cpp).  The first rule that applies and whose algorithm accepts the problem wins.
#include <algorithm>

#include "conv/gradient.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

template <class Problem>
class GradChain {
public:
    using Finder = const GradAlgorithm<Problem>* (*)(const std::string&);
    GradChain(const ContextImpl& ctx, const Problem& p, const PlanOptions& o, GradRoute& r, Finder find)
        : ctx_(ctx), p_(p), o_(o), r_(r), find_(find) {}

    bool take(const char* name, const char* why, bool applies) {
        RouteStep s{name, why, "does not apply"};
        const GradAlgorithm<Problem>* a = find_(name);
        if (applies && a) {
            const std::string no = a->whyNot(ctx_, p_, o_);
            s.outcome = no.empty() ? "chosen" : "applies, but " + std::string(name) + " declines: " + no;
            if (no.empty()) r_.algorithm = name;
        }
        r_.steps.push_back(std::move(s));
        return !r_.algorithm.empty();
    }

private:
    const ContextImpl& ctx_;
    const Problem& p_;
    const PlanOptions& o_;
    GradRoute& r_;
    Finder find_;
};

}  // namespace

GradRoute routeDataGrad(const ContextImpl& ctx, const DataGradProblem& p, const PlanOptions& o) {
    GradRoute r;
    GradChain<DataGradProblem> c(ctx, p, o, r, findDataGradAlgorithm);
    const std::string inner = dgradForwardInnerRoute(ctx, p, o);
    const std::string forwardWhy =
        "stride 1: dy (*) the flipped filter is a forward convolution, on the forward router's " +
        (inner.empty() ? std::string("kernel") : inner) + " (where not plain direct)";
    // dgrad_phases where every phase runs on a GEMM kernel (the scalar or matrix-unit implicit
    // GEMMs, winograd): a direct or depthwise phase kernel would not repay the scatter pass.
    const bool strided = p.conv.strideH > 1 || p.conv.strideW > 1;
    const std::string phases = strided ? dgradPhasesInnerRoutes(ctx, p, o) : "";
    const std::string phasesWhy = "stride > 1: each stride phase is a forward convolution of dy, on " +
                                  (phases.empty() ? std::string("the forward router's kernels") : phases) +
                                  " (where all are GEMM kernels), then a scatter pass";
    bool phasesGemm = !phases.empty();
    for (size_t at = 0; phasesGemm && at < phases.size();) {
        const size_t end = std::min(phases.find('/', at), phases.size());
        const std::string name = phases.substr(at, end - at);
        phasesGemm = name.rfind("direct", 0) != 0 && name.rfind("depthwise", 0) != 0 && name != "gemv";
        at = end + 1;
    }
    const bool gemm = p.conv.channelsPerGroup() >= 8 && p.conv.filtersPerGroup() >= 8;
    // clang-format off
    if (c.take("dgrad_forward", forwardWhy.c_str(), !inner.empty() && inner != "direct")) return r;
    if (c.take("dgrad_phases", phasesWhy.c_str(), phasesGemm)) return r;
    if (c.take("dgrad_implicit_gemm", "8+ channels and 8+ filters per group: each stride phase's GEMM fills a tile", gemm)) return r;
    if (c.take("dgrad_direct", "every problem", true)) return r;
    // clang-format on
    r.algorithm = "dgrad_direct";
    return r;
}

GradRoute routeWeightGrad(const ContextImpl& ctx, const WeightGradProblem& p, const PlanOptions& o) {
    GradRoute r;
    GradChain<WeightGradProblem> c(ctx, p, o, r, findWeightGradAlgorithm);
    // clang-format off
    if (c.take("wgrad_depthwise", "depthwise (groups == C): a filter's taps share each dy read", p.conv.groups == p.conv.c && p.conv.groups > 1)) return r;
    if (c.take("wgrad_coopmat", "fp16 / bf16 with a GEMM of one fragment or more per group: the matrix units", p.conv.dtype != DType::F32)) return r;
    if (c.take("wgrad_implicit_gemm", "GEMM-shaped (>= 4 filters per group), or N x P x Q >= 256: a split reduction beats one serial sum per dw element", p.conv.filtersPerGroup() >= 4 || p.conv.n * p.conv.outH() * p.conv.outW() >= 256)) return r;
    if (c.take("wgrad_direct", "every problem", true)) return r;
    // clang-format on
    r.algorithm = "wgrad_direct";
    return r;
}

}  // namespace vkconv
