// "dgrad_implicit_gemm" (shaders/dgrad_implicit_gemm.comp): backward-data as a scalar tiled
// implicit GEMM per stride phase, without zero insertion: one dispatch, the phases along z, each
// phase's GEMM (its dx pixels x the group's channels, reduced over K/groups x the taps that reach
// the phase) tiled as implicit_gemm tiles the forward one.  Every dtype, layout, padding, stride,
// dilation and group count.
#include <algorithm>

#include "conv/dispatch.hpp"
#include "conv/gradient.hpp"
#include "conv/tile_score.hpp"
#include "conv/tile_syntax.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

PlanOptions withDefaultSubgroup(const ContextImpl& ctx, PlanOptions o);  // algo_implicit_gemm.cpp

namespace {

struct DgradTile {
    const char* name;
    uint32_t bm, bn, bk, tm, tn;
    constexpr uint32_t threads() const { return (bm / tm) * (bn / tn); }
    constexpr uint32_t sharedBytes() const { return 2 * bk * (bm + bn) * 4; }
};

// The forward kernel's tiles (algo_implicit_gemm.cpp), by falling column count.
constexpr DgradTile kTiles[] = {
    {"128x128x8/8x8", 128, 128, 8, 8, 8}, {"128x64x8/8x4", 128, 64, 8, 8, 4}, {"64x64x8/4x4", 64, 64, 8, 4, 4},
    {"128x32x8/4x4", 128, 32, 8, 4, 4},   {"64x16x8/4x4", 64, 16, 8, 4, 4},
};
constexpr bool tilesDivide() {
    for (const auto& t : kTiles)
        if ((t.bm * t.bk) % t.threads() || (t.bn * t.bk) % t.threads() || t.tm % 4 || t.tn % 4) return false;
    return true;
}
static_assert(tilesDivide(), "dgrad_implicit_gemm.comp: whole staged items per invocation, 4-blocks of registers");

enum SpecDgradIgemm : uint32_t { kSpecBM = 101, kSpecBN, kSpecBK, kSpecTM, kSpecTN, kSpecKSlices };

// The table's tile a parsed PlanOptions::tile names: BMxBNxBK/TMxTN.
const DgradTile* findTile(const TileSpec& s) {
    for (const auto& t : kTiles)
        if (s.is({{t.bm, t.bn, t.bk}, {t.tm, t.tn}})) return &t;
    return nullptr;
}
const DgradTile* findTile(const std::string& name) { return findTile(parseTile(name)); }

// The grid: the largest phase's pixel tiles x (groups x channel tiles) x phases.
struct Grid {
    uint64_t x, y, z;
};
Grid gridOf(const DataGradProblem& p, const DgradTile& t) {
    const ConvDesc& d = p.conv;
    uint64_t rows =
        uint64_t(d.n) * uint64_t((d.h + d.strideH - 1) / d.strideH) * uint64_t((d.w + d.strideW - 1) / d.strideW);
    return {(rows + t.bm - 1) / t.bm, uint64_t(d.groups) * ((uint64_t(d.channelsPerGroup()) + t.bn - 1) / t.bn),
            uint64_t(d.strideH * d.strideW)};
}

std::string tileWhyNot(const ContextImpl& ctx, const DataGradProblem& p, const DgradTile& t, uint32_t sg) {
    const auto& c = ctx.caps;
    if (t.sharedBytes() > c.maxSharedMemory) return "tile " + std::string(t.name) + " exceeds the shared memory";
    if (std::string why = workgroupWhyNot(ctx, t.threads(), sg); !why.empty())
        return "tile " + std::string(t.name) + ": " + why;
    Grid g = gridOf(p, t);
    if (std::string why = gridWhyNot(ctx, g.x, g.y, "dx pixel tiles of a phase", "groups x channel tiles");
        !why.empty())
        return "tile " + std::string(t.name) + ": " + why;
    if (g.z > c.maxWorkgroupCount[2]) return "too many stride phases for one dispatch";
    return "";
}

// The tile rule: the narrowest tile that covers the group's channels (16, 32, 64, 128 columns),
// then the 64x64 tile wherever the larger one would leave fewer than two workgroups per compute
// unit; the first of those that fits the device, else any that does.
const DgradTile* chooseTile(const ContextImpl& ctx, const DataGradProblem& p, uint32_t sg) {
    const int64_t cg = p.conv.channelsPerGroup();
    const char* want = cg <= 16   ? "64x16x8/4x4"
                       : cg <= 32 ? "128x32x8/4x4"
                       : cg <= 64 ? "128x64x8/8x4"
                                  : "128x128x8/8x8";
    const DgradTile* t = findTile(want);
    if (t->bn >= 64) {
        Grid g = gridOf(p, *t);
        if (double(g.x * g.y * g.z) < 2.0 * ctx.model.computeUnits) t = findTile("64x64x8/4x4");
    }
    if (tileWhyNot(ctx, p, *t, sg).empty()) return t;
    for (const auto& k : kTiles)
        if (tileWhyNot(ctx, p, k, sg).empty()) return &k;
    return nullptr;
}

class DgradImplicitGemmInstance final : public AlgorithmInstance {
public:
    DgradImplicitGemmInstance(ContextImpl& ctx, const DataGradProblem& p, uint32_t sg, const DgradTile& tile)
        : ctx_(ctx), pc_(dataGradPushConstants(p)), tile_(tile), sg_(sg) {
        kSlices_ = p.conv.filtersPerGroup() % tile.bk == 0;
        PipelineKey key = gradPipelineKey(std::string("dgrad_implicit_gemm_") + dtypeSuffix(p.conv.dtype), p.conv,
                                          p.accumulate, tile.threads(), sg);
        key.spec.push_back({kSpecBM, tile.bm});
        key.spec.push_back({kSpecBN, tile.bn});
        key.spec.push_back({kSpecBK, tile.bk});
        key.spec.push_back({kSpecTM, tile.tm});
        key.spec.push_back({kSpecTN, tile.tn});
        key.spec.push_back({kSpecKSlices, kSlices_ ? 1u : 0u});
        pipeline_ = &ctx.pipelines->get(key);
        grid_ = gridOf(p, tile);
    }
    void recordDataGrad(VkCommandBuffer cmd, const DataGradTensors& t) const override {
        bindDataGradTensors(ctx_, cmd, *pipeline_, t);
        pushConstants(ctx_, cmd, *pipeline_, pc_);
        cmdDispatch(ctx_, cmd, uint32_t(grid_.x), uint32_t(grid_.y), uint32_t(grid_.z));
    }
    std::string name() const override { return "dgrad_implicit_gemm"; }
    std::string config() const override {
        return std::string("tile ") + tile_.name + " phases " + std::to_string(grid_.z) +
               (kSlices_ ? " k-slices" : " taps") + (sg_ ? " sg" + std::to_string(sg_) : std::string());
    }

private:
    ContextImpl& ctx_;
    ConvPushConstants pc_;
    const DgradTile& tile_;
    uint32_t sg_;
    bool kSlices_ = false;
    Grid grid_{};
    const ComputePipeline* pipeline_;
};

}  // namespace

