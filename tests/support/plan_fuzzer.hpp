// Seeded adversarial convolution problems and the device profiles to plan them on, shared by
// the planning fuzz (test_plan_fuzz.cpp, public API) and the dry-run recording test
// (test_dry_run.cpp, internals).  Header-only: it needs nothing but vkconv's public headers.
#pragma once
#include <gtest/gtest.h>
#include <vkconv/vkconv.hpp>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace vkt {

// Problems per profile and the first seed: 600 and a fixed seed (xor `salt`, one per test), or
// VKCONV_PLAN_FUZZ_COUNT / VKCONV_PLAN_FUZZ_SEED for longer or other runs by hand.
struct FuzzRun {
    int count;
    uint64_t seed;
};
inline FuzzRun fuzzRun(uint64_t salt) {
    const char* count = std::getenv("VKCONV_PLAN_FUZZ_COUNT");
    const char* seed = std::getenv("VKCONV_PLAN_FUZZ_SEED");
    return {count ? std::atoi(count) : 600, (seed ? std::strtoull(seed, nullptr, 0) : 0x5eed0000) ^ salt};
}

// Sizes from 1 to past the 32-bit index range, pads wider than the kernel, strides and dilations
// that empty the output, groups that do and do not divide, every dtype, layout and epilogue; one
// problem in twelve has a field out of range.
class Fuzzer {
public:
    explicit Fuzzer(uint64_t seed) : g_(seed) {}

    vkconv::ConvDesc next() {
        vkconv::ConvDesc d;
        d.n = pick({1, 1, 1, 1, 2, 3, 8, 32, 257});
        d.c = channels();
        d.k = channels();
        d.h = extent();
        d.w = chance(4) ? d.h : extent();
        d.r = pick({1, 1, 1, 3, 3, 3, 5, 7, 2, 4, 11, 13, 32, 33});
        d.s = chance(3) ? d.r : pick({1, 3, 5, 7, 2, 9, 32});
        d.padTop = pad(d.r), d.padBottom = chance(3) ? d.padTop : pad(d.r);
        d.padLeft = pad(d.s), d.padRight = chance(3) ? d.padLeft : pad(d.s);
        d.strideH = pick({1, 1, 1, 2, 2, 3, 4});
        d.strideW = chance(3) ? d.strideH : pick({1, 2, 3, 5});
        d.dilationH = pick({1, 1, 1, 1, 2, 3});
        d.dilationW = chance(3) ? d.dilationH : pick({1, 2, 4});
        groups(d);
        d.dtype = pick<vkconv::DType>(
            {vkconv::DType::F32, vkconv::DType::F16, vkconv::DType::F16, vkconv::DType::BF16, vkconv::DType::BF16});
        d.inputLayout = pick<vkconv::TensorLayout>({vkconv::TensorLayout::NCHW, vkconv::TensorLayout::NHWC});
        d.outputLayout = chance(4)
                             ? pick<vkconv::TensorLayout>({vkconv::TensorLayout::NCHW, vkconv::TensorLayout::NHWC})
                             : d.inputLayout;
        d.filterLayout =
            d.inputLayout == vkconv::TensorLayout::NHWC ? vkconv::FilterLayout::KRSC : vkconv::FilterLayout::KCRS;
        if (chance(4))
            d.filterLayout = pick<vkconv::FilterLayout>({vkconv::FilterLayout::KCRS, vkconv::FilterLayout::KRSC});
        d.hasBias = chance(2);
        d.hasResidual = chance(4);
        d.activation =
            pick<vkconv::Activation>({vkconv::Activation::None, vkconv::Activation::None, vkconv::Activation::Relu,
                                      vkconv::Activation::Relu6, vkconv::Activation::Silu});
        if (chance(12)) invalidate(d);
        return d;
    }

private:
    bool chance(unsigned oneIn) { return g_() % oneIn == 0; }
    template <class T = int64_t>
    T pick(std::initializer_list<T> v) {
        return *(v.begin() + g_() % v.size());
    }
    int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(g_() % uint64_t(hi - lo + 1)); }
    int64_t channels() {
        switch (g_() % 8) {
            case 0: return range(1, 8);
            case 1: return range(9, 100);
            case 2: return 8 * range(1, 64);
            case 3: return pick({3, 5, 7, 13, 17, 31, 33, 63, 65, 127, 129, 255});
            case 4: return pick({16, 32, 64, 96, 128, 192, 256, 320, 384, 512, 960, 1024, 2048});
            case 5: return pick({4096, 8192, 65536});
            case 6: return 16 * range(1, 32);
            default:
                return chance(8) ? pick<int64_t>({int64_t(1) << 20, int64_t(1) << 31, int64_t(3) << 30})
                                 : range(1, 600);
        }
    }
    int64_t extent() {
        switch (g_() % 6) {
            case 0: return range(1, 6);
            case 1: return range(7, 64);
            case 2: return pick({7, 14, 28, 56, 112, 224, 19, 38, 75, 150});
            case 3: return range(65, 520);
            case 4: return pick({1023, 1024, 2049, 4096});
            default:
                return chance(6) ? pick<int64_t>({int64_t(1) << 16, int64_t(1) << 20, int64_t(1) << 31})
                                 : range(1, 128);
        }
    }
    int64_t pad(int64_t r) { return chance(10) ? range(r, 3 * r + 4) : range(0, r / 2 + (chance(4) ? 1 : 0)); }
    void groups(vkconv::ConvDesc& d) {
        switch (g_() % 6) {
            case 0:  // depthwise, sometimes with a channel multiplier
                d.groups = d.c;
                d.k = d.c * pick({1, 1, 1, 2, 4});
                break;
            case 1: {  // a divisor of both
                int64_t gcd = std::gcd(d.c, d.k), g = 1;
                for (int tries = 0; tries < 4; ++tries) {
                    int64_t t = range(1, std::min<int64_t>(gcd, 64));
                    if (gcd % t == 0) g = t;
                }
                d.groups = g;
                break;
            }
            case 2: d.groups = chance(2) ? range(2, 9) : 1; break;  // often does not divide: an error to name
            default: d.groups = 1;
        }
    }
    // One field out of range (zero, negative, or past what any index can hold).
    void invalidate(vkconv::ConvDesc& d) {
        int64_t bad = pick<int64_t>({0, -1, -7, int64_t(1) << 40, INT64_MAX});
        switch (g_() % 9) {
            case 0: d.n = bad; break;
            case 1: d.c = bad; break;
            case 2: d.h = bad; break;
            case 3: d.k = bad; break;
            case 4: d.r = bad; break;
            case 5: d.strideW = bad; break;
            case 6: d.dilationH = bad; break;
            case 7: d.padLeft = bad; break;
            default: d.groups = bad;
        }
    }
    std::mt19937_64 g_;
};

