// "dgrad_forward": stride-1 backward-data as a forward convolution, so that it runs on every
// forward kernel (the matrix units, winograd).  At stride 1, dx[h] = sum over r of
// dy[h + pad - r*dil] * w[r]; with r' = R-1-r that is a forward correlation of dy with the filter
// flipped in R and S, its filters and channels exchanged per group, padded by dil*(R-1) - pad on
// top and whatever keeps dx's height at the bottom.  A pass (shaders/dgrad_filter_flip.comp) writes
// the flipped filter into the workspace; then the forward router's choice for that convolution
// runs, dy as its input and dx as its output, with the transposed epilogue (bias over C, residual,
// activation) as its own.  Workspace: the flipped filter, then the inner plan's own.  With
// PlanOptions::packedFilter (a transposed convolution's constant weights) the flip runs once, in
// recordPackFilter, and so does the inner plan's own packing where it has one: the packed filter
// is the flipped filter, then the inner plan's packed form.
#include "conv/dispatch.hpp"
#include "conv/gradient.hpp"
#include "conv/router.hpp"
#include "conv/tile_syntax.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kFlipWorkgroup = 256;
constexpr uint32_t kSpecDstLayout = 101;  // dgrad_filter_flip.comp

// The forward convolution dx = conv(dy, w'), or why there is none.
struct ForwardView {
    ConvDesc desc;
    std::string why;
};

ForwardView forwardView(const DataGradProblem& p) {
    const ConvDesc& c = p.conv;
    ForwardView v;
    if (c.strideH != 1 || c.strideW != 1) {
        v.why = "stride " + std::to_string(c.strideH) + "x" + std::to_string(c.strideW) +
                ": only stride 1 is a forward convolution of dy (strided dx: dgrad_phases, dgrad_implicit_gemm)";
        return v;
    }
    ConvDesc& f = v.desc;
    f.n = c.n, f.c = c.k, f.h = p.p, f.w = p.q;
    f.k = c.c, f.r = c.r, f.s = c.s;
    f.padTop = c.dilationH * (c.r - 1) - c.padTop;
    f.padLeft = c.dilationW * (c.s - 1) - c.padLeft;
    // dx's height and width: dy's, plus the padding, less the filter's extent.
    f.padBottom = c.h - p.p + c.dilationH * (c.r - 1) - f.padTop;
    f.padRight = c.w - p.q + c.dilationW * (c.s - 1) - f.padLeft;
    if (f.padTop < 0 || f.padLeft < 0 || f.padBottom < 0 || f.padRight < 0) {
        v.why =
            "padding beyond the filter's extent (dilation x (taps - 1) - padding is negative): the forward "
            "convolution would need negative padding";
        return v;
    }
    f.dilationH = c.dilationH, f.dilationW = c.dilationW;
    f.groups = c.groups;
    f.dtype = c.dtype;
    f.inputLayout = c.outputLayout;  // dy
    f.outputLayout = c.inputLayout;  // dx
    // The flip pass writes w' in the layout that pairs with dy's (the NHWC kernels read KRSC).
    f.filterLayout = f.inputLayout == TensorLayout::NHWC ? FilterLayout::KRSC : FilterLayout::KCRS;
    f.hasBias = c.hasBias, f.hasResidual = c.hasResidual;
    f.activation = c.activation, f.activationAlpha = c.activationAlpha;
    try {
        f.validate();
    } catch (const Error& e) {
        v.why = std::string("the forward convolution of dy is invalid: ") + e.what();
    }
    return v;
}

uint64_t flipRegionBytes(const ContextImpl& ctx, const DataGradProblem& p) {
    return alignUp(uint64_t(p.conv.filterBytes()), workspaceRegionAlignment(ctx));
}

// The inner plan's options: PlanOptions::tile "ALGO" or "ALGO:TILE" names the forward algorithm
// (and its tile); "" asks the forward router.  The workspace left after the flipped filter.
struct InnerChoice {
    ForwardView view;
    PlanOptions opts;
    const Algorithm* algo = nullptr;
    std::string why;
};

