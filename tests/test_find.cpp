// findAlgorithms / findPlan (measured selection): the candidates are every configuration that
// accepts the problem (each algorithm's own choice and its tuning variants), each once, timed and
// ranked; the router's pick is marked; the fastest candidate's plan is checked against the float64
// reference; results are kept in the find database (memory, and a file beside the pipeline cache
// that a later context reads, and that a foreign or broken file never poisons); misuse is an error
// that names it.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "environment.hpp"
#include "harness.hpp"

using namespace vkt;
using vkconv::ConvDesc;
using vkconv::DType;
using vkconv::ErrorCode;
using vkconv::FindOptions;
using vkconv::FindResult;
using vkconv::TensorLayout;
namespace fs = std::filesystem;

namespace {

// Few rounds, no warm-up: lavapipe's times are what they are; the ranking logic is under test.
FindOptions quick(bool useDatabase = false) {
    FindOptions f;
    f.rounds = 2;
    f.warmupMs = 0;
    f.minIntervalUs = 0;
    f.useDatabase = useDatabase;
    return f;
}

ConvDesc conv3x3() {
    ConvDesc d;
    d.c = 16, d.h = 9, d.w = 11, d.k = 12, d.r = d.s = 3;
    d.pad(1, 1);
    return d;
}

fs::path findDbFile(const fs::path& dir) {
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().rfind("find-", 0) == 0) return e.path();
    return {};
}

// What every ranking must satisfy: timed results first, ascending; failures after; one router
// pick; no configuration twice; each result's options rebuild exactly its plan.
void expectWellFormed(vkconv::Context& c, const ConvDesc& d, const std::vector<FindResult>& rs) {
    ASSERT_FALSE(rs.empty());
    int routers = 0;
    bool failed = false;
    double last = -1;
    std::set<std::string> seen;
    for (const FindResult& r : rs) {
        SCOPED_TRACE(r.algorithm + " [" + r.config + "] " + r.error);
        routers += r.router;
        EXPECT_TRUE(seen.insert(r.algorithm + " " + r.config).second) << "a configuration listed twice";
        if (!r.error.empty()) {
            failed = true;
            continue;
        }
        EXPECT_FALSE(failed) << "a timed result after a failed one";
        EXPECT_TRUE(std::isfinite(r.microseconds) && r.microseconds > 0);
        EXPECT_GE(r.microseconds, last);
        last = r.microseconds;
        vkconv::Plan p = vkconv::Plan::create(c, d, r.options);
        EXPECT_EQ(p.algorithm(), r.algorithm);
        EXPECT_EQ(p.config(), r.config);
        EXPECT_EQ(p.workspaceSize(), r.workspaceSize);
    }
    EXPECT_EQ(routers, 1);
}

}  // namespace

class Find : public VkconvTest {};

TEST_F(Find, RanksEveryAcceptingAlgorithmAndTheFastestIsCorrect) {
    const ConvDesc d = conv3x3();
    const std::vector<FindResult> rs = vkconv::findAlgorithms(ctx(), d, {}, quick());
    expectWellFormed(ctx(), d, rs);
    // Every algorithm that accepts the problem is among the candidates, winograd with both tiles.
    std::set<std::string> algos;
    bool f2 = false, f4 = false;
    for (const FindResult& r : rs) {
        algos.insert(r.algorithm);
        EXPECT_FALSE(r.fromDatabase);
        f2 |= r.config.find("F(2x2,3x3)") != std::string::npos;
        f4 |= r.config.find("F(4x4,3x3)") != std::string::npos;
    }
    for (const std::string& name : vkconv::algorithmNames())
        if (vkconv::whyUnsupported(ctx(), d, name).empty()) {
            EXPECT_TRUE(algos.count(name)) << name << " accepts but was not timed";
        }
    EXPECT_TRUE(f2 && f4) << "winograd's variants";
    // The router's pick is the plan "auto" makes.
    const vkconv::Plan routed = vkconv::Plan::create(ctx(), d, {});
    for (const FindResult& r : rs)
        if (r.router) {
            EXPECT_EQ(r.algorithm + r.config, routed.algorithm() + routed.config());
        }
    // The fastest candidate computes the convolution.
    const CheckResult cr = runAndCheck(ctx(), d, rs.front().options, 11);
    EXPECT_TRUE(cr.ok) << cr.summary();
}

