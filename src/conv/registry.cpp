// The algorithm registry, in level order (the benchmark's optimization ladder reads it so).
#include "conv/registry.hpp"

#include "runtime/context_impl.hpp"

namespace vkconv {

const std::vector<Algorithm>& algorithms() {
    static const std::vector<Algorithm> registry = {
        {"direct", "one invocation per output element; every problem (reference)", directWhyNot, directInstantiate,
         directVariants},
        {"direct_blocked",
         "direct with 256-invocation workgroups and 4 filters x 4 columns per invocation in registers; every problem",
         directBlockedWhyNot, directBlockedInstantiate, directBlockedVariants, nullptr, true},
        {"direct_tiled",
         "shared-memory tiled direct: input halo + filter chunk staged per channel chunk, 4x4 outputs per invocation",
         directTiledWhyNot, directTiledInstantiate, directTiledVariants, nullptr, true},
        {"direct_few_channels",
         "first layers (C/groups <= 8): the whole input halo and reduction of 8-64 filters staged once, "
         "8 rows x 8 filters per invocation",
         directFewChannelsWhyNot, directFewChannelsInstantiate, directFewChannelsVariants},
        {"direct_few_filters",
         "at most 8 filters per group (e.g. an RGB output layer): PX pixels x every filter per invocation, "
         "channel groups outer, taps inner, filters staged in shared memory",
         directFewFiltersWhyNot, directFewFiltersInstantiate, directFewFiltersVariants},
        {"gemv",
         "at most 32 output pixels over contiguous reductions (1x1 unpadded filters; a filter over the whole "
         "input in the activations' order): each filter row read once in 16-byte words by a team of invocations "
         "against the pixels staged in shared memory, the sums added by subgroup operations",
         gemvWhyNot, gemvInstantiate, gemvVariants},
        {"implicit_gemm", "tiled implicit GEMM, double-buffered shared memory, register tiles, padding masks",
         implicitGemmWhyNot, implicitGemmInstantiate, implicitGemmVariants,
         [](bool exhaustive) { return exhaustive ? implicitGemmTileNames() : std::vector<std::string>{}; }},
        {"implicit_gemm_analytic", "implicit_gemm with per-load bounds arithmetic instead of precomputed masks",
         implicitGemmWhyNot, implicitGemmAnalyticInstantiate, nullptr},
        {"implicit_gemm_splitk",
         "implicit_gemm with the reduction split over workgroups (fp32 partials in the workspace), then a sum + "
         "epilogue pass",
         implicitGemmSplitKWhyNot, implicitGemmSplitKInstantiate, implicitGemmSplitKVariants},
        {"depthwise",
         "groups == C (channel multiplier K/C): output blocks per invocation, taps and input rows in registers",
         depthwiseWhyNot, depthwiseInstantiate, depthwiseVariants},
        {"depthwise_tiled",
         "groups == C == K, NHWC: a workgroup's input halo loaded in 16-byte words at once into shared "
         "memory (fp32), then output blocks of 4 channels per invocation from it",
         depthwiseTiledWhyNot, depthwiseTiledInstantiate, depthwiseTiledVariants},
        {"implicit_gemm_coopmat",
         "implicit_gemm on the matrix units (VK_KHR_cooperative_matrix): 16-bit operands, fp32 accumulation",
         coopmatWhyNot, coopmatInstantiate, coopmatVariants,
         [](bool exhaustive) { return exhaustive ? coopmatTileNames() : std::vector<std::string>{}; }},
        {"few_channels_coopmat",
         "first layers (C/groups <= 8) on the matrix units: a column-expanded halo makes each pixel's "
         "reduction one contiguous window that A fragments load directly; fp16/bf16",
         fewChannelsCoopmatWhyNot, fewChannelsCoopmatInstantiate, fewChannelsCoopmatVariants},
        {"grouped_coopmat",
         "grouped layers of few channels or filters per group on the matrix units: consecutive groups as one "
         "block-diagonal GEMM over their contiguous channels (zero filters across groups), an input halo "
         "staged once for every tap; fp16/bf16",
         groupedCoopmatWhyNot, groupedCoopmatInstantiate, groupedCoopmatVariants},
        {"halo_coopmat",
         "stride-1 layers on the matrix units: one staged channel slice of the input halo serves every "
         "filter tap (A fragments at tap-shifted offsets of a flattened strip); fp16/bf16, NHWC input",
         haloCoopmatWhyNot, haloCoopmatInstantiate, haloCoopmatVariants,
         [](bool exhaustive) { return exhaustive ? haloCoopmatTileNames() : std::vector<std::string>{}; }},
        {"pointwise_coopmat",
         "1x1 stride-1 layers of at most 64 channels (NHWC, KRSC) on the matrix units: filters staged "
         "once, each subgroup streams its pixel blocks with the next block's loads in flight during "
         "the stores; fp16/bf16",
         pointwiseCoopmatWhyNot, pointwiseCoopmatInstantiate, pointwiseCoopmatVariants},
        {"slicedk_coopmat",
         "few output pixels over deep reductions (NHWC input with KRSC filters, NCHW input with KCRS or "
         "KRSC; any filter; routed for 1x1 layers) on the matrix units: the subgroups of a workgroup split "
         "the reduction and add their partial tiles in shared memory; fp16/bf16",
         slicedKCoopmatWhyNot, slicedKCoopmatInstantiate, slicedKCoopmatVariants},
        {"winograd",
         "F(4x4,3x3) or F(2x2,3x3) for 3x3 stride-1 filters: input/filter/output transforms around a batched "
         "GEMM (36/144 or 16/36 of the multiplies; transformed tensors in the workspace: fp32, or 16-bit operands "
         "with the GEMM on the matrix units)",
         winogradWhyNot, winogradInstantiate, winogradVariants,
         [](bool) {
             return std::vector<std::string>{"2x2", "4x4"};
         }},
        {"implicit_gemm_nhwc",
         "NCHW activations (and KCRS filters) transposed into the workspace as NHWC (KRSC), then implicit_gemm "
         "with 4-wide channel loads, output in the caller's layout",
         nhwcTransformWhyNot, nhwcTransformInstantiate, nhwcTransformVariants},
        // Its own pipelines are implicit_gemm_nhwc's transposes and the inner kernels': no variants.
        {"coopmat_nhwc",
         "16-bit NCHW activations (and KCRS filters) transposed into the workspace as NHWC (KRSC), then the "
         "matrix-unit kernel the router picks for the NHWC problem, output in the caller's layout",
         coopmatNhwcWhyNot, coopmatNhwcInstantiate, nullptr,
         // Each matrix-unit kernel behind the transposes (the NHWC router's pick is the "" candidate).
         [](bool) {
             return std::vector<std::string>{"implicit_gemm_coopmat", "halo_coopmat",    "pointwise_coopmat",
                                             "slicedk_coopmat",       "grouped_coopmat", "winograd:2x2",
                                             "winograd:4x4"};
         }},
    };
    return registry;
}

std::vector<uint32_t> variantSubgroupSizes(const ContextImpl& ctx) {
    std::vector<uint32_t> sgs = {0};
    if (ctx.caps.subgroupSizeControl)
        for (uint32_t sg : {32u, 64u})
            if (sg >= ctx.caps.minSubgroupSize && sg <= ctx.caps.maxSubgroupSize) sgs.push_back(sg);
    return sgs;
}

void makeNhwc(ConvDesc& d) {
    d.inputLayout = d.outputLayout = TensorLayout::NHWC;
    d.filterLayout = FilterLayout::KRSC;
}

const Algorithm* findAlgorithm(const std::string& name) {
    for (auto& a : algorithms())
        if (name == a.name) return &a;
    return nullptr;
}

}  // namespace vkconv
