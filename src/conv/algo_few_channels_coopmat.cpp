// "few_channels_coopmat" (shaders/few_channels_coopmat.comp): first layers (C/groups <= 8) on
// the matrix units, fp16 / bf16 storage.  A column-expanded input halo ([x][r][c] per output row)
// makes each output pixel's reduction one contiguous window, so the A fragments load straight
// from shared memory with a stride of SW*CPR values; the filters are staged once per workgroup.
// Tile choice, no timing: 64 filters (fewer when the group has fewer) in blocks of 32 per
// subgroup, 32-column subgroup blocks (16 where 32 pads Q by more than an eighth, 64 for long
// windows on large grids), eight subgroups (rows x filter blocks) and at most 4 rows where the
// grid is large, fewer rows and filters until the shared memory fits (not on small grids: each
// invocation's filter staging would grow), and up to 8 row steps per workgroup while the grid
// stays at four workgroups per compute unit or more; the next step's input prefetched.  Eight
// channels per group stage 16-byte words;
// otherwise the halo is expanded in shared memory from the input rows copied as 16-byte words
// (raw rows, below).  Where a subgroup's filter fragments are few, they are held in registers for
// the whole workgroup (B in registers, below).
#include <algorithm>
#include <cstdio>

#include "conv/algorithm.hpp"
#include "conv/tile_syntax.hpp"
#include "conv/coopmat_support.hpp"
#include "conv/dispatch.hpp"
#include "conv/tile_score.hpp"
#include "runtime/context_impl.hpp"
#include "vkconv/error.hpp"
#include "util/test_hooks.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kMaxChannels = 8;  // C/groups: one staged column holds R*C values
constexpr uint32_t kFrag = 16;        // the 16x16x16 configuration the kernel is written for
constexpr uint32_t kMaxAccumulators = 16;

enum SpecFcCm : uint32_t {
    kSpecTP = 101,
    kSpecMQ = 102,
    kSpecNQ = 103,
    kSpecSGQ = 104,
    kSpecSGN = 105,
    kSpecCG = 106,
    kSpecFR = 107,
    kSpecFS = 108,
    kSpecSH = 109,
    kSpecSW = 110,
    kSpecDH = 111,
    kSpecCPR = 112,
    kSpecPStep = 113,
    kSpecVecOut = 114,
    kSpecEmuLanes = 115,
    kSpecPrefetch = 116,
    kSpecVecIn = 117,
    kSpecNchwRuns = 118,
    kSpecEpi16 = 119,
    kSpecBReg = 120,
};

// TP rows x TQ = SGQ*MQ*16 columns x BN = SGN*NQ*16 filters, PSTEP row steps per workgroup.
struct Tile {
    uint32_t tp = 0, mq = 0, nq = 0, sgq = 1, sgn = 1, pstep = 1;
    uint32_t tq() const { return sgq * mq * kFrag; }
    uint32_t bn() const { return sgn * nq * kFrag; }
    uint32_t subgroups() const { return tp * sgq * sgn; }
    std::string name() const {
        std::string s = std::to_string(tp) + "x" + std::to_string(tq()) + "x" + std::to_string(bn()) + "/" +
                        std::to_string(sgq) + "x" + std::to_string(sgn);
        if (pstep > 1) (s += 'p') += std::to_string(pstep);
        return s;
    }
};

// "TPxTQxBN/SGQxSGN[pSTEPS]", e.g. 4x64x64/1x1p2.
bool matchTile(const std::string& text, Tile& t) {
    const TileSpec s = parseTile(text);
    if (!s.shape({3, 2}, "p")) return false;
    const uint32_t tp = s.dim(0, 0), tq = s.dim(0, 1), bn = s.dim(0, 2), sgq = s.dim(1, 0), sgn = s.dim(1, 1);
    const uint32_t ps = s.tag(1, 'p').value_or(1);
    if (tp < 1 || tp > 8 || sgq < 1 || sgn < 1 || ps < 1 || ps > 64) return false;
    if (tq % (sgq * kFrag) || bn % (sgn * kFrag)) return false;
    t = {tp, tq / (sgq * kFrag), bn / (sgn * kFrag), sgq, sgn, ps};
    return t.mq >= 1 && t.nq >= 1 && t.mq * t.nq <= kMaxAccumulators && t.subgroups() <= 16;
}

