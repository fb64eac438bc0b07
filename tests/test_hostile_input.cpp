// Misuse and hostile files: each case asserts a named vkconv::Error, or a repaired file and a
// correct result -- never a crash, a hang or a silently wrong answer.  Host-side cases run in the
// sanitizer build too ("Hostile.*"); HostileDevice.* run kernels.
#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <future>
#include <thread>

#include "environment.hpp"
#include "harness.hpp"

namespace {

std::vector<std::filesystem::path> filesStartingWith(const std::filesystem::path& dir, const std::string& prefix) {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path());
    return out;
}

// Runs f on another thread and fails the test (then ends the process: the thread is stuck) if it
// does not return within `limit`: a hang must be a test failure, not a CI timeout.
template <class F>
void withinSeconds(int limit, F f) {
    auto done = std::async(std::launch::async, f);
    if (done.wait_for(std::chrono::seconds(limit)) != std::future_status::ready) {
        ADD_FAILURE() << "did not return within " << limit << " s";
        std::fflush(nullptr);
        std::quick_exit(1);
    }
    done.get();
}

long maxRssKiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

template <class F>
vkconv::ErrorCode errorOf(F f) {
    try {
        f();
    } catch (const vkconv::Error& e) {
        return e.code();
    }
    ADD_FAILURE() << "no vkconv::Error";
    return vkconv::ErrorCode::InvalidArgument;
}

// A context of its own on the test device with its caches in `dir`.
vkconv::Context contextIn(const std::filesystem::path& dir) {
    vkconv::ContextCreateInfo info = vkt::testContextInfo();
    info.pipelineCacheDir = dir.string();
    return vkconv::Context::create(info);
}

// findPlan on one algorithm, quickly: the database is what these tests look at.
vkconv::Plan quickFind(vkconv::Context& c, const vkconv::ConvDesc& d) {
    vkconv::PlanOptions po;
    po.algorithm = "direct";
    vkconv::FindOptions fo;
    fo.warmupMs = 0;
    fo.rounds = 1;
    fo.variants = false;
    return vkconv::findPlan(c, d, po, fo);
}

vkconv::ConvDesc smallDesc() {
    vkconv::ConvDesc d;
    d.n = 1; d.c = 8; d.h = d.w = 6; d.k = 8; d.r = d.s = 3; d.pad(1, 1);
    return d;
}

}  // namespace

TEST(Hostile, DeviceIndexOfAnyLengthIsNamedError) {
    for (const char* sel : {"99999999999999999999999", "18446744073709551616", "4294967296"}) {
        vkconv::ContextCreateInfo info;
        info.device = sel;
        EXPECT_EQ(errorOf([&] { vkconv::Context::create(info); }), vkconv::ErrorCode::NoDevice) << sel;
    }
    vkt::EnvOverride env("VKCONV_DEVICE", "000000000000000000000000000000000000");
    vkconv::ContextCreateInfo info = vkt::testContextInfo();
    EXPECT_NO_THROW(vkconv::Context::create(info));  // index 0, however many zeros
}

TEST(Hostile, TimeoutVariableIsParsedStrictly) {
    for (const char* bad : {"abc", "0", "-1", "1.5", "18446744074", "99999999999999999999999", " 5", "5s"}) {
        vkt::EnvOverride env("VKCONV_TIMEOUT_S", bad);
        try {
            vkconv::Context::create(vkt::testContextInfo());
            ADD_FAILURE() << "VKCONV_TIMEOUT_S=" << bad << " accepted";
        } catch (const vkconv::Error& e) {
            EXPECT_EQ(e.code(), vkconv::ErrorCode::InvalidArgument) << bad;
            EXPECT_NE(std::string(e.what()).find("VKCONV_TIMEOUT_S"), std::string::npos) << e.what();
        }
    }
    vkt::EnvOverride env("VKCONV_TIMEOUT_S", "18446744073");
    EXPECT_NO_THROW(vkconv::Context::create(vkt::testContextInfo()));
}

TEST(Hostile, FillReachesTheLastBytes) {
    vkconv::Context& ctx = vkt::ctx();
    for (vkconv::MemoryKind kind : {vkconv::MemoryKind::DeviceLocal, vkconv::MemoryKind::HostVisible})
        for (VkDeviceSize size : {1, 2, 3, 5, 6, 7, 4099}) {
            vkconv::Buffer b = vkconv::Buffer::create(ctx, size, kind);
            std::vector<uint8_t> zeros(size, 0);
            b.upload(zeros.data(), size);
            const uint32_t word = 0xA1B2C3D4u;
            b.fill(word);
            std::vector<uint8_t> got(size);
            b.download(got.data(), size);
            uint8_t pattern[4];
            std::memcpy(pattern, &word, 4);
            for (VkDeviceSize i = 0; i < size; ++i) ASSERT_EQ(got[i], pattern[i % 4]) << "byte " << i << " of " << size;
        }
}

