// The router's plans for the selected layers, listed (no tensors, no timing).  With --caps the
// context is a device profile (Context::createOffline): what vkconv would run on that card.
#include "plan_list.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "report.hpp"
#include "shapes.hpp"
#include "util/json.hpp"
#include "vkconv/error.hpp"
#include "vkconv/plan.hpp"
#include "vkconv/version.hpp"

namespace vkbench {

namespace {

struct PlanRow {
    const Shape* shape;
    int64_t batch;
    vkconv::DType dtype;
    vkconv::TensorLayout layout;
    std::string algo, config, error;
    uint64_t workspace = 0;
    std::string chosenBy, reason;
};

// The algorithms --algo asks for on this layer ("auto" stays "auto"); forward algorithms that
// decline are left out here, gradient ones when planned.
std::vector<std::string> requested(vkconv::Context& ctx, const Options& opts, const LayerProblem& p) {
    std::vector<std::string> out;
    if (opts.algo == "auto") return {"auto"};
    const vkconv::ConvPass pass = p.transposedPlan() ? vkconv::ConvPass::BackwardData : p.convPass;
    const std::vector<std::string> all = vkconv::algorithmNames(pass);
    std::vector<std::string> names = opts.algo == "all" ? all : std::vector<std::string>{opts.algo};
    for (auto& n : names)
        if (std::find(all.begin(), all.end(), n) != all.end() &&
            (pass != vkconv::ConvPass::Forward || vkconv::whyUnsupported(ctx, p.conv, n).empty()))
            out.push_back(n);
    return out;
}

template <class T>
std::string nameOf(T v) {
    return std::string(vkconv::toString(v));
}
#define name(v) nameOf(v).c_str()

// Plan::explain()'s lines under their row.
std::string indent(const std::string& text) {
    std::string out = "    ";
    for (char ch : text) out += ch == '\n' ? std::string("\n    ") : std::string(1, ch);
    return out.substr(0, out.size() - 4);
}

}  // namespace

int runPlanList(vkconv::Context& ctx, const Options& opts) {
    std::vector<Shape> shapes = loadShapes(opts);
    const auto& caps = ctx.caps();
    std::printf("== vkconv %s (%s): plans for %s%s\n", vkconv::versionString(), vkconv::gitRevision(),
                caps.deviceName.c_str(), ctx.offline() ? " (device profile, offline)" : "");
    std::printf("%-16s %-26s %5s %-5s %-4s %-22s %10s  %s\n", "suite", "layer", "n", "dtype", "lay", "algorithm",
                "workspace", "config");
    std::vector<PlanRow> rows;
    int failed = 0;
    for (auto& s : shapes)
        for (int64_t b : opts.batches.empty() ? std::vector<int64_t>{s.n} : opts.batches)
            for (auto dt : opts.dtypes)
                for (auto lay : opts.layouts) {
                    LayerProblem prob;
                    std::string why;
                    try {
                        prob = makeProblem(s, b, dt, lay, opts.epilogue, opts.pass);
                        if (prob.transposed) prob.transposed->validate();
                        why = prob.skip.empty() ? vkconv::whyUnsupported(ctx, prob.conv, "auto") : prob.skip;
                    } catch (const vkconv::Error& e) {
                        why = e.what();
                    }
                    if (!why.empty()) {
                        std::printf("%-16s %-26s %5lld %-5s %-4s skipped: %s\n", s.suite.c_str(), s.layer.c_str(),
                                    (long long)b, name(dt), name(lay), why.c_str());
                        continue;
                    }
                    for (auto& a : requested(ctx, opts, prob)) {
                        PlanRow r{&s, b, dt, lay, a, "", "", 0, "", ""};
                        std::string explanation;
                        try {
                            vkconv::Plan plan = createPlan(ctx, prob, planOptions(opts, a));
                            r.algo = plan.algorithm();
                            r.config = plan.config();
                            r.workspace = plan.workspaceSize();
                            if (opts.explain || !opts.jsonPath.empty()) {
                                const vkconv::PlanExplanation e = plan.explain();
                                r.chosenBy = e.chosenBy, r.reason = e.reason;
                                if (opts.explain) explanation = e.toString();
                            }
                        } catch (const vkconv::Error& e) {
                            if (opts.algo == "all" && e.code() == vkconv::ErrorCode::Unsupported) continue;
                            r.error = e.what();
                            ++failed;
                        }
                        char ws[32] = "-";
                        if (r.workspace) std::snprintf(ws, sizeof ws, "%.2f MiB", double(r.workspace) / (1 << 20));
                        std::printf("%-16s %-26s %5lld %-5s %-4s %-22s %10s  %s\n", s.suite.c_str(), s.layer.c_str(),
                                    (long long)b, name(dt), name(lay), r.algo.c_str(), ws,
                                    r.error.empty() ? r.config.c_str() : ("ERROR " + r.error).c_str());
                        if (!explanation.empty()) std::printf("%s", indent(explanation).c_str());
                        rows.push_back(std::move(r));
                    }
                }
    if (!opts.jsonPath.empty()) {
        vkconv::Json jrows = vkconv::Json::array();
        for (auto& r : rows) {
            const Shape& s = *r.shape;
            vkconv::Json j = shapeJson(s, s.n);
            j.update(vkconv::Json{
                {"batch", r.batch},
                {"dtype", vkconv::toString(r.dtype)},
                {"layout", vkconv::toString(r.layout)},
                {"algo", r.algo},
                {"config", r.config},
                {"pass", vkconv::toString(opts.pass)},
                {"epilogue", opts.epilogue.name},
                {"workspace_bytes", r.workspace},
            });
            if (!r.error.empty()) j["error"] = r.error;
            if (!r.chosenBy.empty()) j["chosen_by"] = r.chosenBy, j["reason"] = r.reason;
            jrows.push_back(std::move(j));
        }
        const vkconv::Json doc = {
            {"schema", "vkconv-plans/1"},
            {"tool", "vkconv-bench"},
            {"created", isoUtcNow()},
            {"offline", ctx.offline()},
            {"device", vkconv::Json::parse(caps.toJson())},  // the whole profile: DeviceCaps::fromJson reads it back
            {"library", libraryRecord()},
            {"rows", std::move(jrows)},
        };
        writeJsonFile(opts.jsonPath, doc);
        std::fprintf(stderr, "JSON written to %s\n", opts.jsonPath.c_str());
    }
    if (!opts.csvPath.empty()) {
        // One line per plan, so that a change of the router shows as a line diff.
        std::string csv = "suite,layer,batch,dtype,layout,epilogue,algo,config,workspace_bytes\n";
        for (auto& r : rows) {
            csv += csvCell(r.shape->suite) + "," + csvCell(r.shape->layer) + "," + std::to_string(r.batch) + "," +
                   nameOf(r.dtype) + "," + nameOf(r.layout) + "," + csvCell(opts.epilogue.name) + "," +
                   csvCell(r.algo) + "," + csvCell(r.error.empty() ? r.config : "ERROR " + r.error) + "," +
                   std::to_string(r.workspace) + "\n";
        }
        writeTextFile(opts.csvPath, csv);
        std::fprintf(stderr, "CSV written to %s\n", opts.csvPath.c_str());
    }
    std::printf("\n%zu plan(s), %d failed\n", rows.size(), failed);
    return failed ? 1 : 0;
}

}  // namespace vkbench
