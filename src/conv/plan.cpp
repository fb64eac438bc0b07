// Plan: validation that depends on the device, algorithm choice, and checked recording.
#include <cstdio>
#include <optional>

#include "conv/algorithm.hpp"
#include "conv/router.hpp"
#include "conv/dispatch.hpp"
#include "conv/filter_copy.hpp"
#include "conv/find_winner.hpp"
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

Plan::Plan(Context& ctx, const ConvDesc& desc, const PlanOptions& options, std::unique_ptr<AlgorithmInstance> impl)
    : ctx_(&implOf(ctx)), desc_(desc), options_(options), impl_(std::move(impl)) {}
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;

void Plan::record(VkCommandBuffer cmd, const ConvTensors& t) const {
    const auto& c = *ctx_;
    c.requireDevice("Plan::record");
    if (cmd == VK_NULL_HANDLE && !c.dryRun)
        throw Error(ErrorCode::InvalidArgument, "Plan::record: the command buffer is VK_NULL_HANDLE");
    checkView(c, "input", t.input, desc_.inputBytes(), true, "");
    if (options_.packedFilter)
        checkView(c, "packed filter", t.filter, int64_t(packedFilterSize()), true, "");
    else
        checkView(c, "filter", t.filter, desc_.filterBytes(), true, "");
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
    for (const Algorithm& a : algorithms()) {
        PlanOptions o = routerOptions;
        o.algorithm = a.name;
        e.candidates.push_back({a.name, a.whyNot(*ctx_, desc_, o), a.ladder});
    }
    return e;
}

std::string PlanExplanation::toString() const {
    std::string s = algorithm + " (" + config + ") chosen by the " + chosenBy + ": " + reason + "\n";
    s += "  router rules, in order:\n";
    for (const Rule& r : rules) s += "    " + r.algorithm + ": " + r.outcome + " -- " + r.rule + "\n";
    s += "  algorithms:\n";
    for (const Candidate& c : candidates)
        s += "    " + c.algorithm + ": " + (c.declines.empty() ? "accepts" : "declines: " + c.declines) +
             (c.ladder ? " (ladder rung; auto never picks it)" : "") + "\n";
    return s;
}

std::vector<std::string> algorithmNames() {
    std::vector<std::string> names;
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
