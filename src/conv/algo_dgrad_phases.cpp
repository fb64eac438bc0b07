// "dgrad_phases": strided backward-data on the forward kernels (the matrix units, winograd), by
// stride phases.  dx's pixels split by (h mod strideH, w mod strideW) into strideH x strideW
// phases; along an axis, phase a's pixels h = stride*i + a receive dy[p] * w[r] wherever
// p*stride - pad + r*dil = h, i.e. the taps r with r*dil = a + pad (mod stride).  With
// g = gcd(dil, stride) those are none (g does not divide a + pad) or every step = stride/g-th tap
// from the first, r0, r0 + step, ... rLast, and dy's row for tap r is i + (a + pad - r*dil)/stride,
// which falls by dil/g per tap.  So each phase is a dense stride-1 forward correlation of dy with
// the sub-filter of its taps, flipped (sub-tap j is rLast - j*step), filters and channels exchanged
// per group, dilation dil/g, and padding (rLast*dil - a - pad)/stride before; where that is negative
// the phase's output starts that many rows early (rows above dx, discarded), and the padding after
// is what keeps every phase pixel inside the output.  No dilation is declined: every combination
// reduces to that.
//
// Passes: one sub-filter pass per phase (shaders/dgrad_phase_filter.comp), a barrier, each phase's
// forward plan writing its dense output into the workspace, a barrier, and one scatter dispatch per
// phase (shaders/dgrad_phase_scatter.comp) that interleaves the phase into dx through dx's epilogue
// (accumulate, a transposed convolution's bias, residual, activation); the phases no tap reaches
// get only the epilogue of zero there.  Workspace, one region each (workspaceRegionAlignment): the
// sub-filters, the phase outputs (dx's size in all), then an equal share of the rest per inner plan.
// Stride 1 is dgrad_forward's (no scatter pass); this one takes it too, and accumulate.  With
// PlanOptions::packedFilter (a transposed convolution's constant weights) the sub-filters are the
// packed filter, written once by recordPackFilter with each inner plan's own packing after them,
// and the workspace holds the phase outputs and the inner plans' regions only.
#include <algorithm>
#include <numeric>

#include "conv/dispatch.hpp"
#include "conv/gradient.hpp"
#include "conv/tile_syntax.hpp"
#include "conv/router.hpp"
#include "runtime/context_impl.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kWorkgroup = 256;
constexpr uint32_t kSpecDstLayout = 101;  // dgrad_phase_filter.comp

// One phase along one axis (the docs above): dx's pixels in it, the taps that reach it, and the
// forward convolution's padding and output extent.
struct AxisPhase {
    int64_t pixels = 0;   // dx rows h = stride*i + a
    int64_t taps = 0;     // M: 0 where no tap reaches the phase
    int64_t lastTap = 0;  // rLast; sub-tap j is rLast - j*step
    int64_t step = 1;     // stride / gcd(dil, stride)
    int64_t dil = 1;      // the sub-filter's dilation: dil / gcd(dil, stride)
    int64_t padBefore = 0, padAfter = 0;
    int64_t shift = 0;  // the output row of phase row 0 (rows above dx come first)
    int64_t out = 0;    // the forward output's rows
};

AxisPhase axisPhase(int64_t a, int64_t stride, int64_t pad, int64_t dil, int64_t taps, int64_t extent, int64_t dy) {
    AxisPhase x;
    x.pixels = a < extent ? (extent - a + stride - 1) / stride : 0;
    const int64_t g = std::gcd(dil, stride);
    x.step = stride / g, x.dil = dil / g;
    int64_t first = -1;
    for (int64_t r = 0; r < std::min(taps, x.step) && first < 0; ++r)
        if (((r * dil - a - pad) % stride + stride) % stride == 0) first = r;
    if (first < 0 || x.pixels == 0) return x;
    x.taps = (taps - 1 - first) / x.step + 1;
    x.lastTap = first + (x.taps - 1) * x.step;
    const int64_t base = (a + pad - x.lastTap * dil) / stride;  // exact: lastTap is in the phase
    x.shift = std::max<int64_t>(0, base);
    x.padBefore = std::max<int64_t>(0, -base);
    const int64_t reach = x.dil * (x.taps - 1);
    x.padAfter = std::max<int64_t>(0, x.pixels + x.shift - dy - x.padBefore + reach);
    x.out = dy + x.padBefore + x.padAfter - reach;
    return x;
}

