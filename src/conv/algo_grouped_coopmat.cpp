// "grouped_coopmat" (shaders/grouped_coopmat.comp): grouped layers of few channels or filters per
// group on the matrix units, fp16 / bf16 storage.  A workgroup tile covers GT consecutive groups as
// one block-diagonal GEMM: the reduction runs over their GT*C/groups contiguous channels times the
// taps, the filter columns are their GT*K/groups consecutive filters, and the staged filters are
// zero where a filter's group differs from the channel's.  The matrix units do GT x the useful
// products; every input load is a contiguous run of channels, every output store a run of filters.
// An input halo (TP output rows x TQ columns) is staged once per row step and serves every tap.
// Tile choice, no timing: GT the fewest wasted products (16-value chunks and 16-filter blocks
// against the useful ones); 16-wide filter blocks take two 16-column fragments per subgroup, wider
// ones one; the column tile (16, 32 or 64) that pads Q least; eight subgroups, as many rows as the
// shared memory allows (two column subgroups where it allows few); filters staged once per
// workgroup where they fit beside the halo (else per run of taps, else narrower filter tiles); up
// to 8 row steps while four workgroups per compute unit remain.
#include <algorithm>
#include <cstdio>

#include "conv/algorithm.hpp"
#include "conv/tile_syntax.hpp"
#include "conv/registry.hpp"
#include "conv/coopmat_support.hpp"
#include "conv/dispatch.hpp"
#include "conv/tile_score.hpp"
#include "runtime/context_impl.hpp"
#include "vkconv/error.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kFrag = 16;            // the 16x16x16 configuration the kernel is written for
constexpr int64_t kMaxPerGroup = 64;      // C/groups and K/groups
constexpr uint64_t kMaxChunkValues = 64;  // GT*C/groups, padded to 16
constexpr uint32_t kMaxGroupsPerTile = 32;

enum SpecGrouped : uint32_t {
    kSpecTP = 101,
    kSpecMQ = 102,
    kSpecNQ = 103,
    kSpecSGQ = 104,
    kSpecSGN = 105,
    kSpecCG = 106,
    kSpecKG = 107,
    kSpecGT = 108,
    kSpecFR = 109,
    kSpecFS = 110,
    kSpecSH = 111,
    kSpecSW = 112,
    kSpecDH = 113,
    kSpecDW = 114,
    kSpecPStep = 115,
    kSpecVecIn = 116,
    kSpecVecOut = 117,
    kSpecEmuLanes = 118,
    kSpecBReg = 119,
    kSpecBTaps = 120,
};

// TP rows x TQ = SGQ*MQ*16 columns x BN = SGN*NQ*16 filters of GT groups, PSTEP row steps.
struct Tile {
    uint32_t tp = 0, mq = 0, nq = 0, sgq = 1, sgn = 1, pstep = 1, gt = 0;
    uint32_t tq() const { return sgq * mq * kFrag; }
    uint32_t bn() const { return sgn * nq * kFrag; }
    uint32_t subgroups() const { return tp * sgq * sgn; }
    std::string name() const {
        std::string s = std::to_string(tp) + "x" + std::to_string(tq()) + "x" + std::to_string(bn()) + "/" +
                        std::to_string(sgq) + "x" + std::to_string(sgn);
        if (pstep > 1) (s += 'p') += std::to_string(pstep);
        return (s += 'g') += std::to_string(gt);
    }
};

// "TPxTQxBN/SGQxSGN[pSTEPS][gGROUPS]", e.g. 8x32x16/1x1p4g4; gt 0 (no 'g'): the heuristic's.
bool matchTile(const std::string& text, Tile& t) {
    const TileSpec s = parseTile(text);
    if (!s.shape({3, 2}, "pg")) return false;
    const uint32_t tp = s.dim(0, 0), tq = s.dim(0, 1), bn = s.dim(0, 2), sgq = s.dim(1, 0), sgn = s.dim(1, 1);
    const uint32_t ps = s.tag(1, 'p').value_or(1), gt = s.tag(1, 'g').value_or(0);
    if (tp < 1 || tp > 16 || sgq < 1 || sgn < 1 || ps < 1 || ps > 64 || gt > kMaxGroupsPerTile) return false;
    if (tq % (sgq * kFrag) || bn % (sgn * kFrag)) return false;
    t = {tp, tq / (sgq * kFrag), bn / (sgn * kFrag), sgq, sgn, ps, gt};
    return t.mq >= 1 && t.nq >= 1 && t.mq * t.nq <= 4 && t.subgroups() <= 16;
}

