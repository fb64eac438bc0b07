// Path overrides for the library's own tests.  lavapipe has one vendor's caps, but the kernels
// carry paths that only other devices take (NVIDIA's two-slice-ahead staging, the emulated matrix
// units, the fallbacks for small shared memory); the tests reach them through one variable,
// VKCONV_TEST_HOOKS, a comma-separated list of `name` or `name=value`.  Not a user option: an
// application never sets it, and nothing in it changes a result, only which correct path runs.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace vkconv {

// The hook's value: nullopt where the list does not name it, "" for a bare `name`.
std::optional<std::string> testHookValue(std::string_view name);

// A boolean hook: nullopt where unnamed; "0" is false, a bare name or any other value true.
std::optional<bool> testHook(std::string_view name);

// testHook(name), or `fallback` where the list does not name it.
inline bool testHookOr(std::string_view name, bool fallback) { return testHook(name).value_or(fallback); }

}  // namespace vkconv
