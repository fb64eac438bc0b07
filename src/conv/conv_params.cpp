#include "conv/conv_params.hpp"

namespace vkconv {

ConvPushConstants makePushConstants(const ConvDesc& d) {
    ConvPushConstants p{};
    p.N = uint32_t(d.n);
    p.C = uint32_t(d.c);
    p.H = uint32_t(d.h);
    p.W = uint32_t(d.w);
    p.K = uint32_t(d.k);
    p.R = uint32_t(d.r);
    p.S = uint32_t(d.s);
    p.groups = uint32_t(d.groups);
    p.P = uint32_t(d.outH());
    p.Q = uint32_t(d.outW());
    p.padT = uint32_t(d.padTop);
    p.padL = uint32_t(d.padLeft);
    p.strideH = uint32_t(d.strideH);
    p.strideW = uint32_t(d.strideW);
    p.dilH = uint32_t(d.dilationH);
    p.dilW = uint32_t(d.dilationW);
    p.alpha = d.activationAlpha;
    p.splitK = 1;
    return p;
}

std::vector<SpecConstant> commonSpecConstants(const ConvDesc& d) {
    return {{kSpecInLayout, uint32_t(d.inputLayout)},      {kSpecOutLayout, uint32_t(d.outputLayout)},
            {kSpecFilterLayout, uint32_t(d.filterLayout)}, {kSpecHasBias, d.hasBias ? 1u : 0u},
            {kSpecHasResidual, d.hasResidual ? 1u : 0u},   {kSpecActivation, uint32_t(d.activation)}};
}

const char* dtypeSuffix(DType t) { return t == DType::F32 ? "f32" : t == DType::F16 ? "f16" : "bf16"; }

}  // namespace vkconv
