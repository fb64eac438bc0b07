// "depthwise" (shaders/depthwise.comp): groups == C, K = M*C (channel multiplier M >= 1).
// Each invocation computes a PT x QT output block of one channel (NCHW input) or of four
// channels as a vec4 (NHWC input), filter taps in registers, each input row loaded once into a
// register window.  R, S, strides and dilations are specialization constants; filters whose
// windows do not fit the register budget take the kernel's generic one-output path.
#include <algorithm>
#include <cstdio>

#include "conv/algorithm.hpp"
#include "conv/tile_syntax.hpp"
#include "conv/dispatch.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kWorkgroup = 64;
// Register budget of the unrolled paths (scalars; the NHWC path holds 4 per entry).
constexpr int64_t kMaxTaps = 64, kMaxWindow = 32, kMaxRowWindow = 64;

enum SpecDepthwise : uint32_t {
    kSpecFR = 101,
    kSpecFS = 102,
    kSpecSH = 103,
    kSpecSW = 104,
    kSpecDH = 105,
    kSpecDW = 106,
    kSpecQT = 107,
    kSpecPT = 108,
    kSpecVecIn = 109,
    kSpecVecOut = 110,
    kSpecGeneric = 111,
    kSpecPadL = 112,
    kSpecRowLoads = 113,
    kSpecShape = 114,
    kSpecShapeK = 115,
    kSpecShapeC = 116,
    kSpecShapeH = 117,
    kSpecShapeW = 118,
    kSpecShapeP = 119,
    kSpecShapeQ = 120,
    kSpecShapePadT = 121,
    kSpecShapePadL = 122,
};

// NHWC blocks whose window is inside the input: an untested path that loads up to this many
// window pixels before their multiply-adds (0: none; every row under its bounds test).  On the
// H200 (MobileNetV2's depthwise layers at b32; docs/performance.md, "depthwise") the fp16
// stride-1 layers ran 10-20 % faster; fp32 and stride-2 windows up to 20 % slower on it (once the
// tests are gone the compiler hoists every row's loads, whatever the XREGS budget).  Only for the
// 4-wide path and filters of at most 9 taps: on RDNA larger filters and the scalar-lane path
// (multiplier 2) doubled their registers with it.
uint32_t rowLoadPixels(const ConvDesc& d, bool vecIn) {
    return d.dtype != DType::F32 && d.strideW == 1 && vecIn && d.r * d.s <= 9 ? 24 : 0;
}

struct Blocking {
    bool generic = false;
    uint32_t qt = 1, pt = 1;
};

bool needsGeneric(const ConvDesc& d) {
    return d.r * d.s > kMaxTaps || (d.s - 1) * d.dilationW + 1 > kMaxWindow ||
           (d.r - 1) * d.dilationH + 1 > kMaxRowWindow;
}

// PlanOptions::tile "<rows>x<cols>" (e.g. "2x4"), for tuning; false when it is not one.
bool matchTile(const std::string& t, uint32_t* pt, uint32_t* qt) {
    const TileSpec s = parseTile(t);
    if (!s.shape({2})) return false;
    const uint32_t a = s.dim(0, 0), b = s.dim(0, 1);
    if (a < 1 || a > 4 || b < 1 || b > 8) return false;
    *pt = a;
    *qt = b;
    return true;
}

// Invocations of the blocked paths: one per block and channel (NCHW) or 4 channels (NHWC).
uint64_t blockInvocations(const ConvDesc& d, uint32_t pt, uint32_t qt) {
    uint64_t qb = (uint64_t(d.outW()) + qt - 1) / qt, pb = (uint64_t(d.outH()) + pt - 1) / pt;
    uint64_t lanes = d.inputLayout == TensorLayout::NHWC ? (uint64_t(d.k) + 3) / 4 : uint64_t(d.k);
    return uint64_t(d.n) * lanes * pb * qb;
}