TEST_F(Find, NamedAlgorithmAndForcedTile) {
    const ConvDesc d = conv3x3();
    vkconv::PlanOptions o;
    o.algorithm = "winograd";
    const std::vector<FindResult> rs = vkconv::findAlgorithms(ctx(), d, o, quick());
    expectWellFormed(ctx(), d, rs);
    EXPECT_EQ(rs.size(), 2u) << "F(2x2) and F(4x4), the heuristic's pick being one of them";
    for (const FindResult& r : rs) EXPECT_EQ(r.algorithm, "winograd");
    o.tile = "2x2";
    const std::vector<FindResult> one = vkconv::findAlgorithms(ctx(), d, o, quick());
    ASSERT_EQ(one.size(), 1u);
    EXPECT_NE(one[0].config.find("F(2x2,3x3)"), std::string::npos) << one[0].config;
    EXPECT_TRUE(one[0].router) << "with a named algorithm, its own choice is what Plan::create makes";
    FindOptions noVariants = quick();
    noVariants.variants = false;
    o.tile.clear();
    EXPECT_EQ(vkconv::findAlgorithms(ctx(), d, o, noVariants).size(), 1u);
}

// Exhaustive: every tile of implicit_gemm as a candidate too, each accepted tile once.
TEST_F(Find, ExhaustiveTimesEveryTile) {
    const ConvDesc d = conv3x3();
    vkconv::PlanOptions o;
    o.algorithm = "implicit_gemm";
    FindOptions f = quick();
    const std::vector<FindResult> heuristic = vkconv::findAlgorithms(ctx(), d, o, f);
    EXPECT_EQ(heuristic.size(), 1u);
    f.exhaustive = true;
    const std::vector<FindResult> rs = vkconv::findAlgorithms(ctx(), d, o, f);
    expectWellFormed(ctx(), d, rs);
    std::set<std::string> tiles;
    for (const FindResult& r : rs) {
        EXPECT_EQ(r.algorithm, "implicit_gemm");
        if (!r.options.tile.empty()) tiles.insert(r.options.tile);
    }
    EXPECT_GE(tiles.size(), 4u) << "implicit_gemm's tiles that fit lavapipe";
    const CheckResult cr = runAndCheck(ctx(), d, rs.front().options, 13);
    EXPECT_TRUE(cr.ok) << cr.summary();
}

// 16-bit storage, bias + residual + activation, constant weights packed once per candidate.
TEST_F(Find, FusedEpilogueAndPackedFilters) {
    ConvDesc d = conv3x3();
    d.dtype = DType::F16;
    d.inputLayout = d.outputLayout = TensorLayout::NHWC;
    d.filterLayout = vkconv::FilterLayout::KRSC;
    d.hasBias = d.hasResidual = true;
    d.activation = vkconv::Activation::Relu;
    vkconv::PlanOptions o;
    o.packedFilter = true;
    const std::vector<FindResult> rs = vkconv::findAlgorithms(ctx(), d, o, quick());
    expectWellFormed(ctx(), d, rs);
    for (const FindResult& r : rs) EXPECT_TRUE(r.options.packedFilter);
    const CheckResult cr = runAndCheck(ctx(), d, rs.front().options, 12);
    EXPECT_TRUE(cr.ok) << cr.summary();
}

