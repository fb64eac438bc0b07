// The router: what "auto" runs, chosen without timing (router.cpp), and the record of how it
// chose, which Plan::explain() returns.
#pragma once
#include <string>
#include <vector>

#include "conv/algorithm.hpp"

namespace vkconv {

struct RouteStep {
    std::string algorithm;  // what the rule picks
    std::string rule;       // why it would
    std::string outcome;    // "chosen", "does not apply", or "applies, but <algorithm> declines: ..."
};

struct Route {
    const Algorithm* algorithm = nullptr;
    std::vector<RouteStep> steps;  // every rule consulted, in order; the last one chose
};

Route route(const ContextImpl& ctx, const ConvDesc& desc, const PlanOptions& opts);
// The same without moving the activations to another layout (what runs behind coopmat_nhwc's
// transposes).
Route routeInLayout(const ContextImpl& ctx, const ConvDesc& desc, const PlanOptions& opts);

inline const Algorithm& chooseAlgorithm(const ContextImpl& ctx, const ConvDesc& desc, const PlanOptions& opts) {
    return *route(ctx, desc, opts).algorithm;
}
inline const Algorithm& chooseInLayout(const ContextImpl& ctx, const ConvDesc& desc, const PlanOptions& opts) {
    return *routeInLayout(ctx, desc, opts).algorithm;
}

}  // namespace vkconv
