// The fused epilogue y = act(acc + bias[k] + residual[out]) and its dtype conversion.
#ifndef VKCONV_EPILOGUE_GLSL
#define VKCONV_EPILOGUE_GLSL
#include "conv_bindings.glsl"
#include "conv_params.glsl"
#include "activation.glsl"

float epilogueValue(float acc, uint k, uint outOffset) {
    if (HAS_BIAS) acc += toF32(bias_[k]);
    if (HAS_RESIDUAL) acc += toF32(res_[outOffset]);
    return activate(acc);
}

void storeOutput(uint outOffset, uint k, float acc) {
    y_[outOffset] = fromF32(epilogueValue(acc, k, outOffset));
}

#endif
