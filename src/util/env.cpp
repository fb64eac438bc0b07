#include "util/env.hpp"

#include <cstdlib>

namespace vkconv {

std::optional<bool> envSwitch(const char* name) {
    const char* v = std::getenv(name);
    if (!v || !*v) return std::nullopt;
    return std::string(v) != "0";
}

std::string envString(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

}  // namespace vkconv