uint64_t up16(uint64_t v) { return (v + kFrag - 1) / kFrag * kFrag; }

// 16-byte input words: NHWC with C and the chunk's channels multiples of 8 (the host adds the
// view's alignment).
bool vecInput(const ConvDesc& d, uint32_t gt) {
    return d.inputLayout == TensorLayout::NHWC && d.c % 8 == 0 && (uint64_t(gt) * d.channelsPerGroup()) % 8 == 0;
}

// Filters per workgroup for FT filters of a chunk: all of them up to 64, else the 64, 48 or 32
// that pads them least.
uint32_t filterTile(uint64_t ft) {
    if (up16(ft) <= 64) return uint32_t(up16(ft));
    uint32_t best = 64;
    for (uint32_t bn : {48u, 32u})
        if ((ft + bn - 1) / bn * bn < (ft + best - 1) / best * best) best = bn;
    return best;
}

// Products per useful one with GT groups per tile: the padded chunk values times the padded filter
// columns, against GT groups' own; element loads (no 16-byte words) count
// DeviceModel::groupedElementLoadWaste times as much.
double waste(const ContextImpl& ctx, const ConvDesc& d, uint32_t gt) {
    const uint64_t cg = d.channelsPerGroup(), kg = d.filtersPerGroup(), ft = gt * kg, bn = filterTile(ft);
    double w = double(up16(gt * cg)) * double((ft + bn - 1) / bn * bn) / (double(gt) * double(cg) * double(kg));
    return vecInput(d, gt) || d.c % 8 != 0 || d.inputLayout != TensorLayout::NHWC
               ? w
               : ctx.model.groupedElementLoadWaste * w;
}

// The groups per tile with the fewest wasted products (the fewer groups on a tie), at most the
// layer's groups and 64 chunk values.  0: none fits.
uint32_t chooseGroups(const ContextImpl& ctx, const ConvDesc& d) {
    uint32_t best = 0;
    for (uint32_t gt = 1; gt <= std::min<int64_t>(d.groups, kMaxGroupsPerTile); ++gt) {
        if (up16(uint64_t(gt) * d.channelsPerGroup()) > kMaxChunkValues) break;
        if (best == 0 || waste(ctx, d, gt) < waste(ctx, d, best) - 1e-9) best = gt;
    }
    return best;
}

uint64_t chunks(const ConvDesc& d, const Tile& t) { return up16(uint64_t(t.gt) * d.channelsPerGroup()) / kFrag; }
uint64_t taps(const ConvDesc& d) { return uint64_t(d.r) * d.s; }

// Shared 16-byte words: the halo (or the epilogue scratch), then B for btaps taps; mirror the
// shader's constants.
uint64_t haloWords(const ConvDesc& d, const Tile& t) {
    uint64_t hr = (uint64_t(t.tp) - 1) * d.strideH + (uint64_t(d.r) - 1) * d.dilationH + 1;
    uint64_t hx = (uint64_t(t.tq()) - 1) * d.strideW + (uint64_t(d.s) - 1) * d.dilationW + 1;
    return hr * hx * ((chunks(d, t) * 2) | 1);
}
uint64_t tapWords(const ConvDesc& d, const Tile& t) { return chunks(d, t) * t.bn() * 3; }
uint64_t sharedBytes(const ConvDesc& d, const Tile& t, uint64_t btaps) {
    return 16 * (std::max(haloWords(d, t), uint64_t(t.subgroups()) * 64) + btaps * tapWords(d, t));
}
// Taps whose filters are staged at once: all where they fit, else as many as fit; 0: none.
uint64_t stagedTaps(const ContextImpl& ctx, const ConvDesc& d, const Tile& t) {
    const uint64_t budget = ctx.caps.maxSharedMemory / 16, r = std::max(haloWords(d, t), uint64_t(t.subgroups()) * 64);
    return r >= budget ? 0 : std::min(taps(d), (budget - r) / tapWords(d, t));
}

uint64_t gridX(const ConvDesc& d, const Tile& t) {
    uint64_t rows = uint64_t(t.tp) * t.pstep;
    return uint64_t(d.n) * ((uint64_t(d.outH()) + rows - 1) / rows) * ((uint64_t(d.outW()) + t.tq() - 1) / t.tq());
}
uint64_t gridY(const ConvDesc& d, const Tile& t) {
    const uint64_t ft = uint64_t(t.gt) * d.filtersPerGroup();
    return (uint64_t(d.groups) + t.gt - 1) / t.gt * ((ft + t.bn() - 1) / t.bn());
}

