// Host mirror of shaders/include/conv_params.glsl: push constants and common spec constants.
#pragma once
#include <cstdint>
#include <vector>

#include "runtime/pipeline.hpp"
#include "vkconv/conv_desc.hpp"

namespace vkconv {

struct ConvPushConstants {
    uint32_t N, C, H, W;
    uint32_t K, R, S, groups;
    uint32_t P, Q, padT, padL;
    uint32_t strideH, strideW, dilH, dilW;
    float alpha;
    uint32_t splitK;
    uint32_t aux0, aux1;
};
static_assert(sizeof(ConvPushConstants) == 80, "must match conv_params.glsl");

// Spec-constant ids shared by every kernel (conv_params.glsl); kernel-specific ids start at 100.
enum SpecId : uint32_t {
    kSpecInLayout = 0,
    kSpecOutLayout = 1,
    kSpecFilterLayout = 2,
    kSpecHasBias = 3,
    kSpecHasResidual = 4,
    kSpecActivation = 5,
    kSpecAccumulate = 6,  // backward passes: add the old gradient (PlanOptions::accumulate)
    kSpecWorkgroupSize = 100,
};

ConvPushConstants makePushConstants(const ConvDesc& d);
std::vector<SpecConstant> commonSpecConstants(const ConvDesc& d);
const char* dtypeSuffix(DType t);  // "f32", "f16", "bf16": the shader variant suffix

}  // namespace vkconv
