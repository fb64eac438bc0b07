// Buffers vkconv allocates for callers that have none of their own (tests, benchmarks,
// simple apps).  Applications with their own allocator pass BufferView{VkBuffer, offset, size}
// to Plan and never need this class.
#pragma once
#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

#include "vkconv/export.hpp"

namespace vkconv {

class Context;
struct ContextImpl;

// A range of a buffer the caller owns.  The buffer needs VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
// offset must be a multiple of minStorageBufferOffsetAlignment.
struct BufferView {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;  // bytes; must cover the tensor
    bool empty() const { return buffer == VK_NULL_HANDLE; }
};

enum class MemoryKind { DeviceLocal, HostVisible };

class VKCONV_API Buffer {
public:
    Buffer() = default;
    static Buffer create(Context& ctx, VkDeviceSize size, MemoryKind kind = MemoryKind::DeviceLocal);
    Buffer(Buffer&&) noexcept;
    Buffer& operator=(Buffer&&) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer();

    // Copies through a staging buffer (device-local) or the mapping (host-visible); waits.
    void upload(const void* data, VkDeviceSize bytes, VkDeviceSize offset = 0);
    void download(void* data, VkDeviceSize bytes, VkDeviceSize offset = 0) const;
    // Repeats `word`'s four bytes over the whole buffer, the last size() % 4 bytes included; waits.
    void fill(uint32_t word);

    VkBuffer handle() const { return buffer_; }
    VkDeviceSize size() const { return size_; }
    BufferView view() const { return {buffer_, 0, size_}; }
    BufferView view(VkDeviceSize offset, VkDeviceSize bytes) const { return {buffer_, offset, bytes}; }
    void* mapped() const { return mapped_; }  // non-null for HostVisible

private:
    // The context's inner object, which a moved Context keeps: a Buffer outlives the move.
    static Buffer create(ContextImpl& ctx, VkDeviceSize size, MemoryKind kind);
    void release();
    ContextImpl* ctx_ = nullptr;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDeviceSize size_ = 0;
    void* mapped_ = nullptr;
};

}  // namespace vkconv
