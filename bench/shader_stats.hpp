// vkconv-bench shader-stats: the compile lab (see shader_stats.cpp).
#pragma once
#include "common.hpp"
#include "vkconv/context.hpp"

namespace vkbench {

// Prints the statistics table (and writes --json / --isa); returns the exit code: 1 when a
// pipeline failed to build or spills registers.
int runShaderStats(vkconv::Context& ctx, const Options& opts);

}  // namespace vkbench
