// "slicedk_coopmat" (shaders/slicedk_coopmat.comp): layers of few output pixels over deep
// reductions (NHWC input with KRSC filters, which a 1x1 layer's KCRS ones are; NCHW input with
// either, the reduction in the filters' order; C % 8 == 0, one group; NHWC or NCHW output), fp16 / bf16, on the matrix
// units: a workgroup owns 16 pixels x BN filters and its subgroups split the reduction (CUTLASS's
// sliced-K), adding their fp32 partial tiles in shared memory at the end.  One dispatch, no
// workspace.  Any filter, stride, dilation and padding runs (pixel rows through the taps); the
// router sends it 1x1 stride-1 layers only (the 3x3 ones measured no faster: docs/performance.md,
// "slicedk_coopmat").
// Tile "BNxKD/SGS[aAHEAD]": BN = 16, 32 or 64 filters per workgroup, KD 16-value steps per staged
// stage, SGS subgroups, AHEAD stages' loads in flight (1, or 2: no faster on the H200, a forced
// tile only); the choice (no timing) follows the grid's size (chooseTile).
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

namespace vkconv {

namespace {

constexpr uint32_t kFrag = 16;
constexpr uint32_t kMaxSubgroups = 16;

enum SpecSk : uint32_t {
    kSpecFN = 101,
    kSpecKD = 102,
    kSpecSGS = 103,
    kSpecLanes = 104,
    kSpecVec = 105,
    kSpecIm2col = 106,
    kSpecAhead = 107,
    kSpecInNchw = 108,
    kSpecCrs = 109,
    kSpecAQuads = 110,
    kSpecAShift = 111,
};

struct Tile {
    uint32_t fn = 0, kd = 2, sgs = 8, ahead = 1;
    uint32_t bn() const { return fn * kFrag; }
    std::string name() const {
        std::string s = std::to_string(bn()) + "x" + std::to_string(kd) + "/" + std::to_string(sgs);
        if (ahead > 1) s.append("a").append(std::to_string(ahead));
        return s;
    }
};

// PlanOptions::tile FILTERSxSTEPS/SUBGROUPS[aAHEAD], e.g. 32x2/8a2.
bool matchTile(const std::string& text, Tile& t) {
    const TileSpec s = parseTile(text);
    if (!s.shape({2, 1}, "a")) return false;
    const uint32_t bn = s.dim(0, 0), kd = s.dim(0, 1), sgs = s.dim(1, 0), ahead = s.tag(1, 'a').value_or(1);
    if ((bn != 16 && bn != 32 && bn != 64) || kd < 1 || kd > 4 || sgs < 1 || sgs > kMaxSubgroups || ahead < 1 ||
        ahead > 2)
        return false;
    t = {bn / kFrag, kd, sgs, ahead};
    return true;
}

// Mirrors the shader: per subgroup, 16 + BN rows of 2*KD words padded to an odd count (NCHW
// input: the 16 pixel rows as KD*16 unpadded 2-word channel columns), or its FN 16 x 16 fp32
// partial blocks, whichever is larger.
uint64_t sharedBytes(const Tile& t, bool nchwIn) {
    uint64_t pixels = nchwIn ? 32 * uint64_t(t.kd) : 16 * uint64_t(2 * t.kd + 1);
    uint64_t stage = pixels + uint64_t(t.bn()) * (2 * t.kd + 1), tile = 64 * uint64_t(t.fn);
    return 16 * uint64_t(t.sgs) * std::max(stage, tile);
}

uint64_t reductionSteps(const ConvDesc& d) { return (uint64_t(d.r) * d.s * d.c + kFrag - 1) / kFrag; }
// A 1x1 stride-1 unpadded layer reads its pixel rows straight; anything else through the taps.
bool im2col(const ConvDesc& d) {
    return d.r != 1 || d.s != 1 || d.strideH != 1 || d.strideW != 1 || d.padTop || d.padBottom || d.padLeft ||
           d.padRight;
}
bool nchwIn(const ConvDesc& d) { return d.inputLayout == TensorLayout::NCHW; }
// The reduction in (c, r, s) order: KCRS filter rows as they are, for NCHW input (which stages
// value by value in any order); NHWC input stages 8-channel words of one tap, (r, s, c).
bool crsOrder(const ConvDesc& d) { return d.filterLayout == FilterLayout::KCRS && d.r * d.s > 1; }
// 4-pixel loads from channel planes that are not 4-pixel aligned: two words and a shift.
bool shiftedQuads(const ConvDesc& d) { return (uint64_t(d.h) * d.w) % 4 != 0; }
uint64_t outputPixels(const ConvDesc& d) { return uint64_t(d.n) * d.outH() * d.outW(); }
uint64_t gridX(const ConvDesc& d) { return (outputPixels(d) + kFrag - 1) / kFrag; }
uint64_t gridY(const ConvDesc& d, const Tile& t) { return (uint64_t(d.k) + t.bn() - 1) / t.bn(); }

// The smallest grids split each workgroup's reduction the most: 16 filters over 8 subgroups while
// the grid has at most 1.5 workgroups per compute unit, else 32 filters over 4 while it has at most
// 4, else 64 over 4 (more filters per workgroup, fewer pixel rows read again).  On the H200 at b1
// this picks within 1 us of the best of eight forced tiles on each of the layers the router sends
// here (docs/performance.md, "slicedk_coopmat").
// Where shared memory or the workgroup limit refuses it, fewer subgroups.
Tile chooseTile(const ContextImpl& ctx, const ConvDesc& d, const std::string& forced, uint32_t lanes) {
    Tile t;
    auto fits = [&](const Tile& x) {
        return sharedBytes(x, nchwIn(d)) <= ctx.caps.maxSharedMemory &&
               uint64_t(x.sgs) * lanes <= ctx.caps.maxWorkgroupInvocations;
    };
    if (!forced.empty()) return matchTile(forced, t) && fits(t) ? t : Tile{};
    const double units = ctx.model.computeUnits;
    auto grid = [&](uint32_t fn) { return double(gridX(d) * gridY(d, Tile{fn, 2, 1})); };
    const DeviceModel& m = ctx.model;
    t = grid(1) <= m.slicedKOneGroupFill * units   ? Tile{1, 2, 8}
        : grid(2) <= m.slicedKTwoGroupFill * units ? Tile{2, 2, 4}
                                                   : Tile{4, 2, 4};
    while (t.sgs > 1 && !fits(t)) t.sgs /= 2;
    return fits(t) ? t : Tile{};
}

std::string shaderName(DType t) {
    return std::string("slicedk_coopmat_") + (coopmatEmulated(t) ? "emu_" : "") + dtypeSuffix(t);
}

class SlicedKCoopmatInstance final : public SingleDispatchInstance {
public:
    SlicedKCoopmatInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o)
        : SingleDispatchInstance(ctx, d),
          desc_(d),
          sg_(coopmatSubgroup(ctx.caps)),
          tile_(chooseTile(ctx, d, o.tile, sg_.size)) {
        vecOut_ = d.k % 8 == 0 && d.outputLayout == TensorLayout::NHWC;
        vectorPipeline_ = &pipeline(true);
        gx_ = uint32_t(gridX(d));
        gy_ = uint32_t(gridY(d, tile_));
    }
    std::string name() const override { return "slicedk_coopmat"; }
    std::string config() const override {
        const std::string in = !nchwIn(desc_)                    ? ""
                               : crsOrder(desc_)                 ? " nchwIn crs"
                               : !slicedKCoopmatQuadLoads(desc_) ? " nchwIn"
                               : shiftedQuads(desc_)             ? " nchwIn4s"
                                                                 : " nchwIn4";
        return "tile " + tile_.name() + " ks " + std::to_string(reductionSteps(desc_)) + in +
               (vecOut_ ? " vec8IWO" : " vec8IW") + " sg" + std::to_string(sg_.size) +
               (coopmatEmulated(desc_.dtype) ? " EMULATED" : "");
    }

private:
    // 16-byte loads and stores need 16-byte aligned views; otherwise element-wise ones (RADV's
    // storage-buffer offsets need only 4).  Devices that align every offset to 16 (lavapipe) never
    // take the element-wise pipeline: the tests reach it through the slicedk_vec=0 hook.
    const ComputePipeline& pipelineFor(const ConvTensors& t) const override {
        bool aligned = t.input.offset % 16 == 0 && t.filter.offset % 16 == 0 && t.output.offset % 16 == 0;
        return aligned && testHookOr("slicedk_vec", true) ? *vectorPipeline_ : pipeline(false);
    }
    const ComputePipeline& pipeline(bool vec) const {
        PipelineKey key = convPipelineKey(shaderName(desc_.dtype), desc_, tile_.sgs * sg_.size, sg_.required);
        uint32_t vecBits = vec ? 1u | (vecOut_ ? 2u : 0u) : 0u;
        const bool quads = vec && slicedKCoopmatQuadLoads(desc_);
        key.spec.insert(key.spec.end(), {{kSpecFN, tile_.fn},
                                         {kSpecKD, tile_.kd},
                                         {kSpecSGS, tile_.sgs},
                                         {kSpecLanes, sg_.size},
                                         {kSpecVec, vecBits},
                                         {kSpecIm2col, im2col(desc_) ? 1u : 0u},
                                         {kSpecAhead, tile_.ahead},
                                         {kSpecInNchw, nchwIn(desc_) ? 1u : 0u},
                                         {kSpecCrs, crsOrder(desc_) ? 1u : 0u},
                                         {kSpecAQuads, quads ? 1u : 0u},
                                         {kSpecAShift, quads && shiftedQuads(desc_) ? 1u : 0u}});
        key.fullSubgroups = true;  // gl_SubgroupID names a whole subgroup's run of the reduction
        return ctx_.pipelines->get(key);
    }