struct Phase {
    int64_t a = 0, b = 0;
    AxisPhase h, w;
    bool taps() const { return h.taps && w.taps; }
    ConvDesc desc;  // the forward convolution, where taps()
    const Algorithm* algo = nullptr;
    // filterOffset: in the workspace, or with packedFilter in the packed filter (innerPackedOffset
    // then follows the sub-filters: the inner plan's own packed form).
    uint64_t filterOffset = 0, filterBytes = 0, outputOffset = 0, outputBytes = 0, innerOffset = 0;
    uint64_t innerPackedOffset = 0;
};

// Every phase with dx pixels, their forward plans and the workspace's regions, or why not.
struct PhasePlan {
    std::vector<Phase> phases;
    PlanOptions opts;         // the inner plans' (their workspace limit: each one's share)
    uint64_t innerShare = 0;  // each inner plan's region
    uint64_t workspace = 0;
    uint64_t packed = 0;  // with packedFilter: the sub-filters' bytes in the packed filter
    std::string why;
};

ConvDesc forwardDesc(const DataGradProblem& p, const Phase& ph) {
    const ConvDesc& c = p.conv;
    ConvDesc f;
    f.n = c.n, f.c = c.k, f.h = p.p, f.w = p.q;
    f.k = c.c, f.r = ph.h.taps, f.s = ph.w.taps;
    f.padTop = ph.h.padBefore, f.padBottom = ph.h.padAfter;
    f.padLeft = ph.w.padBefore, f.padRight = ph.w.padAfter;
    f.dilationH = ph.h.dil, f.dilationW = ph.w.dil;
    f.groups = c.groups;
    f.dtype = c.dtype;
    // dy's layout in and out: the forward kernels' fast pairing; the scatter converts to dx's.
    f.inputLayout = f.outputLayout = c.outputLayout;
    f.filterLayout = f.inputLayout == TensorLayout::NHWC ? FilterLayout::KRSC : FilterLayout::KCRS;
    return f;
}

PhasePlan phasePlan(const ContextImpl& ctx, const DataGradProblem& p, const PlanOptions& o) {
    PhasePlan pp;
    const ConvDesc& c = p.conv;
    const uint64_t align = workspaceRegionAlignment(ctx);
    const uint64_t limit = std::min<uint64_t>(o.workspaceLimit, ctx.caps.maxStorageBufferRange);
    const uint64_t maxView = ctx.caps.maxStorageBufferRange;
    pp.opts = o;
    pp.opts.pass = ConvPass::Forward;
    pp.opts.accumulate = false;
    pp.opts.useFindDatabase = false;
    pp.opts.algorithm = "auto";
    pp.opts.tile.clear();
    const Algorithm* forced = nullptr;
    if (!o.tile.empty()) {
        const InnerTile inner = parseInnerTile(o.tile);  // "ALGO" or "ALGO:TILE"
        pp.opts.algorithm = inner.algorithm;
        pp.opts.tile = inner.tile;
        forced = inner.error.empty() && !inner.algorithm.empty() ? findAlgorithm(inner.algorithm) : nullptr;
        if (!forced) {
            pp.why = "PlanOptions::tile '" + o.tile + "' names no forward algorithm (it takes ALGO or ALGO:TILE)";
            return pp;
        }
    }
    uint64_t fixed = 0;
    int tapped = 0;
    for (int64_t a = 0; a < c.strideH; ++a)
        for (int64_t b = 0; b < c.strideW; ++b) {
            Phase ph;
            ph.a = a, ph.b = b;
            ph.h = axisPhase(a, c.strideH, c.padTop, c.dilationH, c.r, c.h, p.p);
            ph.w = axisPhase(b, c.strideW, c.padLeft, c.dilationW, c.s, c.w, p.q);
            if (!ph.h.pixels || !ph.w.pixels) continue;  // a stride beyond dx's extent
            if (ph.taps()) {
                ph.desc = forwardDesc(p, ph);
                try {
                    ph.desc.validate();
                } catch (const Error& e) {
                    pp.why = "phase (" + std::to_string(a) + ", " + std::to_string(b) +
                             ")'s forward convolution of dy is invalid: " + e.what();
                    return pp;
                }
                ph.filterBytes = uint64_t(ph.desc.filterBytes());
                ph.outputBytes = uint64_t(ph.desc.outputBytes());
                if (ph.outputBytes > maxView) {
                    pp.why =
                        "a phase's output (" + std::to_string(ph.outputBytes) + " bytes) exceeds maxStorageBufferRange";
                    return pp;
                }
                if (o.packedFilter) {
                    ph.filterOffset = pp.packed;
                    pp.packed += alignUp(ph.filterBytes, align);
                } else {
                    ph.filterOffset = fixed;
                    fixed += alignUp(ph.filterBytes, align);
                }
                ph.outputOffset = fixed;
                fixed += alignUp(ph.outputBytes, align);
                ++tapped;
            }
            pp.phases.push_back(ph);
        }
    if (fixed > limit) {
        pp.why = "the sub-filters and phase outputs need " + std::to_string(fixed) +
                 " workspace bytes and the limit (PlanOptions::workspaceLimit, maxStorageBufferRange) is " +
                 std::to_string(limit);
        return pp;
    }
    pp.innerShare = tapped ? (limit - fixed) / uint64_t(tapped) / align * align : 0;
    pp.opts.workspaceLimit = pp.innerShare;
    for (Phase& ph : pp.phases) {
        if (!ph.taps()) continue;
        if (forced) {
            if (std::string no = forced->whyNot(ctx, ph.desc, pp.opts); !no.empty()) {
                pp.why = std::string(forced->name) + " declines phase (" + std::to_string(ph.a) + ", " +
                         std::to_string(ph.b) + ")'s forward convolution of dy: " + no;
                return pp;
            }
            ph.algo = forced;
        } else {
            ph.algo = &chooseAlgorithm(ctx, ph.desc, pp.opts);
        }
    }
    pp.workspace = fixed;
    return pp;
}

