#include "environment.hpp"

#include <vulkan/vulkan_core.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>

namespace vkt {
namespace {

std::mutex g_mutex;
std::vector<std::string> g_messages;  // every validation message of every test context
std::optional<vkconv::Context> g_ctx;

class Environment : public ::testing::Environment {
public:
    void SetUp() override {
        // Without the layer (e.g. a GPU box without the SDK) the tests still run, unchecked,
        // and say so loudly; VKCONV_REQUIRE_VALIDATION=1 makes that a failure instead.
        const bool layer = validationLayerAvailable();
        if (!layer) {
            const char* req = std::getenv("VKCONV_REQUIRE_VALIDATION");
            if (req && std::string(req) == "1") FAIL() << "VK_LAYER_KHRONOS_validation is not installed";
            std::cout << "[vkconv] WARNING: VK_LAYER_KHRONOS_validation is not installed: running WITHOUT validation"
                      << std::endl;
        }
        try {
            auto info = testContextInfo();
            info.enableValidation = layer;
            g_ctx.emplace(vkconv::Context::create(info));
        } catch (const vkconv::Error& e) {
            FAIL() << "cannot create the shared vkconv::Context: " << e.what();
        }
        const auto& c = g_ctx->caps();
        std::cout << "[vkconv] device: " << c.deviceName << " (" << c.driverName << ", " << c.driverInfo << ")\n"
                  << "[vkconv] subgroup size " << c.subgroupSize << " [" << c.minSubgroupSize << ".."
                  << c.maxSubgroupSize << "], maxStorageBufferRange " << c.maxStorageBufferRange << "\n"
                  << "[vkconv] validation: "
                  << (layer ? "on (VK_LAYER_KHRONOS_validation)" : "OFF (layer not installed)")
                  << "\n[vkconv] algorithms:";
        for (const auto& a : vkconv::algorithmNames()) std::cout << ' ' << a;
        std::cout << std::endl;
    }
    void TearDown() override {
        // Leaks are reported by the layer when the device is destroyed, after the last test.
        const uint64_t before = validationCount();
        g_ctx.reset();
        const auto late = validationMessagesSince(before);
        for (const auto& m : late) ADD_FAILURE() << "validation message while destroying the shared context: " << m;
    }
};

[[maybe_unused]] ::testing::Environment* const g_env = ::testing::AddGlobalTestEnvironment(new Environment);

}  // namespace

vkconv::Context& ctx() {
    if (!g_ctx) throw std::runtime_error("the shared vkconv::Context was not created (see the environment's failure)");
    return *g_ctx;
}

uint64_t validationCount() {
    std::lock_guard lock(g_mutex);
    return g_messages.size();
}

std::vector<std::string> validationMessagesSince(uint64_t count) {
    std::lock_guard lock(g_mutex);
    if (count >= g_messages.size()) return {};
    return {g_messages.begin() + std::ptrdiff_t(count), g_messages.end()};
}

void validationCallback(const std::string& msg) {
    // Not printed here: the test during which it arrived fails and lists it.
    std::lock_guard lock(g_mutex);
    g_messages.push_back(msg);
}

bool validationLayerAvailable() {
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, nullptr) != VK_SUCCESS) return false;
    std::vector<VkLayerProperties> layers(n);
    vkEnumerateInstanceLayerProperties(&n, layers.data());
    for (const auto& l : layers)
        if (std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0) return true;
    return false;
}

vkconv::ContextCreateInfo testContextInfo() {
    vkconv::ContextCreateInfo info;
    info.enableValidation = validationLayerAvailable();
    info.onValidationMessage = validationCallback;
    return info;
}

ValidationGuard::ValidationGuard()
    : ctxBefore_(g_ctx ? g_ctx->validationMessages() : 0), ownBefore_(validationCount()) {}

void ValidationGuard::check() const {
    const uint64_t now = g_ctx ? g_ctx->validationMessages() : 0;
    const auto msgs = validationMessagesSince(ownBefore_);
    EXPECT_EQ(now, ctxBefore_) << "the validation layer reported " << (now - ctxBefore_)
                               << " message(s) during this test";
    for (size_t i = 0; i < msgs.size() && i < 5; ++i) ADD_FAILURE() << "validation message: " << msgs[i];
    if (msgs.size() > 5) ADD_FAILURE() << "... and " << msgs.size() - 5 << " more validation message(s)";
}

std::string sanitizeName(const std::string& s) {
    std::string o;
    for (char ch : s) o += (std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_');
    return o.empty() ? "_" : o;
}

}  // namespace vkt