// Block shape: 2 rows x 4 columns (the NHWC path holds 4 channels per entry, so 1 row there
// when the filter is tall or the rows strided), shrunk to the output and to the register
// budget.  Small layers (batch 1, 7x7 or 14x14 maps) trade input reuse for parallelism: below
// DeviceModel::depthwiseFillInvocations the block loses its second row, then (NHWC, whose invocations already hold
// 4 channels) half its columns; not more, as each NHWC invocation also loads 4 x R*S filter taps.
Blocking chooseBlocking(const ContextImpl& ctx, const ConvDesc& d, const std::string& tile) {
    const uint64_t fill = ctx.model.depthwiseFillInvocations;
    Blocking b;
    int64_t span = (d.s - 1) * d.dilationW + 1, rspan = (d.r - 1) * d.dilationH + 1;
    if (needsGeneric(d)) {
        b.generic = true;
        return b;
    }
    if (!tile.empty() && matchTile(tile, &b.pt, &b.qt)) return b;  // fit checked by whyNot
    bool nhwc = d.inputLayout == TensorLayout::NHWC;
    int64_t qt = std::min<int64_t>(4, d.outW());
    while (qt > 1 && (qt - 1) * d.strideW + span > kMaxWindow) --qt;
    // Strided NHWC rows: two output rows share few input rows (a 3x3 stride-2 pair reads 5
    // rows against 3 for one), so a second row costs 2x the accumulators for 1/6 fewer
    // loads: one row per block there (faster on every stride-2 layer measured, every dtype;
    // docs/performance.md, "depthwise").
    const bool oneRow = nhwc && (d.r * d.s > 25 || d.strideH > 1);
    int64_t pt = std::min<int64_t>(oneRow ? 1 : 2, d.outH());
    if (pt > 1 && (pt - 1) * d.strideH + rspan > kMaxRowWindow) pt = 1;
    if (pt > 1 && blockInvocations(d, uint32_t(pt), uint32_t(qt)) < fill) pt = 1;
    if (nhwc && qt > 2 && blockInvocations(d, uint32_t(pt), uint32_t(qt)) < fill) qt = 2;
    b.qt = uint32_t(qt);
    b.pt = uint32_t(pt);
    return b;
}

