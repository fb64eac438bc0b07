// findAlgorithms / findPlan (vkconv/find.hpp): every configuration that accepts a problem, timed
// on the context's device in interleaved rounds; rankings kept in the context's find database.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <sstream>

#include "conv/algorithm.hpp"
#include "conv/dispatch.hpp"
#include "conv/find_winner.hpp"
#include "conv/gradient.hpp"
#include "runtime/context_access.hpp"
#include "runtime/find_db.hpp"
#include "runtime/gpu_timer.hpp"
#include "vkconv/buffer.hpp"
#include "vkconv/context.hpp"
#include "vkconv/error.hpp"
#include "vkconv/find.hpp"

namespace vkconv {

namespace {

constexpr uint32_t kMaxCalls = 256;
constexpr uint32_t kMaxRounds = 1000;
constexpr VkDeviceSize kFillBlock = VkDeviceSize(1) << 20;

void checkFindOptions(const FindOptions& f) {
    auto bad = [](const std::string& what) { throw Error(ErrorCode::InvalidArgument, "FindOptions::" + what); };
    if (f.rounds > kMaxRounds) bad("rounds " + std::to_string(f.rounds) + " is over " + std::to_string(kMaxRounds));
    if (!std::isfinite(f.minIntervalUs) || f.minIntervalUs < 0) bad("minIntervalUs must be finite and >= 0");
    if (!std::isfinite(f.warmupMs) || f.warmupMs < 0 || f.warmupMs > 60000) bad("warmupMs must be within 0..60000");
    if (!(f.dropSlowerThan >= 1.0)) bad("dropSlowerThan must be >= 1 (it is a ratio to the fastest)");
}

// What the candidates and their times depend on besides the device, driver and version (the
// database's file header holds those).
// A transposed convolution's key is its own descriptor's (its epilogue and its input's size; the
// pass, backward-data, follows).
std::string findKey(const ConvDesc& d, const PlanOptions& o, const FindOptions& f,
                    const ConvTransposeDesc* tr = nullptr) {
    std::ostringstream k;
    k << (tr ? tr->toString() : d.toString()) << " | algo " << (o.algorithm.empty() ? "auto" : o.algorithm) << " tile '"
      << o.tile << "' sg " << o.subgroupSize << " ws " << o.workspaceLimit << " wino " << o.allowWinograd << " packed "
      << o.packedFilter << " variants " << f.variants << " exhaustive " << f.exhaustive;
    // Backward passes' keys name the pass (forward keys stay as they were recorded).
    if (o.pass != ConvPass::Forward) k << " pass " << toString(o.pass) << " acc " << o.accumulate;
    return k.str();
}

bool isAuto(const PlanOptions& o) { return o.algorithm.empty() || o.algorithm == "auto"; }

// Candidate options: a named algorithm with a forced tile is that one configuration; otherwise
// each accepting algorithm's own choice ("") and, with variants, its tuning tiles (exhaustive:
// every tile it has).
std::vector<PlanOptions> candidateOptions(const ContextImpl& impl, const ConvDesc& d, const PlanOptions& base,
                                          const FindOptions& f, const ConvTransposeDesc* tr) {
    std::vector<PlanOptions> out;
    auto offer = [&](const Algorithm& a, const std::string& tile) {
        PlanOptions o = base;
        o.algorithm = a.name;
        o.tile = tile;
        if (a.whyNot(impl, d, o).empty()) out.push_back(o);
    };
    // The backward passes' algorithms price their own problems (the plan's; tiles are not tuned).
    auto offerGrad = [&](const auto& table, const auto& problem) {
        for (const auto& a : table) {
            if (!isAuto(base) && base.algorithm != a.name) continue;
            PlanOptions o = base;
            o.algorithm = a.name;
            if (isAuto(base)) o.tile.clear();
            if (a.whyNot(impl, problem, o).empty()) out.push_back(o);
        }
    };
    if (base.pass == ConvPass::BackwardData) {
        offerGrad(dataGradAlgorithms(), dataGradProblem(d, base, tr));
        return out;
    }
    if (base.pass == ConvPass::BackwardWeight) {
        WeightGradProblem p;
        p.conv = d, p.accumulate = base.accumulate;
        offerGrad(weightGradAlgorithms(), p);
        return out;
    }
    for (const Algorithm& a : algorithms()) {
        if (!isAuto(base) && base.algorithm != a.name) continue;
        if (!isAuto(base) && !base.tile.empty()) {
            offer(a, base.tile);
            continue;
        }
        offer(a, "");
        if ((f.variants || f.exhaustive) && a.tuningTiles)
            for (const std::string& t : a.tuningTiles(f.exhaustive)) offer(a, t);
    }
    return out;
}

// Random values of moderate size (|x| in [0.25, 1)), as bit patterns of the dtype: timing data
// that is neither zeros nor constants (the matrix units' power, and so the clock, depend on it).
std::vector<uint8_t> randomBlock(DType t, size_t bytes, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<uint8_t> b(bytes);
    const size_t es = dtypeSize(t);
    for (size_t i = 0; i + es <= bytes; i += es) {
        uint64_t r = rng();
        uint32_t sign = uint32_t(r & 1), lo = uint32_t(r >> 1) & 1;
        uint32_t bits;
        if (t == DType::F16)
            bits = (sign << 15) | ((13u + lo) << 10) | uint32_t((r >> 8) & 0x3ff);
        else if (t == DType::BF16)
            bits = (sign << 15) | ((125u + lo) << 7) | uint32_t((r >> 8) & 0x7f);
        else
            bits = (sign << 31) | ((125u + lo) << 23) | uint32_t((r >> 8) & 0x7fffff);
        std::memcpy(&b[i], &bits, es);  // little-endian: the low bytes
    }
    return b;
}

Buffer randomBuffer(Context& ctx, DType t, VkDeviceSize bytes, uint64_t seed) {
    Buffer buf = Buffer::create(ctx, std::max<VkDeviceSize>(bytes, 4));
    const std::vector<uint8_t> block = randomBlock(t, size_t(std::min(bytes, kFillBlock)), seed);
    for (VkDeviceSize at = 0; at < bytes; at += block.size())
        buf.upload(block.data(), std::min<VkDeviceSize>(block.size(), bytes - at), at);
    return buf;
}

struct Candidate {
    std::unique_ptr<Plan> plan;
    Buffer packed;                // PlanOptions::packedFilter: this plan's packed filter
    std::vector<double> samples;  // µs per call, one per timed round
    double estimate = -1.0;       // the first round's
    uint32_t calls = 1;
    bool racing = true;
    FindResult result;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

FindResult fromRow(const FindDbRow& r, const PlanOptions& base) {
    FindResult f;
    f.algorithm = r.algorithm, f.config = r.config, f.error = r.error;
    f.options = base;
    f.options.algorithm = r.optAlgorithm, f.options.tile = r.optTile;
    f.microseconds = r.microseconds, f.workspaceSize = r.workspaceSize, f.router = r.router;
    f.fromDatabase = true;
    return f;
}

FindDbRow toRow(const FindResult& f) {
    return {f.options.algorithm, f.options.tile,  f.algorithm, f.config, f.error,
            f.microseconds,      f.workspaceSize, f.router};
}

// The shared tensors in each pass's roles: the forward's input and output are x and y; a backward
// pass reads dy from `residual` (shaped like y) and writes its gradient to `output` (dx) or
// `output` and `bias` (dw, db).
// A transposed plan's tensors are its own (ConvTensors in its terms).
void recordPass(const Plan& plan, VkCommandBuffer cmd, const ConvTensors& t) {
    const ConvDesc& d = plan.desc();
    if (plan.transposed()) return plan.record(cmd, t);
    switch (plan.pass()) {
        case ConvPass::Forward: plan.record(cmd, t); return;
        case ConvPass::BackwardData:
            plan.record(cmd, BackwardDataTensors{t.residual, t.filter, t.output, t.workspace});
            return;
        case ConvPass::BackwardWeight:
            plan.record(cmd, BackwardWeightTensors{t.input, t.residual, t.output, d.hasBias ? t.bias : BufferView{},
                                                   t.workspace});
            return;
    }
}

// Times every racing candidate `calls` times in one command buffer per round; µs per call, by
// candidate index (-1 for those not racing).
class RoundTimer {
public:
    RoundTimer(Context& ctx, std::vector<Candidate>& cands, const ConvTensors& shared)
        : ctx_(ctx),
          impl_(implOf(ctx)),
          cands_(cands),
          shared_(shared),
          gpu_(impl_.caps.timestamps && impl_.caps.timestampPeriod > 0) {
        if (gpu_) timer_ = std::make_unique<GpuTimer>(impl_, uint32_t(cands.size()));
    }

