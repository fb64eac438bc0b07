// "gemv" (shaders/gemv.comp): layers of at most 32 output pixels whose filter rows and input
// windows are contiguous runs of one reduction length D: 1x1 unpadded filters (any stride, any
// layouts, groups), or a filter covering the whole unpadded input (one output pixel) with the
// activations in the filter's order (NCHW with KCRS; NHWC with KRSC and one group).  Such a
// layer (a squeeze-excitation 1x1 layer on a 1x1 map, a classifier) is a matrix-vector product:
// its time is the filter's read.  A team of LANES invocations reads one filter row in 16-byte
// words against the pixels' input values, staged in shared memory once per chunk of the row; its
// sums are added by subgroup operations.
// Tile "<invocations>x<lanes>"; the choice (no timing): 256 invocations; the fewest lanes that
// read a staged chunk of the row in at most 4 words each (1 or 2 from 16 or 8 pixels), doubled while the grid has fewer
// than two workgroups per compute unit (a layer of few filters: more of the GPU reads them).
#include <algorithm>
#include <cstdio>

#include "conv/algorithm.hpp"
#include "conv/tile_syntax.hpp"
#include "conv/registry.hpp"
#include "conv/dispatch.hpp"
#include "conv/tile_score.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kMaxPixels = 32;           // one fp32 sum per pixel per invocation
constexpr uint32_t kStageBudget = 24 * 1024;  // shared bytes of the staged input chunk
constexpr uint32_t kWorkgroup = 256;

enum SpecGemv : uint32_t {
    kSpecLanes = 101,
    kSpecMP = 102,
    kSpecNVC = 103,
    kSpecVecW = 104,
    kSpecVecX = 105,
    kSpecRedN = 106,
};

struct Tile {
    uint32_t wg = 0, lanes = 0;
    std::string name() const { return std::to_string(wg) + "x" + std::to_string(lanes); }
};

bool isPow2(uint32_t v) { return v && (v & (v - 1)) == 0; }

// PlanOptions::tile INVOCATIONSxLANES, e.g. 256x32.
bool matchTile(const std::string& text, Tile& t) {
    const TileSpec s = parseTile(text);
    if (!s.shape({2})) return false;
    const uint32_t wg = s.dim(0, 0), lanes = s.dim(0, 1);
    t = {wg, lanes};
    return (wg == 64 || wg == 128 || wg == 256) && isPow2(lanes) && lanes <= wg;
}

uint32_t valuesPerWord(const ConvDesc& d) { return d.dtype == DType::F32 ? 4 : 8; }
bool pointwise(const ConvDesc& d) {
    return d.r == 1 && d.s == 1 && !d.padTop && !d.padBottom && !d.padLeft && !d.padRight;
}
uint64_t reduction(const ConvDesc& d) { return uint64_t(d.reductionLength()); }
// Input elements between consecutive reduction values: a 1x1 filter over NCHW steps channel planes.
uint64_t inputStride(const ConvDesc& d) {
    return pointwise(d) && d.inputLayout == TensorLayout::NCHW ? uint64_t(d.h) * d.w : 1;
}
uint64_t pixels(const ConvDesc& d) { return uint64_t(d.n) * d.outH() * d.outW(); }
uint32_t stagedPixels(const ConvDesc& d) {
    uint32_t mp = 1;
    while (mp < pixels(d)) mp *= 2;
    return mp;
}
// Words a lane loads at once (the shader's UNR): fewer where each feeds many pixels.
uint32_t wordsPerLane(const ConvDesc& d) {
    const uint32_t mp = stagedPixels(d);
    return mp >= 16 ? 1 : mp >= 8 ? 2 : 4;
}
uint64_t rowWords(const ConvDesc& d) { return (reduction(d) + valuesPerWord(d) - 1) / valuesPerWord(d); }
// 16-byte words per staged chunk: the fewest equal chunks within the budget.
uint32_t chunkWords(const ConvDesc& d) {
    const uint64_t wordBytes = uint64_t(stagedPixels(d)) * valuesPerWord(d) * 4;
    const uint64_t most = std::max<uint64_t>(1, kStageBudget / wordBytes);
    const uint64_t chunks = (rowWords(d) + most - 1) / most;
    return uint32_t((rowWords(d) + chunks - 1) / chunks);
}
// The smallest subgroup a pipeline may run at.
uint32_t minSubgroup(const ContextImpl& ctx, uint32_t required) {
    if (required) return required;
    return std::max<uint32_t>(1, std::min(ctx.caps.minSubgroupSize, ctx.caps.subgroupSize));
}
uint32_t redFloats(const ContextImpl& ctx, const ConvDesc& d, const Tile& t, uint32_t required) {
    const uint32_t sg = minSubgroup(ctx, required);
    return t.lanes > sg ? t.wg / sg * stagedPixels(d) : 1;
}
uint64_t sharedBytes(const ContextImpl& ctx, const ConvDesc& d, const Tile& t, uint32_t required) {
    return uint64_t(stagedPixels(d)) * valuesPerWord(d) * 4 * chunkWords(d) + 4 * redFloats(ctx, d, t, required);
}
uint64_t gridX(const ConvDesc& d, const Tile& t) {
    const uint64_t rows = t.wg / t.lanes;
    return (uint64_t(d.filtersPerGroup()) + rows - 1) / rows;
}