    ConvDesc desc_;
    SubgroupChoice sg_;
    Tile tile_;
    bool vecOut_ = false;
    const ComputePipeline* vectorPipeline_ = nullptr;
};

}  // namespace

// NCHW 1x1 stride-1 unpadded layers load 4 pixels of a channel at a time (on 16-byte aligned
// views) where an image's channel planes are 4-pixel aligned, or where there is one image (its
// quads never straddle images; two loads and a shift where the planes are not aligned); others
// 16-bit values, a division per value through the taps.  On the H200 at b1 the 16-bit loads ran
// ResNet-50's 1024-channel 14x14 layer at over twice the time behind the transposes
// (docs/performance.md, "slicedk_coopmat").
bool slicedKCoopmatQuadLoads(const ConvDesc& d) {
    return nchwIn(d) && !im2col(d) && (d.n == 1 || (uint64_t(d.h) * d.w) % 4 == 0);
}

std::string slicedKCoopmatWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    Tile forced;
    if (!o.tile.empty() && !matchTile(o.tile, forced))
        return noTileError(parseTile(o.tile),
                           "filters 16, 32 or 64 x 16-value steps per stage 1-4 / subgroups 1-16 [a stages ahead "
                           "1-2], e.g. 32x2/8a2");
    if (std::string w = coopmatDeviceWhyNot(ctx, d.dtype, shaderName(d.dtype)); !w.empty()) return w;
    if (std::string w = coopmatFragment16WhyNot(ctx.caps, d.dtype); !w.empty()) return w;
    if (d.groups != 1) return "groups = " + std::to_string(d.groups) + " (one group only)";
    if (crsOrder(d) && !nchwIn(d))
        return "NHWC input needs KRSC filters (8-channel words of one tap are the reduction's order); KCRS with NCHW "
               "input";
    if (d.c % 8 != 0) return "C = " + std::to_string(d.c) + " is not a multiple of 8 (16-byte words of one tap)";
    if (std::string w = coopmatFixedSubgroupWhyNot(ctx.caps, o.subgroupSize, "the reduction is split"); !w.empty())
        return w;
    SubgroupChoice sg = coopmatSubgroup(ctx.caps);
    Tile t = chooseTile(ctx, d, o.tile, sg.size);
    if (t.fn == 0) {
        Tile least = o.tile.empty() ? Tile{1, 1, 1} : forced;
        return "tile " + least.name() + " needs " + std::to_string(sharedBytes(least, nchwIn(d))) +
               " bytes of shared memory and " + std::to_string(least.sgs * sg.size) + " invocations; the device has " +
               std::to_string(ctx.caps.maxSharedMemory) + " and " + std::to_string(ctx.caps.maxWorkgroupInvocations);
    }
    if (std::string w = workgroupWhyNot(ctx, uint64_t(t.sgs) * sg.size, sg.required); !w.empty())
        return "tile " + t.name() + ": " + w;
    return gridWhyNot(ctx, gridX(d), gridY(d, t), "16-pixel blocks", "filter blocks");
}