// Values per staged column: the filter rows' channels, padded to 8 (16-byte fragment rows), and at
// least one 16-value chunk per window.
uint32_t columnValues(const ConvDesc& d) {
    uint32_t cpr = (uint32_t(d.r * d.channelsPerGroup()) + 7) / 8 * 8;
    while (uint64_t(d.s) * cpr < kFrag) cpr += 8;
    return cpr;
}
uint64_t chunks(const ConvDesc& d) { return (uint64_t(d.s) * columnValues(d) + kFrag - 1) / kFrag; }

// 16-byte words of one step's halo; shared bytes; mirror the shader's constants.
uint64_t haloWords(const ConvDesc& d, const Tile& t) {
    uint64_t x = (uint64_t(t.tq()) - 1) * d.strideW + d.s;
    return t.tp * x * (columnValues(d) / 8);
}
// B in registers (BREG): each subgroup loads its NQ x chunks filter fragments once and its products
// read only A from shared memory; B is staged in the halo's memory before the first halo.  On
// NVIDIA the fragment loads share the shared-memory pipe with the staging, and in ResNet-50's stem
// B's were half of every step's (22 fragments, 4 registers each on 32 lanes).  At most 24
// fragments (96 registers on 32 lanes, 48 on 64), and tiles of at most 4 rows: on the H200 every
// 4-row tile gained with it on the six first layers, while the 8-row ones lost in NCHW
// (docs/performance.md, "few_channels_coopmat").  NVIDIA only, where it was measured: an RDNA3
// WMMA operand takes 8 VGPRs per lane at wave32 (its 16 values are held by both halves of the
// wave), and Mesa 25's RADV spilled on the stem with it.  The tests reach it elsewhere through
// the few_coopmat_breg hook.
constexpr uint64_t kMaxRegisterFragments = 24;
bool bRegisters(const ContextImpl& ctx, const ConvDesc& d, const Tile& t) {
    return t.tp <= 4 && chunks(d) * t.nq <= kMaxRegisterFragments &&
           testHookOr("few_coopmat_breg", ctx.caps.vendorId == 0x10DE);
}
// Raw rows (the shader's RAW): each step copies the input rows it reads into shared memory in
// 16-byte words and expands its halo from there, instead of gathering the halo with element loads
// (2 bytes per lane over a spread of rows: 24 per staged column of ResNet-50's stem).  For
// 16-byte aligned inputs in NHWC with one group (a row's channels then are the group's), and in
// NCHW at stride 1; not where eight channels already stage the halo in 16-byte words, and where
// the rows fit beside the tile chosen without them.  On the H200 (fp16 and bf16 b32, against the
// gather) NHWC gained on all four first layers and NCHW at stride 1 on VGG-16's, while NCHW lost at
// stride 2 for a reason not found: neither its shared-memory reads nor its arithmetic account for
// it (docs/performance.md, "few_channels_coopmat").
// Words: one segment per input row a step reads (and per channel in NCHW), of the step's columns
// plus a word for a misaligned start; one word of slack for the shader's pair reads.
uint64_t rawWords(const ConvDesc& d, const Tile& t) {
    uint64_t x = (uint64_t(t.tq()) - 1) * d.strideW + d.s, cg = d.channelsPerGroup();
    uint64_t rows = (uint64_t(t.tp) - 1) * d.strideH + (uint64_t(d.r) - 1) * d.dilationH + 1;
    bool nchw = d.inputLayout == TensorLayout::NCHW;
    return (nchw ? rows * cg : rows) * (((nchw ? x : x * cg) + 14) / 8) + 1;
}
bool rawRowsApply(const ConvDesc& d) {
    if (d.inputLayout == TensorLayout::NHWC) return d.groups == 1;
    return d.strideH == 1 && d.strideW == 1;
}
// Shared bytes: the halo (or epilogue scratch) and B side by side, or B over the halo with BREG
// (the emulated builds read B from shared memory at every product and keep it apart); the raw
// rows after them, or after the halo over B with BREG.
uint64_t sharedBytes(const ConvDesc& d, const Tile& t, bool overlaid, bool raw = false) {
    uint64_t r = std::max(haloWords(d, t), uint64_t(t.subgroups()) * 64), b = chunks(d) * t.bn() * 3;
    uint64_t rw = raw ? rawWords(d, t) : 0;
    return 16 * (overlaid ? std::max(std::max(r, b), r + rw) : r + b + rw);
}
bool overlaid(const ContextImpl& ctx, const ConvDesc& d, const Tile& t) {
    return bRegisters(ctx, d, t) && !coopmatEmulated(d.dtype);
}

