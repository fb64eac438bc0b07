// Misuse and hostile files: each case asserts a named vkconv::Error, or a repaired file and a
// correct result -- never a crash, a hang or a silently wrong answer.  Host-side cases run in the
// sanitizer build too ("Hostile.*"); HostileDevice.* run kernels.
#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <future>
#include <optional>
#include <random>
#include <sstream>
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
    d.n = 1;
    d.c = 8;
    d.h = d.w = 6;
    d.k = 8;
    d.r = d.s = 3;
    d.pad(1, 1);
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
            if (fifo)
                ASSERT_EQ(mkfifo(p.c_str(), 0600), 0);
            else
                std::filesystem::create_directory(p);
        }
        withinSeconds(120, [&] {
            vkconv::Context c = contextIn(dir.path);
            EXPECT_NO_THROW(quickFind(c, smallDesc()));
        });
    }
}

// A submission that outlives VKCONV_TIMEOUT_S raises Error(Timeout) and leaves the context usable:
// vkconv keeps what the GPU still runs, the next call queues behind it, and destroying the
// context waits for it.  A direct convolution of ~1.2 GFLOP takes a few seconds on lavapipe.
TEST(HostileDevice, TimeoutLeavesTheContextUsable) {
    vkt::EnvOverride env("VKCONV_TIMEOUT_S", "1");
    vkconv::Context c = vkconv::Context::create(vkt::testContextInfo());
    vkconv::ConvDesc d;
    d.n = 1;
    d.c = 128;
    d.h = d.w = 64;
    d.k = 128;
    d.r = d.s = 3;
    d.pad(1, 1);
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
    EXPECT_EQ(out[0], float(d.c * 4));                // the corner pixel of channel 0
}

// Each damaged find-database row: findPlan still plans (the problem is timed again) and the file
// is rewritten, so that the next context reads the problem from it again.
TEST(Hostile, DamagedFindDatabaseIsRepaired) {
    vkt::TempDir dir;
    {
        vkconv::Context c = contextIn(dir.path);
        quickFind(c, smallDesc());
    }
    const auto finds = filesStartingWith(dir.path, "find-");
    ASSERT_EQ(finds.size(), 1u);
    std::stringstream text;
    text << std::ifstream(finds[0]).rdbuf();
    const std::string good = text.str();
    const size_t row = good.find("\nR\t");
    ASSERT_NE(row, std::string::npos) << good;
    const size_t rowEnd = good.find('\n', row + 1);
    // The row's fields: R, options' algorithm and tile, algorithm, config, µs, workspace, router, error, end.
    auto withField = [&](size_t i, const std::string& v) {
        std::vector<std::string> f;
        std::stringstream line(good.substr(row + 1, rowEnd - row - 1));
        for (std::string x; std::getline(line, x, '\t');) f.push_back(x);
        f.at(i) = v;
        std::string joined;
        for (const auto& x : f) joined += (joined.empty() ? "" : "\t") + x;
        return good.substr(0, row + 1) + joined + good.substr(rowEnd);
    };
    const std::pair<const char*, std::string> damages[] = {
        {"unknown algorithm", withField(3, "no_such_algorithm")},
        {"unknown requested algorithm", withField(1, "no_such_algorithm")},
        {"a tile the algorithm does not have", withField(2, "999x999/9x9")},
        {"an algorithm that declines the problem", withField(1, "depthwise")},
        {"NaN time", withField(5, "nan")},
        {"negative time", withField(5, "-3.5")},
        {"an error text on a timed row", withField(8, "out of memory")},
        {"a row cut mid-line", good.substr(0, row + (rowEnd - row) / 2)},
        {"a truncated header", good.substr(0, 10)},
    };
    for (const auto& [what, damaged] : damages) {
        { std::ofstream(finds[0], std::ios::trunc) << damaged; }
        {
            vkconv::Context c = contextIn(dir.path);
            EXPECT_NO_THROW(quickFind(c, smallDesc())) << what;
        }
        vkconv::Context c = contextIn(dir.path);
        vkconv::PlanOptions po;
        po.algorithm = "direct";
        vkconv::FindOptions fo;
        fo.variants = false;
        const std::vector<vkconv::FindResult> again = vkconv::findAlgorithms(c, smallDesc(), po, fo);
        ASSERT_FALSE(again.empty()) << what;
        EXPECT_TRUE(again.front().fromDatabase) << what << ": the file was not rewritten";
        EXPECT_TRUE(again.front().error.empty()) << what;
    }
}