std::unique_ptr<AlgorithmInstance> slicedKCoopmatInstantiate(ContextImpl& ctx, const ConvDesc& d,
                                                             const PlanOptions& o) {
    return std::make_unique<SlicedKCoopmatInstance>(ctx, d, o);
}

// 1x1 stride-1 layers of at most 1024 pixels over at least 320 channels.  On the H200 (fp16 NHWC,
// b1) all such layers of ResNet-50 and MobileNetV2 ran faster here than on the router's
// general-kernel plan, while 256 channels lost where the general kernel's workgroups have few
// slices, and every b32 layer lost (each 16-pixel tile reads its filters again).  Through the taps
// (3x3, strided 1x1) the layers of at most 1024 pixels tied with the router's plans at best: not
// routed (docs/performance.md, "slicedk_coopmat").
// With an NCHW output (coopmat_nhwc's inner problem) from 96 channels and up to 2^17 outputs:
// there the general kernel writes pixels of 7x7-28x28 maps element by element, this kernel does
// not.  On the H200 at b1 MobileNetV2's such layers ran faster on it behind the transposes,
// ResNet-50's with more outputs slower.
constexpr int64_t kNchwOutMinChannels = 96;
constexpr uint64_t kNchwOutMaxOutputs = uint64_t(1) << 17;
bool slicedKCoopmatPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    const bool nchwOut = d.outputLayout == TensorLayout::NCHW && d.c >= kNchwOutMinChannels &&
                         uint64_t(d.outputElements()) <= kNchwOutMaxOutputs;
    if (im2col(d) || (d.c < 320 && !nchwOut) || outputPixels(d) > 1024) return false;
    return slicedKCoopmatWhyNot(ctx, d, o).empty();
}

