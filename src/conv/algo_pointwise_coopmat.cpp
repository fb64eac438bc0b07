// "pointwise_coopmat" (shaders/pointwise_coopmat.comp): 1x1 stride-1 unpadded layers with at most
// 256 input channels (C % 8 == 0; the router sends it NHWC ones of at most 64 and NCHW ones of
// short reductions), NHWC or NCHW activations with the output in the same layout, fp16 / bf16,
// on the matrix units.  Streaming workgroups: the filters staged once, then each subgroup walks
// its pixel blocks with the next block's loads in flight during this block's stores.
// Tile "PBxBN/SGS[pBPS]": PB = 16 or 32 pixels per block, BN filters per workgroup (a multiple
// of 16, at most 256), SGS subgroups, BPS blocks per subgroup.  Choice, no timing: the filters in
// the fewest slabs of at most 8 fragments, two pixel fragments per block while the accumulators
// stay at 8 or fewer (and C <= 64), as many subgroups (up to four) as shared memory holds, and
// blocks per subgroup doubled (up to 16) while the grid keeps four workgroups per compute unit.
#include <algorithm>
#include <cstdio>

#include "conv/algorithm.hpp"
#include "conv/tile_syntax.hpp"
#include "conv/registry.hpp"
#include "conv/coopmat_support.hpp"
#include "conv/dispatch.hpp"
#include "conv/tile_score.hpp"
#include "runtime/context_impl.hpp"
#include "util/test_hooks.hpp"
#include "vkconv/error.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kFrag = 16;            // the 16x16x16 configuration the kernel is written for
constexpr int64_t kMaxChannels = 256;     // C: at most 16 reduction steps, staged whole
constexpr uint32_t kMaxFilterFrags = 16;  // BN <= 256 (a forced tile)
constexpr uint32_t kSlabFrags = 8;        // the heuristic's slabs: BN <= 128
constexpr uint32_t kMaxAccumulators = 8;
constexpr uint32_t kMaxBlocksPerSubgroup = 16;

enum SpecPw : uint32_t {
    kSpecFM = 101,
    kSpecFN = 102,
    kSpecKS = 103,
    kSpecSGS = 104,
    kSpecLanes = 105,
    kSpecBPS = 106,
    kSpecBResident = 107,
    kSpecVec = 108,
    kSpecEpi16 = 110,
    kSpecNchw = 111,
};

struct Tile {
    uint32_t fm = 0, fn = 0, sgs = 4, bps = 1;
    uint32_t pb() const { return fm * kFrag; }
    uint32_t bn() const { return fn * kFrag; }
    std::string name() const {
        std::string s = std::to_string(pb()) + "x" + std::to_string(bn()) + "/" + std::to_string(sgs);
        if (bps > 1) (s += 'p') += std::to_string(bps);
        return s;
    }
};

// PlanOptions::tile PIXELSxFILTERS/SUBGROUPS[pBLOCKS], e.g. 32x64/4p8.
bool matchTile(const std::string& text, Tile& t) {
    const TileSpec s = parseTile(text);
    if (!s.shape({2, 1}, "p")) return false;
    const uint32_t pb = s.dim(0, 0), bn = s.dim(0, 1), sgs = s.dim(1, 0), bps = s.tag(1, 'p').value_or(1);
    if ((pb != 16 && pb != 32) || bn == 0 || bn % kFrag || bn / kFrag > kMaxFilterFrags) return false;
    if (sgs < 1 || sgs > 16 || bps < 1 || bps > 64) return false;
    t = {pb / kFrag, bn / kFrag, sgs, bps};
    return t.fm * t.fn <= 2 * kMaxAccumulators;
}

uint32_t reductionSteps(const ConvDesc& d) { return uint32_t((d.c + kFrag - 1) / kFrag); }

