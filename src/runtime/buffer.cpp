#include <cstring>
#include <memory>

#include "runtime/context_access.hpp"
#include "vkconv/buffer.hpp"
#include "vkconv/context.hpp"

namespace vkconv {

Buffer Buffer::create(Context& ctx, VkDeviceSize size, MemoryKind kind) { return create(implOf(ctx), size, kind); }

Buffer Buffer::create(ContextImpl& c, VkDeviceSize size, MemoryKind kind) {
    if (size == 0) throw Error(ErrorCode::InvalidArgument, "Buffer::create: size 0");
    c.requireDevice("Buffer::create");
    Buffer b;
    b.ctx_ = &c;
    b.size_ = size;
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = size;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VKCONV_CHECK(c.dt.vkCreateBuffer(c.device, &bi, nullptr, &b.buffer_));
    VkMemoryRequirements req;
    c.dt.vkGetBufferMemoryRequirements(c.device, b.buffer_, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex =
        kind == MemoryKind::DeviceLocal
            ? c.findMemoryType(req.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
            : c.findMemoryType(req.memoryTypeBits,
                               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                               VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    VkResult r = c.dt.vkAllocateMemory(c.device, &ai, nullptr, &b.memory_);
    if (r != VK_SUCCESS) {
        b.release();
        throw Error(ErrorCode::Vulkan,
                    "allocating " + std::to_string(size) + " bytes failed with " + vkResultString(r));
    }
    VKCONV_CHECK(c.dt.vkBindBufferMemory(c.device, b.buffer_, b.memory_, 0));
    if (kind == MemoryKind::HostVisible)
        VKCONV_CHECK(c.dt.vkMapMemory(c.device, b.memory_, 0, VK_WHOLE_SIZE, 0, &b.mapped_));
    return b;
}

Buffer::Buffer(Buffer&& o) noexcept { *this = std::move(o); }

Buffer& Buffer::operator=(Buffer&& o) noexcept {
    if (this != &o) {
        release();
        ctx_ = o.ctx_;
        buffer_ = o.buffer_;
        memory_ = o.memory_;
        size_ = o.size_;
        mapped_ = o.mapped_;
        o.ctx_ = nullptr;
        o.buffer_ = VK_NULL_HANDLE;
        o.memory_ = VK_NULL_HANDLE;
        o.size_ = 0;
        o.mapped_ = nullptr;
    }
    return *this;
}

Buffer::~Buffer() { release(); }

void Buffer::release() {
    if (!ctx_) return;
    auto& c = *ctx_;
    if (buffer_) c.dt.vkDestroyBuffer(c.device, buffer_, nullptr);
    if (memory_) c.dt.vkFreeMemory(c.device, memory_, nullptr);
    buffer_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
    mapped_ = nullptr;
}

static void checkRange(VkDeviceSize offset, VkDeviceSize bytes, VkDeviceSize size, const char* what) {
    if (offset > size || bytes > size - offset)
        throw Error(ErrorCode::BufferTooSmall, std::string(what) + ": range [" + std::to_string(offset) + ", +" +
                                                   std::to_string(bytes) + ") exceeds the buffer's " +
                                                   std::to_string(size) + " bytes");
}

// The staging buffers are shared with the submission: on a timeout the context keeps them until
// the copy is known finished (ContextImpl::inFlight), instead of freeing memory the GPU still uses.
void Buffer::upload(const void* data, VkDeviceSize bytes, VkDeviceSize offset) {
    checkRange(offset, bytes, size_, "Buffer::upload");
    if (bytes == 0) return;
    if (mapped_) {
        std::memcpy(static_cast<char*>(mapped_) + offset, data, bytes);
        return;
    }
    auto staging = std::make_shared<Buffer>(create(*ctx_, bytes, MemoryKind::HostVisible));
    std::memcpy(staging->mapped_, data, bytes);
    auto& c = *ctx_;
    c.submitAndWait(
        [&](VkCommandBuffer cmd) {
            VkBufferCopy region{0, offset, bytes};
            c.dt.vkCmdCopyBuffer(cmd, staging->buffer_, buffer_, 1, &region);
        },
        {staging});
}

void Buffer::download(void* data, VkDeviceSize bytes, VkDeviceSize offset) const {
    checkRange(offset, bytes, size_, "Buffer::download");
    if (bytes == 0) return;
    if (mapped_) {
        std::memcpy(data, static_cast<const char*>(mapped_) + offset, bytes);
        return;
    }
    auto staging = std::make_shared<Buffer>(create(*ctx_, bytes, MemoryKind::HostVisible));
    auto& c = *ctx_;
    c.submitAndWait(
        [&](VkCommandBuffer cmd) {
            // Make earlier shader writes (e.g. a conv that just ran) visible to the copy.
            VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
            mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
            c.dt.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                                      &mb, 0, nullptr, 0, nullptr);
            VkBufferCopy region{offset, 0, bytes};
            c.dt.vkCmdCopyBuffer(cmd, buffer_, staging->buffer_, 1, &region);
            mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
            c.dt.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0,
                                      nullptr, 0, nullptr);
        },
        {staging});
    std::memcpy(data, staging->mapped_, bytes);
}

// vkCmdFillBuffer writes whole words only; the last size % 4 bytes (an odd-length 16-bit tensor's
// last element) are copied from the word's own first bytes, so a poisoned buffer is poisoned to
// its end.
void Buffer::fill(uint32_t word) {
    auto& c = *ctx_;
    const VkDeviceSize whole = size_ & ~VkDeviceSize(3), tail = size_ - whole;
    std::shared_ptr<Buffer> staging;
    if (tail && !mapped_) {
        staging = std::make_shared<Buffer>(create(c, 4, MemoryKind::HostVisible));
        std::memcpy(staging->mapped_, &word, 4);
    }
    c.submitAndWait(
        [&](VkCommandBuffer cmd) {
            if (whole) c.dt.vkCmdFillBuffer(cmd, buffer_, 0, whole, word);
            if (staging) {
                VkBufferCopy region{0, whole, tail};
                c.dt.vkCmdCopyBuffer(cmd, staging->buffer_, buffer_, 1, &region);
            }
        },
        {staging});
    if (tail && mapped_) std::memcpy(static_cast<char*>(mapped_) + whole, &word, tail);
}

}  // namespace vkconv