class DepthwiseInstance final : public AlgorithmInstance {
public:
    DepthwiseInstance(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o)
        : ctx_(ctx),
          desc_(d),
          pc_(makePushConstants(d)),
          wg_(o.subgroupSize > kWorkgroup ? o.subgroupSize : kWorkgroup),
          sg_(o.subgroupSize),
          blk_(chooseBlocking(ctx, d, o.tile)) {
        pc_.aux0 = uint32_t(d.k / d.c);  // channel multiplier
        bool single = d.k == d.c;
        if (!blk_.generic && d.inputLayout == TensorLayout::NHWC) {  // 4 channels per pixel access
            vecIn_ = single && d.c % 4 == 0;
            vecOut_ = single && d.outputLayout == TensorLayout::NHWC && d.k % 4 == 0;
        } else if (!blk_.generic) {  // 4 columns per row access
            vecIn_ = d.w % 4 == 0 && (blk_.qt * d.strideW) % 4 == 0;
            vecOut_ = d.outputLayout == TensorLayout::NCHW && blk_.qt % 4 == 0 && d.outW() % 4 == 0;
        }
        // The NHWC path specialized on the layer's sizes (its index arithmetic is a third of its
        // time at b32): one pipeline per layer shape, the batch left a push constant.  fp16 only,
        // where it was measured faster on every layer; bf16 lost on the largest layers and fp32
        // was not measured (docs/performance.md, "depthwise").
        specShape_ = !blk_.generic && d.inputLayout == TensorLayout::NHWC && d.dtype == DType::F16;
        vectorPipeline_ = &pipeline(vecIn_, vecOut_);
        items_ = blk_.generic ? uint64_t(d.outputElements()) : blockInvocations(d, blk_.pt, blk_.qt);
    }
    void record(VkCommandBuffer cmd, const ConvTensors& t) const override {
        // 4-wide accesses need their views 4-element aligned; otherwise the scalar pipeline.
        // NHWC's 4-wide path loads the filter 4-wide too.
        uint64_t vb = 4ull * dtypeSize(desc_.dtype);
        bool inOk = t.input.offset % vb == 0 && (desc_.inputLayout != TensorLayout::NHWC || t.filter.offset % vb == 0);
        bool outOk = t.output.offset % vb == 0 && (!desc_.hasResidual || t.residual.offset % vb == 0);
        const ComputePipeline& p =
            (inOk || !vecIn_) && (outOk || !vecOut_) ? *vectorPipeline_ : pipeline(vecIn_ && inOk, vecOut_ && outOk);
        bindConvTensors(ctx_, cmd, p, t);
        pushConstants(ctx_, cmd, p, pc_);
        dispatch1D(ctx_, cmd, items_, wg_);
    }
    std::string name() const override { return "depthwise"; }
    std::string config() const override {
        std::string c = "wg" + std::to_string(wg_);
        if (blk_.generic)
            c += " generic 1 output/invocation";
        else
            c += " block " + std::to_string(blk_.pt) + "x" + std::to_string(blk_.qt) +
                 (desc_.inputLayout == TensorLayout::NHWC ? "x4ch" : "");
        if (vecIn_ || vecOut_) c += std::string(" vec4") + (vecIn_ ? "In" : "") + (vecOut_ ? "Out" : "");
        if (specShape_) c += " shape";
        if (desc_.k != desc_.c) c += " mult" + std::to_string(desc_.k / desc_.c);
        if (sg_) c += " sg" + std::to_string(sg_);
        return c;
    }

private:
    const ComputePipeline& pipeline(bool vecIn, bool vecOut) const {
        const ConvDesc& d = desc_;
        PipelineKey key = convPipelineKey(std::string("depthwise_") + dtypeSuffix(d.dtype), d, wg_, sg_);
        if (blk_.generic) {
            key.spec.push_back({kSpecFR, 1});
            key.spec.push_back({kSpecFS, 1});
            key.spec.push_back({kSpecQT, 1});
            key.spec.push_back({kSpecPT, 1});
            key.spec.push_back({kSpecGeneric, 1});
        } else {
            key.spec.push_back({kSpecFR, uint32_t(d.r)});
            key.spec.push_back({kSpecFS, uint32_t(d.s)});
            key.spec.push_back({kSpecSH, uint32_t(d.strideH)});
            key.spec.push_back({kSpecSW, uint32_t(d.strideW)});
            key.spec.push_back({kSpecDH, uint32_t(d.dilationH)});
            key.spec.push_back({kSpecDW, uint32_t(d.dilationW)});
            key.spec.push_back({kSpecQT, blk_.qt});
            key.spec.push_back({kSpecPT, blk_.pt});
            key.spec.push_back({kSpecVecIn, vecIn ? 1u : 0u});
            key.spec.push_back({kSpecVecOut, vecOut ? 1u : 0u});
            if (vecIn && d.inputLayout == TensorLayout::NCHW) key.spec.push_back({kSpecPadL, uint32_t(d.padLeft)});
            if (d.inputLayout == TensorLayout::NHWC) key.spec.push_back({kSpecRowLoads, rowLoadPixels(d, vecIn)});
            if (specShape_)
                key.spec.insert(key.spec.end(), {{kSpecShape, 1u},
                                                 {kSpecShapeK, uint32_t(d.k)},
                                                 {kSpecShapeC, uint32_t(d.c)},
                                                 {kSpecShapeH, uint32_t(d.h)},
                                                 {kSpecShapeW, uint32_t(d.w)},
                                                 {kSpecShapeP, uint32_t(d.outH())},
                                                 {kSpecShapeQ, uint32_t(d.outW())},
                                                 {kSpecShapePadT, uint32_t(d.padTop)},
                                                 {kSpecShapePadL, uint32_t(d.padLeft)}});
        }
        return ctx_.pipelines->get(key);  // made once per context, then a map lookup
    }

