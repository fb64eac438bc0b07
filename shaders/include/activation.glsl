// The fused activations (vkconv::Activation, spec constant ACTIVATION) on fp32 values.
#ifndef VKCONV_ACTIVATION_GLSL
#define VKCONV_ACTIVATION_GLSL
#include "conv_params.glsl"

// erf by Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): GLSL has no erf.
float erfApprox(float x) {
    float ax = abs(x);
    float t = 1.0 / (1.0 + 0.3275911 * ax);
    float poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    float y = 1.0 - poly * exp(-ax * ax);
    return x < 0.0 ? -y : y;
}

float activate(float v) {
    switch (ACTIVATION) {
        case 1u: return max(v, 0.0);
        case 2u: return clamp(v, 0.0, 6.0);
        case 3u: return v < 0.0 ? v * pc.alpha : v;
        case 4u: return 0.5 * v * (1.0 + erfApprox(v * 0.70710678118654752));
        case 5u: return v / (1.0 + exp(-v));
        case 6u: return 1.0 / (1.0 + exp(-v));
        default: return v;
    }
}

#endif
