#include "runtime/pass_probe.hpp"

#include "runtime/context_impl.hpp"
#include "runtime/pipeline.hpp"

namespace vkconv {

PassProbe::PassProbe(ContextImpl& ctx, uint32_t capacity) : ctx_(ctx), capacity_(capacity) {
    if (!ctx.caps.timestamps) throw Error(ErrorCode::Unsupported, "the compute queue cannot write timestamps");
    VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    ci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    ci.queryCount = capacity;
    VKCONV_CHECK(ctx.dt.vkCreateQueryPool(ctx.device, &ci, nullptr, &pool_));
}

PassProbe::~PassProbe() { ctx_.dt.vkDestroyQueryPool(ctx_.device, pool_, nullptr); }

void PassProbe::reset(VkCommandBuffer cmd) {
    ctx_.dt.vkCmdResetQueryPool(cmd, pool_, 0, capacity_);
    names_.clear();
    dropped_ = 0;
}

void PassProbe::mark(VkCommandBuffer cmd, std::string name) {
    if (names_.size() >= capacity_) {
        ++dropped_;
        return;
    }
    ctx_.dt.vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, uint32_t(names_.size()));
    names_.push_back(std::move(name));
}

void PassProbe::bound(const ComputePipeline& p) { next_ = p.key.shader; }

std::vector<PassProbe::Mark> PassProbe::read() {
    std::vector<Mark> out;
    if (names_.empty()) return out;
    std::vector<uint64_t> raw(names_.size());
    VKCONV_CHECK(ctx_.dt.vkGetQueryPoolResults(ctx_.device, pool_, 0, uint32_t(raw.size()), raw.size() * 8, raw.data(),
                                               8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    const uint64_t mask = ctx_.caps.timestampMask;
    for (size_t i = 0; i < raw.size(); ++i) {
        const uint64_t ticks = ((raw[i] & mask) - (raw[0] & mask)) & mask;  // wraps within the valid bits
        out.push_back({names_[i], double(ticks) * double(ctx_.caps.timestampPeriod)});
    }
    return out;
}

}  // namespace vkconv