    ContextImpl& ctx_;
    ConvDesc desc_;
    ConvPushConstants pc_;
    uint32_t wg_, sg_;
    Blocking blk_;
    bool vecIn_ = false, vecOut_ = false, specShape_ = false;
    const ComputePipeline* vectorPipeline_ = nullptr;
    uint64_t items_ = 0;
};

}  // namespace

std::string depthwiseWhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    if (d.groups != d.c)
        return "not depthwise (groups " + std::to_string(d.groups) + " != C " + std::to_string(d.c) + ")";
    if (d.k % d.c != 0) return "K is not a multiple of C (no whole channel multiplier)";
    if (!o.tile.empty()) {
        uint32_t pt = 0, qt = 0;
        if (!matchTile(o.tile, &pt, &qt)) return noTileError(parseTile(o.tile), "<rows>x<cols>, rows 1..4, cols 1..8");
        if (needsGeneric(d)) return "this filter takes the generic path, which has no tiles";
        if ((qt - 1) * d.strideW + (d.s - 1) * d.dilationW + 1 > kMaxWindow ||
            (pt - 1) * d.strideH + (d.r - 1) * d.dilationH + 1 > kMaxRowWindow)
            return "tile " + o.tile + " needs an input window beyond the register budget";
    }
    if (o.subgroupSize && (!ctx.caps.subgroupSizeControl || o.subgroupSize < ctx.caps.minSubgroupSize ||
                           o.subgroupSize > ctx.caps.maxSubgroupSize))
        return "subgroup size " + std::to_string(o.subgroupSize) + " cannot be required on this device";
    return "";
}

std::unique_ptr<AlgorithmInstance> depthwiseInstantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    return std::make_unique<DepthwiseInstance>(ctx, d, o);
}

// Every dtype x {NCHW, NHWC} x {3x3 stride 1, 3x3 stride 2, 5x5} in the 2x4 block, and the 1x1
// block small layers get; then the scalar-row NCHW path (W % 4 != 0), the scalar-lane NHWC path
// (multiplier 2), a tall filter (one row per NHWC block) and the generic path.
std::vector<std::pair<ConvDesc, PlanOptions>> depthwiseVariants(const ContextImpl&) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    auto add = [&](DType t, TensorLayout l, int64_t rs, int64_t stride, int64_t mult, int64_t hw, const char* tile) {
        ConvDesc d;
        d.c = d.groups = 144;
        d.k = 144 * mult;
        d.h = d.w = hw;
        d.r = d.s = rs;
        d.pad(rs / 2, rs / 2);
        d.strideH = d.strideW = stride;
        d.dtype = t;
        d.inputLayout = d.outputLayout = l;
        d.hasBias = true;
        d.activation = Activation::Relu6;
        PlanOptions o;
        o.algorithm = "depthwise";
        o.tile = tile;
        v.push_back({d, o});
    };
    for (DType t : {DType::F32, DType::F16, DType::BF16})
        for (TensorLayout l : {TensorLayout::NCHW, TensorLayout::NHWC}) {
            add(t, l, 3, 1, 1, 56, "2x4");
            add(t, l, 3, 2, 1, 56, "2x4");
            add(t, l, 5, 1, 1, 56, "2x4");
            add(t, l, 3, 1, 1, 7, "1x1");
        }
    add(DType::F16, TensorLayout::NCHW, 3, 1, 1, 14, "2x4");
    add(DType::F16, TensorLayout::NHWC, 3, 1, 2, 56, "2x4");
    add(DType::F32, TensorLayout::NHWC, 7, 1, 1, 56, "");   // 49 taps: one row per block on NHWC
    add(DType::F32, TensorLayout::NCHW, 11, 1, 1, 56, "");  // 121 taps: generic path
    return v;
}

}  // namespace vkconv