TEST(Hostile, MovedContextKeepsItsBuffers) {
    vkconv::Context first = vkconv::Context::create(vkt::testContextInfo());
    vkconv::Buffer b = vkconv::Buffer::create(first, 64);
    vkconv::Context moved = std::move(first);
    std::vector<uint32_t> in(16), out(16, 0);
    for (uint32_t i = 0; i < 16; ++i) in[i] = i * 2654435761u;
    b.upload(in.data(), 64);
    b.download(out.data(), 64);
    EXPECT_EQ(in, out);
    vkconv::Context again = vkconv::Context::create(vkt::testContextInfo());
    again = std::move(moved);  // the buffer's context now lives in `again`
    b.fill(7);
    b.download(out.data(), 64);
    EXPECT_EQ(out, std::vector<uint32_t>(16, 7u));
    b = vkconv::Buffer();  // buffers go before their context
}

// A pipeline cache whose header claims 2 GiB of data must be rejected from the file's real
// length, not after allocating what the header says.
TEST(Hostile, PipelineCacheSizeFieldIsCheckedAgainstTheFile) {
    vkt::TempDir dir;
    { contextIn(dir.path).savePipelineCache(); }
    auto files = filesStartingWith(dir.path, "pipelines-");
    ASSERT_EQ(files.size(), 1u);
    std::fstream f(files[0], std::ios::in | std::ios::out | std::ios::binary);
    // The header: magic[8], format, vendor, device, driver (4 x u32), uuid[16], then dataSize (u64).
    f.seekp(8 + 16 + 16);
    const uint64_t huge = (uint64_t(1) << 31) - 1;
    f.write(reinterpret_cast<const char*>(&huge), 8);
    f.close();
    const long before = maxRssKiB();
    const auto t0 = std::chrono::steady_clock::now();
    { contextIn(dir.path); }
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30));
    EXPECT_LT(maxRssKiB() - before, 512 * 1024) << "KiB of peak RSS growth";
}

// A FIFO (or a directory) where vkconv keeps a file: refused by name, never a blocked open().
TEST(Hostile, NonRegularCacheFilesAreIgnored) {
    vkt::TempDir dir;
    {
        vkconv::Context c = contextIn(dir.path);
        c.savePipelineCache();
        quickFind(c, smallDesc());
    }
    auto caches = filesStartingWith(dir.path, "pipelines-");
    auto finds = filesStartingWith(dir.path, "find-");
    ASSERT_EQ(caches.size(), 1u);
    ASSERT_EQ(finds.size(), 1u);
    for (bool fifo : {true, false}) {
        for (const auto& p : {caches[0], finds[0]}) {
            std::filesystem::remove_all(p);
            if (fifo) ASSERT_EQ(mkfifo(p.c_str(), 0600), 0);
            else std::filesystem::create_directory(p);
        }
        withinSeconds(120, [&] {
            vkconv::Context c = contextIn(dir.path);
            EXPECT_NO_THROW(quickFind(c, smallDesc()));
        });
    }
}

// A submission that outlives VKCONV_TIMEOUT_S raises Error(Timeout) and leaves the context usable:
// vkconv keeps what the GPU still runs, the next call queues behind it, and destroying the
// context waits for it.  A direct convolution of ~2.4 GFLOP takes several seconds on lavapipe.
TEST(HostileDevice, TimeoutLeavesTheContextUsable) {
    vkt::EnvOverride env("VKCONV_TIMEOUT_S", "1");
    vkconv::Context c = vkconv::Context::create(vkt::testContextInfo());
    vkconv::ConvDesc d;
    d.n = 2; d.c = 128; d.h = d.w = 64; d.k = 128; d.r = d.s = 3; d.pad(1, 1);
    vkconv::PlanOptions po;
    po.algorithm = "direct";
    vkconv::Plan plan = vkconv::Plan::create(c, d, po);
    vkconv::Buffer x = vkconv::Buffer::create(c, VkDeviceSize(d.inputBytes()));
    vkconv::Buffer w = vkconv::Buffer::create(c, VkDeviceSize(d.filterBytes()));
    vkconv::Buffer y = vkconv::Buffer::create(c, VkDeviceSize(d.outputBytes()));
    const uint32_t one = 0x3f800000u;  // 1.0f: every output is C*R*S minus the padded taps
    x.fill(one);
    w.fill(one);
    vkconv::ConvTensors t;
    t.input = x.view();
    t.filter = w.view();
    t.output = y.view();
    const auto t0 = std::chrono::steady_clock::now();
    try {
        plan.run(t);
        GTEST_SKIP() << "the convolution finished within 1 s on this device: nothing timed out";
    } catch (const vkconv::Error& e) {
        EXPECT_EQ(e.code(), vkconv::ErrorCode::Timeout) << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
    // The download queues behind the convolution; it may time out too while that still runs.
    std::vector<float> out(size_t(d.outputElements()));
    for (int attempt = 0;; ++attempt) {
        try {
            y.download(out.data(), out.size() * sizeof(float));
            break;
        } catch (const vkconv::Error& e) {
            ASSERT_EQ(e.code(), vkconv::ErrorCode::Timeout) << e.what();
            ASSERT_LT(attempt, 600) << "the device never finished";
        }
    }
    EXPECT_EQ(out[size_t(d.w) + 1], float(d.c * 9));  // an interior pixel, NCHW: (0, 0, 1, 1)
    EXPECT_EQ(out[0], float(d.c * 4));                 // the corner pixel of channel 0
}
