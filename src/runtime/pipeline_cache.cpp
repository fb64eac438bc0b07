#include "runtime/pipeline_cache.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "runtime/context_impl.hpp"
#include "util/file_read.hpp"

namespace vkconv {

namespace {

constexpr char kMagic[8] = {'V', 'K', 'C', 'O', 'N', 'V', 'P', 'C'};
constexpr uint32_t kFormat = 1;
constexpr uint64_t kMaxFileBytes = uint64_t(1) << 31;  // larger is no pipeline cache of ours

struct FileHeader {  // precedes the driver's blob
    char magic[8];
    uint32_t format;
    uint32_t vendorId, deviceId, driverVersion;
    uint8_t uuid[VK_UUID_SIZE];
    uint64_t dataSize;
    uint64_t checksum;  // FNV-1a of the driver's blob
};

uint64_t fnv1a(const uint8_t* p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

FileHeader expectedHeader(const DeviceCaps& c) {
    FileHeader h{};
    std::memcpy(h.magic, kMagic, sizeof kMagic);
    h.format = kFormat;
    h.vendorId = c.vendorId;
    h.deviceId = c.deviceId;
    h.driverVersion = c.driverVersion;
    std::memcpy(h.uuid, c.pipelineCacheUUID, VK_UUID_SIZE);
    return h;
}

// The driver's blob must itself start with a VkPipelineCacheHeaderVersionOne for this device.
bool driverHeaderMatches(const std::vector<uint8_t>& blob, const DeviceCaps& c) {
    if (blob.size() < sizeof(VkPipelineCacheHeaderVersionOne)) return false;
    VkPipelineCacheHeaderVersionOne h;
    std::memcpy(&h, blob.data(), sizeof h);
    return h.headerSize >= sizeof h && h.headerVersion == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
           h.vendorID == c.vendorId && h.deviceID == c.deviceId &&
           std::memcmp(h.pipelineCacheUUID, c.pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

}  // namespace

std::string deviceCacheFileName(const DeviceCaps& c, const char* prefix, const char* suffix) {
    char name[96];
    std::snprintf(name, sizeof name, "%s-%04x-%04x-%02x%02x%02x%02x%s", prefix, c.vendorId, c.deviceId,
                  c.pipelineCacheUUID[0], c.pipelineCacheUUID[1], c.pipelineCacheUUID[2], c.pipelineCacheUUID[3],
                  suffix);
    return name;
}

PipelineCache::PipelineCache(ContextImpl& ctx, std::string dir) : ctx_(ctx) {
    const auto& c = ctx.caps;
    std::vector<uint8_t> blob;
    if (!dir.empty()) {
        path_ = dir + "/" + deviceCacheFileName(c, "pipelines", ".bin");
        // The header's dataSize is checked against the file's real length before anything is
        // allocated for it: a corrupted field must not make the context allocate gigabytes.
        const FileRead file = readRegularFile(path_, kMaxFileBytes);
        if (!file.bytes && !file.missing)
            std::fprintf(stderr, "[vkconv] ignoring pipeline cache %s: %s\n", path_.c_str(), file.why.c_str());
        FileHeader h{};
        const FileHeader want = expectedHeader(c);
        if (file.bytes && file.bytes->size() >= sizeof h) {
            std::memcpy(&h, file.bytes->data(), sizeof h);
            if (std::memcmp(h.magic, want.magic, 8) == 0 && h.format == want.format && h.vendorId == want.vendorId &&
                h.deviceId == want.deviceId && h.driverVersion == want.driverVersion &&
                std::memcmp(h.uuid, want.uuid, VK_UUID_SIZE) == 0 && h.dataSize == file.bytes->size() - sizeof h) {
                blob.assign(file.bytes->begin() + sizeof h, file.bytes->end());
                if (fnv1a(blob.data(), blob.size()) != h.checksum || !driverHeaderMatches(blob, c)) blob.clear();
            }
        }
    }
    VkPipelineCacheCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    ci.initialDataSize = blob.size();
    ci.pInitialData = blob.empty() ? nullptr : blob.data();
    if (ctx.dt.vkCreatePipelineCache(ctx.device, &ci, nullptr, &cache_) != VK_SUCCESS) {
        ci.initialDataSize = 0;  // a blob the driver rejects is dropped, not fatal
        ci.pInitialData = nullptr;
        blob.clear();
        VKCONV_CHECK(ctx.dt.vkCreatePipelineCache(ctx.device, &ci, nullptr, &cache_));
    }
    loaded_ = !blob.empty();
}

PipelineCache::~PipelineCache() {
    if (cache_) ctx_.dt.vkDestroyPipelineCache(ctx_.device, cache_, nullptr);
}

void PipelineCache::save() {
    if (path_.empty() || !cache_) return;
    size_t size = 0;
    if (ctx_.dt.vkGetPipelineCacheData(ctx_.device, cache_, &size, nullptr) != VK_SUCCESS || size == 0) return;
    std::vector<uint8_t> blob(size);
    if (ctx_.dt.vkGetPipelineCacheData(ctx_.device, cache_, &size, blob.data()) != VK_SUCCESS) return;
    blob.resize(size);
    FileHeader h = expectedHeader(ctx_.caps);
    h.dataSize = blob.size();
    h.checksum = fnv1a(blob.data(), blob.size());
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), ec);
    std::string tmp = path_ + ".tmp" + std::to_string(reinterpret_cast<uintptr_t>(this));
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(&h), sizeof h);
        out.write(reinterpret_cast<const char*>(blob.data()), std::streamsize(blob.size()));
        if (!out) {
            std::fprintf(stderr, "[vkconv] could not write pipeline cache %s\n", tmp.c_str());
            std::filesystem::remove(tmp, ec);
            return;
        }
    }
    std::filesystem::rename(tmp, path_, ec);
    if (ec) {
        std::fprintf(stderr, "[vkconv] could not replace pipeline cache %s: %s\n", path_.c_str(), ec.message().c_str());
        std::filesystem::remove(tmp, ec);
    }
}

}  // namespace vkconv
