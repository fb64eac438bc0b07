// Environment switches: the VKCONV_* toggles that restore an older behaviour for a measurement
// or force a path in a test, read one way everywhere.
#pragma once
#include <optional>
#include <string>

namespace vkconv {

// Unset or empty: nullopt; "0": false; anything else: true.
std::optional<bool> envSwitch(const char* name);

// envSwitch(name), or `fallback` where it is unset or empty.
inline bool envFlag(const char* name, bool fallback = false) { return envSwitch(name).value_or(fallback); }

// The variable's value, or "" where it is unset.
std::string envString(const char* name);

}  // namespace vkconv