// Mirrors the shader's layout: rows of 2*KS words padded to an odd count; per subgroup its block
// (NCHW: 16*KS channel rows of PB/8 words, padded to an odd count) or (the same memory) a
// 16 x 16 fp32 scratch.
uint64_t sharedBytes(const ConvDesc& d, const Tile& t) {
    uint64_t ldw = 2 * reductionSteps(d) + 1, scratch = 64;
    uint64_t block = d.inputLayout == TensorLayout::NCHW ? kFrag * reductionSteps(d) * (t.pb() / 8 + 1) : t.pb() * ldw;
    return 16 * (t.bn() * ldw + uint64_t(t.sgs) * std::max(block, scratch));
}

uint64_t blocks(const ConvDesc& d, const Tile& t) {
    return (uint64_t(d.n) * d.outH() * d.outW() + t.pb() - 1) / t.pb();
}
uint64_t gridX(const ConvDesc& d, const Tile& t) {
    uint64_t perWg = uint64_t(t.sgs) * t.bps;
    return (blocks(d, t) + perWg - 1) / perWg;
}
uint64_t gridY(const ConvDesc& d, const Tile& t) { return (uint64_t(d.k) + t.bn() - 1) / t.bn(); }

// The layers the router sends here for their few channels: at most 64, in one filter slab of at
// most 128, or at most 32 in any number of slabs (docs/performance.md, "pointwise_coopmat").
bool fewChannelClass(const ConvDesc& d) { return d.c <= 64 && (d.k <= int64_t(kSlabFrags * kFrag) || d.c <= 32); }

// ... and the small layers it sends here past that: up to 192 channels and 2^18 outputs
// (MobileNetV2's projections and 64-192-channel expansions at batch 1), in 32-filter slabs.  There
// the general kernel's workgroups are a few latency-bound slices each, and on the H200 this
// kernel's 16x32/4 tile beat it on each such layer, while at batch 32 (0.4-3.6 million outputs) it
// was slower, and with 256 channels (one subgroup per workgroup in 48 KiB) much slower
// (docs/performance.md, "pointwise_coopmat").
bool smallLayerClass(const ConvDesc& d) {
    return !fewChannelClass(d) && d.c <= 192 && d.n * d.outH() * d.outW() * d.k <= (int64_t(1) << 18);
}

Tile chooseTile(const ContextImpl& ctx, const ConvDesc& d, const std::string& forced) {
    Tile t;
    if (!forced.empty()) return matchTile(forced, t) && sharedBytes(d, t) <= ctx.caps.maxSharedMemory ? t : Tile{};
    const uint32_t kf = uint32_t((d.k + kFrag - 1) / kFrag);
    // The fewest slabs whose filters and at least one subgroup's block fit shared memory (deep
    // reductions: narrower slabs); small layers: slabs of two fragments, for more workgroups.
    const uint32_t slabFrags = smallLayerClass(d) ? 2 : kSlabFrags;
    for (uint32_t slabs = (kf + slabFrags - 1) / slabFrags; slabs <= kf; ++slabs) {
        t.fn = (kf + slabs - 1) / slabs;
        // 32-pixel blocks only for the narrowest slabs (faster on MobileNetV2's 16-filter
        // projection); 16 elsewhere (32x64/4 lost on 64 -> 64).  Past 64 channels a 32-pixel
        // block's words in flight would be 48+ registers per invocation.
        t.fm = t.fn <= 2 && d.c <= 64 && slabFrags == kSlabFrags ? 2 : 1;
        for (t.sgs = 4; t.sgs >= 1; t.sgs /= 2)
            if (sharedBytes(d, t) <= ctx.caps.maxSharedMemory) break;
        if (t.sgs > 0) break;
    }
    if (t.sgs == 0) return Tile{};
    const double units = ctx.model.computeUnits;
    while (t.bps < kMaxBlocksPerSubgroup &&
           double(gridX(d, Tile{t.fm, t.fn, t.sgs, t.bps * 2}) * gridY(d, t)) >= ctx.model.pointwiseFill * units)
        t.bps *= 2;
    return t;
}