TEST_F(Find, DatabaseKeepsRankingsAcrossContexts) {
    TempDir dir("vkconv_find_test_");
    auto info = testContextInfo();
    info.pipelineCacheDir = dir.path.string();
    ConvDesc d = conv3x3();
    d.k = 8;
    std::vector<FindResult> first;
    {
        vkconv::Context c = vkconv::Context::create(info);
        first = vkconv::findAlgorithms(c, d, {}, quick(true));
        expectWellFormed(c, d, first);
        for (const FindResult& r : first) EXPECT_FALSE(r.fromDatabase);
        // The same context answers from memory, identically; findPlan builds the first.
        const std::vector<FindResult> again = vkconv::findAlgorithms(c, d, {}, quick(true));
        ASSERT_EQ(again.size(), first.size());
        for (size_t i = 0; i < again.size(); ++i) {
            EXPECT_TRUE(again[i].fromDatabase);
            EXPECT_EQ(again[i].config, first[i].config);
            EXPECT_NEAR(again[i].microseconds, first[i].microseconds, 1e-3 + 1e-6 * first[i].microseconds);
        }
        const vkconv::Plan p = vkconv::findPlan(c, d, {}, quick(true));
        EXPECT_EQ(p.algorithm() + p.config(), first.front().algorithm + first.front().config);
        // Another problem, or other options, is another entry.
        vkconv::PlanOptions noWino;
        noWino.allowWinograd = false;
        for (const FindResult& r : vkconv::findAlgorithms(c, d, noWino, quick(true))) EXPECT_FALSE(r.fromDatabase);
    }
    const fs::path file = findDbFile(dir.path);
    ASSERT_FALSE(file.empty()) << "no find database written in " << dir.path;
    {
        vkconv::Context c = vkconv::Context::create(info);
        const std::vector<FindResult> read = vkconv::findAlgorithms(c, d, {}, quick(true));
        ASSERT_EQ(read.size(), first.size());
        for (size_t i = 0; i < read.size(); ++i) {
            EXPECT_TRUE(read[i].fromDatabase);
            EXPECT_EQ(read[i].algorithm, first[i].algorithm);
            EXPECT_EQ(read[i].config, first[i].config);
            EXPECT_EQ(read[i].router, first[i].router);
            EXPECT_EQ(read[i].options.algorithm, first[i].options.algorithm);
            EXPECT_EQ(read[i].options.tile, first[i].options.tile);
        }
        // useDatabase = false times afresh.
        for (const FindResult& r : vkconv::findAlgorithms(c, d, {}, quick(false))) EXPECT_FALSE(r.fromDatabase);
    }
    // A cut-short record makes its problem be timed again (instead of losing that candidate for
    // good) and the file rewritten whole; a foreign header ignores the whole file.
    std::string text;
    {
        std::ifstream in(file);
        std::stringstream ss;
        ss << in.rdbuf();
        text = ss.str();
    }
    const size_t lastEnd = text.rfind("\tend\n");
    ASSERT_NE(lastEnd, std::string::npos);
    {
        std::ofstream out(file, std::ios::trunc);
        out << text.substr(0, lastEnd) << "\n";  // the last record loses its terminator
    }
    {
        vkconv::Context c = vkconv::Context::create(info);
        const std::vector<FindResult> retimed = vkconv::findAlgorithms(c, d, {}, quick(true));
        for (const FindResult& r : retimed) EXPECT_FALSE(r.fromDatabase) << "a damaged record was trusted";
        ASSERT_EQ(retimed.size(), first.size());
    }
    {
        vkconv::Context c = vkconv::Context::create(info);
        const std::vector<FindResult> read = vkconv::findAlgorithms(c, d, {}, quick(true));
        EXPECT_TRUE(read.front().fromDatabase) << "the damaged file was not rewritten";
        ASSERT_EQ(read.size(), first.size());
    }
    {
        std::ifstream in(file);
        std::stringstream ss;
        ss << in.rdbuf();
        text = ss.str();
    }
    {
        std::ofstream out(file, std::ios::trunc);
        out << "vkconv-find-db 1\tdead\tbeef\t0\t0000000000000000\t0.0.0\n" << text.substr(text.find('\n') + 1);
    }
    {
        vkconv::Context c = vkconv::Context::create(info);
        const std::vector<FindResult> fresh = vkconv::findAlgorithms(c, d, {}, quick(true));
        for (const FindResult& r : fresh) EXPECT_FALSE(r.fromDatabase) << "a foreign device's database was trusted";
        expectWellFormed(c, d, fresh);
    }
}