// Every pair of tensors of which one is written must not overlap; read-only tensors may.
TEST(Hostile, OverlapsOfWrittenTensorsAreRefused) {
    vkconv::Context& ctx = vkt::ctx();
    vkconv::ConvDesc d;
    d.n = 1;
    d.c = 64;
    d.h = d.w = 4;
    d.k = 8;
    d.r = d.s = 3;
    d.pad(1, 1);
    d.hasBias = d.hasResidual = true;
    vkconv::PlanOptions po;
    po.algorithm = "implicit_gemm_splitk";
    po.tile = "s4";
    vkconv::Plan plan = vkconv::Plan::create(ctx, d, po);
    ASSERT_GT(plan.workspaceSize(), 0u);
    const VkDeviceSize align = std::max<VkDeviceSize>(ctx.caps().minStorageBufferOffsetAlignment, 256);
    auto up = [&](VkDeviceSize v) { return (v + align - 1) / align * align; };
    const VkDeviceSize sizes[] = {VkDeviceSize(d.inputBytes()),  VkDeviceSize(d.filterBytes()),
                                  VkDeviceSize(d.biasBytes()),   VkDeviceSize(d.outputBytes()),
                                  VkDeviceSize(d.outputBytes()), plan.workspaceSize()};
    VkDeviceSize offsets[6], total = 0;
    for (int i = 0; i < 6; ++i) offsets[i] = total, total += up(sizes[i]);
    vkconv::Buffer b = vkconv::Buffer::create(ctx, total);
    auto tensors = [&] {
        vkconv::ConvTensors t;
        vkconv::BufferView* v[] = {&t.input, &t.filter, &t.bias, &t.residual, &t.output, &t.workspace};
        for (int i = 0; i < 6; ++i) *v[i] = b.view(offsets[i], sizes[i]);
        return t;
    };
    EXPECT_NO_THROW(plan.run(tensors()));
    const char* names[] = {"input", "filter", "bias", "residual", "output", "workspace"};
    for (int written : {4, 5})
        for (int other = 0; other < 6; ++other) {
            if (other == written) continue;
            vkconv::ConvTensors t = tensors();
            vkconv::BufferView* v[] = {&t.input, &t.filter, &t.bias, &t.residual, &t.output, &t.workspace};
            v[written]->offset = v[other]->offset;  // aligned, and both fit: only the overlap is wrong
            if (offsets[other] + sizes[written] > total) continue;
            try {
                plan.run(t);
                ADD_FAILURE() << names[written] << " over " << names[other] << " accepted";
            } catch (const vkconv::Error& e) {
                EXPECT_EQ(e.code(), vkconv::ErrorCode::InvalidArgument) << e.what();
                EXPECT_NE(std::string(e.what()).find("overlaps"), std::string::npos) << e.what();
            }
        }
    vkconv::ConvTensors shared = tensors();
    shared.filter.offset = shared.input.offset;  // two read-only tensors may share memory
    shared.filter.size = shared.input.size = std::max(sizes[0], sizes[1]);
    EXPECT_NO_THROW(plan.run(shared));
}