// B in registers: each subgroup loads its taps x chunks x NQ filter fragments once, so the products
// read only A from shared memory (with one filter fragment per subgroup B's loads would be as many
// as A's).  At most 24 fragments (96 registers on 32 lanes), filters staged once; NVIDIA only, as
// few_channels_coopmat (docs/performance.md, "grouped_coopmat"); the emulated builds read B from
// shared memory either way.
constexpr uint64_t kMaxRegisterFragments = 24;
bool bRegisters(const ContextImpl& ctx, const ConvDesc& d, const Tile& t, uint64_t btaps) {
    return btaps >= taps(d) && taps(d) * chunks(d, t) * t.nq <= kMaxRegisterFragments && ctx.caps.vendorId == 0x10DE;
}

// The forced tile, else the rules in the file comment.  tp == 0: nothing fits.
Tile chooseTile(const ContextImpl& ctx, const ConvDesc& d, const std::string& forced) {
    Tile t;
    if (!forced.empty()) {
        if (!matchTile(forced, t)) return Tile{};
        if (t.gt == 0) t.gt = chooseGroups(ctx, d);
        if (t.gt == 0 || up16(uint64_t(t.gt) * d.channelsPerGroup()) > kMaxChunkValues || stagedTaps(ctx, d, t) == 0)
            return Tile{};
        return t;
    }
    t.gt = chooseGroups(ctx, d);
    if (t.gt == 0) return Tile{};
    // The column tile that pads Q least (the wider on a tie, 64 only on wide rows).
    const uint64_t Q = d.outW();
    uint32_t tq = 16;
    for (uint32_t c : {32u, 64u})
        if ((Q + c - 1) / c * c <= (Q + tq - 1) / tq * tq && (c < 64 || Q >= 96)) tq = c;
    // Eight subgroups; fewer rows until the halo and every tap's filters fit, down to 4 rows;
    // then the most rows that fit with the filters staged per run of taps; then narrower filter
    // tiles (one tap of 64 filters of 64 values is 12 KiB).
    Tile found{};
    for (uint32_t bn = filterTile(uint64_t(t.gt) * d.filtersPerGroup()); bn >= kFrag && found.tp == 0;
         bn = bn == 48 ? 32 : bn / 2) {
        t.nq = bn == 64 ? 2 : bn / kFrag;
        t.sgn = bn / kFrag / t.nq;
        t.mq = std::min<uint32_t>(t.nq == 1 ? 2 : 1, tq / kFrag);
        t.sgq = tq / kFrag / t.mq;
        const uint32_t tpMax = std::max<uint32_t>(1, 8 / (t.sgq * t.sgn));
        for (t.tp = tpMax; t.tp >= std::min<uint32_t>(4, tpMax) && found.tp == 0; t.tp /= 2)
            if (stagedTaps(ctx, d, t) >= taps(d)) found = t;
        for (t.tp = tpMax; t.tp >= 1 && found.tp == 0; t.tp /= 2)
            if (stagedTaps(ctx, d, t) > 0) found = t;
    }
    if (found.tp == 0) return Tile{};
    t = found;
    // Fewer rows than eight subgroups' worth (the halo took the shared memory): the column blocks
    // split over two subgroups, so the staging still spreads over eight.
    if (Tile split{t.tp, 1, t.nq, t.sgq * 2, t.sgn, 1, t.gt};
        t.subgroups() < 8 && t.mq == 2 && stagedTaps(ctx, d, split) >= stagedTaps(ctx, d, t))
        t = split;
    // Row steps share one filter staging while at least four workgroups per compute unit remain,
    // and while the image has rows for them.
    if (stagedTaps(ctx, d, t) >= taps(d)) {
        const double units = ctx.model.computeUnits;
        while (t.pstep < 8 && uint64_t(t.tp) * t.pstep * 2 <= uint64_t(d.outH())) {
            Tile next = t;
            next.pstep *= 2;
            if (double(gridX(d, next) * gridY(d, next)) < ctx.model.groupedRowStepFill * units) break;
            t = next;
        }
    }
    return t;
}

std::string shaderName(DType t) {
    return std::string("grouped_coopmat_") + (coopmatEmulated(t) ? "emu_" : "") + dtypeSuffix(t);
}

