// The library's (and its benchmark's and tests') way from a Context to its ContextImpl: the public
// header names only the friend, so applications see no internals.
#pragma once
#include "runtime/context_impl.hpp"
#include "vkconv/context.hpp"

namespace vkconv {

struct ContextAccess {
    static ContextImpl& impl(const Context& c) { return *c.impl_; }
};

inline ContextImpl& implOf(const Context& c) { return ContextAccess::impl(c); }

}  // namespace vkconv