// The next row step's halo in registers while this one is multiplied: with row steps, and at most
// 8 words (32 registers) per invocation.  Measured on the H200, each tile with and without:
// 4x32x64/1x2p4 (4 accumulators per subgroup) faster with it on all six first layers;
// 4x64x64/1x2p4 (8 accumulators) slower on the stride-1 layers (registers: fewer workgroups per SM).
constexpr uint64_t kMaxPrefetchWords = 8;
// With raw rows the words in flight are the next step's rows.
bool prefetch(const ConvDesc& d, const Tile& t, uint32_t subgroupSize, bool raw) {
    if (t.pstep < 2) return false;
    uint64_t threads = uint64_t(t.subgroups()) * subgroupSize;
    uint64_t words = ((raw ? rawWords(d, t) - 1 : haloWords(d, t)) + threads - 1) / threads;
    return words <= kMaxPrefetchWords;
}

uint64_t gridX(const ConvDesc& d, const Tile& t) {
    uint64_t rows = uint64_t(t.tp) * t.pstep;
    return uint64_t(d.n) * ((uint64_t(d.outH()) + rows - 1) / rows) * ((uint64_t(d.outW()) + t.tq() - 1) / t.tq());
}
uint64_t gridY(const ConvDesc& d, const Tile& t) {
    return uint64_t(d.groups) * ((uint64_t(d.filtersPerGroup()) + t.bn() - 1) / t.bn());
}