    // rotate: the racing candidates run in an order rotated by that many places, so that no
    // candidate always runs first (after another candidate left the caches warm, or not).
    std::vector<double> run(uint32_t rotate = 0) {
        std::vector<double> us(cands_.size(), -1.0);
        std::vector<size_t> racing;
        for (size_t i = 0; i < cands_.size(); ++i)
            if (cands_[i].racing) racing.push_back(i);
        if (!racing.empty()) std::rotate(racing.begin(), racing.begin() + rotate % racing.size(), racing.end());
        if (gpu_) {
            ctx_.submitAndWait([&](VkCommandBuffer cmd) {
                timer_->reset(cmd);
                for (size_t j = 0; j < racing.size(); ++j) {
                    timer_->begin(cmd, uint32_t(j));
                    recordCalls(cmd, cands_[racing[j]]);
                    timer_->end(cmd, uint32_t(j));
                }
            });
            const std::vector<double> ns = timer_->intervalsNs(uint32_t(racing.size()));
            for (size_t j = 0; j < racing.size(); ++j) us[racing[j]] = ns[j] / 1000.0 / cands_[racing[j]].calls;
            return us;
        }
        // No timestamps on this queue: wall time of one submission per candidate (includes the
        // submission's own cost, the same for every candidate).
        for (size_t i : racing) {
            const auto t0 = std::chrono::steady_clock::now();
            ctx_.submitAndWait([&](VkCommandBuffer cmd) { recordCalls(cmd, cands_[i]); });
            const double wall =
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
            us[i] = wall / cands_[i].calls;
        }
        return us;
    }

private:
    void recordCalls(VkCommandBuffer cmd, const Candidate& c) const {
        ConvTensors t = shared_;
        if (c.packed.handle() != VK_NULL_HANDLE) t.filter = c.packed.view(0, c.plan->packedFilterSize());
        if (c.plan->workspaceSize() == 0)
            t.workspace = {};
        else
            t.workspace.size = c.plan->workspaceSize();
        for (uint32_t k = 0; k < c.calls; ++k) {
            recordPass(*c.plan, cmd, t);
            computeBarrier(impl_, cmd);  // calls in sequence, as a network's layers run
        }
    }

