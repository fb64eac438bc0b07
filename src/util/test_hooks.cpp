#include "util/test_hooks.hpp"

#include <cstdlib>

namespace vkconv {

// Read on every call, not cached: a test may set the variable for one plan and restore it.
std::optional<std::string> testHookValue(std::string_view name) {
    const char* env = std::getenv("VKCONV_TEST_HOOKS");
    if (!env) return std::nullopt;
    std::string_view list(env);
    while (!list.empty()) {
        const size_t comma = list.find(',');
        std::string_view item = list.substr(0, comma);
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        const size_t eq = item.find('=');
        if (item.substr(0, eq) != name) continue;
        return eq == std::string_view::npos ? std::string() : std::string(item.substr(eq + 1));
    }
    return std::nullopt;
}

std::optional<bool> testHook(std::string_view name) {
    const std::optional<std::string> v = testHookValue(name);
    if (!v) return std::nullopt;
    return *v != "0";
}

}  // namespace vkconv