std::string shaderName(DType t) {
    return std::string("pointwise_coopmat_") + (coopmatEmulated(t) ? "emu_" : "") + dtypeSuffix(t);
}

class PointwiseCoopmatInstance final : public SingleDispatchInstance {
public:
    PointwiseCoopmatInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o)
        : SingleDispatchInstance(ctx, d), desc_(d), tile_(chooseTile(ctx, d, o.tile)), sg_(coopmatSubgroup(ctx.caps)) {
        // The filters in registers for the whole workgroup where they are at most 8 fragments
        // (32 registers per invocation on a 32-wide subgroup).
        bResident_ = reductionSteps(d) * tile_.fn <= 8 && !coopmatEmulated(d.dtype);
        // 16-byte words: NHWC 8 channels of a pixel (C % 8 == 0 by contract) and 8 filters;
        // NCHW 8 pixels of a channel or filter, which must not straddle two images.
        nchw_ = d.inputLayout == TensorLayout::NCHW;
        const bool hw8 = d.h * d.w % 8 == 0;
        vecIn_ = !nchw_ || hw8;
        vecOut_ = nchw_ ? hw8 : d.k % 8 == 0;
        epi16_ = !nchw_ && coopmatHalfScratch(ctx.caps, d, vecOut_);
        vectorPipeline_ = &pipeline(true);
        gx_ = uint32_t(gridX(d, tile_));
        gy_ = uint32_t(gridY(d, tile_));
    }
    std::string name() const override { return "pointwise_coopmat"; }
    std::string config() const override {
        return "tile " + tile_.name() + " ks " + std::to_string(reductionSteps(desc_)) + (bResident_ ? " bres" : "") +
               (vecIn_ ? (vecOut_ ? " vec8IWO" : " vec8IW") : "") + (nchw_ ? " nchw" : "") + (epi16_ ? " epi16" : "") +
               " sg" + std::to_string(sg_.size) + (coopmatEmulated(desc_.dtype) ? " EMULATED" : "");
    }

private:
    // 16-byte loads and stores need 16-byte aligned views; otherwise element-wise ones (RADV's
    // storage-buffer offsets need only 4-byte alignment).  Devices that align every offset to 16
    // (lavapipe) never take the element-wise pipeline: the tests reach it through the
    // pointwise_vec=0 hook.
    const ComputePipeline& pipelineFor(const ConvTensors& t) const override {
        bool aligned = t.input.offset % 16 == 0 && t.filter.offset % 16 == 0 && t.output.offset % 16 == 0;
        return aligned && testHookOr("pointwise_vec", true) ? *vectorPipeline_ : pipeline(false);
    }
    const ComputePipeline& pipeline(bool vec) const {
        const Tile& t = tile_;
        PipelineKey key = convPipelineKey(shaderName(desc_.dtype), desc_, t.sgs * sg_.size, sg_.required);
        uint32_t vecBits = vec ? (vecIn_ ? 1u : 0u) | (vecOut_ ? 2u : 0u) : 0u;
        key.spec.insert(key.spec.end(), {{kSpecFM, t.fm},
                                         {kSpecFN, t.fn},
                                         {kSpecKS, reductionSteps(desc_)},
                                         {kSpecSGS, t.sgs},
                                         {kSpecLanes, sg_.size},
                                         {kSpecBPS, t.bps},
                                         {kSpecBResident, bResident_ ? 1u : 0u},
                                         {kSpecVec, vecBits},
                                         {kSpecEpi16, vec && epi16_ ? 1u : 0u},
                                         {kSpecNchw, nchw_ ? 1u : 0u}});
        key.fullSubgroups = true;  // gl_SubgroupID names a whole subgroup's blocks
        return ctx_.pipelines->get(key);
    }

    ConvDesc desc_;
    Tile tile_;
    SubgroupChoice sg_;
    bool bResident_ = false, nchw_ = false, vecIn_ = true, vecOut_ = false, epi16_ = false;
    const ComputePipeline* vectorPipeline_ = nullptr;
};

}  // namespace