// 16-bit NCHW 1x1 layers it reads in their own layout (4-pixel loads), asked ahead of the
// streaming pointwise kernel's and the scalar GEMM's NCHW rules: from 32 channels, up to 1024
// pixels and 2^18 outputs.  On the H200 at b1, forced here, MobileNetV2's 64-channel layer beat
// the scalar GEMM, its 144-192-channel projections at 28x28 beat pointwise_coopmat (32 channels: a
// tie) and ResNet-50's 256 -> 1024 layer at 14x14 beat the transposes; with more outputs
// pointwise_coopmat won, as on every 56x56-112x112 layer it takes (docs/performance.md,
// "slicedk_coopmat").
// What both NCHW-input routes ask first: the 4-pixel loads.
bool nchwInRoutable(const ConvDesc& d) { return slicedKCoopmatQuadLoads(d); }
constexpr int64_t kNchwInMinChannels = 32;
constexpr uint64_t kNchwInMaxPixels = 1024;
constexpr uint64_t kNchwInMaxOutputs = uint64_t(1) << 18;
bool slicedKCoopmatNchwPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (!nchwInRoutable(d) || d.c < kNchwInMinChannels || outputPixels(d) > kNchwInMaxPixels ||
        uint64_t(d.outputElements()) > kNchwInMaxOutputs)
        return false;
    return slicedKCoopmatWhyNot(ctx, d, o).empty();
}

// The NCHW route's question (nchwMatrixRoute): this kernel reading NCHW instead of coopmat_nhwc's
// transposes around `inner`, the router's kernel for the NHWC problem: where that is this kernel,
// and where it is the general kernel over up to 4096 pixels: on the H200 at b1 ResNet-50's
// 256-channel 1x1 layers at 56x56 ran faster forced here than behind the transposes.
constexpr uint64_t kNchwInOverTransposesMaxPixels = 4096;
bool slicedKCoopmatBeatsTransposes(const ConvDesc& d, const std::string& inner) {
    if (!nchwInRoutable(d)) return false;
    return inner == "slicedk_coopmat" ||
           (inner == "implicit_gemm_coopmat" && outputPixels(d) <= kNchwInOverTransposesMaxPixels);
}

// MobileNetV2's and ResNet-50's deep 1x1 layers at batch 1 (7x7 and 14x14 maps, 384-2048
// channels; the 7x7 and 14x14 ones in NCHW too, the 7x7 one at batch 2 as well), 20 filters (element stores), x
// fp16/bf16, with and without a fused epilogue.
std::vector<std::pair<ConvDesc, PlanOptions>> slicedKCoopmatVariants(const ContextImpl&) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    const int64_t shapes[][4] = {
        {960, 160, 7, 0}, {384, 64, 14, 1}, {2048, 512, 7, 0}, {1024, 256, 14, 1}, {512, 20, 7, 0}};
    for (const auto& s : shapes)
        for (DType dt : {DType::F16, DType::BF16}) {
            ConvDesc d;
            d.c = s[0];
            d.k = s[1];
            d.h = d.w = s[2];
            d.r = d.s = 1;
            d.pad(0, 0);
            d.dtype = dt;
            if (!s[3]) d.hasBias = true, d.activation = Activation::Relu;
            makeNhwc(d);
            v.push_back({d, PlanOptions{"slicedk_coopmat"}});
            if (s[0] == 960 || s[0] == 384) {  // NCHW (shifted and aligned 4-pixel staging, element stores)
                d.inputLayout = d.outputLayout = TensorLayout::NCHW;
                d.filterLayout = FilterLayout::KCRS;
                v.push_back({d, PlanOptions{"slicedk_coopmat"}});
                if (s[0] == 960) {  // two 7x7 images: 16-bit staging
                    d.n = 2;
                    v.push_back({d, PlanOptions{"slicedk_coopmat"}});
                }
            }
        }
    return v;
}

}  // namespace vkconv
