// Plan: validation that depends on the device, algorithm choice, and checked recording.
#include <cstdio>
#include <optional>
#include <type_traits>

#include "conv/algorithm.hpp"
#include "conv/device_model.hpp"
#include "conv/router.hpp"
#include "conv/dispatch.hpp"
#include "conv/filter_copy.hpp"
#include "conv/find_winner.hpp"
#include "conv/gradient.hpp"
#include "runtime/context_access.hpp"
#include "vkconv/context.hpp"
#include "vkconv/plan.hpp"

namespace vkconv {

namespace {

void validateOnDevice(const ContextImpl& ctx, const ConvDesc& d) {
    const auto& c = ctx.caps;
    if (d.dtype != DType::F32 && !c.storageBuffer16BitAccess)
        throw Error(ErrorCode::Unsupported, std::string(toString(d.dtype)) + " needs storageBuffer16BitAccess, which " +
                                                c.deviceName + " does not have (or the adopted device did not enable)");
    struct {
        const char* name;
        int64_t bytes;
    } tensors[] = {{"input", d.inputBytes()}, {"filter", d.filterBytes()}, {"output", d.outputBytes()}};
    for (auto& t : tensors)
        if (uint64_t(t.bytes) > c.maxStorageBufferRange)
            throw Error(ErrorCode::IndexOverflow, std::string(t.name) + " is " + std::to_string(t.bytes) +
                                                      " bytes, over this device's maxStorageBufferRange of " +
                                                      std::to_string(c.maxStorageBufferRange));
}

void checkView(const ContextImpl& ctx, const char* name, const BufferView& v, int64_t bytes, bool required,
               const char* notRequiredWhy) {
    if (!required) {
        if (!v.empty())
            throw Error(ErrorCode::InvalidArgument, std::string(name) + " buffer given but " + notRequiredWhy);
        return;
    }
    if (v.empty()) throw Error(ErrorCode::InvalidArgument, std::string(name) + " buffer is missing");
    // offset + size must not wrap: the overlap tests and the driver's own range checks add them.
    if (v.offset > UINT64_MAX - v.size)
        throw Error(ErrorCode::InvalidArgument, std::string(name) + " view's offset " + std::to_string(v.offset) +
                                                    " + size " + std::to_string(v.size) + " overflows 64 bits");
    if (v.size < uint64_t(bytes))
        throw Error(ErrorCode::BufferTooSmall, std::string(name) + " view holds " + std::to_string(v.size) +
                                                   " bytes; the tensor needs " + std::to_string(bytes));
    if (v.size > ctx.caps.maxStorageBufferRange)
        throw Error(ErrorCode::IndexOverflow,
                    std::string(name) + " view of " + std::to_string(v.size) +
                        " bytes exceeds maxStorageBufferRange (pass a range that covers just the tensor)");
    uint32_t align = ctx.caps.minStorageBufferOffsetAlignment;
    if (align && v.offset % align != 0)
        throw Error(ErrorCode::InvalidArgument, std::string(name) + " offset " + std::to_string(v.offset) +
                                                    " is not a multiple of minStorageBufferOffsetAlignment " +
                                                    std::to_string(align));
}

void checkSubgroupSize(const DeviceCaps& c, uint32_t sg) {
    if (sg == 0) return;
    if ((sg & (sg - 1)) != 0)
        throw Error(ErrorCode::InvalidArgument, "subgroupSize " + std::to_string(sg) + " is not a power of two");
    if (!c.subgroupSizeControl || sg < c.minSubgroupSize || sg > c.maxSubgroupSize)
        throw Error(ErrorCode::Unsupported, "subgroupSize " + std::to_string(sg) + " cannot be required on " +
                                                c.deviceName + " (range " + std::to_string(c.minSubgroupSize) + ".." +
                                                std::to_string(c.maxSubgroupSize) +
                                                (c.subgroupSizeControl ? ")" : ", no subgroup size control)"));
}

bool overlaps(const BufferView& a, const BufferView& b) {
    return !a.empty() && !b.empty() && a.buffer == b.buffer && a.offset < b.offset + b.size &&
           b.offset < a.offset + a.size;
}

}  // namespace

Plan Plan::create(Context& ctx, const ConvDesc& desc, const PlanOptions& options) {
    if (options.pass != ConvPass::Forward) return createGradient(ctx, desc, options, nullptr);
    desc.validate();
    auto& impl = implOf(ctx);
    validateOnDevice(impl, desc);
    checkSubgroupSize(impl.caps, options.subgroupSize);
    if (options.algorithm.empty() || options.algorithm == "auto") {
        if (!options.tile.empty())
            throw Error(ErrorCode::InvalidArgument,
                        "PlanOptions::tile '" + options.tile + "' needs a named algorithm, not auto");
        // Measured beats modelled: a recorded winner that still plans (a later build may
        // decline it: then the router decides, and the next find re-times the problem).
        if (std::optional<FindWinner> w = findDatabaseWinner(impl, desc, options)) {
            const Algorithm* a = findAlgorithm(w->options.algorithm);
            if (a && a->whyNot(impl, desc, w->options).empty()) {
                Plan p(ctx, desc, options, a->instantiate(impl, desc, w->options));
                p.chosenBy_ = "find database";
                p.measuredUs_ = w->microseconds, p.routerMeasuredUs_ = w->routerMicroseconds;
                return p;
            }
        }
        const Algorithm& algo = chooseAlgorithm(impl, desc, options);
        Plan p(ctx, desc, options, algo.instantiate(impl, desc, options));
        p.chosenBy_ = "router";
        return p;
    }
    const Algorithm* algo = findAlgorithm(options.algorithm);
    if (!algo) {
        std::string names;
        for (auto& a : algorithms()) names += std::string(names.empty() ? "" : ", ") + a.name;
        throw Error(ErrorCode::UnknownAlgorithm,
                    "no algorithm named '" + options.algorithm + "' (have: auto, " + names + ")");
    }
    std::string why = algo->whyNot(impl, desc, options);
    if (!why.empty())
        throw Error(ErrorCode::Unsupported, std::string(algo->name) + " declines " + desc.toString() + ": " + why);
    Plan p(ctx, desc, options, algo->instantiate(impl, desc, options));
    p.chosenBy_ = "PlanOptions::algorithm";
    return p;
}

PlanOptions transposedOptions(const PlanOptions& options) {
    if (options.pass == ConvPass::BackwardWeight)
        throw Error(ErrorCode::InvalidArgument,
                    "PlanOptions::pass is BackwardWeight, but a ConvTransposeDesc plan runs the transposed convolution "
                    "(the backward-data pass of desc.convDesc()); plan the weight gradient on desc.convDesc()");
    if (options.accumulate)
        throw Error(ErrorCode::InvalidArgument,
                    "PlanOptions::accumulate is for gradients; a transposed convolution adds to an existing output "
                    "through hasResidual");
    PlanOptions o = options;
    o.pass = ConvPass::BackwardData;
    return o;
}

Plan Plan::create(Context& ctx, const ConvTransposeDesc& desc, const PlanOptions& options) {
    desc.validate();
    return createGradient(ctx, desc.convDesc(), transposedOptions(options), &desc);
}

DataGradProblem dataGradProblem(const ConvDesc& desc, const PlanOptions& o, const ConvTransposeDesc* transposed) {
    DataGradProblem p;
    p.conv = desc;
    p.accumulate = o.accumulate;
    if (transposed) {
        p.conv.hasBias = transposed->hasBias, p.conv.hasResidual = transposed->hasResidual;
        p.conv.activation = transposed->activation, p.conv.activationAlpha = transposed->activationAlpha;
        p.p = transposed->h, p.q = transposed->w;
    } else {
        p.conv.hasBias = false;
        p.p = desc.outH(), p.q = desc.outW();
    }
    return p;
}

namespace {

std::string gradAlgorithmList(ConvPass pass) {
    std::string names;
    for (const std::string& n : algorithmNames(pass)) names += ", " + n;
    return names;
}

// The named algorithm, or the router's choice; throws where the named one is unknown or declines.
template <class Problem>
std::unique_ptr<AlgorithmInstance> instantiateGradient(ContextImpl& impl, const Problem& problem, const PlanOptions& o,
                                                       ConvPass pass, std::string& chosenBy) {
    const bool data = pass == ConvPass::BackwardData;
    const GradAlgorithm<Problem>* algo = nullptr;
    if (o.algorithm.empty() || o.algorithm == "auto") {
        GradRoute r;
        if constexpr (std::is_same_v<Problem, DataGradProblem>)
            r = routeDataGrad(impl, problem, o);
        else
            r = routeWeightGrad(impl, problem, o);
        if constexpr (std::is_same_v<Problem, DataGradProblem>)
            algo = findDataGradAlgorithm(r.algorithm);
        else
            algo = findWeightGradAlgorithm(r.algorithm);
        chosenBy = "router";
    } else {
        if constexpr (std::is_same_v<Problem, DataGradProblem>)
            algo = findDataGradAlgorithm(o.algorithm);
        else
            algo = findWeightGradAlgorithm(o.algorithm);
        if (!algo)
            throw Error(ErrorCode::UnknownAlgorithm, "no " + std::string(toString(pass)) + " algorithm named '" +
                                                         o.algorithm + "' (have: auto" + gradAlgorithmList(pass) + ")");
        chosenBy = "PlanOptions::algorithm";
    }
    const std::string why = algo->whyNot(impl, problem, o);
    if (!why.empty())
        throw Error(ErrorCode::Unsupported, std::string(algo->name) + " declines the " +
                                                (data ? "backward-data" : "backward-weight") + " pass of " +
                                                problem.conv.toString() + ": " + why);
    return algo->instantiate(impl, problem, o);
}

}  // namespace

Plan Plan::createGradient(Context& ctx, const ConvDesc& desc, const PlanOptions& options,
                          const ConvTransposeDesc* transposed) {
    if (uint32_t(options.pass) > 2)
        throw Error(ErrorCode::InvalidArgument,
                    "PlanOptions::pass has an unknown value " + std::to_string(uint32_t(options.pass)));
    desc.validate();
    if (!transposed) {
        if (desc.activation != Activation::None)
            throw Error(ErrorCode::InvalidArgument,
                        std::string("the desc's activation is ") + std::string(toString(desc.activation)) +
                            ": backward passes compute the convolution's own gradients (apply the activation's "
                            "derivative to dy first, and plan with activation None)");
        if (desc.hasResidual)
            throw Error(ErrorCode::InvalidArgument,
                        "the desc has a residual: backward passes compute the convolution's own gradients (the "
                        "residual's gradient is dy itself; plan with hasResidual false)");
    }
    auto& impl = implOf(ctx);
    validateOnDevice(impl, desc);
    checkSubgroupSize(impl.caps, options.subgroupSize);
    if ((options.algorithm.empty() || options.algorithm == "auto") && !options.tile.empty())
        throw Error(ErrorCode::InvalidArgument,
                    "PlanOptions::tile '" + options.tile + "' needs a named algorithm, not auto");
    if (options.packedFilter && options.pass == ConvPass::BackwardWeight)
        throw Error(ErrorCode::InvalidArgument,
                    "PlanOptions::packedFilter packs a filter that the plan reads; backward-weight writes the filter");
    std::string chosenBy;
    std::unique_ptr<AlgorithmInstance> instance;
    // Measured beats modelled, as for the forward pass.
    if (options.algorithm.empty() || options.algorithm == "auto")
        if (std::optional<FindWinner> w = findDatabaseWinner(impl, desc, options, transposed)) {
            try {
                Plan p = createGradient(ctx, desc, w->options, transposed);
                p.options_ = options;
                p.chosenBy_ = "find database";
                p.measuredUs_ = w->microseconds, p.routerMeasuredUs_ = w->routerMicroseconds;
                return p;
            } catch (const Error&) {
                // a recorded winner this build declines: the router decides
            }
        }
    if (options.pass == ConvPass::BackwardData) {
        instance = instantiateGradient(impl, dataGradProblem(desc, options, transposed), options,
                                       ConvPass::BackwardData, chosenBy);
    } else {
        WeightGradProblem p;
        p.conv = desc;
        p.accumulate = options.accumulate;
        instance = instantiateGradient(impl, p, options, ConvPass::BackwardWeight, chosenBy);
    }
    ConvDesc plain = desc;  // desc() is the forward convolution, without a transposed epilogue
    Plan plan(ctx, plain, options, std::move(instance));
    plan.chosenBy_ = chosenBy;
    if (transposed) plan.transposed_ = std::make_unique<ConvTransposeDesc>(*transposed);
    return plan;
}

Plan::Plan(Context& ctx, const ConvDesc& desc, const PlanOptions& options, std::unique_ptr<AlgorithmInstance> impl)
    : ctx_(&implOf(ctx)), desc_(desc), options_(options), impl_(std::move(impl)) {}
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;

namespace {

void checkCommandBuffer(const ContextImpl& c, VkCommandBuffer cmd) {
    c.requireDevice("Plan::record");
    if (cmd == VK_NULL_HANDLE && !c.dryRun)
        throw Error(ErrorCode::InvalidArgument, "Plan::record: the command buffer is VK_NULL_HANDLE");
}

// What a plan writes may overlap nothing it reads or writes; what it only reads may share memory.
void checkOverlaps(std::initializer_list<std::pair<const char*, const BufferView*>> written,
                   std::initializer_list<std::pair<const char*, const BufferView*>> read) {
    for (auto w = written.begin(); w != written.end(); ++w) {
        for (auto w2 = w + 1; w2 != written.end(); ++w2)
            if (overlaps(*w->second, *w2->second))
                throw Error(ErrorCode::InvalidArgument, std::string("the ") + w->first + " overlaps the " + w2->first);
        for (const auto& [rn, r] : read)
            if (overlaps(*w->second, *r))
                throw Error(ErrorCode::InvalidArgument, std::string("the ") + w->first + " overlaps the " + rn);
    }
}

const char* passRecordHint(ConvPass p, bool transposed) {
    if (transposed) return "a transposed convolution: record it with ConvTensors";
    switch (p) {
        case ConvPass::Forward: return "the forward pass: record it with ConvTensors";
        case ConvPass::BackwardData: return "the backward-data pass: record it with BackwardDataTensors";
        case ConvPass::BackwardWeight: return "the backward-weight pass: record it with BackwardWeightTensors";
    }
    return "?";
}

}  // namespace

void Plan::record(VkCommandBuffer cmd, const BackwardDataTensors& t) const {
    const auto& c = *ctx_;
    if (options_.pass != ConvPass::BackwardData || transposed_)
        throw Error(ErrorCode::InvalidArgument, std::string("Plan::record(BackwardDataTensors): this plan runs ") +
                                                    passRecordHint(options_.pass, transposed_ != nullptr));
    checkCommandBuffer(c, cmd);
    checkView(c, "gradOutput", t.gradOutput, desc_.outputBytes(), true, "");
    checkFilterView(c, t.filter);
    checkView(c, "gradInput", t.gradInput, desc_.inputBytes(), true, "");
    checkView(c, "workspace", t.workspace, int64_t(impl_->workspaceSize()), impl_->workspaceSize() > 0,
              "this plan needs none (workspaceSize() is 0)");
    checkOverlaps({{"gradInput", &t.gradInput}, {"workspace", &t.workspace}},
                  {{"gradOutput", &t.gradOutput}, {"filter", &t.filter}});
    DataGradTensors d;
    d.gradOutput = t.gradOutput, d.filter = t.filter, d.gradInput = t.gradInput, d.workspace = t.workspace;
    impl_->recordDataGrad(cmd, d);
}

void Plan::run(const BackwardDataTensors& t) const {
    ctx_->submitAndWait([&](VkCommandBuffer cmd) { record(cmd, t); });
}

void Plan::record(VkCommandBuffer cmd, const BackwardWeightTensors& t) const {
    const auto& c = *ctx_;
    if (options_.pass != ConvPass::BackwardWeight)
        throw Error(ErrorCode::InvalidArgument, std::string("Plan::record(BackwardWeightTensors): this plan runs ") +
                                                    passRecordHint(options_.pass, transposed_ != nullptr));
    checkCommandBuffer(c, cmd);
    checkView(c, "input", t.input, desc_.inputBytes(), true, "");
    checkView(c, "gradOutput", t.gradOutput, desc_.outputBytes(), true, "");
    checkView(c, "gradFilter", t.gradFilter, desc_.filterBytes(), true, "");
    checkView(c, "gradBias", t.gradBias, desc_.biasBytes(), desc_.hasBias,
              "the descriptor has no bias (set hasBias for the bias gradient)");
    checkView(c, "workspace", t.workspace, int64_t(impl_->workspaceSize()), impl_->workspaceSize() > 0,
              "this plan needs none (workspaceSize() is 0)");
    checkOverlaps({{"gradFilter", &t.gradFilter}, {"gradBias", &t.gradBias}, {"workspace", &t.workspace}},
                  {{"input", &t.input}, {"gradOutput", &t.gradOutput}});
    WeightGradTensors w;
    w.input = t.input, w.gradOutput = t.gradOutput, w.gradFilter = t.gradFilter, w.gradBias = t.gradBias;
    w.workspace = t.workspace;
    impl_->recordWeightGrad(cmd, w);
}

void Plan::run(const BackwardWeightTensors& t) const {
    ctx_->submitAndWait([&](VkCommandBuffer cmd) { record(cmd, t); });
}

void Plan::recordTransposed(VkCommandBuffer cmd, const ConvTensors& t) const {
    const auto& c = *ctx_;
    const ConvTransposeDesc& d = *transposed_;
    checkCommandBuffer(c, cmd);
    checkView(c, "input", t.input, d.inputBytes(), true, "");
    checkFilterView(c, t.filter);
    checkView(c, "bias", t.bias, d.biasBytes(), d.hasBias, "the descriptor has no bias (set hasBias)");
    checkView(c, "residual", t.residual, d.outputBytes(), d.hasResidual,
              "the descriptor has no residual (set hasResidual)");
    checkView(c, "output", t.output, d.outputBytes(), true, "");
    checkView(c, "workspace", t.workspace, int64_t(impl_->workspaceSize()), impl_->workspaceSize() > 0,
              "this plan needs none (workspaceSize() is 0)");
    checkOverlaps({{"output", &t.output}, {"workspace", &t.workspace}},
                  {{"input", &t.input}, {"filter", &t.filter}, {"bias", &t.bias}, {"residual", &t.residual}});
    DataGradTensors g;
    g.gradOutput = t.input, g.filter = t.filter, g.bias = t.bias, g.residual = t.residual;
    g.gradInput = t.output, g.workspace = t.workspace;
    impl_->recordDataGrad(cmd, g);
}

void Plan::record(VkCommandBuffer cmd, const ConvTensors& t) const {
    const auto& c = *ctx_;
    if (transposed_) return recordTransposed(cmd, t);
    if (options_.pass != ConvPass::Forward)
        throw Error(ErrorCode::InvalidArgument,
                    std::string("Plan::record(ConvTensors): this plan runs ") + passRecordHint(options_.pass, false));
    checkCommandBuffer(c, cmd);
    checkView(c, "input", t.input, desc_.inputBytes(), true, "");
    checkFilterView(c, t.filter);
    checkView(c, "bias", t.bias, desc_.biasBytes(), desc_.hasBias, "the descriptor has no bias (set hasBias)");
    checkView(c, "residual", t.residual, desc_.outputBytes(), desc_.hasResidual,
              "the descriptor has no residual (set hasResidual)");
    checkView(c, "output", t.output, desc_.outputBytes(), true, "");
    checkView(c, "workspace", t.workspace, int64_t(impl_->workspaceSize()), impl_->workspaceSize() > 0,
              "this plan needs none (workspaceSize() is 0)");
    // What the plan writes (output, workspace) may overlap nothing else it reads or writes;
    // inputs may share memory with each other, since they are only read.
    const std::pair<const char*, const BufferView*> read[] = {
        {"input", &t.input}, {"filter", &t.filter}, {"bias", &t.bias}, {"residual", &t.residual}};
    const std::pair<const char*, const BufferView*> written[] = {{"output", &t.output}, {"workspace", &t.workspace}};
    if (overlaps(t.output, t.workspace)) throw Error(ErrorCode::InvalidArgument, "the output overlaps the workspace");
    for (const auto& [wn, w] : written)
        for (const auto& [rn, r] : read)
            if (overlaps(*w, *r))
                throw Error(ErrorCode::InvalidArgument,
                            std::string("the ") + wn + " overlaps the " + rn +
                                (std::string(wn) == "output" ? "; in-place convolution is not supported" : ""));
    impl_->record(cmd, t);
}

void Plan::run(const ConvTensors& t) const {
    ctx_->submitAndWait([&](VkCommandBuffer cmd) { record(cmd, t); });
}

// With PlanOptions::packedFilter the plan reads the packed filter, else the filter as given.
void Plan::checkFilterView(const ContextImpl& c, const BufferView& filter) const {
    if (options_.packedFilter)
        checkView(c, "packed filter", filter, int64_t(packedFilterSize()), true, "");
    else
        checkView(c, "filter", filter, desc_.filterBytes(), true, "");
}

VkDeviceSize Plan::packedFilterSize() const {
    if (!options_.packedFilter) return 0;
    const VkDeviceSize own = impl_->packedFilterSize();
    return own ? own : VkDeviceSize(desc_.filterBytes());
}

void Plan::recordPackFilter(VkCommandBuffer cmd, const BufferView& filter, const BufferView& packed) const {
    auto& c = *ctx_;
    c.requireDevice("Plan::recordPackFilter");
    if (cmd == VK_NULL_HANDLE && !c.dryRun)
        throw Error(ErrorCode::InvalidArgument, "Plan::recordPackFilter: the command buffer is VK_NULL_HANDLE");
    if (!options_.packedFilter)
        throw Error(ErrorCode::InvalidArgument,
                    "Plan::recordPackFilter: the plan was created without PlanOptions::packedFilter "
                    "(its record() reads the filter as given)");
    checkView(c, "filter", filter, desc_.filterBytes(), true, "");
    checkView(c, "packed filter", packed, int64_t(packedFilterSize()), true, "");
    if (overlaps(filter, packed)) throw Error(ErrorCode::InvalidArgument, "the packed filter overlaps the filter");
    if (impl_->packedFilterSize())
        impl_->recordPackFilter(cmd, filter, packed);
    else
        recordFilterCopy(c, cmd, desc_, filter, packed);
    computeBarrier(c, cmd);
}

void Plan::packFilter(const BufferView& filter, const BufferView& packed) const {
    ctx_->submitAndWait([&](VkCommandBuffer cmd) { recordPackFilter(cmd, filter, packed); });
}

const ConvDesc& Plan::desc() const { return desc_; }
ConvPass Plan::pass() const { return options_.pass; }
bool Plan::transposed() const { return transposed_ != nullptr; }
VkDeviceSize Plan::workspaceSize() const { return impl_->workspaceSize(); }
std::string Plan::algorithm() const { return impl_->name(); }
std::string Plan::config() const { return impl_->config(); }
double Plan::roundingAmplification() const { return impl_->roundingAmplification(); }
double Plan::operandRounding() const { return impl_->operandRounding(); }

PlanExplanation Plan::explain() const {
    PlanExplanation e;
    e.chosenBy = chosenBy_;
    e.algorithm = algorithm();
    e.config = config();
    e.measuredMicroseconds = measuredUs_, e.routerMeasuredMicroseconds = routerMeasuredUs_;
    // What the router asks of the problem as the caller posed it ("auto"; a named algorithm's
    // own options would change its answers).
    PlanOptions routerOptions = options_;
    routerOptions.algorithm = "auto", routerOptions.tile.clear();
    if (options_.pass != ConvPass::Forward) {
        explainGradient(e, routerOptions);
        return e;
    }
    const Route r = route(*ctx_, desc_, routerOptions);
    for (const RouteStep& s : r.steps) e.rules.push_back({s.algorithm, s.rule, s.outcome});
    if (chosenBy_ == "router") {
        e.reason = r.steps.empty() ? "every problem" : r.steps.back().rule;
    } else if (chosenBy_ == "find database") {
        char routerTime[48] = "not recorded", buf[200];
        if (routerMeasuredUs_ >= 0) std::snprintf(routerTime, sizeof routerTime, "%.2f us", routerMeasuredUs_);
        std::snprintf(buf, sizeof buf, "measured %.2f us by find on this device (the router's %s: %s)", measuredUs_,
                      r.algorithm ? r.algorithm->name : "?", routerTime);
        e.reason = buf;
    } else {
        e.reason =
            "named by the caller (the router would run " + std::string(r.algorithm ? r.algorithm->name : "?") + ")";
    }
    e.deviceModel = ctx_->model.source;
    for (const Algorithm& a : algorithms()) {
        PlanOptions o = routerOptions;
        o.algorithm = a.name;
        PlanExplanation::Candidate c{a.name, a.whyNot(*ctx_, desc_, o), a.ladder};
        if (c.declines.empty()) c.modelledMicroseconds = modelledMicroseconds(*ctx_, a.name, desc_, routerOptions);
        e.candidates.push_back(std::move(c));
    }
    return e;
}

void Plan::explainGradient(PlanExplanation& e, const PlanOptions& routerOptions) const {
    // The same problem the plan was created from (createGradient).
    auto explainWith = [&](const auto& problem, const auto& table, const GradRoute& r) {
        for (const RouteStep& s : r.steps) e.rules.push_back({s.algorithm, s.rule, s.outcome});
        if (chosenBy_ == "router") {
            e.reason = r.steps.empty() ? "every problem" : r.steps.back().rule;
        } else if (chosenBy_ == "find database") {
            char buf[200];
            std::snprintf(buf, sizeof buf, "measured %.2f us by find on this device (the router's %s: %.2f us)",
                          measuredUs_, r.algorithm.c_str(), routerMeasuredUs_);
            e.reason = buf;
        } else {
            e.reason = "named by the caller (the router would run " + r.algorithm + ")";
        }
        for (const auto& a : table) {
            PlanOptions o = routerOptions;
            o.algorithm = a.name;
            e.candidates.push_back({a.name, a.whyNot(*ctx_, problem, o), false});
        }
    };
    if (options_.pass == ConvPass::BackwardData) {
        const DataGradProblem p = dataGradProblem(desc_, options_, transposed_.get());
        explainWith(p, dataGradAlgorithms(), routeDataGrad(*ctx_, p, routerOptions));
    } else {
        WeightGradProblem p;
        p.conv = desc_;
        p.accumulate = options_.accumulate;
        explainWith(p, weightGradAlgorithms(), routeWeightGrad(*ctx_, p, routerOptions));
    }
}

std::string PlanExplanation::toString() const {
    std::string s = algorithm + " (" + config + ") chosen by the " + chosenBy + ": " + reason + "\n";
    s += "  router rules, in order:\n";
    for (const Rule& r : rules) s += "    " + r.algorithm + ": " + r.outcome + " -- " + r.rule + "\n";
    s += "  algorithms" + (deviceModel.empty() ? std::string() : " (modelled times: " + deviceModel + ")") + ":\n";
    for (const Candidate& c : candidates) {
        std::string model;
        if (c.declines.empty()) {
            char us[48] = "not modelled";
            if (c.modelledMicroseconds >= 0) std::snprintf(us, sizeof us, "modelled %.2f us", c.modelledMicroseconds);
            model = std::string(", ") + us;
        }
        s += "    " + c.algorithm + ": " + (c.declines.empty() ? "accepts" : "declines: " + c.declines) + model +
             (c.ladder ? " (ladder rung; auto never picks it)" : "") + "\n";
    }
    return s;
}

std::vector<std::string> algorithmNames(ConvPass pass) {
    std::vector<std::string> names;
    if (pass == ConvPass::BackwardData)
        for (auto& a : dataGradAlgorithms()) names.emplace_back(a.name);
    else if (pass == ConvPass::BackwardWeight)
        for (auto& a : weightGradAlgorithms()) names.emplace_back(a.name);
    else
        for (auto& a : algorithms()) names.emplace_back(a.name);
    return names;
}

std::string whyUnsupported(Context& ctx, const ConvDesc& desc, const std::string& algorithm) {
    try {
        desc.validate();
        validateOnDevice(implOf(ctx), desc);
    } catch (const Error& e) {
        return e.what();
    }
    if (algorithm == "auto") return "";
    const Algorithm* a = findAlgorithm(algorithm);
    if (!a) return "no algorithm named '" + algorithm + "'";
    return a->whyNot(implOf(ctx), desc, PlanOptions{algorithm});
}

}  // namespace vkconv