std::string pointwiseCoopmatWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    Tile forced;
    if (!o.tile.empty() && !matchTile(o.tile, forced))
        return noTileError(parseTile(o.tile),
                           "16 or 32 pixels x filters (a multiple of 16, at most 256) / subgroups [p blocks per "
                           "subgroup], at most 16 accumulators per subgroup, e.g. 32x64/4p8");
    if (std::string w = coopmatDeviceWhyNot(ctx, d.dtype, shaderName(d.dtype)); !w.empty()) return w;
    if (std::string w = coopmatFragment16WhyNot(ctx.caps, d.dtype); !w.empty()) return w;
    if (d.r != 1 || d.s != 1)
        return "a " + std::to_string(d.r) + "x" + std::to_string(d.s) + " filter is not pointwise (1x1 only)";
    if (d.strideH != 1 || d.strideW != 1)
        return "stride " + std::to_string(d.strideH) + "x" + std::to_string(d.strideW) + " (stride 1 only)";
    if (d.padTop || d.padBottom || d.padLeft || d.padRight)
        return "padding (a 1x1 stride-1 layer without padding only)";
    if (d.groups != 1) return "groups = " + std::to_string(d.groups) + " (one group only)";
    // (A 1x1 filter's KRSC and KCRS are the same array.)
    if (d.inputLayout != d.outputLayout) return "needs the output in the input's layout (NHWC or NCHW)";
    if (d.c % 8 != 0) return "C = " + std::to_string(d.c) + " is not a multiple of 8 (16-byte filter rows)";
    if (d.c > kMaxChannels)
        return "C = " + std::to_string(d.c) + " is above " + std::to_string(kMaxChannels) +
               " (the reduction is staged whole)";
    if (std::string w = coopmatFixedSubgroupWhyNot(ctx.caps, o.subgroupSize, "the kernel's blocks are laid out");
        !w.empty())
        return w;
    SubgroupChoice sg = coopmatSubgroup(ctx.caps);
    Tile t = chooseTile(ctx, d, o.tile);
    if (t.fm == 0) {
        Tile least = o.tile.empty() ? Tile{1, 1, 1, 1} : forced;
        return "tile " + least.name() + " needs " + std::to_string(sharedBytes(d, least)) +
               " bytes of shared memory; the device has " + std::to_string(ctx.caps.maxSharedMemory);
    }
    if (std::string w = workgroupWhyNot(ctx, uint64_t(t.sgs) * sg.size, sg.required); !w.empty())
        return "tile " + t.name() + ": " + w;
    return gridWhyNot(ctx, gridX(d, t), gridY(d, t), "pixel-block groups", "filter slabs");
}

// The router's question: one filter slab, or few enough channels that reading the input once per
// slab stays cheap.  With 64 channels in 2-3 slabs (ResNet-50's 64 -> 256, MobileNetV2's 64 ->
// 384) it lost to implicit_gemm_coopmat on the H200 at b32; with one slab, or 24-32 channels in
// two, it won (docs/performance.md, "pointwise_coopmat").
bool pointwiseCoopmatPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    // NCHW layers are pointwiseCoopmatNchwPays' question, asked before the NCHW routes.
    if (d.inputLayout == TensorLayout::NCHW || !pointwiseCoopmatWhyNot(ctx, d, o).empty()) return false;
    return fewChannelClass(d) || smallLayerClass(d);
}