TEST(Hostile, CheapRecordingChecks) {
    vkconv::Context& ctx = vkt::ctx();
    const vkconv::ConvDesc d = smallDesc();
    vkconv::Plan plan = vkconv::Plan::create(ctx, d);
    vkconv::Buffer x = vkconv::Buffer::create(ctx, VkDeviceSize(d.inputBytes()));
    vkconv::Buffer w = vkconv::Buffer::create(ctx, VkDeviceSize(d.filterBytes()));
    vkconv::Buffer y = vkconv::Buffer::create(ctx, VkDeviceSize(d.outputBytes()));
    vkconv::ConvTensors t;
    t.input = x.view();
    t.filter = w.view();
    t.output = y.view();
    EXPECT_EQ(errorOf([&] { plan.record(VK_NULL_HANDLE, t); }), vkconv::ErrorCode::InvalidArgument);
    for (VkDeviceSize offset : {~VkDeviceSize(0) - 16, ~VkDeviceSize(0) - VkDeviceSize(d.inputBytes()) + 1}) {
        vkconv::ConvTensors bad = t;
        bad.input.offset = offset;
        EXPECT_EQ(errorOf([&] { plan.run(bad); }), vkconv::ErrorCode::InvalidArgument) << offset;
    }
    if (plan.workspaceSize() == 0) {
        vkconv::ConvTensors extra = t;
        extra.workspace = x.view();
        try {
            plan.run(extra);
            ADD_FAILURE() << "a workspace for a plan that needs none was accepted";
        } catch (const vkconv::Error& e) {
            EXPECT_NE(std::string(e.what()).find("needs none"), std::string::npos) << e.what();
        }
    }
}

TEST(Hostile, MovedContextKeepsItsPlans) {
    vkconv::Context first = vkconv::Context::create(vkt::testContextInfo());
    const vkconv::ConvDesc d = smallDesc();
    std::optional<vkconv::Plan> plan(vkconv::Plan::create(first, d));
    vkconv::Context moved = std::move(first);
    vkconv::Buffer x = vkconv::Buffer::create(moved, VkDeviceSize(d.inputBytes()));
    vkconv::Buffer w = vkconv::Buffer::create(moved, VkDeviceSize(d.filterBytes()));
    vkconv::Buffer y = vkconv::Buffer::create(moved, VkDeviceSize(d.outputBytes()));
    x.fill(0x3f800000u);  // 1.0f
    w.fill(0x3f800000u);
    vkconv::ConvTensors t;
    t.input = x.view();
    t.filter = w.view();
    t.output = y.view();
    plan->run(t);
    std::vector<float> out(size_t(d.outputElements()));
    y.download(out.data(), out.size() * sizeof(float));
    EXPECT_EQ(out[size_t(d.w) + 1], float(d.c * 9));  // an interior pixel of channel 0
    x = {};
    w = {};
    y = {};  // plans and buffers go before their context
    plan.reset();
}

// Truncated and bit-flipped pipeline caches and find databases: each is ignored (or the damaged
// part dropped) and the context plans and finds as on a first run.
TEST(Hostile, TruncatedAndFlippedCacheFiles) {
    vkt::TempDir dir;
    {
        vkconv::Context c = contextIn(dir.path);
        quickFind(c, smallDesc());
        c.savePipelineCache();
    }
    std::vector<std::pair<std::filesystem::path, std::string>> originals;
    for (const char* prefix : {"pipelines-", "find-"}) {
        const auto files = filesStartingWith(dir.path, prefix);
        ASSERT_EQ(files.size(), 1u) << prefix;
        std::stringstream text;
        text << std::ifstream(files[0], std::ios::binary).rdbuf();
        originals.push_back({files[0], text.str()});
    }
    std::mt19937_64 rng(20261207);
    for (int trial = 0; trial < 12; ++trial) {
        for (const auto& [path, bytes] : originals) {
            std::string damaged = bytes;
            if (trial % 2 == 0) {
                damaged.resize(size_t(rng() % (bytes.size() + 1)));  // cut anywhere, header included
            } else {
                for (int flips = 0; flips < 1 + trial; ++flips)
                    damaged[size_t(rng() % bytes.size())] ^= char(1u << (rng() % 8));
            }
            std::ofstream(path, std::ios::binary | std::ios::trunc) << damaged;
        }
        vkconv::Context c = contextIn(dir.path);
        EXPECT_NO_THROW(quickFind(c, smallDesc())) << "trial " << trial;
    }
}