std::string dgradImplicitGemmWhyNot(const ContextImpl& ctx, const DataGradProblem& p, const PlanOptions& o) {
    const uint32_t sg = withDefaultSubgroup(ctx, o).subgroupSize;
    if (o.subgroupSize && (!ctx.caps.subgroupSizeControl || o.subgroupSize < ctx.caps.minSubgroupSize ||
                           o.subgroupSize > ctx.caps.maxSubgroupSize))
        return "subgroup size " + std::to_string(o.subgroupSize) + " cannot be required on this device";
    if (!o.tile.empty()) {
        const TileSpec spec = parseTile(o.tile);
        const DgradTile* t = findTile(spec);
        if (!t) return noTileError(spec, tileNames(kTiles, [](const DgradTile& k) { return k.name; }));
        return tileWhyNot(ctx, p, *t, sg);
    }
    if (!chooseTile(ctx, p, sg)) return tileWhyNot(ctx, p, kTiles[std::size(kTiles) - 1], sg);
    return "";
}

std::unique_ptr<AlgorithmInstance> dgradImplicitGemmInstantiate(ContextImpl& ctx, const DataGradProblem& p,
                                                                const PlanOptions& o) {
    const uint32_t sg = withDefaultSubgroup(ctx, o).subgroupSize;
    const DgradTile* t = o.tile.empty() ? chooseTile(ctx, p, sg) : findTile(o.tile);  // whyNot checked
    return std::make_unique<DgradImplicitGemmInstance>(ctx, p, sg, *t);
}

// Every tile x dtype x layout pairing (NCHW/KCRS, NHWC/KRSC) x reduction mode (K/groups a
// multiple of BK: one tap per slice; else per-element taps) x required subgroup size, on a
// stride-2 3x3 layer; and the transposed epilogue with accumulate.
std::vector<std::pair<DataGradProblem, PlanOptions>> dgradImplicitGemmVariants(const ContextImpl& ctx) {
    std::vector<std::pair<DataGradProblem, PlanOptions>> v;
    for (const auto& tile : kTiles)
        for (DType t : {DType::F32, DType::F16, DType::BF16})
            for (bool nhwc : {false, true})
                for (bool slices : {true, false})
                    for (uint32_t sg : variantSubgroupSizes(ctx)) {
                        DataGradProblem p;
                        p.conv.c = 64, p.conv.k = slices ? 128 : 36;
                        p.conv.h = p.conv.w = 28;
                        p.conv.r = p.conv.s = 3;
                        p.conv.pad(1, 1);
                        p.conv.strideH = p.conv.strideW = 2;
                        p.conv.dtype = t;
                        if (nhwc) makeNhwc(p.conv);
                        p.p = p.conv.outH(), p.q = p.conv.outW();
                        PlanOptions o{"dgrad_implicit_gemm", sg, tile.name};
                        o.pass = ConvPass::BackwardData;
                        v.push_back({p, o});
                    }
    for (DType t : {DType::F32, DType::F16, DType::BF16}) {
        DataGradProblem p = v.front().first;
        p.conv.dtype = t;
        p.conv.hasBias = p.conv.hasResidual = true;
        p.conv.activation = Activation::Gelu;
        p.accumulate = true;
        PlanOptions o{"dgrad_implicit_gemm"};
        o.pass = ConvPass::BackwardData;
        v.push_back({p, o});
    }
    return v;
}

}  // namespace vkconv
