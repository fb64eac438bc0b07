// The problem size as push constants (mirrors src/conv/conv_params.hpp) and the problem's
// static traits as specialization constants (mirrors src/conv/spec_constants.hpp).
#ifndef VKCONV_CONV_PARAMS_GLSL
#define VKCONV_CONV_PARAMS_GLSL

layout(push_constant) uniform ConvParams {
    uint N, C, H, W;
    uint K, R, S, groups;
    uint P, Q, padT, padL;
    uint strideH, strideW, dilH, dilW;
    float alpha;        // LeakyRelu slope
    uint splitK;        // number of reduction slices (split-K), 1 otherwise
    uint aux0, aux1;    // algorithm-specific
} pc;

// Layout codes: activations 0 = NCHW, 1 = NHWC; filters 0 = KCRS, 1 = KRSC.
layout(constant_id = 0) const uint IN_LAYOUT = 0;
layout(constant_id = 1) const uint OUT_LAYOUT = 0;
layout(constant_id = 2) const uint FILTER_LAYOUT = 0;
layout(constant_id = 3) const bool HAS_BIAS = false;
layout(constant_id = 4) const bool HAS_RESIDUAL = false;
layout(constant_id = 5) const uint ACTIVATION = 0;  // vkconv::Activation
layout(constant_id = 6) const bool ACCUMULATE = false;  // backward passes: add the old gradient

#endif
