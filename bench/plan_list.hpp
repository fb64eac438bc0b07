// vkconv-bench plans (--plan-only / --caps): the plans the router makes, without running them.
#pragma once
#include "common.hpp"
#include "vkconv/context.hpp"

namespace vkbench {

// One line per (layer, batch, dtype, layout, algorithm): the algorithm, its configuration and its
// workspace; --json writes them as `vkconv-plans/1` (docs/bench-json.md).  Works on an offline
// context (Context::createOffline from plans --caps FILE).  Returns 1 when a plan failed to build.
int runPlanList(vkconv::Context& ctx, const Options& opts);

}  // namespace vkbench
