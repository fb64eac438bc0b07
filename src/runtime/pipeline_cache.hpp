// The on-disk VkPipelineCache.  A file is trusted only if vkconv's own header (magic, format
// version, size, checksum) and the driver's VkPipelineCacheHeaderVersionOne (vendor, device,
// pipelineCacheUUID) both match this device, and the driver version matches too; otherwise it
// is ignored and rewritten.
#pragma once
#include <string>

#include "runtime/vk.hpp"

namespace vkconv {

struct ContextImpl;
struct DeviceCaps;

// "<prefix>-<vendor>-<device>-<first 4 bytes of pipelineCacheUUID><suffix>": the name of a file
// in the cache directory that belongs to this device (the pipeline cache, the find database).
std::string deviceCacheFileName(const DeviceCaps& caps, const char* prefix, const char* suffix);

class PipelineCache {
public:
    PipelineCache(ContextImpl& ctx, std::string dir);  // dir empty: memory only
    ~PipelineCache();
    PipelineCache(const PipelineCache&) = delete;
    PipelineCache& operator=(const PipelineCache&) = delete;

    VkPipelineCache handle() const { return cache_; }
    const std::string& path() const { return path_; }
    bool loadedFromDisk() const { return loaded_; }
    void save();  // atomic replace; errors are reported on stderr, never thrown

private:
    ContextImpl& ctx_;
    std::string path_;
    VkPipelineCache cache_ = VK_NULL_HANDLE;
    bool loaded_ = false;
};

}  // namespace vkconv