InnerChoice innerChoice(const ContextImpl& ctx, const DataGradProblem& p, const PlanOptions& o) {
    InnerChoice ic;
    ic.view = forwardView(p);
    if (!ic.view.why.empty()) {
        ic.why = ic.view.why;
        return ic;
    }
    if (p.accumulate) {
        ic.why =
            "PlanOptions::accumulate: the forward kernels overwrite their output (the old dx as their residual "
            "would alias the output, which the multi-pass kernels read after writing)";
        return ic;
    }
    // Packed, the flipped filter lives in the packed filter, not the workspace.
    const uint64_t flip = o.packedFilter ? 0 : flipRegionBytes(ctx, p);
    const uint64_t limit = std::min<uint64_t>(o.workspaceLimit, ctx.caps.maxStorageBufferRange);
    if (flip > limit) {
        ic.why = "the flipped filter needs " + std::to_string(flip) +
                 " workspace bytes and the limit (PlanOptions::workspaceLimit, maxStorageBufferRange) is " +
                 std::to_string(limit);
        return ic;
    }
    ic.opts = o;
    ic.opts.pass = ConvPass::Forward;
    ic.opts.accumulate = false;
    ic.opts.useFindDatabase = false;
    ic.opts.workspaceLimit = o.workspaceLimit - flip;
    ic.opts.algorithm = "auto";
    ic.opts.tile.clear();
    if (!o.tile.empty()) {
        const InnerTile inner = parseInnerTile(o.tile);  // "ALGO" or "ALGO:TILE"
        ic.opts.algorithm = inner.algorithm;
        ic.opts.tile = inner.tile;
        ic.algo = inner.error.empty() && !inner.algorithm.empty() ? findAlgorithm(inner.algorithm) : nullptr;
        if (!ic.algo) {
            ic.why = "PlanOptions::tile '" + o.tile + "' names no forward algorithm (it takes ALGO or ALGO:TILE)";
            return ic;
        }
        if (std::string no = ic.algo->whyNot(ctx, ic.view.desc, ic.opts); !no.empty())
            ic.why = std::string(ic.algo->name) + " declines the forward convolution of dy: " + no;
        return ic;
    }
    ic.algo = &chooseAlgorithm(ctx, ic.view.desc, ic.opts);
    return ic;
}

class DgradForwardInstance final : public AlgorithmInstance {
public:
    DgradForwardInstance(ContextImpl& ctx, const DataGradProblem& p, const InnerChoice& ic)
        : ctx_(ctx),
          pc_(dataGradPushConstants(p)),
          filterElements_(uint64_t(p.conv.filterElements())),
          filterBytes_(uint64_t(p.conv.filterBytes())),
          flipRegion_(flipRegionBytes(ctx, p)),
          packed_(ic.opts.packedFilter) {
        inner_ = ic.algo->instantiate(ctx, ic.view.desc, ic.opts);
        // The flip reads only the source filter's layout and writes the storage type: one pipeline
        // per (dtype, source layout, destination layout), whatever the epilogue.
        ConvDesc k;
        k.dtype = p.conv.dtype;
        k.filterLayout = p.conv.filterLayout;
        PipelineKey key = convPipelineKey(std::string("dgrad_filter_flip_") + dtypeSuffix(k.dtype), k, kFlipWorkgroup);
        key.spec.push_back({kSpecDstLayout, uint32_t(ic.view.desc.filterLayout)});
        flip_ = &ctx.pipelines->get(key);
    }
    void recordDataGrad(VkCommandBuffer cmd, const DataGradTensors& t) const override {
        const BufferView& ws = t.workspace;
        BufferView innerFilter;
        if (packed_) {  // t.filter is the packed filter
            innerFilter = inner_->packedFilterSize()
                              ? BufferView{t.filter.buffer, t.filter.offset + flipRegion_, inner_->packedFilterSize()}
                              : BufferView{t.filter.buffer, t.filter.offset, filterBytes_};
        } else {
            innerFilter = BufferView{ws.buffer, ws.offset, filterBytes_};
            recordFlip(cmd, t.filter, innerFilter);
        }
        const uint64_t innerWs = inner_->workspaceSize(), at = packed_ ? 0 : flipRegion_;
        const BufferView iw = innerWs ? BufferView{ws.buffer, ws.offset + at, innerWs} : BufferView{};
        inner_->record(cmd, ConvTensors{t.gradOutput, innerFilter, t.bias, t.residual, t.gradInput, iw});
    }
    VkDeviceSize workspaceSize() const override { return (packed_ ? 0 : flipRegion_) + inner_->workspaceSize(); }
    VkDeviceSize packedFilterSize() const override {
        return packed_ ? (inner_->packedFilterSize() ? flipRegion_ + inner_->packedFilterSize() : filterBytes_) : 0;
    }
    void recordPackFilter(VkCommandBuffer cmd, const BufferView& filter, const BufferView& packed) const override {
        const BufferView flipped{packed.buffer, packed.offset, filterBytes_};
        recordFlip(cmd, filter, flipped);
        if (inner_->packedFilterSize())
            inner_->recordPackFilter(
                cmd, flipped, BufferView{packed.buffer, packed.offset + flipRegion_, inner_->packedFilterSize()});
    }
    std::string name() const override { return "dgrad_forward"; }
    std::string config() const override { return "flipped filter, then " + inner_->name() + " " + inner_->config(); }
    double roundingAmplification() const override { return inner_->roundingAmplification(); }
    double operandRounding() const override { return inner_->operandRounding(); }

private:
    // w' from w, then a barrier: the inner plan (or its packing) reads it next.
    void recordFlip(VkCommandBuffer cmd, const BufferView& filter, const BufferView& flipped) const {
        ConvTensors f;
        f.input = filter, f.filter = filter, f.output = flipped;
        bindConvTensors(ctx_, cmd, *flip_, f);
        pushConstants(ctx_, cmd, *flip_, pc_);
        dispatch1D(ctx_, cmd, filterElements_, kFlipWorkgroup);
        computeBarrier(ctx_, cmd);
    }