Tile chooseTile(const ContextImpl& ctx, const ConvDesc& d, const std::string& forced) {
    Tile t;
    if (!forced.empty()) return matchTile(forced, t) ? t : Tile{};
    t.wg = kWorkgroup;
    const uint64_t words = chunkWords(d);
    t.lanes = 1;
    while (t.lanes < t.wg && uint64_t(t.lanes) * wordsPerLane(d) < words) t.lanes *= 2;
    const double units = ctx.model.computeUnits;
    while (t.lanes < t.wg && t.lanes < words && double(gridX(d, t) * uint64_t(d.groups)) < ctx.model.gemvFill * units)
        t.lanes *= 2;
    return t;
}

std::string geometryWhyNot(const ConvDesc& d) {
    if (pixels(d) > kMaxPixels)
        return "N*P*Q = " + std::to_string(pixels(d)) + " output pixels (at most " + std::to_string(kMaxPixels) +
               ": each invocation keeps one sum per pixel)";
    if (pointwise(d)) return "";
    const bool whole = d.outH() == 1 && d.outW() == 1 && d.r == d.h && d.s == d.w && !d.padTop && !d.padBottom &&
                       !d.padLeft && !d.padRight;
    if (!whole)
        return "the filter is neither 1x1 without padding nor the whole unpadded input (a window of " +
               std::to_string(d.r) + "x" + std::to_string(d.s) + " over " + std::to_string(d.h) + "x" +
               std::to_string(d.w) + ")";
    if (d.inputLayout == TensorLayout::NCHW && d.filterLayout != FilterLayout::KCRS)
        return "a whole-input window over NCHW activations needs KCRS filters (the reduction in one order)";
    if (d.inputLayout == TensorLayout::NHWC && d.filterLayout != FilterLayout::KRSC)
        return "a whole-input window over NHWC activations needs KRSC filters (the reduction in one order)";
    if (d.inputLayout == TensorLayout::NHWC && d.groups != 1)
        return "a whole-input window over NHWC activations with groups = " + std::to_string(d.groups) +
               " (a group's values are not one run)";
    return "";
}

class GemvInstance final : public SingleDispatchInstance {
public:
    GemvInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o)
        : SingleDispatchInstance(ctx, d), desc_(d), tile_(chooseTile(ctx, d, o.tile)), sg_(o.subgroupSize) {
        pc_.aux0 = uint32_t(reduction(d));
        pc_.aux1 = uint32_t(inputStride(d));
        wordRows_ = reduction(d) % valuesPerWord(d) == 0;
        wordInput_ = wordRows_ && inputStride(d) == 1;
        vectorPipeline_ = &pipeline(wordRows_, wordInput_);
        gx_ = uint32_t(gridX(d, tile_));
        gy_ = uint32_t(d.groups);
    }
    std::string name() const override { return "gemv"; }
    std::string config() const override {
        return "tile " + tile_.name() + " px" + std::to_string(stagedPixels(desc_)) + " nvc" +
               std::to_string(chunkWords(desc_)) + (wordRows_ ? (wordInput_ ? " vec16WX" : " vec16W") : std::string()) +
               (sg_ ? " sg" + std::to_string(sg_) : std::string());
    }

