// Profiling only (vkconv-bench --passes): while ContextImpl::passProbe points at a probe, every
// dispatch a plan records is followed by a timestamp named after its pipeline's shader, so that
// the passes of one call (winograd's transforms and GEMM, split-K's two passes, coopmat_nhwc's
// transposes) can be timed one by one: a pass's time is from the previous timestamp to its own.
// Passes that run without a barrier between them overlap; their times still sum to the call's.
#pragma once
#include <string>
#include <vector>

#include "runtime/vk.hpp"

namespace vkconv {

struct ContextImpl;
struct ComputePipeline;

class PassProbe {
public:
    PassProbe(ContextImpl& ctx, uint32_t capacity);
    ~PassProbe();
    PassProbe(const PassProbe&) = delete;
    PassProbe& operator=(const PassProbe&) = delete;

    void reset(VkCommandBuffer cmd);                   // recorded before the first mark
    void mark(VkCommandBuffer cmd, std::string name);  // a timestamp after all work recorded so far
    void bound(const ComputePipeline& p);              // the pipeline the next dispatch runs
    void dispatched(VkCommandBuffer cmd) { mark(cmd, next_); }

    struct Mark {
        std::string name;
        double ns = 0;  // since the first mark
    };
    // After the work completed: the marks in order (at most `capacity`; truncated() says if more
    // were asked for).
    std::vector<Mark> read();
    bool truncated() const { return dropped_ > 0; }

private:
    ContextImpl& ctx_;
    VkQueryPool pool_ = VK_NULL_HANDLE;
    uint32_t capacity_;
    std::vector<std::string> names_;
    std::string next_;
    uint32_t dropped_ = 0;
};

}  // namespace vkconv
