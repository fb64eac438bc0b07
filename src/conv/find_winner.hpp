// "auto" reads the find database (PlanOptions::useFindDatabase): the measured winner for a
// problem, where findAlgorithms recorded one on this device.
#pragma once
#include <optional>

#include "vkconv/conv_desc.hpp"
#include "vkconv/plan.hpp"

namespace vkconv {

struct ContextImpl;

struct FindWinner {
    PlanOptions options;  // Plan::create's options for exactly the recorded plan
    double microseconds = -1.0;
    double routerMicroseconds = -1.0;  // the router's pick in the same race (< 0: not recorded)
};

// A transposed plan's problem is `transposed` (its key names its epilogue and size); desc is its
// convDesc().
std::optional<FindWinner> findDatabaseWinner(ContextImpl& ctx, const ConvDesc& desc, const PlanOptions& options,
                                             const ConvTransposeDesc* transposed = nullptr);

}  // namespace vkconv