class GroupedCoopmatInstance final : public SingleDispatchInstance {
public:
    GroupedCoopmatInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o)
        : SingleDispatchInstance(ctx, d), desc_(d), tile_(chooseTile(ctx, d, o.tile)), sg_(coopmatSubgroup(ctx.caps)) {
        btaps_ = stagedTaps(ctx, d, tile_);
        breg_ = bRegisters(ctx, d, tile_, btaps_);
        vecIn_ = vecInput(d, tile_.gt);
        const uint64_t ft = uint64_t(tile_.gt) * d.filtersPerGroup();
        vecOut_ = d.outputLayout == TensorLayout::NCHW || (ft % 8 == 0 && d.k % 8 == 0);
        vectorPipeline_ = &pipeline(true);
        gx_ = uint32_t(gridX(d, tile_));
        gy_ = uint32_t(gridY(d, tile_));
    }
    std::string name() const override { return "grouped_coopmat"; }
    std::string config() const override {
        std::string vec = std::string(vecIn_ ? "I" : "") + (vecOut_ ? "O" : "");
        return "tile " + tile_.name() + " chunks " + std::to_string(chunks(desc_, tile_)) +
               (btaps_ < taps(desc_) ? " btaps " + std::to_string(btaps_) : "") + (vec.empty() ? "" : " vec8" + vec) +
               (breg_ ? " breg" : "") + " sg" + std::to_string(sg_.size) +
               (coopmatEmulated(desc_.dtype) ? " EMULATED" : "");
    }

private:
    // 16-byte loads and stores need 16-byte aligned views; otherwise element-wise ones.
    const ComputePipeline& pipelineFor(const ConvTensors& t) const override {
        bool aligned = t.input.offset % 16 == 0 && t.output.offset % 16 == 0;
        return aligned ? *vectorPipeline_ : pipeline(false);
    }
    const ComputePipeline& pipeline(bool vec) const {
        const Tile& t = tile_;
        const ConvDesc& d = desc_;
        PipelineKey key = convPipelineKey(shaderName(d.dtype), d, t.subgroups() * sg_.size, sg_.required);
        key.spec.insert(key.spec.end(), {{kSpecTP, t.tp},
                                         {kSpecMQ, t.mq},
                                         {kSpecNQ, t.nq},
                                         {kSpecSGQ, t.sgq},
                                         {kSpecSGN, t.sgn},
                                         {kSpecCG, uint32_t(d.channelsPerGroup())},
                                         {kSpecKG, uint32_t(d.filtersPerGroup())},
                                         {kSpecGT, t.gt},
                                         {kSpecFR, uint32_t(d.r)},
                                         {kSpecFS, uint32_t(d.s)},
                                         {kSpecSH, uint32_t(d.strideH)},
                                         {kSpecSW, uint32_t(d.strideW)},
                                         {kSpecDH, uint32_t(d.dilationH)},
                                         {kSpecDW, uint32_t(d.dilationW)},
                                         {kSpecPStep, t.pstep},
                                         {kSpecVecIn, vec && vecIn_ ? 1u : 0u},
                                         {kSpecVecOut, vec && vecOut_ ? 1u : 0u},
                                         {kSpecBReg, breg_ ? 1u : 0u},
                                         {kSpecBTaps, uint32_t(btaps_)}});
        if (coopmatEmulated(d.dtype)) key.spec.push_back({kSpecEmuLanes, sg_.size});
        key.fullSubgroups = true;  // gl_SubgroupID names a whole subgroup's block
        return ctx_.pipelines->get(key);
    }

    ConvDesc desc_;
    Tile tile_;
    SubgroupChoice sg_;
    uint64_t btaps_ = 0;
    bool breg_ = false, vecIn_ = false, vecOut_ = false;
    const ComputePipeline* vectorPipeline_ = nullptr;
};

}  // namespace