// The forced tile, else the rules in the file comment.  tp == 0: nothing fits.
Tile chooseTile(const ContextImpl& ctx, const ConvDesc& d, const std::string& forced) {
    Tile t;
    if (!forced.empty())
        return matchTile(forced, t) && sharedBytes(d, t, overlaid(ctx, d, t)) <= ctx.caps.maxSharedMemory ? t : Tile{};
    const uint64_t Kg = d.filtersPerGroup(), Q = d.outW();
    uint32_t bn = 16;
    while (bn < 64 && bn < Kg) bn *= 2;
    for (; bn >= kFrag; bn /= 2) {
        // At most 4 accumulators per subgroup (2 filter x 2 column fragments): 16 took ~170
        // registers on NVIDIA (one 256-invocation workgroup per SM, staging, products and stores
        // one after another), and 8 left no room for the halo prefetch.
        t.nq = std::min<uint32_t>(2, bn / kFrag);
        t.sgn = bn / kFrag / t.nq;
        // 32-column blocks unless they pad Q by more than an eighth.
        t.mq = 2;
        if (uint64_t tq = t.tq(), padded = (Q + tq - 1) / tq * tq; 8 * (padded - Q) > padded) t.mq = 1;
        // Eight subgroups: the staging spreads over 256 invocations.
        for (t.tp = std::min<uint32_t>(8, 8 / (t.sgq * t.sgn)); t.tp >= 1; t.tp /= 2)
            if (sharedBytes(d, t, false) <= ctx.caps.maxSharedMemory) break;  // side by side: the tiles as measured
        if (t.tp >= 1) break;
    }
    if (bn < kFrag || t.tp == 0) return Tile{};
    const double units = ctx.model.computeUnits;
    // 32-filter tiles (one filter subgroup, 8 rows) take 4 rows where their subgroups then hold B
    // in registers and the grid stays at four workgroups per compute unit: 4x32x32/1x1p4 so beat
    // 8x32x32/1x1 at b32 on the H200 in both layouts (with B in shared memory 4 rows lost in NCHW).
    if (Tile four{4, t.mq, t.nq, t.sgq, t.sgn, 1};
        t.tp == 8 && bRegisters(ctx, d, four) &&
        double(gridX(d, four) * gridY(d, four)) >= ctx.model.fewChannelsCoopmatFill * units)
        t.tp = 4;
    // Long windows (8 chunks or more: 7x7 stems) take 64-column subgroup blocks where their B is
    // held in registers, the halo and B fit overlaid and the grid stays at four workgroups per
    // compute unit: each workgroup then stages its 22 filter chunks for twice the outputs.  On the
    // H200 ResNet-50's stem at b32 gained in three of its four dtype x layout pairs (fp16 NCHW lost
    // a little); the 3-chunk 3x3 layers lost with 64 columns (docs/performance.md,
    // "few_channels_coopmat").
    if (Tile wide{t.tp, 4, t.nq, t.sgq, t.sgn, 1};
        t.mq == 2 && chunks(d) >= 8 && bRegisters(ctx, d, wide) &&
        sharedBytes(d, wide, overlaid(ctx, d, wide), rawRowsApply(d)) <= ctx.caps.maxSharedMemory &&
        double(gridX(d, wide) * gridY(d, wide)) >= ctx.model.fewChannelsCoopmatFill * units)
        t.mq = 4;
    // Small grids keep the eight subgroups: fewer rows per workgroup would spread the grid, but
    // each halving doubles the filter words every invocation stages once per workgroup, and that
    // staging is most of a small grid's time: on the H100 ggml's 8-channel 4x4 layer and the
    // SD-VAE's first layer at b1 ran slower at every halving of 4 rows.

    // Up to 8 row steps share one filter staging while at least four workgroups per compute unit
    // remain.  With B in shared memory 8 measured slower than 2-4 on VGG-16's first layer at b32;
    // with B in registers 8 ran faster on the 64-filter tiles that reach it.
    while (t.pstep < 8 && double(gridX(d, Tile{t.tp, t.mq, t.nq, t.sgq, t.sgn, t.pstep * 2}) * gridY(d, t)) >=
                              ctx.model.fewChannelsCoopmatFill * units)
        t.pstep *= 2;
    return t;
}

std::string shaderName(DType t) {
    return std::string("few_channels_coopmat_") + (coopmatEmulated(t) ? "emu_" : "") + dtypeSuffix(t);
}