// Measured beats modelled: once find has recorded a problem, "auto" runs its measured winner, in
// this context and in a later one reading the file; useFindDatabase = false, other options (another
// key) and an empty database leave the choice to the router.
TEST_F(Find, AutoRunsTheRecordedWinner) {
    TempDir dir("vkconv_find_auto_");
    auto info = testContextInfo();
    info.pipelineCacheDir = dir.path.string();
    ConvDesc d = conv3x3();
    d.k = 20;
    vkconv::PlanOptions routerOnly;
    routerOnly.useFindDatabase = false;
    std::vector<FindResult> ranked;
    {
        vkconv::Context c = vkconv::Context::create(info);
        const vkconv::Plan before = vkconv::Plan::create(c, d);
        EXPECT_EQ(before.explain().chosenBy, "router");
        ranked = vkconv::findAlgorithms(c, d, {}, quick(true));
        expectWellFormed(c, d, ranked);
        const vkconv::Plan after = vkconv::Plan::create(c, d);
        EXPECT_EQ(after.algorithm() + " " + after.config(), ranked.front().algorithm + " " + ranked.front().config);
        const vkconv::PlanExplanation e = after.explain();
        EXPECT_EQ(e.chosenBy, "find database");
        EXPECT_NEAR(e.measuredMicroseconds, ranked.front().microseconds, 1e-3 + 1e-6 * ranked.front().microseconds);
        EXPECT_NE(e.reason.find("measured"), std::string::npos) << e.reason;
        const vkconv::Plan routed = vkconv::Plan::create(c, d, routerOnly);
        EXPECT_EQ(routed.explain().chosenBy, "router");
        bool routerMarked = false;
        for (const FindResult& r : ranked)
            if (r.router) {
                routerMarked = true;
                EXPECT_EQ(routed.algorithm() + " " + routed.config(), r.algorithm + " " + r.config);
                EXPECT_NEAR(e.routerMeasuredMicroseconds, r.microseconds, 1e-3 + 1e-6 * r.microseconds);
            }
        EXPECT_TRUE(routerMarked);
        vkconv::PlanOptions other;
        other.allowWinograd = false;  // another key: nothing recorded for it
        EXPECT_EQ(vkconv::Plan::create(c, d, other).explain().chosenBy, "router");
    }
    {
        vkconv::Context c = vkconv::Context::create(info);  // reads the file
        const vkconv::Plan p = vkconv::Plan::create(c, d);
        EXPECT_EQ(p.explain().chosenBy, "find database");
        EXPECT_EQ(p.algorithm() + " " + p.config(), ranked.front().algorithm + " " + ranked.front().config);
        const CheckResult cr = runAndCheck(c, d, {}, 7);  // auto, through the database
        EXPECT_TRUE(cr.ok) << cr.summary();
    }
}

// Plan::explain: the router's rules up to the one that chose (its algorithm is the plan's), every
// registered algorithm's verdict, and what a named algorithm displaced.
TEST_F(Find, ExplainSaysWhatChoseAndWhatDeclined) {
    const ConvDesc d = conv3x3();
    const vkconv::Plan p = vkconv::Plan::create(ctx(), d, [] {
        vkconv::PlanOptions o;
        o.useFindDatabase = false;
        return o;
    }());
    const vkconv::PlanExplanation e = p.explain();
    EXPECT_EQ(e.chosenBy, "router");
    EXPECT_EQ(e.algorithm, p.algorithm());
    ASSERT_FALSE(e.rules.empty());
    EXPECT_EQ(e.rules.back().outcome, "chosen");
    for (size_t i = 0; i + 1 < e.rules.size(); ++i) EXPECT_NE(e.rules[i].outcome, "chosen");
    EXPECT_EQ(e.reason, e.rules.back().rule);
    const std::vector<std::string> names = vkconv::algorithmNames();
    ASSERT_EQ(e.candidates.size(), names.size());
    for (size_t i = 0; i < names.size(); ++i) {
        EXPECT_EQ(e.candidates[i].algorithm, names[i]);
        EXPECT_EQ(e.candidates[i].declines, vkconv::whyUnsupported(ctx(), d, names[i])) << names[i];
    }
    // The router's modelled times: on every modelled algorithm that accepts (implicit_gemm runs
    // this layer), positive; none on one that declines.
    bool modelled = false;
    for (const auto& c : e.candidates) {
        if (!c.declines.empty()) {
            EXPECT_LT(c.modelledMicroseconds, 0) << c.algorithm;
        }
        if (c.algorithm == "implicit_gemm") {
            EXPECT_GT(c.modelledMicroseconds, 0);
        }
        modelled = modelled || c.modelledMicroseconds > 0;
    }
    EXPECT_TRUE(modelled);
    EXPECT_FALSE(e.deviceModel.empty());
    const std::string text = e.toString();
    EXPECT_NE(text.find(p.algorithm()), std::string::npos);
    EXPECT_NE(text.find("modelled "), std::string::npos) << text;
    EXPECT_NE(text.find("not modelled"), std::string::npos) << text;  // direct: rules alone
    vkconv::PlanOptions named;
    named.algorithm = "direct";
    const vkconv::PlanExplanation n = vkconv::Plan::create(ctx(), d, named).explain();
    EXPECT_EQ(n.chosenBy, "PlanOptions::algorithm");
    EXPECT_NE(n.reason.find(p.algorithm()), std::string::npos) << n.reason;
}