std::string groupedCoopmatWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    Tile forced;
    if (!o.tile.empty() && !matchTile(o.tile, forced))
        return noTileError(parseTile(o.tile),
                           "rows 1-16 x columns x filters / column x filter subgroups [p row steps][g groups per "
                           "tile], columns a multiple of 16 per column subgroup, filters of 16 per filter subgroup, "
                           "at most 4 accumulators per subgroup, e.g. 8x32x16/1x1p4g4");
    if (std::string w = coopmatDeviceWhyNot(ctx, d.dtype, shaderName(d.dtype)); !w.empty()) return w;
    if (std::string w = coopmatFragment16WhyNot(ctx.caps, d.dtype); !w.empty()) return w;
    if (d.groups < 2) return "one group (implicit_gemm_coopmat's)";
    if (d.channelsPerGroup() < 2) return "one channel per group (the depthwise kernels')";
    if (d.channelsPerGroup() > kMaxPerGroup || d.filtersPerGroup() > kMaxPerGroup)
        return "C/groups = " + std::to_string(d.channelsPerGroup()) +
               " and K/groups = " + std::to_string(d.filtersPerGroup()) + ": more than " +
               std::to_string(kMaxPerGroup) + " per group";
    if (std::string w = coopmatFixedSubgroupWhyNot(ctx.caps, o.subgroupSize, "the kernel's blocks are laid out");
        !w.empty())
        return w;
    Tile t = chooseTile(ctx, d, o.tile);
    if (t.tp == 0) {
        Tile least = o.tile.empty() ? Tile{1, 1, 1, 1, 1, 1, chooseGroups(ctx, d)} : forced;
        if (least.gt == 0) least.gt = chooseGroups(ctx, d);
        if (least.gt == 0 || up16(uint64_t(least.gt) * d.channelsPerGroup()) > kMaxChunkValues)
            return "no tile of groups: " + std::to_string(least.gt) + " groups of " +
                   std::to_string(d.channelsPerGroup()) + " channels exceed " + std::to_string(kMaxChunkValues) +
                   " values per tap";
        return "the input halo and one tap's filters of tile " + least.name() + " need " +
               std::to_string(sharedBytes(d, least, 1)) + " bytes of shared memory; the device has " +
               std::to_string(ctx.caps.maxSharedMemory);
    }
    SubgroupChoice sg = coopmatSubgroup(ctx.caps);
    if (std::string w = workgroupWhyNot(ctx, uint64_t(t.subgroups()) * sg.size, sg.required); !w.empty())
        return "tile " + t.name() + ": " + w;
    return gridWhyNot(ctx, gridX(d, t), gridY(d, t), "output tiles", "group chunks x filter tiles");
}

// The router's question: a grouped (not depthwise) 16-bit layer with NHWC activations whose groups
// would leave implicit_gemm_coopmat's one-group tiles mostly padding (K/groups < 16, or C/groups
// not a whole number of 16-value slices), which this kernel takes.  NCHW activations reach it
// behind coopmat_nhwc's transposes (its NHWC problem asks this question).
bool groupedCoopmatPays(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (d.groups < 2 || d.dtype == DType::F32 || d.inputLayout != TensorLayout::NHWC) return false;
    if (d.filtersPerGroup() >= 16 && d.channelsPerGroup() % 16 == 0) return false;
    return groupedCoopmatWhyNot(ctx, d, o).empty();
}

std::unique_ptr<AlgorithmInstance> groupedCoopmatInstantiate(ContextImpl& ctx, const ConvDesc& d,
                                                             const PlanOptions& o) {
    return std::make_unique<GroupedCoopmatInstance>(ctx, d, o);
}

// ResNeXt-50 32x4d's first grouped 3x3 (4 channels and filters per group), its stride-2 one of 8,
// RegNetY-400MF's 8-wide groups at stride 2 with bias + ReLU, 16 channels and 32 filters per group
// with a residual, and a 5x5 of 24 per group (two chunks, a padded filter block), x fp16 / bf16 x
// both filter layouts.
std::vector<std::pair<ConvDesc, PlanOptions>> groupedCoopmatVariants(const ContextImpl&) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    for (int shape = 0; shape < 5; ++shape)
        for (DType dt : {DType::F16, DType::BF16})
            for (bool krsc : {false, true}) {
                ConvDesc d;
                d.n = 8;
                d.c = d.k = 128;
                d.groups = 32;
                d.h = d.w = 56;
                d.r = d.s = 3;
                d.pad(1, 1);
                d.dtype = dt;
                if (shape == 1) {
                    d.c = d.k = 256, d.h = d.w = 56, d.strideH = d.strideW = 2;
                }
                if (shape == 2) {
                    d.c = d.k = 48, d.groups = 6, d.h = d.w = 56, d.strideH = d.strideW = 2, d.hasBias = true;
                    d.activation = Activation::Relu;
                }
                if (shape == 3) {
                    d.c = 128, d.k = 256, d.groups = 8, d.h = d.w = 28, d.hasResidual = true;
                }
                if (shape == 4) {
                    d.c = d.k = 96, d.groups = 4, d.h = d.w = 14, d.r = d.s = 5, d.pad(2, 2);
                }
                d.inputLayout = d.outputLayout = TensorLayout::NHWC;
                d.filterLayout = krsc ? FilterLayout::KRSC : FilterLayout::KCRS;
                v.push_back({d, PlanOptions{"grouped_coopmat"}});
            }
    return v;
}

}  // namespace vkconv
