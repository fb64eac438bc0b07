// One shared vkconv::Context for the whole test binary, created with the validation layer on,
// and fixtures that fail any test during which the layer reported something.
#pragma once
#include <gtest/gtest.h>
#include <vkconv/vkconv.hpp>

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace vkt {

vkconv::Context& ctx();  // the shared context (device from $VKCONV_DEVICE, validation on if installed)

// Validation messages seen by any context whose callback is validationCallback().
uint64_t validationCount();
std::vector<std::string> validationMessagesSince(uint64_t count);
void validationCallback(const std::string& msg);  // keeps it for ValidationGuard

// Whether the Khronos validation layer is installed (vkEnumerateInstanceLayerProperties).
bool validationLayerAvailable();

// ContextCreateInfo like the shared context's (validation on, messages to validationCallback).
vkconv::ContextCreateInfo testContextInfo();

// Fails the current test if ctx().validationMessages() grew between construction and check().
class ValidationGuard {
public:
    ValidationGuard();
    void check() const;

private:
    uint64_t ctxBefore_, ownBefore_;
};

class VkconvTest : public ::testing::Test {
protected:
    void SetUp() override { guard_.emplace(); }
    void TearDown() override { guard_->check(); }
    std::optional<ValidationGuard> guard_;
};

template <class T>
class VkconvParamTest : public ::testing::TestWithParam<T> {
protected:
    void SetUp() override { guard_.emplace(); }
    void TearDown() override { guard_->check(); }
    std::optional<ValidationGuard> guard_;
};

// Scoped setenv for switches the library reads when a context or plan is made
// ($VKCONV_CACHE_DIR, $VKCONV_TEST_HOOKS, ...); the old value comes back at scope end.
struct EnvOverride {
    std::string name;
    std::optional<std::string> old;
    EnvOverride(const char* n, const std::string& v) : name(n) {
        if (const char* o = std::getenv(n)) old = o;
        setenv(n, v.c_str(), 1);
    }
    ~EnvOverride() {
        if (old)
            setenv(name.c_str(), old->c_str(), 1);
        else
            unsetenv(name.c_str());
    }
    EnvOverride(const EnvOverride&) = delete;
    EnvOverride& operator=(const EnvOverride&) = delete;
};

// $VKCONV_TEST_HOOKS with `hook` ahead of the hooks the registration set (the first naming a
// hook wins), for an EnvOverride that adds one hook to the run's own.
inline std::string withTestHook(const std::string& hook) {
    const char* set = std::getenv("VKCONV_TEST_HOOKS");
    return set && *set ? hook + "," + set : hook;
}

// A fresh directory under the system's temporary one (a cache directory for a context of the
// test's own), removed with everything in it at scope end.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& prefix = "vkconv_test_") {
        static std::atomic<int> counter{0};
        path = std::filesystem::temp_directory_path() /
               (prefix + std::to_string(getpid()) + "_" + std::to_string(counter++));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

// One named problem of a test's case list (the name is the gtest parameter name's first part).
struct NamedDesc {
    std::string name;
    vkconv::ConvDesc desc;
};

// A case list: the base problem with one edit per case, in order.
inline std::vector<NamedDesc> editedCases(
    const vkconv::ConvDesc& base, std::initializer_list<std::pair<const char*, void (*)(vkconv::ConvDesc&)>> edits) {
    std::vector<NamedDesc> v;
    for (const auto& [name, edit] : edits) {
        v.push_back({name, base});
        edit(v.back().desc);
    }
    return v;
}

// NHWC activations in and out, KRSC filters: the NHWC-first configuration of the case lists.
inline void setNhwcKrsc(vkconv::ConvDesc& d) {
    d.inputLayout = d.outputLayout = vkconv::TensorLayout::NHWC;
    d.filterLayout = vkconv::FilterLayout::KRSC;
}

// Test-name-safe version of s (gtest names allow only [A-Za-z0-9_]).
std::string sanitizeName(const std::string& s);

// gtest name for a (case index, algorithm) parameter: "<case name>__<algorithm>", sanitized.
template <typename Cases>
std::string caseAlgorithmName(const Cases& cases, const std::tuple<int, std::string>& param) {
    return sanitizeName(cases[size_t(std::get<0>(param))].name + "__" + std::get<1>(param));
}

// "<case>__<tile>", "<case>__heuristic" for the empty (heuristic) tile: forced-tile test names.
template <class Cases>
std::string caseTileName(const Cases& cases, const std::tuple<int, std::string>& param) {
    const std::string& t = std::get<1>(param);
    return sanitizeName(cases[size_t(std::get<0>(param))].name + "__" + (t.empty() ? "heuristic" : t));
}

}  // namespace vkt