// Where the router chose by its model, the explanation's modelled times say why: fp32 NHWC 3x3
// stride-1 layers (the scalar path; implicit_gemm_nhwc declines NHWC) on winograd only where it
// is modelled below implicit_gemm one pass and split (winogradPays' margin), on split-K only below
// one pass.  Single images split on lavapipe; at batch 8 the grid fills and winograd's transforms
// pay for its 36/144 multiplies.
TEST_F(Find, ExplainModelledTimesBackACostChoice) {
    std::set<std::string> byCost;
    for (auto [c, hw, n] :
         {std::tuple<int64_t, int64_t, int64_t>{64, 28, 1}, {128, 14, 1}, {64, 56, 8}, {128, 28, 8}}) {
        ConvDesc d;
        d.n = n, d.c = d.k = c, d.h = d.w = hw, d.r = d.s = 3;
        d.pad(1, 1);
        d.inputLayout = d.outputLayout = TensorLayout::NHWC;
        d.filterLayout = vkconv::FilterLayout::KRSC;
        vkconv::PlanOptions o;
        o.useFindDatabase = false;
        const vkconv::PlanExplanation e = vkconv::Plan::create(ctx(), d, o).explain();
        std::map<std::string, double> us;
        for (const auto& cand : e.candidates) us[cand.algorithm] = cand.modelledMicroseconds;
        SCOPED_TRACE(e.toString());
        ASSERT_GT(us["implicit_gemm"], 0);
        if (e.algorithm == "winograd") {
            byCost.insert(e.algorithm);
            ASSERT_GT(us["winograd"], 0);
            for (const auto& [name, t] : us)
                if (t > 0 && name != "winograd") {
                    EXPECT_LT(us["winograd"], t) << name;
                }
        } else if (e.algorithm == "implicit_gemm_splitk") {
            byCost.insert(e.algorithm);
            EXPECT_LT(us["implicit_gemm_splitk"], us["implicit_gemm"]);
        }
    }
    EXPECT_EQ(byCost.size(), 2u);
}

TEST_F(Find, MisuseNamesTheProblem) {
    auto expectError = [](auto&& call, ErrorCode code, const std::string& names) {
        try {
            call();
            ADD_FAILURE() << "no error; expected one naming '" << names << "'";
        } catch (const vkconv::Error& e) {
            EXPECT_EQ(e.code(), code) << e.what();
            EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
        }
    };
    ConvDesc bad = conv3x3();
    bad.k = 0;
    expectError([&] { vkconv::findAlgorithms(ctx(), bad, {}, quick()); }, ErrorCode::InvalidArgument, "k");
    FindOptions f = quick();
    f.rounds = 100000;
    expectError([&] { vkconv::findAlgorithms(ctx(), conv3x3(), {}, f); }, ErrorCode::InvalidArgument, "rounds");
    f = quick();
    f.dropSlowerThan = 0.5;
    expectError([&] { vkconv::findAlgorithms(ctx(), conv3x3(), {}, f); }, ErrorCode::InvalidArgument, "dropSlowerThan");
    f = quick();
    f.minIntervalUs = NAN;
    expectError([&] { vkconv::findAlgorithms(ctx(), conv3x3(), {}, f); }, ErrorCode::InvalidArgument, "minIntervalUs");
    vkconv::PlanOptions o;
    o.algorithm = "depthwise";  // a dense convolution
    expectError([&] { vkconv::findAlgorithms(ctx(), conv3x3(), o, quick()); }, ErrorCode::Unsupported, "depthwise");
    o.algorithm = "no_such_algorithm";
    expectError([&] { vkconv::findAlgorithms(ctx(), conv3x3(), o, quick()); }, ErrorCode::UnknownAlgorithm,
                "no_such_algorithm");
    vkconv::Context offline = vkconv::Context::createOffline(ctx().caps());
    expectError([&] { vkconv::findAlgorithms(offline, conv3x3(), {}, quick()); }, ErrorCode::Unsupported,
                "findAlgorithms");
}
