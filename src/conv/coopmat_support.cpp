#include "conv/coopmat_support.hpp"
#include "conv/conv_params.hpp"
#include "runtime/shader_registry.hpp"
#include "util/test_hooks.hpp"

namespace vkconv {

bool coopmatEmulated(DType t) { return testHookOr("coopmat_emulate", false) && t != DType::F32; }

VkComponentTypeKHR coopmatOperandType(DType t) {
    return t == DType::BF16 ? VK_COMPONENT_TYPE_BFLOAT16_KHR : VK_COMPONENT_TYPE_FLOAT16_KHR;
}

bool coopmatOperandsMatch(const CoopMatConfig& c, DType t) {
    return c.scope == VK_SCOPE_SUBGROUP_KHR && !c.saturatingAccumulation && c.a == coopmatOperandType(t) &&
           c.b == coopmatOperandType(t) && c.c == VK_COMPONENT_TYPE_FLOAT32_KHR &&
           c.result == VK_COMPONENT_TYPE_FLOAT32_KHR;
}

const CoopMatConfig& coopmatEmulatedConfig(DType t) {
    static const auto make = [](DType u) {
        CoopMatConfig x;
        x.m = x.n = x.k = 16;
        x.a = x.b = coopmatOperandType(u);
        x.c = x.result = VK_COMPONENT_TYPE_FLOAT32_KHR;
        x.scope = VK_SCOPE_SUBGROUP_KHR;
        return x;
    };
    static const CoopMatConfig f16 = make(DType::F16), bf16 = make(DType::BF16);
    return t == DType::BF16 ? bf16 : f16;
}

SubgroupChoice coopmatSubgroup(const DeviceCaps& caps) {
    if (caps.subgroupSizeControl && caps.minSubgroupSize <= 32 && caps.maxSubgroupSize >= 32) return {32, 32};
    return {caps.subgroupSize, 0};
}

std::string coopmatFixedSubgroupWhyNot(const DeviceCaps& caps, uint32_t requested, const std::string& layout) {
    const SubgroupChoice sg = coopmatSubgroup(caps);
    if (!sg.required && caps.minSubgroupSize != caps.maxSubgroupSize)
        return "the subgroup size may vary (" + std::to_string(caps.minSubgroupSize) + "-" +
               std::to_string(caps.maxSubgroupSize) + ") and the device cannot require one; " + layout +
               " for a fixed size";
    if (requested && requested != sg.size)
        return layout + " for subgroups of " + std::to_string(sg.size) + ", not " + std::to_string(requested);
    return "";
}

std::string coopmatDeviceWhyNot(const ContextImpl& ctx, DType t, const std::string& shader) {
    const auto& caps = ctx.caps;
    if (t == DType::F32)
        return "fp32 storage is the scalar kernels' job (the matrix units would round the operands to 16 bits)";
    if (!shaders::find(shader)) {
        if (t == DType::BF16)
            return "bf16 needs a bf16 cooperative-matrix shader, which this build lacks (no shader compiler with "
                   "GL_EXT_bfloat16 at configure time; on Debian 12 scripts/setup.sh fetches one)";
        return "this build has no cooperative-matrix shaders (its shader compiler lacks GL_KHR_cooperative_matrix)";
    }
    const bool emu = coopmatEmulated(t);
    if (!caps.cooperativeMatrix && !emu) return "the device has no VK_KHR_cooperative_matrix (or it is not enabled)";
    if (t == DType::F16 && !caps.shaderFloat16) return "needs shaderFloat16";
    if (t == DType::BF16 && !caps.bfloat16CooperativeMatrix && !emu) {
        // An adopted device may have them without the application having enabled them (an
        // offline context has no device to ask: its profile says what the device enabled).
        if (ctx.device && !ctx.ownsDevice && chooseFeatures(ctx.it, ctx.physicalDevice).bfloat16CooperativeMatrix)
            return "bf16 needs VK_KHR_shader_bfloat16 with shaderBFloat16Type and shaderBFloat16CooperativeMatrix, "
                   "which "
                   "the device has but the application did not enable (ContextAdoptInfo::enabledDeviceExtensions / "
                   "enabledFeatures)";
        return "bf16 needs VK_KHR_shader_bfloat16 with shaderBFloat16Type and shaderBFloat16CooperativeMatrix, which "
               "the device does not have";
    }
    if (!caps.storageBuffer16BitAccess) return "needs storageBuffer16BitAccess";
    if (!caps.vulkanMemoryModel && !emu)
        return "needs vulkanMemoryModel (cooperative-matrix shaders use the Vulkan memory model)";
    return "";
}

std::string coopmatFragment16WhyNot(const DeviceCaps& caps, DType t) {
    if (coopmatEmulated(t)) return "";
    for (const auto& c : caps.coopMatConfigs)
        if (coopmatOperandsMatch(c, t) && c.m == 16 && c.n == 16 && c.k == 16) return "";
    return std::string("no subgroup-scope 16x16x16 ") + dtypeSuffix(t) + " x " + dtypeSuffix(t) +
           " + f32 -> f32 cooperative-matrix configuration (device reports: " + coopmatConfigList(caps) + ")";
}

uint32_t coopmatNhwcOutWord(const ConvDesc& d) {
    const int64_t kg = d.filtersPerGroup();
    if (kg % 8 == 0) return 8;
    if (kg % 2 != 0) return 0;
    return kg % 4 == 0 ? 4 : 2;
}

std::string coopmatOutputTag(bool vecOut, uint32_t outWord) {
    if (!vecOut) return "";
    return outWord == 8
               ? "O"
               : std::string("O").append(std::to_string(outWord));  // not "O" + ...: GCC 12's -Wrestrict false positive
}

bool coopmatHalfScratch(const DeviceCaps& caps, const ConvDesc& d, bool vecOut, uint32_t m, uint32_t n) {
    // Not for 2-filter words: from the fp16 scratch they ran 1.14-1.22x the element stores on
    // 192x128x64/4x4s1 (winograd's GEMM for 126 filters, H200), where the fp32 scratch's ran
    // 0.89x (docs/performance.md, "implicit_gemm_coopmat").
    if (!vecOut || d.filtersPerGroup() % 4 != 0 || d.dtype != DType::F16 || d.outputLayout != TensorLayout::NHWC ||
        d.hasBias || d.hasResidual || d.activation != Activation::None)
        return false;
    if (coopmatEmulated(DType::F16)) return true;
    for (const auto& c : caps.coopMatConfigs)
        if (c.scope == VK_SCOPE_SUBGROUP_KHR && c.m == m && c.n == n && c.c == VK_COMPONENT_TYPE_FLOAT16_KHR &&
            c.result == VK_COMPONENT_TYPE_FLOAT16_KHR)
            return true;
    return false;
}

std::string coopmatConfigList(const DeviceCaps& caps) {
    std::string s;
    for (const auto& c : caps.coopMatConfigs) s += (s.empty() ? "" : ", ") + c.toString();
    return s.empty() ? "none" : s;
}

}  // namespace vkconv
