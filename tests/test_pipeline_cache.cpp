// The on-disk pipeline cache: written by one context, read by the next; a corrupted, truncated
// or foreign file is ignored (never handed to the driver as if it were valid) and never crashes.

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "environment.hpp"
#include "harness.hpp"

using namespace vkt;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> filesIn(const fs::path& dir) {
    std::vector<fs::path> v;
    if (!fs::exists(dir)) return v;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) v.push_back(e.path());
    return v;
}

std::vector<uint8_t> readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void writeAll(const fs::path& p, const std::vector<uint8_t>& b) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

// Creates a context on `dir`, runs two convolutions (so pipelines get compiled and cached),
// checks them and that the layer stayed quiet, and destroys the context (which saves).
void useContext(const std::string& dir, bool saveExplicitly = false) {
    auto info = testContextInfo();
    info.pipelineCacheDir = dir;
    auto c = vkconv::Context::create(info);
    vkconv::ConvDesc d;
    d.c = 4, d.h = 6, d.w = 6, d.k = 4, d.r = d.s = 3;
    d.pad(1, 1);
    EXPECT_TRUE(passed(runAndCheck(c, d, {}, 1)));
    d.dtype = vkconv::DType::F16;
    d.r = d.s = 1, d.pad(0, 0);
    const auto r = runAndCheck(c, d, {}, 2);
    if (r.errorCode != vkconv::ErrorCode::Unsupported) {
        EXPECT_TRUE(passed(r));
    }
    if (saveExplicitly) c.savePipelineCache();
    EXPECT_EQ(c.validationMessages(), 0u);
}

}  // namespace

class PipelineCache : public VkconvTest {};

TEST_F(PipelineCache, FirstContextWritesSecondReads) {
    TempDir dir("vkconv_cache_test_");
    useContext(dir.path.string());
    const auto files = filesIn(dir.path);
    ASSERT_FALSE(files.empty()) << "no cache file written under " << dir.path;
    const auto first = readAll(files[0]);
    EXPECT_GT(first.size(), 0u);
    useContext(dir.path.string());  // loads it (no way to observe a hit through the API)
    const auto again = filesIn(dir.path);
    ASSERT_FALSE(again.empty());
    EXPECT_GT(readAll(again[0]).size(), 0u);
}

TEST_F(PipelineCache, SaveExplicitly) {
    TempDir dir("vkconv_cache_test_");
    auto info = testContextInfo();
    info.pipelineCacheDir = dir.path.string();
    auto c = vkconv::Context::create(info);
    vkconv::ConvDesc d;
    d.c = d.k = 3;
    EXPECT_TRUE(passed(runAndCheck(c, d, {}, 3)));
    c.savePipelineCache();
    EXPECT_FALSE(filesIn(dir.path).empty()) << "savePipelineCache() wrote nothing under " << dir.path;
}

TEST_F(PipelineCache, CorruptOrForeignFilesAreIgnored) {
    TempDir dir("vkconv_cache_test_");
    useContext(dir.path.string());
    const auto files = filesIn(dir.path);
    ASSERT_FALSE(files.empty());
    std::vector<std::vector<uint8_t>> originals;
    for (const auto& f : files) originals.push_back(readAll(f));

    std::mt19937_64 rng(5);
    auto corruptions = std::vector<std::pair<std::string, std::function<std::vector<uint8_t>(std::vector<uint8_t>)>>>{
        {"empty", [](std::vector<uint8_t>) { return std::vector<uint8_t>{}; }},
        {"truncated to 10 bytes", [](std::vector<uint8_t> b) { b.resize(std::min<size_t>(b.size(), 10)); return b; }},
        {"truncated to half", [](std::vector<uint8_t> b) { b.resize(b.size() / 2); return b; }},
        {"random bytes", [&](std::vector<uint8_t> b) { for (auto& x : b) x = uint8_t(rng()); return b; }},
        {"one byte flipped in the payload", [](std::vector<uint8_t> b) {
             if (!b.empty()) b[b.size() * 3 / 4] ^= 0x5A;
             return b;
         }},
        {"one byte flipped in the first 64", [](std::vector<uint8_t> b) {
             if (!b.empty()) b[std::min<size_t>(b.size() - 1, 40)] ^= 0x01;
             return b;
         }},
        {"foreign Vulkan pipeline-cache header", [](std::vector<uint8_t> b) {
             // VkPipelineCacheHeaderVersionOne: size 32, version 1, vendorID, deviceID, UUID.
             std::vector<uint8_t> h(32 + 4096, 0x11);
             const uint32_t fields[4] = {32, 1, 0x1234, 0x5678};
             std::memcpy(h.data(), fields, sizeof fields);
             for (int i = 0; i < 16; ++i) h[size_t(16 + i)] = uint8_t(0xC0 + i);
             (void)b;
             return h;
         }},
        {"much larger than any cache", [](std::vector<uint8_t> b) { b.resize(b.size() * 8 + (1 << 20), 0xEE); return b; }},
    };
    for (const auto& [name, corrupt] : corruptions) {
        SCOPED_TRACE("cache file " + name);
        std::vector<std::vector<uint8_t>> written;
        for (size_t i = 0; i < files.size(); ++i) {
            written.push_back(corrupt(originals[i]));
            writeAll(files[i], written.back());
        }
        useContext(dir.path.string());  // must not crash, must stay correct and quiet
        // The context saves a fresh cache on destruction, replacing what it refused.
        bool rewritten = false;
        for (size_t i = 0; i < files.size(); ++i) rewritten = rewritten || readAll(files[i]) != written[i];
        for (const auto& f : filesIn(dir.path))
            if (std::find(files.begin(), files.end(), f) == files.end()) rewritten = true;
        EXPECT_TRUE(rewritten) << "the corrupted cache file was left in place";
        for (size_t i = 0; i < files.size(); ++i) writeAll(files[i], originals[i]);
    }
}

TEST_F(PipelineCache, NoneDisablesAndEnvironmentDirectoryIsUsed) {
    TempDir envDir("vkconv_cache_test_");
    EnvOverride env("VKCONV_CACHE_DIR", envDir.path.string());
    useContext("none");
    EXPECT_TRUE(filesIn(envDir.path).empty()) << "pipelineCacheDir \"none\" still wrote under $VKCONV_CACHE_DIR";
    useContext("");
    EXPECT_FALSE(filesIn(envDir.path).empty()) << "an empty pipelineCacheDir did not use $VKCONV_CACHE_DIR";
}

TEST_F(PipelineCache, UnusableDirectoryIsNotFatal) {
    TempDir dir("vkconv_cache_test_");
    const fs::path notADir = dir.path / "file";
    writeAll(notADir, {1, 2, 3});
    // The cache is an optimisation: a directory that cannot be created may be reported as Io,
    // but must not crash, and a context that was created must work.
    try {
        useContext(notADir.string());
    } catch (const vkconv::Error& e) {
        EXPECT_EQ(e.code(), vkconv::ErrorCode::Io) << e.what();
    }
}