class DgradPhasesInstance final : public AlgorithmInstance {
public:
    DgradPhasesInstance(ContextImpl& ctx, const DataGradProblem& p, const PhasePlan& pp)
        : ctx_(ctx),
          phases_(pp.phases),
          n_(p.conv.n),
          c_(p.conv.c),
          dtype_(p.conv.dtype),
          addOnly_(p.accumulate && !p.conv.hasBias && !p.conv.hasResidual && p.conv.activation == Activation::None),
          packed_(pp.opts.packedFilter) {
        const uint64_t align = workspaceRegionAlignment(ctx);
        uint64_t at = pp.workspace, packedAt = pp.packed;
        for (Phase& ph : phases_) {
            if (!ph.taps()) {
                inner_.emplace_back();
                continue;
            }
            inner_.push_back(ph.algo->instantiate(ctx, ph.desc, pp.opts));
            ph.innerOffset = at;
            at += alignUp(inner_.back()->workspaceSize(), align);
            ph.innerPackedOffset = packedAt;
            packedAt += alignUp(inner_.back()->packedFilterSize(), align);
        }
        workspace_ = at;
        packedBytes_ = packed_ ? packedAt : 0;
        ConvDesc k;
        k.dtype = p.conv.dtype;
        k.filterLayout = p.conv.filterLayout;
        PipelineKey fkey = convPipelineKey(std::string("dgrad_phase_filter_") + dtypeSuffix(k.dtype), k, kWorkgroup);
        fkey.spec.push_back({kSpecDstLayout, uint32_t(p.conv.outputLayout == TensorLayout::NHWC ? 1 : 0)});
        filter_ = &ctx.pipelines->get(fkey);
        scatter_ = &ctx.pipelines->get(gradPipelineKey(std::string("dgrad_phase_scatter_") + dtypeSuffix(p.conv.dtype),
                                                       p.conv, p.accumulate, kWorkgroup));
        const ConvPushConstants base = dataGradPushConstants(p);
        for (const Phase& ph : phases_) {
            ConvPushConstants f = base;
            f.P = uint32_t(ph.h.taps), f.Q = uint32_t(ph.w.taps);
            f.padT = uint32_t(ph.h.lastTap), f.padL = uint32_t(ph.w.lastTap);
            f.strideH = uint32_t(ph.h.step), f.strideW = uint32_t(ph.w.step);
            filterPc_.push_back(f);
            ConvPushConstants s = base;
            s.K = uint32_t(ph.h.pixels), s.R = uint32_t(ph.w.pixels);
            s.P = uint32_t(ph.h.out), s.Q = uint32_t(ph.w.out);
            s.padT = uint32_t(ph.a), s.padL = uint32_t(ph.b);
            s.dilH = uint32_t(ph.h.shift), s.dilW = uint32_t(ph.w.shift);
            s.aux0 = ph.taps() ? 1u : 0u;
            scatterPc_.push_back(s);
        }
    }

