// Winograd F(m x m, 3x3) workspace layout, shared by the algorithm and the router's cost model.
#pragma once
#include <cstdint>
#include <string>

#include "vkconv/conv_desc.hpp"
#include "runtime/vk.hpp"

namespace vkconv {

struct ContextImpl;

// Workspace: U (transformed filters; not there with PlanOptions::packedFilter, where U is the
// packed filter), then V and M for one chunk of output tiles, then the batched GEMM's own
// workspace (split-K), each region aligned for a storage-buffer binding.
struct WinogradLayout {
    uint32_t m = 2;       // outputs per tile side: F(2x2,3x3) or F(4x4,3x3)
    uint32_t taps = 16;   // (m + 2)^2 products per tile: the batched GEMM's batch count
    bool matrix = false;  // the GEMM on the matrix units: V and U 16-bit
    uint32_t vElem = 4;   // bytes per V and U value
    uint32_t mElem = 4;   // bytes per M value: 2 where the matrix units' GEMM stores fp16
    // bf16 with fp16 V, U and M, scaled by powers of two from the tensors' ranges (winograd_range.comp)
    bool scaled = false;
    // Scaled, with each tile's and each filter's exponent chosen inside the input and filter
    // transforms (winograd.glsl LOCAL_SCALE): no range pass.  Else one pair for the whole call.
    bool localScale = false;
    uint64_t tiles = 0;  // m x m output tiles: N x ceil(P/m) x ceil(Q/m)
    uint64_t chunk = 0;  // tiles per chunk (all of them when the workspace allows)
    uint64_t chunks = 0;
    bool packedU = false;  // U in the packed filter, not the workspace
    uint64_t uBytes = 0, sOff = 0, sBytes = 0, vOff = 0, vBytes = 0, mOff = 0, mBytes = 0, gemmOff = 0;
    VkDeviceSize gemmLimit = 0;  // what the GEMM's own plan may use
    std::string why;             // why no chunk fits ("" when one does)
};
WinogradLayout winogradLayout(const ContextImpl& ctx, const ConvDesc& d, uint32_t m, VkDeviceSize workspaceLimit,
                              bool matrix, bool packedU = false, bool scaled = false, uint32_t subgroupSize = 0);
// The scale region of a scaled layout.  With the range pass (winograd_range.comp): two exponent
// words and padding, then one partial maximum per range workgroup for the filter and for the
// input.  LOCAL_SCALE: K filter exponents, then one per tile of a chunk.
constexpr uint32_t kScaleHeadWords = 64, kScalePartials = 512;
// Whether its batched GEMM runs on the matrix units (16-bit V and U, implicit_gemm_coopmat).
bool winogradMatrixUnits(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o);
// Whether a bf16 layer's V, U and M are scaled fp16 (an fp16 batched GEMM on the matrix units).
bool winogradScaled(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o);

}  // namespace vkconv
