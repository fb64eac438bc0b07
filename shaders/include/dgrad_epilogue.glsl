// dx's epilogue: the old dx (PlanOptions::accumulate), then a transposed convolution's
// act(acc + bias[c] + residual) (spec constants; all off for the backward-data pass).
#ifndef VKCONV_DGRAD_EPILOGUE_GLSL
#define VKCONV_DGRAD_EPILOGUE_GLSL
#include "dgrad_bindings.glsl"
#include "conv_params.glsl"
#include "activation.glsl"

void storeGradInput(uint offset, uint c, float acc) {
    if (ACCUMULATE) acc += toF32(dx_[offset]);
    if (HAS_BIAS) acc += toF32(bias_[c]);
    if (HAS_RESIDUAL) acc += toF32(res_[offset]);
    dx_[offset] = fromF32(activate(acc));
}

#endif
