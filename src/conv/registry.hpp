// Every algorithm's entry points, declared once from one list.  An algorithm named `x` lives in
// algo_x.cpp and defines xWhyNot, xInstantiate and (where it ships pipelines of its own)
// xVariants; registry.cpp lists them in level order, router.cpp chooses among them.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "conv/algorithm.hpp"

namespace vkconv {

#define VKCONV_DECLARE_ALGORITHM(prefix)                                                                       \
    std::string prefix##WhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);                       \
    std::unique_ptr<AlgorithmInstance> prefix##Instantiate(ContextImpl&, const ConvDesc&, const PlanOptions&); \
    std::vector<std::pair<ConvDesc, PlanOptions>> prefix##Variants(const ContextImpl&);

// name in the registry -> prefix of its functions
VKCONV_DECLARE_ALGORITHM(direct)              // direct
VKCONV_DECLARE_ALGORITHM(directBlocked)       // direct_blocked
VKCONV_DECLARE_ALGORITHM(directTiled)         // direct_tiled
VKCONV_DECLARE_ALGORITHM(directFewChannels)   // direct_few_channels
VKCONV_DECLARE_ALGORITHM(directFewFilters)    // direct_few_filters
VKCONV_DECLARE_ALGORITHM(gemv)                // gemv
VKCONV_DECLARE_ALGORITHM(implicitGemm)        // implicit_gemm (and implicit_gemm_analytic)
VKCONV_DECLARE_ALGORITHM(implicitGemmSplitK)  // implicit_gemm_splitk
VKCONV_DECLARE_ALGORITHM(depthwise)           // depthwise
VKCONV_DECLARE_ALGORITHM(depthwiseTiled)      // depthwise_tiled
VKCONV_DECLARE_ALGORITHM(coopmat)             // implicit_gemm_coopmat
VKCONV_DECLARE_ALGORITHM(fewChannelsCoopmat)  // few_channels_coopmat
VKCONV_DECLARE_ALGORITHM(groupedCoopmat)      // grouped_coopmat
VKCONV_DECLARE_ALGORITHM(haloCoopmat)         // halo_coopmat
VKCONV_DECLARE_ALGORITHM(pointwiseCoopmat)    // pointwise_coopmat
VKCONV_DECLARE_ALGORITHM(slicedKCoopmat)      // slicedk_coopmat
VKCONV_DECLARE_ALGORITHM(winograd)            // winograd
VKCONV_DECLARE_ALGORITHM(nhwcTransform)       // implicit_gemm_nhwc
#undef VKCONV_DECLARE_ALGORITHM

// The variants without entry points of their own.
std::unique_ptr<AlgorithmInstance> implicitGemmAnalyticInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::string coopmatNhwcWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> coopmatNhwcInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);

// PlanOptions::tile lists (find's exhaustive search).
std::vector<std::string> implicitGemmTileNames();
std::vector<std::string> coopmatTileNames();
std::vector<std::string> haloCoopmatTileNames();

// What each algorithm's own model says about a problem (the router's questions, answered beside
// the kernel whose tiles and passes they price).
bool groupedCoopmatPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool gemvPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool implicitGemmSplitKPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool depthwiseTiledPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool pointwiseCoopmatPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool pointwiseCoopmatNchwPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool slicedKCoopmatPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool slicedKCoopmatNchwPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool winogradPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool winogradMatrixUnits(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool haloCoopmatPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool haloCoopmatTakesFewFilters(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool nhwcTransformPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);

// Shared between algorithm files: one kernel's model or staging rule that another prices with or
// runs behind its own passes.
double implicitGemmModelCost(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool implicitGemmFourPixelLoads(const ConvDesc&);
double coopmatModelCost(const ContextImpl&, const ConvDesc&, const PlanOptions&, bool oneSplit);
std::string coopmatRawWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> coopmatRawInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
bool coopmatNchwWordLoads(const ConvDesc&);
double haloCoopmatPaysCost(const ContextImpl&, const ConvDesc&, const PlanOptions&);
bool slicedKCoopmatBeatsTransposes(const ConvDesc&, const std::string& inner);
bool slicedKCoopmatQuadLoads(const ConvDesc&);

// Each modelled algorithm's cost as its router question computes it, in its model's units
// (device_model.cpp converts them to µs for Plan::explain); < 0 where it declines or has none.
double implicitGemmOnePassCost(const ContextImpl&, const ConvDesc&, const PlanOptions&);
double implicitGemmSplitCost(const ContextImpl&, const ConvDesc&, const PlanOptions&);
double nhwcTransformModelCost(const ContextImpl&, const ConvDesc&, const PlanOptions&);
double haloCoopmatModelCost(const ContextImpl&, const ConvDesc&, const PlanOptions&);
double winogradModelCost(const ContextImpl&, const ConvDesc&, const PlanOptions&, bool& onMatrixUnits);

}  // namespace vkconv