class FewChannelsCoopmatInstance final : public SingleDispatchInstance {
public:
    FewChannelsCoopmatInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o)
        : SingleDispatchInstance(ctx, d), desc_(d), tile_(chooseTile(ctx, d, o.tile)), sg_(coopmatSubgroup(ctx.caps)) {
        // NHWC: 8 filters per 16-byte store; NCHW: runs of up to 8 pixels in 16-, 8- or 4-byte
        // stores, with an even output width (an odd one leaves 2-byte pieces in every other row,
        // which made halo_coopmat slower; every first layer measured has an even width and gained).
        runs_ = d.outputLayout == TensorLayout::NCHW && d.outW() % 2 == 0;
        vecOut_ = d.outputLayout == TensorLayout::NHWC ? d.filtersPerGroup() % 8 == 0 : runs_;
        // Eight channels per group: a staged word is one tap's channel run, 16 contiguous bytes.
        const bool c8 = d.channelsPerGroup() == 8;
        vecIn_ = (c8 && d.inputLayout == TensorLayout::NHWC ? 1u : 0u) |
                 (c8 && d.filterLayout == FilterLayout::KRSC ? 2u : 0u);
        epi16_ = coopmatHalfScratch(ctx.caps, d, vecOut_);
        breg_ = bRegisters(ctx, d, tile_);
        raw_ = !(vecIn_ & 1u) && rawRowsApply(d) &&
               sharedBytes(d, tile_, overlaid(ctx, d, tile_), true) <= ctx.caps.maxSharedMemory;
        prefetch_ = prefetch(d, tile_, sg_.size, raw_);
        vectorPipeline_ = &pipeline(true);
        gx_ = uint32_t(gridX(d, tile_));
        gy_ = uint32_t(gridY(d, tile_));
    }
    std::string name() const override { return "few_channels_coopmat"; }
    std::string config() const override {
        std::string vec = std::string(vecIn_ & 1u ? "I" : "") + (vecIn_ & 2u ? "W" : "") + (vecOut_ ? "O" : "");
        return "tile " + tile_.name() + " cpr " + std::to_string(columnValues(desc_)) +
               (vec.empty() ? "" : " vec8" + vec) + (raw_ ? " raw" : "") + (prefetch_ ? " pre" : "") +
               (breg_ ? " breg" : "") + (epi16_ ? " epi16" : "") + " sg" + std::to_string(sg_.size) +
               (coopmatEmulated(desc_.dtype) ? " EMULATED" : "");
    }

private:
    // 16-byte loads and stores need 16-byte aligned views; otherwise element-wise ones.
    const ComputePipeline& pipelineFor(const ConvTensors& t) const override {
        bool aligned = t.input.offset % 16 == 0 && t.filter.offset % 16 == 0 && t.output.offset % 16 == 0;
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
                                         {kSpecFR, uint32_t(d.r)},
                                         {kSpecFS, uint32_t(d.s)},
                                         {kSpecSH, uint32_t(d.strideH)},
                                         {kSpecSW, uint32_t(d.strideW)},
                                         {kSpecDH, uint32_t(d.dilationH)},
                                         {kSpecCPR, columnValues(d)},
                                         {kSpecPStep, t.pstep},
                                         {kSpecVecOut, vec && vecOut_ ? 1u : 0u},
                                         {kSpecVecIn, vec ? vecIn_ | (raw_ ? 4u : 0u) : 0u},
                                         {kSpecPrefetch, (vec ? prefetch_ : prefetch(d, t, sg_.size, false)) ? 1u : 0u},
                                         {kSpecNchwRuns, runs_ ? 1u : 0u},
                                         {kSpecEpi16, vec && epi16_ ? 1u : 0u},
                                         {kSpecBReg, breg_ ? 1u : 0u}});
        if (coopmatEmulated(d.dtype)) key.spec.push_back({kSpecEmuLanes, sg_.size});
        key.fullSubgroups = true;  // gl_SubgroupID names a whole subgroup's block
        return ctx_.pipelines->get(key);
    }

    ConvDesc desc_;
    Tile tile_;
    SubgroupChoice sg_;
    bool vecOut_ = false, runs_ = false, prefetch_ = false, epi16_ = false, breg_ = false;
    bool raw_ = false;    // the vector pipeline expands its halo from raw rows (rawWords)
    uint32_t vecIn_ = 0;  // kSpecVecIn's bits
    const ComputePipeline* vectorPipeline_ = nullptr;
};

}  // namespace