private:
    // 16-byte loads need 16-byte aligned views; otherwise element loads.
    const ComputePipeline& pipelineFor(const ConvTensors& t) const override {
        const bool w = wordRows_ && t.filter.offset % 16 == 0;
        const bool x = wordInput_ && t.input.offset % 16 == 0;
        return w == wordRows_ && x == wordInput_ ? *vectorPipeline_ : pipeline(w, x);
    }
    const ComputePipeline& pipeline(bool vecW, bool vecX) const {
        const ConvDesc& d = desc_;
        PipelineKey key = convPipelineKey(std::string("gemv_") + dtypeSuffix(d.dtype), d, tile_.wg, sg_);
        key.spec.insert(key.spec.end(), {{kSpecLanes, tile_.lanes},
                                         {kSpecMP, stagedPixels(d)},
                                         {kSpecNVC, chunkWords(d)},
                                         {kSpecVecW, vecW ? 1u : 0u},
                                         {kSpecVecX, vecX ? 1u : 0u},
                                         {kSpecRedN, redFloats(ctx_, d, tile_, sg_)}});
        key.fullSubgroups = true;  // teams are numbered by gl_SubgroupID
        return ctx_.pipelines->get(key);
    }

    ConvDesc desc_;
    Tile tile_;
    uint32_t sg_;
    bool wordRows_ = false, wordInput_ = false;  // 16-byte filter rows; 16-byte input runs
    const ComputePipeline* vectorPipeline_ = nullptr;
};

}  // namespace

std::string gemvWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    Tile t;
    if (!o.tile.empty() && !matchTile(o.tile, t))
        return noTileError(parseTile(o.tile),
                           "invocations 64/128/256 x invocations per filter row, a power of two up to the workgroup, "
                           "e.g. 256x32");
    if (!ctx.caps.subgroupArithmetic || !ctx.caps.subgroupShuffle)
        return "the device lacks subgroup arithmetic or shuffles (the row sums are added across a subgroup)";
    if (!ctx.caps.computeFullSubgroups)
        return "the device cannot require full subgroups (the kernel numbers its filter rows by subgroup)";
    if (std::string w = geometryWhyNot(d); !w.empty()) return w;
    t = chooseTile(ctx, d, o.tile);
    if (std::string w = workgroupWhyNot(ctx, t.wg, o.subgroupSize); !w.empty()) return "tile " + t.name() + ": " + w;
    if (uint64_t b = sharedBytes(ctx, d, t, o.subgroupSize); b > ctx.caps.maxSharedMemory)
        return "tile " + t.name() + " needs " + std::to_string(b) + " bytes of shared memory; the device has " +
               std::to_string(ctx.caps.maxSharedMemory);
    return gridWhyNot(ctx, gridX(d, t), uint64_t(d.groups), "filter row blocks", "groups");
}

std::unique_ptr<AlgorithmInstance> gemvInstantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return std::make_unique<GemvInstance>(ctx, d, o);
}

// Layers of at most 8 output pixels: their time is the filter's read (the products per filter
// byte are too few to matter), which this kernel does once, in 16-byte words, spread over the
// GPU (docs/performance.md, "gemv").
constexpr uint64_t kRoutedPixels = 8;
bool gemvPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return pixels(d) <= kRoutedPixels && gemvWhyNot(ctx, d, o).empty();
}

// Squeeze-excitation layers (1152 -> 48 with bias and SiLU, 48 -> 1152 with bias and sigmoid; one
// pixel: the longest rows, then many short ones), a classifier over 2x2 pixels (NCHW: the
// element-wise staging), a row length that is not a multiple of the word (element-wise filter
// loads), and 32 pixels (the most sums per invocation), every dtype, x wave32/wave64 on the first.
std::vector<std::pair<ConvDesc, PlanOptions>> gemvVariants(const ContextImpl& ctx) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    const std::vector<uint32_t> sgs = variantSubgroupSizes(ctx);
    const int64_t shapes[][5] = {// c, k, n, h (= w), NHWC
                                 {1152, 48, 1, 1, 1},
                                 {48, 1152, 1, 1, 0},
                                 {1280, 1000, 1, 2, 0},
                                 {20, 480, 1, 1, 1},
                                 {1152, 48, 32, 1, 1}};
    for (size_t i = 0; i < std::size(shapes); ++i)
        for (DType dt : {DType::F32, DType::F16, DType::BF16})
            for (uint32_t sg : sgs) {
                if (i > 0 && sg) continue;
                ConvDesc d;
                d.c = shapes[i][0];
                d.k = shapes[i][1];
                d.n = shapes[i][2];
                d.h = d.w = shapes[i][3];
                d.dtype = dt;
                d.hasBias = true;
                d.activation = i % 2 ? Activation::Sigmoid : Activation::Silu;
                if (shapes[i][4]) makeNhwc(d);
                v.push_back({d, PlanOptions{"gemv", sg}});
            }
    return v;
}

}  // namespace vkconv