struct Profile {
    std::string name;
    vkconv::Context ctx;
};

// `live` with every limit the routers read at Vulkan 1.3's required minimum (16 KiB of shared
// memory, 128 invocations of at most 128 x 128 x 64, 65535 groups a dimension, 2^27-byte
// buffers, 128 bytes of push constants), no CU count, and none of the optional features.
inline vkconv::DeviceCaps minimumDevice(const vkconv::DeviceCaps& live) {
    vkconv::DeviceCaps c = vkconv::DeviceCaps::fromJson(live.toJson());
    c.deviceName = "a Vulkan 1.3 device at the required minimum limits";
    c.maxSharedMemory = 16384;
    c.maxWorkgroupInvocations = 128;
    c.maxWorkgroupSize[0] = c.maxWorkgroupSize[1] = 128, c.maxWorkgroupSize[2] = 64;
    c.maxWorkgroupCount[0] = c.maxWorkgroupCount[1] = c.maxWorkgroupCount[2] = 65535;
    c.maxStorageBufferRange = 1u << 27;
    c.maxPushConstantsSize = 128;
    c.computeUnits = 0;
    c.shaderFloat16 = c.storageBuffer16BitAccess = c.cooperativeMatrix = c.bfloat16CooperativeMatrix = false;
    c.coopMatConfigs.clear();
    return c;
}

// The offline contexts the fuzz plans on: this device's caps (planned as the device would), the
// same at the minimum limits, and the recorded profiles: NVIDIA H200; RADV's null devices for
// RDNA1, RDNA3 and RDNA4 (bench/profiles/).
inline std::vector<Profile> profiles(const vkconv::DeviceCaps& live) {
    std::vector<Profile> v;
    v.push_back({"this device (" + live.deviceName + ")",
                 vkconv::Context::createOffline(vkconv::DeviceCaps::fromJson(live.toJson()))});
    v.push_back({"minimum limits", vkconv::Context::createOffline(minimumDevice(live))});
    for (const char* f : {"nvidia_h200", "radv_null_navi10", "radv_null_navi31", "radv_null_gfx1201"}) {
        std::ifstream in(std::string(VKCONV_PROFILES_DIR) + "/" + f + ".json");
        std::stringstream text;
        text << in.rdbuf();
        EXPECT_FALSE(text.str().empty()) << "profile " << f << " is missing";
        if (text.str().empty()) continue;
        v.push_back({f, vkconv::Context::createOffline(vkconv::DeviceCaps::fromJson(text.str()))});
    }
    return v;
}

}  // namespace vkt