    void recordDataGrad(VkCommandBuffer cmd, const DataGradTensors& t) const override {
        const BufferView& ws = t.workspace;
        auto view = [&](uint64_t offset, uint64_t bytes) { return BufferView{ws.buffer, ws.offset + offset, bytes}; };
        // Packed, t.filter is the packed filter: the sub-filters, then the inner plans' packings.
        auto packedView = [&](uint64_t offset, uint64_t bytes) {
            return BufferView{t.filter.buffer, t.filter.offset + offset, bytes};
        };
        bool tapped = false;
        if (!packed_) tapped = recordSubFilters(cmd, t.filter, view);
        for (size_t i = 0; i < phases_.size(); ++i) {
            const Phase& ph = phases_[i];
            if (!ph.taps()) continue;
            tapped = true;
            const uint64_t innerWs = inner_[i]->workspaceSize(), innerPacked = inner_[i]->packedFilterSize();
            const BufferView filter = !packed_      ? view(ph.filterOffset, ph.filterBytes)
                                      : innerPacked ? packedView(ph.innerPackedOffset, innerPacked)
                                                    : packedView(ph.filterOffset, ph.filterBytes);
            inner_[i]->record(cmd, ConvTensors{t.gradOutput,
                                               filter,
                                               {},
                                               {},
                                               view(ph.outputOffset, ph.outputBytes),
                                               innerWs ? view(ph.innerOffset, innerWs) : BufferView{}});
        }
        if (tapped) computeBarrier(ctx_, cmd);
        // The scatters write disjoint pixels of dx: no barrier between them.  A phase no tap
        // reaches adds nothing where accumulate is all of dx's epilogue (the backward-data pass).
        for (size_t i = 0; i < phases_.size(); ++i) {
            const Phase& ph = phases_[i];
            if (!ph.taps() && addOnly_) continue;
            DataGradTensors s = t;
            s.gradOutput = ph.taps() ? view(ph.outputOffset, ph.outputBytes) : t.gradOutput;
            s.workspace = {};
            bindDataGradTensors(ctx_, cmd, *scatter_, s);
            pushConstants(ctx_, cmd, *scatter_, scatterPc_[i]);
            dispatch1D(ctx_, cmd, uint64_t(n_ * c_ * ph.h.pixels * ph.w.pixels), kWorkgroup);
        }
    }
    VkDeviceSize workspaceSize() const override { return workspace_; }
    VkDeviceSize packedFilterSize() const override { return packedBytes_; }
    void recordPackFilter(VkCommandBuffer cmd, const BufferView& filter, const BufferView& packed) const override {
        auto view = [&](uint64_t offset, uint64_t bytes) {
            return BufferView{packed.buffer, packed.offset + offset, bytes};
        };
        if (!recordSubFilters(cmd, filter, view)) return;
        for (size_t i = 0; i < phases_.size(); ++i) {
            const Phase& ph = phases_[i];
            if (ph.taps() && inner_[i]->packedFilterSize())
                inner_[i]->recordPackFilter(cmd, view(ph.filterOffset, ph.filterBytes),
                                            view(ph.innerPackedOffset, inner_[i]->packedFilterSize()));
        }
    }
    std::string name() const override { return "dgrad_phases"; }
    std::string config() const override {
        int tapped = 0;
        std::vector<std::string> inner;
        for (size_t i = 0; i < phases_.size(); ++i) {
            if (!inner_[i]) continue;
            ++tapped;
            const std::string s = inner_[i]->name() + " " + inner_[i]->config();
            if (std::find(inner.begin(), inner.end(), s) == inner.end()) inner.push_back(s);
        }
        std::string c =
            std::to_string(phases_.size()) + " phases (" + std::to_string(tapped) + " with taps): sub-filters, then ";
        for (size_t i = 0; i < inner.size(); ++i) c += (i ? "; " : "") + inner[i];
        return c + ", then the scatter";
    }
    double roundingAmplification() const override {
        double amp = 1.0;
        for (const auto& i : inner_)
            if (i) amp = std::max(amp, i->roundingAmplification());
        return amp;
    }
    // The phase outputs are stored in the storage type before the scatter adds the epilogue's
    // operands: one more rounding of the sum, relative to sum |dy*w| (a unit of 16-bit storage).
    double operandRounding() const override {
        double r = 0.0;
        for (const auto& i : inner_)
            if (i) r = std::max(r, i->operandRounding());
        return r + (dtype_ == DType::F16 ? 0x1p-11 : dtype_ == DType::BF16 ? 0x1p-8 : 0.0);
    }

private:
    // Each phase's sub-filter from w at ph.filterOffset of `at` (the workspace, or the packed
    // filter), then a barrier; false where no phase has taps.
    template <class At>
    bool recordSubFilters(VkCommandBuffer cmd, const BufferView& filter, const At& at) const {
        bool tapped = false;
        for (size_t i = 0; i < phases_.size(); ++i) {
            const Phase& ph = phases_[i];
            if (!ph.taps()) continue;
            ConvTensors f;
            f.input = filter, f.filter = filter, f.output = at(ph.filterOffset, ph.filterBytes);
            bindConvTensors(ctx_, cmd, *filter_, f);
            pushConstants(ctx_, cmd, *filter_, filterPc_[i]);
            dispatch1D(ctx_, cmd, ph.filterBytes / uint64_t(dtypeSize(ph.desc.dtype)), kWorkgroup);
            tapped = true;
        }
        if (tapped) computeBarrier(ctx_, cmd);
        return tapped;
    }