// 16-bit NCHW: where H*W % 8 == 0 (16-byte words of 8 pixels; the element-wise path ran 2-16x
// slower) and the reduction is short: up to 144 channels with one slab's worth of filters (at
// most 192) or up to 2^21 outputs, and up to 192 channels on small layers (2^18 outputs).  On the
// H200 it beat the router's NCHW choices before (implicit_gemm_coopmat on its own NCHW staging,
// coopmat_nhwc's transposes, the scalar GEMM) on MobileNetV2's and ResNet-50's such layers at b32
// and b1, and lost with 192 channels at b32, 256 filters of 64 channels at b32 and 256 channels
// anywhere (one subgroup per workgroup) (docs/performance.md, "pointwise_coopmat").
// From 64 channels over more than 4096 pixels the general kernel's NCHW staging in 16-byte words
// (coopmatNchwWordLoads) is faster (MobileNetV2's 96-144-channel projections and ResNet-50's
// 64-channel layer at b32); the 16-32-channel expansions stayed faster here, and so did every
// layer at b1 (docs/performance.md, "NCHW layers").
constexpr int64_t kNchwWordsMinChannels = 64;
constexpr int64_t kNchwWordsMinPixels = 4096;
bool pointwiseCoopmatNchwPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (d.inputLayout != TensorLayout::NCHW || d.h * d.w % 8 != 0 || !pointwiseCoopmatWhyNot(ctx, d, o).empty())
        return false;
    const int64_t outputs = d.outputElements();
    if (d.c >= kNchwWordsMinChannels && d.n * d.outH() * d.outW() > kNchwWordsMinPixels && coopmatNchwWordLoads(d))
        return false;
    return (d.c <= 144 && (d.k <= 192 || outputs <= (int64_t(1) << 21))) ||
           (d.c <= 192 && outputs <= (int64_t(1) << 18));
}

std::unique_ptr<AlgorithmInstance> pointwiseCoopmatInstantiate(ContextImpl& ctx, const ConvDesc& d,
                                                               const PlanOptions& o) {
    return std::make_unique<PointwiseCoopmatInstance>(ctx, d, o);
}

// MobileNetV2's expansion layers (16, 24, 32, 64 channels; 96-384 filters in one to three
// slabs), ResNet-50's 64 -> 64 and 64 -> 256, an 8-channel layer with 20 filters (element
// stores), a 144-channel projection at batch 1 (a small layer) and 256 channels (one subgroup),
// x fp16/bf16; the last column: nothing fused (fp16: the fp16 scratch, EPI16).
std::vector<std::pair<ConvDesc, PlanOptions>> pointwiseCoopmatVariants(const ContextImpl&) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    const int64_t shapes[][4] = {{16, 96, 112, 1}, {24, 144, 56, 0}, {32, 192, 28, 0},
                                 {64, 384, 14, 0}, {64, 64, 56, 1},  {64, 256, 56, 0},
                                 {8, 20, 32, 0},   {144, 24, 56, 1}, {256, 64, 56, 0}};
    for (const auto& s : shapes)
        for (DType dt : {DType::F16, DType::BF16}) {
            ConvDesc d;
            d.c = s[0];
            d.k = s[1];
            d.h = d.w = s[2];
            d.r = d.s = 1;
            d.pad(0, 0);
            d.dtype = dt;
            if (!s[3]) d.hasBias = true, d.activation = Activation::Relu6;
            makeNhwc(d);
            v.push_back({d, PlanOptions{"pointwise_coopmat"}});
        }
    // NCHW: 16-byte pixel words (56x56) with bias + ReLU6, and element-wise ones (14x14: H*W % 8 == 4).
    for (int64_t hw : {56, 14})
        for (DType dt : {DType::F16, DType::BF16}) {
            ConvDesc d;
            d.c = 24;
            d.k = 144;
            d.h = d.w = hw;
            d.r = d.s = 1;
            d.pad(0, 0);
            d.dtype = dt;
            d.hasBias = true, d.activation = Activation::Relu6;
            v.push_back({d, PlanOptions{"pointwise_coopmat"}});
        }
    return v;
}

}  // namespace vkconv