    ContextImpl& ctx_;
    ConvPushConstants pc_;
    uint64_t filterElements_, filterBytes_, flipRegion_;
    bool packed_;
    std::unique_ptr<AlgorithmInstance> inner_;
    const ComputePipeline* flip_;
};

}  // namespace

std::string dgradForwardInnerRoute(const ContextImpl& ctx, const DataGradProblem& p, const PlanOptions& o) {
    PlanOptions unforced = o;
    unforced.tile.clear();
    InnerChoice ic = innerChoice(ctx, p, unforced);
    return ic.why.empty() ? ic.algo->name : "";
}

std::string dgradForwardWhyNot(const ContextImpl& ctx, const DataGradProblem& p, const PlanOptions& o) {
    return innerChoice(ctx, p, o).why;
}

std::unique_ptr<AlgorithmInstance> dgradForwardInstantiate(ContextImpl& ctx, const DataGradProblem& p,
                                                           const PlanOptions& o) {
    return std::make_unique<DgradForwardInstance>(ctx, p, innerChoice(ctx, p, o));
}

// The flip pass per dtype x source filter layout x destination layout (NCHW dy: KCRS; NHWC: KRSC);
// the inner plans are the forward algorithms' own variants.
std::vector<std::pair<DataGradProblem, PlanOptions>> dgradForwardVariants(const ContextImpl&) {
    std::vector<std::pair<DataGradProblem, PlanOptions>> v;
    for (DType t : {DType::F32, DType::F16, DType::BF16})
        for (bool nhwc : {false, true})
            for (FilterLayout fl : {FilterLayout::KCRS, FilterLayout::KRSC}) {
                DataGradProblem p;
                p.conv.c = p.conv.k = 64;
                p.conv.h = p.conv.w = 28;
                p.conv.r = p.conv.s = 3;
                p.conv.pad(1, 1);
                p.conv.dtype = t;
                if (nhwc) p.conv.inputLayout = p.conv.outputLayout = TensorLayout::NHWC;
                p.conv.filterLayout = fl;
                p.p = p.conv.outH(), p.q = p.conv.outW();
                PlanOptions o{"dgrad_forward"};
                o.pass = ConvPass::BackwardData;
                v.push_back({p, o});
            }
    return v;
}

}  // namespace vkconv
