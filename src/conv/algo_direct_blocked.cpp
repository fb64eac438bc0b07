// Level 1 "direct_blocked" (shaders/direct_blocked.comp): direct convolution, 256-invocation
// workgroups (fewer only where the device caps them), each invocation a register block of KT
// filters x QT output columns.  Accepts every problem direct accepts.
//
// Default block 4 filters x 4 columns: 16 fp32 accumulators plus 4 inputs and 4 weights stay far
// below the VGPR count that halves occupancy on RDNA and NVIDIA, each tap does 16 FMAs for 8
// loads (5 with the sliding window) instead of direct's 1 for 2, and the tails stay small on the
// late layers (Q = 7: 1 column in 8 wasted) and on grouped layers with few filters per group.
// "8x4" doubles the filters per block (32 accumulators) for tuning runs on wide layers.
#include <algorithm>

#include "conv/algorithm.hpp"
#include "conv/dispatch.hpp"
#include "conv/tile_syntax.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kWorkgroup = 256;

struct Block {
    const char* name;
    uint32_t kt, qt;  // filters x output columns per invocation
};
constexpr Block kBlocks[] = {{"4x4", 4, 4}, {"8x4", 8, 4}};

enum SpecBlocked : uint32_t { kSpecKT = 101, kSpecQT = 102, kSpecSlide = 103 };

// PlanOptions::tile KTxQT ("" : the first block).
const Block* findBlock(const std::string& name) {
    if (name.empty()) return &kBlocks[0];
    const TileSpec s = parseTile(name);
    for (auto& b : kBlocks)
        if (s.is({{b.kt, b.qt}})) return &b;
    return nullptr;
}

// 256, or fewer where the device caps workgroups (maxComputeWorkGroupInvocations may be 128) or a
// required subgroup size does (that size x maxComputeWorkgroupSubgroups; lavapipe at size 4: 128).
uint32_t workgroupSize(const DeviceCaps& c, uint32_t sg) {
    uint32_t wg = std::min(kWorkgroup, c.maxWorkgroupInvocations);
    if (sg && c.maxComputeWorkgroupSubgroups) wg = std::min(wg, sg * c.maxComputeWorkgroupSubgroups);
    return sg ? std::max(sg, wg - wg % sg) : wg;  // whole subgroups
}

uint64_t blockCount(const ConvDesc& d, const Block& b) {
    uint64_t kb = (uint64_t(d.filtersPerGroup()) + b.kt - 1) / b.kt, qb = (uint64_t(d.outW()) + b.qt - 1) / b.qt;
    return uint64_t(d.n) * uint64_t(d.groups) * kb * uint64_t(d.outH()) * qb;
}

class DirectBlockedInstance final : public AlgorithmInstance {
public:
    DirectBlockedInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o)
        : ctx_(ctx),
          desc_(d),
          pc_(makePushConstants(d)),
          block_(*findBlock(o.tile)),
          wg_(workgroupSize(ctx.caps, o.subgroupSize)),
          sg_(o.subgroupSize),
          slide_(d.strideW == d.dilationW) {
        PipelineKey key = convPipelineKey(std::string("direct_blocked_") + dtypeSuffix(d.dtype), d, wg_, sg_);
        key.spec.push_back({kSpecKT, block_.kt});
        key.spec.push_back({kSpecQT, block_.qt});
        key.spec.push_back({kSpecSlide, slide_ ? 1u : 0u});
        pipeline_ = &ctx.pipelines->get(key);
    }
    void record(VkCommandBuffer cmd, const ConvTensors& t) const override {
        bindConvTensors(ctx_, cmd, *pipeline_, t);
        pushConstants(ctx_, cmd, *pipeline_, pc_);
        dispatch1D(ctx_, cmd, blockCount(desc_, block_), wg_);
    }
    std::string name() const override { return "direct_blocked"; }
    std::string config() const override {
        return "wg" + std::to_string(wg_) + " block " + block_.name + (slide_ ? " sliding" : "") +
               (sg_ ? " sg" + std::to_string(sg_) : std::string());
    }

private:
    ContextImpl& ctx_;
    ConvDesc desc_;
    ConvPushConstants pc_;
    const Block& block_;
    uint32_t wg_, sg_;
    bool slide_;
    const ComputePipeline* pipeline_;
};

}  // namespace

std::string directBlockedWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions& o) {
    if (findBlock(o.tile)) return "";
    return noTileError(parseTile(o.tile),
                       tileNames(kBlocks, [](const Block& b) { return b.name; }) + ", filters x columns");
}

std::unique_ptr<AlgorithmInstance> directBlockedInstantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return std::make_unique<DirectBlockedInstance>(ctx, d, o);
}

// Every block x dtype x {sliding NCHW 3x3 stride 1, non-sliding NHWC/KRSC stride 2} x (wave32,
// wave64 where the device can require them).
std::vector<std::pair<ConvDesc, PlanOptions>> directBlockedVariants(const ContextImpl& ctx) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    const std::vector<uint32_t> sgs = variantSubgroupSizes(ctx);
    for (auto& b : kBlocks)
        for (DType t : {DType::F32, DType::F16, DType::BF16})
            for (bool nhwc : {false, true})
                for (uint32_t sg : sgs) {
                    ConvDesc d;
                    d.c = 64;
                    d.h = d.w = 56;
                    d.k = 64;
                    d.r = d.s = 3;
                    d.pad(1, 1);
                    d.dtype = t;
                    if (nhwc) {
                        makeNhwc(d);
                        d.strideH = d.strideW = 2;
                    }
                    v.push_back({d, PlanOptions{"direct_blocked", sg, b.name}});
                }
    return v;
}

}  // namespace vkconv
