// LOCAL_SCALE (winograd.glsl): the exponent of a group of `per` consecutive invocations (a tile's
// channel pairs, a filter's), from the largest |value| any of them loaded.  Groups are whole
// within the workgroup (host), so one shared-memory maximum per group and two barriers do it;
// every invocation of the workgroup must take each step (no return before).
#ifndef VKCONV_WINOGRAD_SCALE_GLSL
#define VKCONV_WINOGRAD_SCALE_GLSL
// Workgroup-scope atomics: glslang's default scope is Device, which the validation layer rejects
// without vulkanMemoryModelDeviceScope; relaxed, with no storage class named
// (spirv-val requires an ordering otherwise): the barrier after them orders the shared memory.
#extension GL_KHR_memory_scope_semantics : require
// WINO_SUBGROUP_MAX (the _sg shader variants, devices with subgroup arithmetic): a group of whole
// subgroups takes their maximum first and makes one atomic per subgroup instead of one per
// invocation (up to 256 on one shared word otherwise).
#ifdef WINO_SUBGROUP_MAX
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif

#include "scale_exponent.glsl"

shared uint sGroupMax[WG_SIZE];

// In three steps, so that a transform's loads are not held behind a barrier: groupMaxInit before
// them (zeroes the maxima, then the one barrier nothing waits on), groupMaxAdd once its values are
// in, then whatever does not need the exponent, then groupScaleExp (the barrier that completes the
// maxima).  mx: this invocation's largest |value| (a float >= 0: its bits order as the values do).
void groupMaxInit(uint per) {
    uint lid = gl_LocalInvocationID.x;
    if (lid < WG_SIZE / per) sGroupMax[lid] = 0u;
    barrier();
}

void groupMaxAdd(float mx, uint per) {
    bool one = true;
#ifdef WINO_SUBGROUP_MAX
    if (per % gl_SubgroupSize == 0u) {  // uniform: every subgroup lies inside one group
        mx = subgroupMax(mx);
        one = subgroupElect();
    }
#endif
    if (one)
        atomicMax(sGroupMax[gl_LocalInvocationID.x / per], floatBitsToUint(mx), gl_ScopeWorkgroup, gl_StorageSemanticsNone,
                  gl_SemanticsRelaxed);
}

int groupScaleExp(uint per, int k) {
    barrier();
    return scaleExpOf(uintBitsToFloat(sGroupMax[gl_LocalInvocationID.x / per]), k);
}

#endif
