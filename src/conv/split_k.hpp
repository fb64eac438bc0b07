// Split-K pieces shared by implicit_gemm_splitk and implicit_gemm_coopmat: the limits on the
// split count, the "<tile>/s<splits>" tile-string syntax, and pass 2 (shaders/splitk_reduce.comp:
// the partials summed in order, then the epilogue).  Layout of the workspace: splitk.glsl.
#pragma once
#include <cstdint>
#include <string>

#include "conv/dispatch.hpp"
#include "conv/tile_syntax.hpp"
#include "runtime/pipeline.hpp"
#include "vkconv/plan.hpp"

namespace vkconv {

struct ContextImpl;
struct ConvPushConstants;

constexpr uint32_t kSplitBindings = kBindWorkspace + 1;  // pass 1 and 2 layouts: + the workspace

// The most splits a problem with `slices` reduction slices may use, and the limit that sets it
// (for messages).  More splits than slices are clamped by the callers, so slices is no limit here.
struct SplitLimit {
    uint64_t most;
    std::string what;
};
SplitLimit splitLimit(const ContextImpl& ctx, const ConvDesc& d, uint64_t slices, VkDeviceSize workspaceLimit);

// PlanOptions::tile with a split: "", "<tile>", "<tile>/s<splits>" or "s<splits>" (conv/tile_syntax.hpp:
// the split is a last group of its own, so "128x256x32/2x4s1" is a tile and "/s1" a split).
struct SplitRequest {
    TileSpec spec;       // the tile without the split; empty: the heuristic's
    std::string tile;    // spec's text ("": the heuristic's)
    uint64_t split = 0;  // 0: the heuristic's
    std::string error;   // a malformed string or split count
};
SplitRequest parseSplitRequest(const std::string& s);

// Pass 2, recorded after pass 1 (which it waits for with a compute barrier).
class SplitReduce {
public:
    SplitReduce(ContextImpl& ctx, const ConvDesc& d);
    void record(VkCommandBuffer cmd, const ConvTensors& t, const ConvPushConstants& pc) const;

private:
    ContextImpl& ctx_;
    uint64_t elements_;
    uint32_t workgroup_;
    const ComputePipeline* pipeline_;
};

}  // namespace vkconv
