// vkconv-bench's command line (CLI11): one subcommand per tool, and the older form where a flag
// (--peak, --find, --plan-only, --caps, --shader-stats) picks the tool, mapped onto the subcommand.
#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common.hpp"
#include "vkconv/plan.hpp"

namespace vkbench {

namespace {

// The subcommands, and the modes they select.
struct Tool {
    const char* name;
    Mode mode;
};
constexpr Tool kTools[] = {{"run", Mode::Run},
                           {"find", Mode::Find},
                           {"peak", Mode::Peak},
                           {"plans", Mode::Plans},
                           {"shader-stats", Mode::ShaderStats}};

const char* kIntro =
    "Times vkconv convolutions layer by layer, measures the device's peaks, lists plans and runs the compile lab.  "
    "Without a subcommand: run (the older form, where --peak, --find, --plan-only, --caps or --shader-stats picks the "
    "tool, still works).  `vkconv-bench SUBCOMMAND --help` lists a subcommand's options.";

// Wraps text at spaces into lines of at most `width` characters, keeping its own line breaks.
std::string wrap(const std::string& text, size_t width) {
    std::string out, line, word;
    auto flushWord = [&] {
        if (word.empty()) return;
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            out += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        word.clear();
    };
    for (char c : text) {
        if (c == ' ') {
            flushWord();
        } else if (c == '\n') {
            flushWord();
            out += line + "\n";
            line.clear();
        } else {
            word += c;
        }
    }
    flushWord();
    return out + line;
}

// CLI11 prints descriptions on one line whatever their length: wrapped here.  A subcommand's
// description is "summary\ndetails"; the list of subcommands shows the summary alone.
class HelpFormatter : public CLI::Formatter {
public:
    static constexpr size_t kWidth = 110;
    std::string make_option_desc(const CLI::Option* opt) const override {
        return wrap(CLI::Formatter::make_option_desc(opt), kWidth - get_column_width());
    }
    std::string make_subcommand(const CLI::App* sub) const override {
        std::stringstream out;
        const std::string& d = sub->get_description();
        CLI::detail::format_help(out, sub->get_name(), d.substr(0, d.find('\n')), get_column_width());
        return out.str();
    }
    std::string make_description(const CLI::App* app) const override {
        const std::string& d = app->get_description();
        return d.empty() ? "" : wrap(d, kWidth) + "\n";
    }
    std::string make_footer(const CLI::App* app) const override {
        const std::string& f = app->get_footer();
        return f.empty() ? "" : wrap(f, kWidth) + "\n";
    }
};

// A base-10 integer in [lo, hi] of the flag's own type: an out-of-range value is an error, never
// truncated or wrapped.
template <class T>
T parseInteger(const std::string& flag, const std::string& v, T lo, T hi) {
    T x{};
    const char* end = v.data() + v.size();
    auto [p, ec] = std::from_chars(v.data(), end, x);
    const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    if (v.empty() || p != end || (ec != std::errc() && ec != std::errc::result_out_of_range))
        throw CLI::ValidationError(flag, "expects an integer in " + range + ", got '" + v + "'");
    if (ec == std::errc::result_out_of_range || x < lo || x > hi)
        throw CLI::ValidationError(flag, "'" + v + "' is out of range: expects an integer in " + range);
    return x;
}

double parsePositive(const std::string& flag, const std::string& v) {
    char* end = nullptr;
    errno = 0;
    double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || errno == ERANGE || !std::isfinite(x) || !(x > 0))
        throw CLI::ValidationError(flag, "expects a positive finite number, got '" + v + "'");
    return x;
}

Epilogue parseEpilogue(const std::string& v) {
    Epilogue e;
    e.name = v;
    std::string act = v;
    if (v == "bias") {
        e.bias = true;
        act = "none";
    } else if (v.rfind("bias_", 0) == 0) {
        e.bias = true;
        act = v.substr(5);
    }
    auto a = vkconv::parseActivation(act);
    if (!a)
        throw CLI::ValidationError(
            "--epilogue", "unknown activation '" + act + "' (none, relu, relu6, leaky_relu, gelu, silu, sigmoid)");
    e.activation = *a;
    return e;
}

// Integer flags: the value lands in `dest` once it passed parseInteger.
template <class T>
CLI::Option* addInteger(CLI::App* app, const std::string& flag, T& dest, T lo, T hi, const std::string& help) {
    return app
        ->add_option_function<std::string>(
            flag, [&dest, flag, lo, hi](const std::string& v) { dest = parseInteger<T>(flag, v, lo, hi); }, help)
        ->type_name("N");
}

// A repeatable flag that takes one value each time it is given; `each` sees them in order.
CLI::Option* addRepeatable(CLI::App* app, const std::string& flag, std::function<void(const std::string&)> each,
                           const std::string& help) {
    return app
        ->add_option_function<std::vector<std::string>>(
            flag,
            [each = std::move(each)](const std::vector<std::string>& values) {
                for (const auto& v : values) each(v);
            },
            help)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void addShapeOptions(CLI::App* app, Options& o, const char* g = "Shapes (default: every suite)") {
    addRepeatable(
        app, "--suite", [&o](const std::string& v) { o.suites.push_back(v); },
        "a suite of the suites directory, NAME.csv (repeatable)")
        ->type_name("NAME")
        ->group(g);
    addRepeatable(
        app, "--shapes", [&o](const std::string& v) { o.shapeFiles.push_back(v); },
        "a shapes file: suite,layer,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups (repeatable)")
        ->type_name("FILE.csv")
        ->group(g);
    app->add_option_function<std::vector<std::string>>(
           "--zoo",
           [&o](const std::vector<std::string>& values) {
               o.zoo = true;
               for (const auto& v : values) {
                   std::stringstream list(v);
                   std::string name;
                   while (std::getline(list, name, ','))
                       if (!name.empty() &&
                           std::find(o.zooModels.begin(), o.zooModels.end(), name) == o.zooModels.end())
                           o.zooModels.push_back(name);
               }
           },
           "the model zoo (--zoo-dir): every model, or the listed ones (comma-separated, repeatable); identical "
           "shapes are timed once and reported for every layer and model that has them")
        ->expected(0, 1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->type_name("[MODEL,...]")
        ->group(g);
    app->add_option_function<std::string>(
           "--zoo-part",
           [&o](const std::string& v) {
               const size_t slash = v.find('/');
               if (slash == std::string::npos)
                   throw CLI::ValidationError("--zoo-part", "expects I/N (e.g. 2/4), got '" + v + "'");
               o.zooParts = parseInteger<int>("--zoo-part", v.substr(slash + 1), 1, 1000000);
               o.zooPart = parseInteger<int>("--zoo-part", v.substr(0, slash), 1, o.zooParts);
           },
           "with --zoo: the I-th of N slices of the zoo's distinct shapes (every N-th in sorted order), so that a "
           "zoo run can be spread over N calls; bench/report.py merges the parts' JSON files")
        ->type_name("I/N")
        ->group(g);
    addRepeatable(
        app, "--batch",
        [&o](const std::string& v) { o.batches.push_back(parseInteger<int64_t>("--batch", v, 1, INT32_MAX)); },
        "overrides each shape's n (repeatable)")
        ->type_name("N")
        ->group(g);
}

void addProblemOptions(CLI::App* app, Options& o, bool planOptions) {
    const char* g = "Problem";
    addRepeatable(
        app, "--dtype",
        [&o](const std::string& v) {
            auto t = vkconv::parseDType(v);
            if (!t) throw CLI::ValidationError("--dtype", "unknown type '" + v + "' (fp32, fp16, bf16)");
            if (std::find(o.dtypes.begin(), o.dtypes.end(), *t) == o.dtypes.end()) o.dtypes.push_back(*t);
        },
        "fp32|fp16|bf16 (repeatable; default fp32)")
        ->type_name("TYPE")
        ->group(g);
    addRepeatable(
        app, "--layout",
        [&o](const std::string& v) {
            auto l = vkconv::parseTensorLayout(v);
            if (!l) throw CLI::ValidationError("--layout", "unknown layout '" + v + "' (nchw, nhwc)");
            if (std::find(o.layouts.begin(), o.layouts.end(), *l) == o.layouts.end()) o.layouts.push_back(*l);
        },
        "nchw|nhwc: activations in and out; filters KCRS / KRSC (repeatable; default nchw)")
        ->type_name("LAYOUT")
        ->group(g);
    app->add_option_function<std::string>(
           "--algo",
           [&o](const std::string& v) {
               // Any pass's algorithm (--pass may come later; a transposed row's forward pass runs
               // the backward-data algorithms): a row whose pass does not have it declines it.
               std::vector<std::string> names;
               for (auto p :
                    {vkconv::ConvPass::Forward, vkconv::ConvPass::BackwardData, vkconv::ConvPass::BackwardWeight})
                   for (auto& n : vkconv::algorithmNames(p)) names.push_back(n);
               if (v != "auto" && v != "all" && std::find(names.begin(), names.end(), v) == names.end()) {
                   std::string known = "auto, all";
                   for (auto& n : names) known += ", " + n;
                   throw CLI::ValidationError("--algo", "no algorithm named '" + v + "' (have: " + known + ")");
               }
               o.algo = v;
           },
           "auto, an algorithm's name, or all: a row for every algorithm that accepts the layer")
        ->type_name("auto|NAME|all")
        ->default_str("auto")
        ->group(g);
    app->add_option(
           "--tile", o.tile,
           "force a tile configuration of the named algorithm (e.g. implicit_gemm 128x128x8/8x8; implicit_gemm_splitk "
           "64x64x8/4x4/s4 or s4: 4 splits)")
        ->type_name("TILE")
        ->group(g);
    app->add_option_function<std::string>(
           "--epilogue", [&o](const std::string& v) { o.epilogue = parseEpilogue(v); },
           "none, bias, an activation (relu, relu6, leaky_relu, gelu, silu, sigmoid) or bias_ACTIVATION")
        ->type_name("EPILOGUE")
        ->default_str("none")
        ->group(g);
    if (!planOptions) return;
    app->add_option_function<std::string>(
           "--pass",
           [&o](const std::string& v) {
               auto p = vkconv::parseConvPass(v);
               if (!p) throw CLI::ValidationError("--pass", "unknown pass '" + v + "' (fwd, bwd-data, bwd-weight)");
               o.pass = *p;
           },
           "fwd, bwd-data (dx from dy and the filter) or bwd-weight (dw, and with a bias epilogue the bias "
           "gradient, from x and dy) of every layer; backward passes run without the epilogue's activation")
        ->type_name("PASS")
        ->default_str("fwd")
        ->group(g);
    // The byte count (MiB << 20) must fit PlanOptions::workspaceLimit.
    addInteger<int64_t>(app, "--workspace-mib", o.workspaceMiB, 0,
                        int64_t(std::numeric_limits<VkDeviceSize>::max() >> 20),
                        "PlanOptions::workspaceLimit in MiB (default: the library's, 512 MiB)")
        ->group(g);
    app->add_flag("--no-winograd", o.noWinograd,
                  "PlanOptions::allowWinograd = false: the router keeps to the direct kernels")
        ->group(g);
    app->add_flag("--packed-filters", o.packedFilters,
                  "PlanOptions::packedFilter: constant weights, packed once (Plan::packFilter) before timing, so the "
                  "calls skip the per-call filter transform, transpose or flip (forward and backward-data "
                  "plans, transposed rows); --check reads through the packed filter")
        ->group(g);
    app->add_flag("--router-only", o.routerOnly,
                  "PlanOptions::useFindDatabase = false: auto runs the router's choice even where the find database "
                  "holds a measured winner (what the router alone achieves)")
        ->group(g);
    app->add_flag("--explain", o.explain,
                  "print each plan's Plan::explain(): the router's rules as it asked them, every algorithm's verdict "
                  "and modelled time, the find database's times where they chose (with --caps: for that card)")
        ->group(g);
    app->add_flag("--calibrate", o.calibrate,
                  "Context::calibrate: the routers' device model scaled to this card's measured peaks (the --peak "
                  "cache, or --peak's measurement) before planning; auto may then choose differently (not with --caps)")
        ->group(g);
}

void addTimingOptions(CLI::App* app, Options& o) {
    const char* g = "Timing";
    addInteger<int>(app, "--warmup", o.warmup, 0, 100000, "warm-up batches before timing")->default_str("3")->group(g);
    addInteger<int>(
        app, "--warmup-ms", o.warmupMs, 0, 3600000,
        "... and more batches until MS of wall time have passed (the GPU clock idles down while the host prepares a "
        "layer), then until a batch is no more than 3 % faster than every earlier one (1 s more at most)")
        ->type_name("MS")
        ->default_str("200")
        ->group(g);
    addInteger<int>(app, "--calls", o.calls, 1, 1000000, "dispatches per timed batch")->default_str("20")->group(g);
    addInteger<int>(app, "--repeats", o.repeats, 1, 1000000, "timed batches")->default_str("7")->group(g);
}

void addRunOptions(CLI::App* app, Options& o) {
    addShapeOptions(app, o);
    app->add_option_function<std::string>(
           "--max-gflop", [&o](const std::string& v) { o.maxGflop = parsePositive("--max-gflop", v); },
           "skip layers above X GFLOP (reason printed)")
        ->type_name("X")
        ->group("Shapes (default: every suite)");
    addProblemOptions(app, o, true);
    addTimingOptions(app, o);
    const char* out = "Output";
    app->add_flag(
           "--check", o.check,
           "compare a sample of every layer's outputs (~2048 + corners) with a float64 reference; prints \"N passed, M "
           "failed\" and exits 1 if M > 0")
        ->group(out);
    app->add_option("--json", o.jsonPath, "vkconv-bench/1 JSON (docs/bench-json.md)")->type_name("FILE")->group(out);
    app->add_option("--csv", o.csvPath, "the same rows as CSV")->type_name("FILE")->group(out);
    app->add_flag("--peak", o.peak,
                  "measure the device's peaks first (as `vkconv-bench peak`), for the % of peak column")
        ->group(out);
    const char* prof = "Profiling";
    app->add_flag("--passes", o.passes,
                  "after timing, one more batch with a timestamp after every dispatch; prints each pass's shader and "
                  "median time "
                  "and writes them to the JSON row")
        ->group(prof);
    app->add_option(
           "--trace", o.traceDir,
           "one-pass fp16 implicit_gemm_coopmat plans run the build that reads its clocks at every phase "
           "(VK_KHR_shader_clock); each such row writes DIR/<suite>__<layer>__b<N>.vktrace (bench/coopmat_trace.py)")
        ->type_name("DIR")
        ->group(prof);
}

// Options every tool takes, before or after the subcommand.
void addGlobalOptions(CLI::App* app, Options& o) {
    const char* g = "Global (before or after the subcommand)";
    app->add_option("--device", o.device, "device index or name substring (default: $VKCONV_DEVICE, else the best)")
        ->type_name("N|NAME")
        ->group(g);
    app->add_flag("--validation", o.validation, "Khronos validation layer; exits 1 if it reported anything")->group(g);
    app->add_option(
           "--suites-dir", o.suitesDir,
           "where --suite looks (default: $VKCONV_SUITES_DIR, else an installed share/vkconv/bench/suites beside "
           "bin/, else the source tree's bench/suites)")
        ->type_name("DIR")
        ->group(g);
    app->add_option(
           "--zoo-dir", o.zooDir,
           "where --zoo looks (default: $VKCONV_ZOO_DIR, else an installed share/vkconv/bench/zoo beside bin/, "
           "else the source tree's bench/zoo)")
        ->type_name("DIR")
        ->group(g);
}

// The older command line: the tool is picked by a flag anywhere on it.  Returns the subcommand
// and argv without the flags that only named the tool.
std::vector<std::string> mapOlderForm(const std::vector<std::string>& args) {
    auto has = [&](std::initializer_list<const char*> flags) {
        for (const auto& a : args)
            for (const char* f : flags)
                if (a == f || a.rfind(std::string(f) + "=", 0) == 0) return true;
        return false;
    };
    const bool stats = has({"--shader-stats"}), plans = has({"--plan-only", "--caps"}),
               find = has({"--find", "--find-fresh", "--find-exhaustive"});
    const bool peak = has({"--peak"}), shapes = has({"--suite", "--shapes", "--zoo"});
    auto conflict = [](const std::string& a, const std::string& b) {
        throw CLI::ValidationError(a + " and " + b + " are different tools (vkconv-bench --help lists them)");
    };
    if (stats && plans) conflict("--shader-stats", "--plan-only / --caps");
    if (stats && find) conflict("--shader-stats", "--find");
    if (plans && find) conflict("--plan-only / --caps", "--find (it times the candidates on this device)");
    if (peak && (stats || plans)) conflict("--peak", stats ? "--shader-stats" : "--plan-only / --caps");
    std::string tool = stats ? "shader-stats" : plans ? "plans" : find ? "find" : (peak && !shapes) ? "peak" : "run";
    // --peak stays a flag of run and find (measure, then time the layers).
    std::set<std::string> drop = {"--shader-stats", "--plan-only", "--find"};
    if (tool == "peak") drop.insert("--peak");
    std::vector<std::string> out{args[0], tool};
    for (size_t i = 1; i < args.size(); ++i)
        if (!drop.count(args[i])) out.push_back(args[i]);
    return out;
}

// Whether `flag` (an option of some subcommand or of the top level) takes a value.
bool takesValue(const CLI::App& app, const std::string& flag) {
    auto check = [&](const CLI::App* a) {
        const CLI::Option* opt = a->get_option_no_throw(flag);
        return opt && opt->get_expected_min() > 0;  // flags expect none; --zoo's list is optional
    };
    if (check(&app)) return true;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        if (check(sub)) return true;
    return false;
}

}  // namespace

vkconv::PlanOptions planOptions(const Options& o, const std::string& algo) {
    vkconv::PlanOptions po;
    po.algorithm = algo;
    po.tile = o.tile;
    po.allowWinograd = !o.noWinograd;
    po.packedFilter = o.packedFilters;
    po.useFindDatabase = !o.routerOnly;
    if (o.workspaceMiB >= 0) po.workspaceLimit = VkDeviceSize(o.workspaceMiB) << 20;
    return po;
}

Options parseOptions(int argc, char** argv) {
    Options o;
    CLI::App app(kIntro, "vkconv-bench");
    app.formatter(std::make_shared<HelpFormatter>());  // before the subcommands, which inherit it
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.require_subcommand(0, 1);
    app.allow_extras();  // reported below, in order and with the tool's name (the subcommands inherit it)
    app.footer(
        "Environment: VKCONV_DEVICE (the default --device), VKCONV_CACHE_DIR (pipeline, find and peak caches; none: "
        "off), VKCONV_SUITES_DIR (the default --suites-dir), VKCONV_ZOO_DIR (the default --zoo-dir).");
    addGlobalOptions(&app, o);

    CLI::App* run = app.add_subcommand(
        "run",
        "time the layers (the default): a table, JSON, CSV\n"
        "Times each selected layer (every shape x --batch x --dtype x --layout) with the router's plan, or --algo's, "
        "and prints a row per plan: median, min and max per-call time, TFLOP/s and % of the peak.  Protocol: warm-up, "
        "then --repeats batches of --calls dispatches in one command buffer, each behind a compute barrier (as calls "
        "on "
        "one CUDA stream); per-call time = batch time / calls.");
    addRunOptions(run, o);

    CLI::App* find = app.add_subcommand(
        "find",
        "run, each row on the fastest plan of findAlgorithms()\n"
        "As run, each row's plan the fastest of findAlgorithms() (every configuration that accepts the layer, timed on "
        "this "
        "device; vkconv/find.hpp) instead of the router's: prints every candidate's time, marks the router's pick with "
        "'*', "
        "and writes them to the JSON row.  Results come from and go to the find database beside the pipeline cache");
    addRunOptions(find, o);
    const char* fg = "Find";
    find->add_flag("--fresh,--find-fresh", o.findFresh,
                   "time afresh, without the find database (FindOptions::useDatabase = false)")
        ->group(fg);
    find->add_flag("--exhaustive,--find-exhaustive", o.findExhaustive,
                   "every tile of implicit_gemm, implicit_gemm_coopmat and halo_coopmat as a candidate too "
                   "(FindOptions::exhaustive; several times the candidates)")
        ->group(fg);

    CLI::App* peak = app.add_subcommand(
        "peak",
        "measure and cache the device's peaks\n"
        "Measures the device's peaks (FMA, cooperative matrices, bandwidth, the per-call floor), prints them and "
        "caches them "
        "($VKCONV_CACHE_DIR, $XDG_CACHE_HOME/vkconv or ~/.cache/vkconv): later runs read the cache for % of peak");
    peak->add_flag("--barrier-forms", o.peakBarrierForms,
                   "also time the call floor behind other barrier forms (read-only, synchronization2, buffer-only, "
                   "execution-only, events)");

    CLI::App* plans = app.add_subcommand("plans",
                                         "list the router's plans without running them\n"
                                         "Lists the plan of every selected row (algorithm, configuration, workspace) "
                                         "without tensors or timing; --json writes "
                                         "vkconv-plans/1, --csv one line per plan (docs/bench-json.md)");
    addShapeOptions(plans, o);
    addProblemOptions(plans, o, true);
    plans
        ->add_option(
            "--caps", o.capsPath,
            "plan offline for the device a profile describes (`vkconv-info --json` run on that machine): what vkconv "
            "would run there")
        ->type_name("FILE")
        ->group("Output");
    plans->add_option("--json", o.jsonPath, "vkconv-plans/1 JSON")->type_name("FILE")->group("Output");
    plans->add_option("--csv", o.csvPath, "one line per plan")->type_name("FILE")->group("Output");

    CLI::App* stats = app.add_subcommand("shader-stats",
                                         "the compile lab: every pipeline's driver statistics\n"
                                         "The compile lab: builds every pipeline variant of every algorithm with "
                                         "statistics capture and prints the driver's "
                                         "statistics (VGPRs, spills, ...); exits 1 on build failures or spills.  Works "
                                         "on RADV's null device.  With --algo "
                                         "NAME: that algorithm's variants only (NVIDIA takes minutes for all); with "
                                         "--tile T also: the variants whose forced "
                                         "tile starts with T.  With --suite / --shapes: the pipelines of the router's "
                                         "plans for those layers (each --batch, "
                                         "--dtype, --layout; --algo NAME forces one) instead.");
    addShapeOptions(stats, o, "Layers (default: every variant of every algorithm, not layers)");
    addProblemOptions(stats, o, false);
    const char* sg = "Output";
    stats->add_option("--json", o.jsonPath, "the statistics as JSON")->type_name("FILE")->group(sg);
    stats
        ->add_option(
            "--isa", o.isaDir,
            "dump each pipeline's internal representations to DIR, and its data in a VkPipelineCache of its own "
            "(*_pipeline_cache.bin: on NVIDIA the machine code, which bench/nv_sass.py disassembles)")
        ->type_name("DIR")
        ->group(sg);
    addRepeatable(
        stats, "--expect-isa",
        [&o](const std::string& v) {
            size_t colon = v.find(':');
            if (colon == std::string::npos || colon == 0 || colon + 1 == v.size())
                throw CLI::ValidationError("--expect-isa", "expects SHADER:TEXT, got '" + v + "'");
            o.expectIsa.push_back({v.substr(0, colon), v.substr(colon + 1)});
        },
        "every pipeline whose shader name starts with SHADER must contain TEXT in its internal representations (exit "
        "1 otherwise), e.g. implicit_gemm_coopmat:v_wmma on RDNA3/RDNA4 (repeatable)")
        ->type_name("SHADER:TEXT")
        ->group(sg);

    for (CLI::App* sub : {run, find, peak, plans, stats}) addGlobalOptions(sub, o);

    std::vector<std::string> args(argv, argv + argc);
    try {
        // The subcommand form names the tool in the first word that is neither a flag nor a flag's
        // value; without one, the older form's flags pick it.
        bool named = false, help = false;
        for (size_t i = 1; i < args.size(); ++i) {
            const std::string& a = args[i];
            if (a == "--") break;
            if (a == "-h" || a == "--help") help = true;
            if (a.size() > 1 && a[0] == '-') {
                if (a.find('=') == std::string::npos && takesValue(app, a)) {
                    ++i;
                } else if (a == "--zoo" && i + 1 < args.size() && args[i + 1][0] != '-') {
                    // --zoo's optional list, unless the word names a tool.
                    bool tool = false;
                    for (const Tool& t : kTools) tool = tool || args[i + 1] == t.name;
                    if (!tool) ++i;
                }
                continue;
            }
            named = true;  // a subcommand, or a stray word CLI11 reports
            break;
        }
        if (!named) {
            std::vector<std::string> mapped = mapOlderForm(args);
            // Plain `vkconv-bench --help` describes the whole tool, not run.
            if (!(help && args.size() == 2)) args = std::move(mapped);
        }
        std::vector<std::string> rev(args.rbegin(), args.rend() - 1);  // CLI11 takes the arguments reversed
        app.parse(rev);
        if (std::vector<std::string> extra = app.remaining(true); !extra.empty()) {
            std::string words;
            for (const auto& w : extra) words += (words.empty() ? "" : " ") + w;
            std::string tool = "vkconv-bench";
            for (const Tool& t : kTools)
                if (app.got_subcommand(t.name)) tool += std::string(" ") + t.name;
            if (tool == "vkconv-bench" && extra[0][0] != '-')
                throw CLI::ExtrasError("no subcommand '" + extra[0] + "' (run, find, peak, plans, shader-stats)",
                                       CLI::ExitCodes::ExtrasError);
            throw CLI::ExtrasError("`" + tool + "` does not take: " + words, CLI::ExitCodes::ExtrasError);
        }
    } catch (const CLI::CallForHelp&) {
        std::fputs(app.help().c_str(), stdout);
        std::exit(0);
    } catch (const CLI::ParseError& e) {
        std::string sub;
        for (const Tool& t : kTools)
            if (app.got_subcommand(t.name)) sub = std::string(t.name) + " ";
        std::fprintf(stderr, "vkconv-bench: %s\n(see vkconv-bench %s--help)\n", e.what(), sub.c_str());
        std::exit(2);
    }

    for (const Tool& t : kTools)
        if (app.got_subcommand(t.name)) o.mode = t.mode;
    o.find = o.mode == Mode::Find;
    if (o.dtypes.empty()) o.dtypes.push_back(vkconv::DType::F32);
    if (o.layouts.empty()) o.layouts.push_back(vkconv::TensorLayout::NCHW);
    auto usageError = [&](const std::string& msg) {
        std::fprintf(stderr, "vkconv-bench: %s\n(see vkconv-bench --help)\n", msg.c_str());
        std::exit(2);
    };
    if (o.zoo && (!o.suites.empty() || !o.shapeFiles.empty()))
        usageError("--zoo and --suite / --shapes: run the zoo and the suites separately");
    if (o.zooParts > 1 && !o.zoo) usageError("--zoo-part splits the zoo: give --zoo too");
    if (!o.capsPath.empty() && (!o.device.empty() || o.validation))
        usageError("--caps plans offline: no --device or --validation");
    if (o.packedFilters && o.pass == vkconv::ConvPass::BackwardWeight)
        usageError("--packed-filters packs the filter a plan reads: not with --pass bwd-weight (it writes the filter)");
    if (o.mode == Mode::Find && o.algo == "all")
        usageError(
            "--algo all: find times every candidate and runs the fastest; use run --algo all for a row per algorithm");
    return o;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::optional<double> Peaks::bestF16Coopmat() const {
    std::optional<double> best;
    for (auto& [name, v] : coopmatTflops)
        if (name.find("f16*f16") != std::string::npos && name.find("bf16") == std::string::npos && (!best || v > *best))
            best = v;
    return best;
}

}  // namespace vkbench