    Context& ctx_;
    ContextImpl& impl_;
    std::vector<Candidate>& cands_;
    const ConvTensors& shared_;
    bool gpu_;
    std::unique_ptr<GpuTimer> timer_;
};

// The plan of a problem: a convolution pass of d, or the transposed convolution tr (d its convDesc()).
Plan makePlan(Context& ctx, const ConvDesc& d, const PlanOptions& o, const ConvTransposeDesc* tr) {
    return tr ? Plan::create(ctx, *tr, o) : Plan::create(ctx, d, o);
}

std::vector<FindResult> timeCandidates(Context& ctx, const ConvDesc& d, const PlanOptions& base, const FindOptions& f,
                                       const ConvTransposeDesc* tr) {
    ContextImpl& impl = implOf(ctx);
    // The router's plan first: it validates the problem as Plan::create does (and throws its
    // errors), and it says which candidate "auto" is without the database (which this call is
    // about to rewrite).
    PlanOptions routerOptions = base;
    routerOptions.useFindDatabase = false;
    Plan routed = makePlan(ctx, d, routerOptions, tr);
    std::vector<Candidate> cands;
    for (PlanOptions& o : candidateOptions(impl, d, base, f, tr)) {
        Candidate c;
        c.result.options = o;
        try {
            c.plan = std::make_unique<Plan>(makePlan(ctx, d, o, tr));
            c.result.algorithm = c.plan->algorithm();
            c.result.config = c.plan->config();
            c.result.workspaceSize = c.plan->workspaceSize();
        } catch (const Error& e) {
            c.result.algorithm = o.algorithm;
            c.result.error = e.what();
            c.racing = false;
        }
        // Two options that make the same plan (a tuning tile the heuristic also picks) are one candidate.
        bool dup = false;
        for (const Candidate& other : cands)
            dup |= c.plan && other.plan && other.result.algorithm == c.result.algorithm &&
                   other.result.config == c.result.config;
        if (!dup) cands.push_back(std::move(c));
    }
    bool routerFound = false;
    for (Candidate& c : cands)
        if (c.plan && c.result.algorithm == routed.algorithm() && c.result.config == routed.config())
            c.result.router = routerFound = true;
    if (!routerFound) {  // the router's configuration is none of the candidates' own: time it as it is
        Candidate c;
        c.result.options = routerOptions;
        c.result.algorithm = routed.algorithm();
        c.result.config = routed.config();
        c.result.workspaceSize = routed.workspaceSize();
        c.result.router = true;
        c.plan = std::make_unique<Plan>(std::move(routed));
        cands.push_back(std::move(c));
    }

    // The tensors, shared by every candidate; the workspace sized for the largest.
    VkDeviceSize ws = 0;
    for (const Candidate& c : cands)
        if (c.plan) ws = std::max(ws, c.plan->workspaceSize());
    // recordPass's roles: dy in `residual`, the gradient in `output` (and `bias` for db); a
    // transposed plan's own input, bias, residual and output.
    const ConvPass pass = base.pass;
    const bool hasDy = pass != ConvPass::Forward && !tr;
    const VkDeviceSize inBytes = VkDeviceSize(tr ? tr->inputBytes() : d.inputBytes());
    const VkDeviceSize biasBytes = VkDeviceSize(tr ? tr->biasBytes() : d.biasBytes());
    const bool hasBias = tr ? tr->hasBias : d.hasBias, hasResidual = tr ? tr->hasResidual : d.hasResidual;
    const VkDeviceSize outBytes = VkDeviceSize(tr                                 ? tr->outputBytes()
                                               : pass == ConvPass::BackwardData   ? d.inputBytes()
                                               : pass == ConvPass::BackwardWeight ? d.filterBytes()
                                                                                  : d.outputBytes());
    const VkDeviceSize residualBytes = tr ? outBytes : VkDeviceSize(d.outputBytes());
    Buffer input = randomBuffer(ctx, d.dtype, inBytes, 1);
    Buffer filter = randomBuffer(ctx, d.dtype, VkDeviceSize(d.filterBytes()), 2);
    Buffer bias, residual, workspace;
    if (hasBias) bias = randomBuffer(ctx, d.dtype, biasBytes, 3);
    if (hasResidual || hasDy) residual = randomBuffer(ctx, d.dtype, residualBytes, 4);
    Buffer output = Buffer::create(ctx, outBytes);
    if (ws) workspace = Buffer::create(ctx, ws);
    ConvTensors t;
    t.input = input.view(0, inBytes);
    t.filter = filter.view(0, VkDeviceSize(d.filterBytes()));
    if (hasBias) t.bias = bias.view(0, biasBytes);
    if (hasResidual || hasDy) t.residual = residual.view(0, residualBytes);
    t.output = output.view(0, outBytes);
    if (ws) t.workspace = workspace.view(0, ws);
    for (Candidate& c : cands)
        if (c.plan && base.packedFilter) {
            c.packed = Buffer::create(ctx, c.plan->packedFilterSize());
            c.plan->packFilter(t.filter, c.packed.view(0, c.plan->packedFilterSize()));
        }

    // Each round's times set the calls that fill minIntervalUs and take the slow candidates out of
    // the race (their last time is what they report).
    auto pace = [&](const std::vector<double>& us) {
        double best = -1.0;
        for (size_t i = 0; i < cands.size(); ++i)
            if (cands[i].racing) {
                cands[i].estimate = std::max(us[i], 1e-3);
                best = best < 0 ? cands[i].estimate : std::min(best, cands[i].estimate);
            }
        for (Candidate& c : cands) {
            if (!c.racing) continue;
            c.calls = uint32_t(std::clamp(std::ceil(f.minIntervalUs / c.estimate), 1.0, double(kMaxCalls)));
            if (c.estimate > f.dropSlowerThan * best) c.racing = false;
        }
    };
    // The warm-up's clock signal: the fastest candidate's time per call (neither the calls that
    // pace() sets nor a candidate leaving the race change it).
    auto fastest = [&](const std::vector<double>& us) {
        double m = -1.0;
        for (size_t i = 0; i < cands.size(); ++i)
            if (cands[i].racing && us[i] > 0) m = m < 0 ? us[i] : std::min(m, us[i]);
        return m;
    };
    using clock = std::chrono::steady_clock;
    RoundTimer timer(ctx, cands, t);
    const auto start = clock::now();
    pace(timer.run());  // one call each
    // Warm-up: the GPU's clock falls while it idles (here: while the candidates compiled) and
    // comes back only under sustained load, after ~0.5 s at its lowest on the H200
    // (docs/performance.md, "Floors and ceilings").  So at least warmupMs of rounds unless this
    // context's last find ended under kWarmGap ago, then until the fastest candidate's time has
    // settled: no new low by more than 3 % in the last kSettleRounds rounds (at most 1 s more).
    constexpr auto kWarmGap = std::chrono::milliseconds(500);
    constexpr size_t kSettleRounds = 10;
    const bool warm = impl.lastFindWork.time_since_epoch().count() != 0 && start - impl.lastFindWork < kWarmGap;
    const double minWarmMs = warm ? std::min(f.warmupMs, 50.0) : f.warmupMs;
    std::vector<double> lows;  // the fastest per-call time of each warm-up round
    for (;;) {
        const double ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
        if (ms >= minWarmMs + 1000.0) break;
        if (ms >= minWarmMs && lows.size() > kSettleRounds) {
            const double before = *std::min_element(lows.begin(), lows.end() - kSettleRounds);
            const double recent = *std::min_element(lows.end() - kSettleRounds, lows.end());
            if (recent >= 0.97 * before) break;
        }
        std::vector<double> us = timer.run();
        lows.push_back(fastest(us));
        pace(us);
    }
    for (uint32_t r = 0; r < f.rounds; ++r) {
        std::vector<double> us = timer.run(r);
        for (size_t i = 0; i < cands.size(); ++i)
            if (cands[i].racing) cands[i].samples.push_back(us[i]);
    }
    impl.lastFindWork = clock::now();

    std::vector<FindResult> out;
    for (Candidate& c : cands) {
        if (c.plan) c.result.microseconds = c.samples.empty() ? c.estimate : median(c.samples);
        out.push_back(std::move(c.result));
    }
    std::stable_sort(out.begin(), out.end(), [](const FindResult& a, const FindResult& b) {
        const bool aok = a.error.empty(), bok = b.error.empty();
        if (aok != bok) return aok;
        return aok && a.microseconds < b.microseconds;
    });
    return out;
}

}  // namespace

namespace {

// A database row names algorithms this build has; anything else is a file from elsewhere or a
// damaged one, and its problem is timed afresh.
bool knownAlgorithm(const std::string& name) {
    return findAlgorithm(name) || findDataGradAlgorithm(name) || findWeightGradAlgorithm(name);
}
bool rowNamesKnownAlgorithms(const FindDbRow& r) {
    return (r.optAlgorithm == "auto" || knownAlgorithm(r.optAlgorithm)) && knownAlgorithm(r.algorithm);
}

std::vector<FindResult> timeAndRecord(Context& ctx, const ConvDesc& desc, const PlanOptions& options,
                                      const FindOptions& find, const ConvTransposeDesc* tr) {
    ContextImpl& impl = implOf(ctx);
    const std::string key = findKey(desc, options, find, tr);
    std::vector<FindResult> out = timeCandidates(ctx, desc, options, find, tr);
    if (find.useDatabase && impl.findDb) {
        std::vector<FindDbRow> rows;
        for (const FindResult& r : out) rows.push_back(toRow(r));
        impl.findDb->store(key, std::move(rows));
    }
    return out;
}

}  // namespace

namespace {

// findAlgorithms and findPlan for a convolution pass of desc or the transposed convolution tr
// (desc its convDesc(), options already transposedOptions()).
std::vector<FindResult> findProblem(Context& ctx, const ConvDesc& desc, const PlanOptions& options,
                                    const FindOptions& find, const ConvTransposeDesc* tr) {
    ContextImpl& impl = implOf(ctx);
    impl.requireDevice("findAlgorithms");
    checkFindOptions(find);
    desc.validate();
    if (find.useDatabase && impl.findDb)
        if (const std::optional<std::vector<FindDbRow>> rows = impl.findDb->lookup(findKey(desc, options, find, tr));
            rows && std::all_of(rows->begin(), rows->end(), rowNamesKnownAlgorithms)) {
            std::vector<FindResult> out;
            for (const FindDbRow& r : *rows) out.push_back(fromRow(r, options));
            return out;
        }
    return timeAndRecord(ctx, desc, options, find, tr);
}

// A recorded winner that no longer plans (a tile or an algorithm this build declines for the
// problem) sends the problem back to timing, whose result replaces the record.
Plan findProblemPlan(Context& ctx, const ConvDesc& desc, const PlanOptions& options, const FindOptions& find,
                     const ConvTransposeDesc* tr) {
    const std::string what = tr ? tr->toString() : desc.toString();
    std::vector<FindResult> ranked = findProblem(ctx, desc, options, find, tr);
    for (int pass = 0; pass < 2; ++pass) {
        std::string errors;
        bool stale = false;
        for (const FindResult& r : ranked) {
            if (!r.error.empty() || r.microseconds < 0) {
                errors += "; " + r.algorithm + ": " + r.error;
                continue;
            }
            try {
                return makePlan(ctx, desc, r.options, tr);
            } catch (const Error&) {
                if (!r.fromDatabase) throw;
                stale = true;
                break;
            }
        }
        if (!stale)
            throw Error(ErrorCode::Unsupported, "findPlan: no candidate for " + what + " could be timed" + errors);
        ranked = timeAndRecord(ctx, desc, options, find, tr);
    }
    throw Error(ErrorCode::Unsupported, "findPlan: no timed candidate for " + what + " could be planned");
}

}  // namespace

std::vector<FindResult> findAlgorithms(Context& ctx, const ConvDesc& desc, const PlanOptions& options,
                                       const FindOptions& find) {
    return findProblem(ctx, desc, options, find, nullptr);
}

std::vector<FindResult> findAlgorithms(Context& ctx, const ConvTransposeDesc& desc, const PlanOptions& options,
                                       const FindOptions& find) {
    desc.validate();
    return findProblem(ctx, desc.convDesc(), transposedOptions(options), find, &desc);
}

Plan findPlan(Context& ctx, const ConvDesc& desc, const PlanOptions& options, const FindOptions& find) {
    return findProblemPlan(ctx, desc, options, find, nullptr);
}

Plan findPlan(Context& ctx, const ConvTransposeDesc& desc, const PlanOptions& options, const FindOptions& find) {
    desc.validate();
    return findProblemPlan(ctx, desc.convDesc(), transposedOptions(options), find, &desc);
}

std::optional<FindWinner> findDatabaseWinner(ContextImpl& impl, const ConvDesc& desc, const PlanOptions& options,
                                             const ConvTransposeDesc* tr) {
    if (!options.useFindDatabase || !impl.findDb || !isAuto(options)) return std::nullopt;
    // The most thorough search recorded for these options first: exhaustive, with variants, plain.
    FindOptions searches[3];
    searches[0].exhaustive = true;
    searches[2].variants = false;
    for (const FindOptions& f : searches) {
        const std::optional<std::vector<FindDbRow>> rows = impl.findDb->lookup(findKey(desc, options, f, tr));
        if (!rows || !std::all_of(rows->begin(), rows->end(), rowNamesKnownAlgorithms)) continue;
        FindWinner w;
        for (const FindDbRow& r : *rows) {
            if (r.router && r.error.empty()) w.routerMicroseconds = r.microseconds;
            if (w.microseconds < 0 && r.error.empty() && r.microseconds >= 0) {
                w.options = fromRow(r, options).options;
                w.microseconds = r.microseconds;
            }
        }
        if (w.microseconds >= 0) return w;
    }
    return std::nullopt;
}

}  // namespace vkconv
