// The algorithm registry and the router.
#include "conv/algorithm.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

std::string directWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> directInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::vector<std::pair<ConvDesc, PlanOptions>> directVariants(const ContextImpl&);

const std::vector<Algorithm>& algorithms() {
    static const std::vector<Algorithm> registry = {
        {"direct", "one invocation per output element; every problem (reference)", directWhyNot, directInstantiate, directVariants},
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
    for (const char* name : {"direct"}) {
        const Algorithm* a = findAlgorithm(name);
        if (a && a->whyNot(ctx, desc, opts).empty()) return *a;
    }
    return *findAlgorithm("direct");
}

}  // namespace vkconv
