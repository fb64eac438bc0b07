// The algorithm registry and the router.
#include "conv/algorithm.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

std::string directWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> directInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> directVariants(const ContextImpl&);
std::string implicitGemmWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> implicitGemmInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> implicitGemmAnalyticInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> implicitGemmVariants(const ContextImpl&);

const std::vector<Algorithm>& algorithms() {
    static const std::vector<Algorithm> registry = {
        {"direct", "one invocation per output element; every problem (reference)", directWhyNot, directInstantiate, directVariants},
        {"implicit_gemm", "tiled implicit GEMM, double-buffered shared memory, register tiles, padding masks",
         implicitGemmWhyNot, implicitGemmInstantiate, implicitGemmVariants},
        {"implicit_gemm_analytic", "implicit_gemm with per-load bounds arithmetic instead of precomputed masks",
         implicitGemmWhyNot, implicitGemmAnalyticInstantiate, nullptr},
    };
    return registry;
}

const Algorithm* findAlgorithm(const std::string& name) {
    for (auto& a : algorithms())
        if (name == a.name) return &a;
    return nullptr;
}

const Algorithm& chooseAlgorithm(const ContextImpl& ctx, const ConvDesc& desc, const PlanOptions& opts) {
    // Fast algorithms first (as they are added); direct accepts everything.
    // Depthwise and tiny-channel grouped problems waste a GEMM tile; direct serves them better.
    bool gemmShaped = desc.filtersPerGroup() >= 8 || desc.reductionLength() >= 32;
    for (const char* name : {gemmShaped ? "implicit_gemm" : "direct", "direct"}) {
        const Algorithm* a = findAlgorithm(name);
        if (a && a->whyNot(ctx, desc, opts).empty()) return *a;
    }
    return *findAlgorithm("direct");
}

}  // namespace vkconv