    ContextImpl& ctx_;
    std::vector<Phase> phases_;
    int64_t n_, c_;
    DType dtype_;
    bool addOnly_, packed_;
    uint64_t packedBytes_ = 0;
    std::vector<std::unique_ptr<AlgorithmInstance>> inner_;
    std::vector<ConvPushConstants> filterPc_, scatterPc_;
    uint64_t workspace_ = 0;
    const ComputePipeline* filter_;
    const ComputePipeline* scatter_;
};

}  // namespace

std::string dgradPhasesInnerRoutes(const ContextImpl& ctx, const DataGradProblem& p, const PlanOptions& o) {
    PlanOptions unforced = o;
    unforced.tile.clear();
    const PhasePlan pp = phasePlan(ctx, p, unforced);
    if (!pp.why.empty()) return "";
    std::vector<std::string> seen;
    std::string names;
    for (const Phase& ph : pp.phases) {
        if (!ph.algo || std::find(seen.begin(), seen.end(), ph.algo->name) != seen.end()) continue;
        seen.emplace_back(ph.algo->name);
        if (!names.empty()) names += '/';
        names += ph.algo->name;
    }
    return names;
}

std::string dgradPhasesWhyNot(const ContextImpl& ctx, const DataGradProblem& p, const PlanOptions& o) {
    return phasePlan(ctx, p, o).why;
}

std::unique_ptr<AlgorithmInstance> dgradPhasesInstantiate(ContextImpl& ctx, const DataGradProblem& p,
                                                          const PlanOptions& o) {
    return std::make_unique<DgradPhasesInstance>(ctx, p, phasePlan(ctx, p, o));
}

// The sub-filter pass per dtype x source filter layout x destination layout (from dy's layout),
// the scatter per dtype x (dx, dy) layouts, plain and with the transposed epilogue and accumulate;
// the inner plans are the forward algorithms' own variants.
std::vector<std::pair<DataGradProblem, PlanOptions>> dgradPhasesVariants(const ContextImpl&) {
    std::vector<std::pair<DataGradProblem, PlanOptions>> v;
    for (DType t : {DType::F32, DType::F16, DType::BF16})
        for (int layouts = 0; layouts < 4; ++layouts)
            for (FilterLayout fl : {FilterLayout::KCRS, FilterLayout::KRSC})
                for (bool epilogue : {false, true}) {
                    DataGradProblem p;
                    p.conv.c = p.conv.k = 64;
                    p.conv.h = p.conv.w = 28;
                    p.conv.r = p.conv.s = 3;
                    p.conv.pad(1, 1);
                    p.conv.strideH = p.conv.strideW = 2;
                    p.conv.dtype = t;
                    p.conv.inputLayout = TensorLayout(layouts & 1);
                    p.conv.outputLayout = TensorLayout(layouts >> 1);
                    p.conv.filterLayout = fl;
                    if (epilogue) {
                        p.conv.hasBias = p.conv.hasResidual = true;
                        p.conv.activation = Activation::Gelu;
                        p.accumulate = true;
                    }
                    p.p = p.conv.outH(), p.q = p.conv.outW();
                    PlanOptions o{"dgrad_phases"};
                    o.pass = ConvPass::BackwardData;
                    v.push_back({p, o});
                }
    return v;
}

}  // namespace vkconv
