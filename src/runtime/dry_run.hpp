// Recording without a device, for tests: an offline context (Context::createOffline) whose device
// table points at recorders that check each command against the profile's limits instead of
// sending it anywhere.  Every plan's record path (its grids, push constants and descriptor
// ranges) can then be exercised for a device that is not there (tests/test_plan_fuzz.cpp): a grid
// past maxWorkgroupCount or an empty one, a descriptor range past maxStorageBufferRange, would be a
// validation error or a silently skipped pass on the card.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/context_impl.hpp"

namespace vkconv {

struct DryRunLog {
    std::string sequence;               // 'D' per dispatch, 'B' per barrier, in recording order (cleared by the caller)
    std::vector<std::string> problems;  // each command that broke a limit, and how
};

// Lets Plan::record / recordPackFilter run on the offline context `ctx`, logging into `log`
// (which must outlive the recording; one dry-run context per thread at a time).  The command
// buffer and buffer handles passed to record are never dereferenced.
void enableDryRun(ContextImpl& ctx, DryRunLog& log);

}  // namespace vkconv
