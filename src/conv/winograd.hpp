// Winograd F(2x2,3x3) workspace layout, shared by the algorithm and the router's cost model.
#pragma once
#include <cstdint>
#include <string>

#include "vkconv/conv_desc.hpp"
#include "runtime/vk.hpp"

namespace vkconv {

struct ContextImpl;

// Workspace: U (transformed filters), then V and M for one chunk of output tiles, then the
// batched GEMM's own workspace (split-K), each region aligned for a storage-buffer binding.
struct WinogradLayout {
    uint64_t tiles = 0;   // 2x2 output tiles: N x ceil(P/2) x ceil(Q/2)
    uint64_t chunk = 0;   // tiles per chunk (all of them when the workspace allows)
    uint64_t chunks = 0;
    uint64_t uBytes = 0, vOff = 0, vBytes = 0, mOff = 0, mBytes = 0, gemmOff = 0;
    VkDeviceSize gemmLimit = 0;  // what the GEMM's own plan may use
    std::string why;             // why no chunk fits ("" when one does)
};
WinogradLayout winogradLayout(const ContextImpl& ctx, const ConvDesc& d, VkDeviceSize workspaceLimit);

}  // namespace vkconv