std::string fewChannelsCoopmatWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    Tile forced;
    if (!o.tile.empty() && !matchTile(o.tile, forced))
        return noTileError(parseTile(o.tile),
                           "rows 1-8 x columns x filters / column x filter subgroups [p row steps], columns a "
                           "multiple of 16 per column subgroup, filters of 16 per filter subgroup, at most 16 "
                           "accumulators per subgroup, e.g. 4x64x64/1x1p2");
    if (std::string w = coopmatDeviceWhyNot(ctx, d.dtype, shaderName(d.dtype)); !w.empty()) return w;
    if (std::string w = coopmatFragment16WhyNot(ctx.caps, d.dtype); !w.empty()) return w;
    if (d.channelsPerGroup() > kMaxChannels)
        return "C/groups = " + std::to_string(d.channelsPerGroup()) + " is not a few channels (at most " +
               std::to_string(kMaxChannels) + ")";
    if (d.dilationW != 1)
        return "column dilation " + std::to_string(d.dilationW) + " (a pixel's window must be contiguous)";
    SubgroupChoice sg = coopmatSubgroup(ctx.caps);
    if (o.subgroupSize && o.subgroupSize != sg.size)
        return "the tiles are laid out for subgroups of " + std::to_string(sg.size) + ", not " +
               std::to_string(o.subgroupSize);
    Tile t = chooseTile(ctx, d, o.tile);
    if (t.tp == 0) {
        Tile least = o.tile.empty() ? Tile{1, 1, 1, 1, 1, 1} : forced;
        return "the input halo and filters of tile " + least.name() + " need " +
               std::to_string(sharedBytes(d, least, !o.tile.empty() && overlaid(ctx, d, least))) +
               " bytes of shared memory; the device has " + std::to_string(ctx.caps.maxSharedMemory);
    }
    if (std::string w = workgroupWhyNot(ctx, uint64_t(t.subgroups()) * sg.size, sg.required); !w.empty())
        return "tile " + t.name() + ": " + w;
    return gridWhyNot(ctx, gridX(d, t), gridY(d, t), "output tiles", "groups x filter tiles");
}

std::unique_ptr<AlgorithmInstance> fewChannelsCoopmatInstantiate(ContextImpl& ctx, const ConvDesc& d,
                                                                 const PlanOptions& o) {
    return std::make_unique<FewChannelsCoopmatInstance>(ctx, d, o);
}

// The suites' first layers (VGG-16's 3x3, ResNet-50's 7x7 stride-2 stem, MobileNetV2's 3x3
// stride 2 with 32 filters, the SD-VAE's C = 4 with 512) and ggml's 8-channel 4x4 (16-byte
// staging in NHWC), x fp16/bf16 x both layouts.
std::vector<std::pair<ConvDesc, PlanOptions>> fewChannelsCoopmatVariants(const ContextImpl&) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    for (int shape = 0; shape < 5; ++shape)
        for (DType dt : {DType::F16, DType::BF16})
            for (bool nh : {false, true}) {
                ConvDesc d;
                d.c = 3;
                d.h = d.w = 224;
                d.k = 64;
                d.r = d.s = 3;
                d.pad(1, 1);
                d.dtype = dt;
                d.hasBias = true;
                d.activation = Activation::Relu;
                if (shape == 1) {
                    d.r = d.s = 7;
                    d.pad(3, 3);
                    d.strideH = d.strideW = 2;
                }
                if (shape == 2) {
                    d.k = 32;
                    d.strideH = d.strideW = 2;
                    d.activation = Activation::Relu6;
                }
                if (shape == 3) {
                    d.c = 4;
                    d.h = d.w = 64;
                    d.k = 512;
                    d.hasBias = false;
                    d.activation = Activation::None;
                }  // NHWC fp16: EPI16
                if (shape == 4) {
                    d.n = 16;
                    d.c = 8;
                    d.h = d.w = 19;
                    d.k = 128;
                    d.r = d.s = 4;
                    d.pad(0, 0);
                }
                if (nh) makeNhwc(d);
                v.push_back({d, PlanOptions{"few_channels_coopmat"}});
            }
    return v;
}

}  // namespace vkconv
