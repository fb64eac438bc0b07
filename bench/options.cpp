// vkconv-bench command line.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common.hpp"
#include "vkconv/plan.hpp"

namespace vkbench {

namespace {

const char* kUsage = R"(usage: vkconv-bench [options]

Times vkconv convolutions layer by layer (Vulkan timestamps; the cuDNN anchors' protocol:
warm-up, then `repeats` batches of `calls` dispatches in one command buffer, each behind a
compute barrier as calls on one CUDA stream are;
per-conv time = batch time / calls; median, min and max over the repeats).

Shapes (default: every suite):
  --suite NAME          a suite of the suites directory (repeatable)
  --shapes FILE.csv     a shapes file: suite,layer,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,
                        dil_h,dil_w,groups (repeatable)
  --suites-dir DIR      where --suite looks (default: $VKCONV_SUITES_DIR, else an installed
                        share/vkconv/bench/suites beside bin/, else the source tree's bench/suites)
  --batch N             overrides each shape's n (repeatable)
  --max-gflop X         skip layers above X GFLOP (reason printed)
Problem:
  --dtype fp32|fp16|bf16        (repeatable; default fp32)
  --layout nchw|nhwc            activations in and out; filters KCRS / KRSC (repeatable; default nchw)
  --algo auto|NAME|all          all: a row for every algorithm that accepts the layer (default auto)
  --tile NAME                   force a tile configuration of the named algorithm (e.g. implicit_gemm 128x128x8/8x8;
                                implicit_gemm_splitk 64x64x8/4x4/s4 or s4: 4 splits)
  --workspace-mib N             PlanOptions::workspaceLimit in MiB (default: the library's, 512 MiB)
  --no-winograd                 PlanOptions::allowWinograd = false: the router keeps to the direct kernels (what
                                winograd buys on each layer, and its ~10x larger fp16 error, side by side)
  --packed-filters              PlanOptions::packedFilter: constant weights, packed once (Plan::packFilter) before
                                timing, so the calls skip the per-call filter transform (winograd) or KCRS->KRSC
                                transpose (coopmat_nhwc, implicit_gemm_nhwc); --check reads through the packed filter
  --trace DIR                   profiling: one-pass fp16 implicit_gemm_coopmat plans run the build that reads its
                                clocks at every phase (VKCONV_COOPMAT_TRACE=1; VK_KHR_shader_clock); each such row
                                writes DIR/<suite>__<layer>__b<N>.vktrace (bench/coopmat_trace.py reads it)
  --find                        each row's plan is the fastest of findAlgorithms() (every configuration that accepts
                                the layer, timed on this device; vkconv/find.hpp) instead of the router's; prints
                                every candidate's time, marks the router's pick with '*', and writes them to the JSON
                                row.  Results come from and go to the find database beside the pipeline cache
  --find-fresh                  --find, timing afresh (FindOptions::useDatabase = false)
  --find-exhaustive             --find with every tile of implicit_gemm, implicit_gemm_coopmat and halo_coopmat as
                                a candidate too (FindOptions::exhaustive; several times the candidates)
  --passes                      profiling: after timing, one more batch with a timestamp after every dispatch; prints
                                each pass's shader and median time (winograd's transforms and GEMM, split-K's
                                passes, coopmat_nhwc's transposes) and writes them to the JSON row
  --epilogue none|bias|relu|bias_relu|bias_relu6|bias_leaky_relu|bias_gelu|bias_silu|bias_sigmoid|...
Timing:
  --warmup N            warm-up batches before timing (default 3)
  --warmup-ms MS        ... and more batches until MS of wall time have passed (default 200):
                        the GPU clock idles down while the host prepares a layer and needs
                        sustained load to come back up (docs/perf-notes.md item 14); then
                        until a batch is no more than 3 % faster than every earlier one (the
                        clock has settled; 1 s more at most)
  --calls N             dispatches per timed batch (default 20)
  --repeats N           timed batches (default 7)
Output:
  --check               compare a sample of every layer's outputs (~2048 + corners) with a float64
                        reference; prints "N passed, M failed" and exits 1 if M > 0
  --json FILE           vkconv-bench/1 JSON (docs/bench-json.md)
  --csv FILE            the same rows as CSV
Device:
  --device N|NAME       device index or name substring (default: $VKCONV_DEVICE, else the best)
  --validation          Khronos validation layer; exits 1 if it reported anything
  --plan-only           list the plan of every selected row (algorithm, configuration, workspace)
                        without tensors or timing; --json writes vkconv-plans/1, --csv one line per
                        plan (docs/bench-json.md)
  --caps FILE           plan offline for the device a profile describes (`vkconv-info --json` run
                        on that machine): what vkconv would run there; implies --plan-only
  --peak                measure the device's peaks (FMA, coopmat, bandwidth, the per-call floor), print and cache them
                        (without --suite/--shapes: only the probe runs).  Later runs read the cache
                        ($VKCONV_CACHE_DIR, $XDG_CACHE_HOME/vkconv or ~/.cache/vkconv) for % of peak.
  --shader-stats        compile lab: build every pipeline variant of every algorithm with statistics
                        capture and print the driver's statistics (VGPRs, spills, ...); --json FILE
                        writes them; exits 1 on build failures or spills.  Works on RADV's null device.
                        With --algo NAME: that algorithm's variants only (NVIDIA takes minutes for all);
                        with --tile T also: the variants whose forced tile starts with T.  With
                        --suite / --shapes: the pipelines of the router's plans for those layers
                        (each --batch, --dtype, --layout; --algo NAME forces one) instead.
  --isa DIR             with --shader-stats: dump each pipeline's internal representations to DIR,
                        and its data in a VkPipelineCache of its own (*_pipeline_cache.bin: on
                        NVIDIA the machine code, which bench/nv_sass.py disassembles)
  --expect-isa SHADER:TEXT
                        with --shader-stats: every pipeline whose shader name starts with SHADER must
                        contain TEXT in its internal representations (exit 1 otherwise), e.g.
                        implicit_gemm_coopmat:v_wmma on RDNA3/RDNA4 (repeatable)
)";

[[noreturn]] void usageError(const std::string& msg) {
    std::fprintf(stderr, "vkconv-bench: %s\n(see vkconv-bench --help)\n", msg.c_str());
    std::exit(2);
}

int64_t parseInt(const std::string& flag, const std::string& v, int64_t min) {
    char* end = nullptr;
    long long x = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end || x < min) usageError(flag + " expects an integer >= " + std::to_string(min) + ", got '" + v + "'");
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
    if (!a) usageError("--epilogue: unknown activation '" + act + "' (none, relu, relu6, leaky_relu, gelu, silu, sigmoid)");
    e.activation = *a;
    return e;
}

}  // namespace

vkconv::PlanOptions planOptions(const Options& o, const std::string& algo) {
    vkconv::PlanOptions po;
    po.algorithm = algo;
    po.tile = o.tile;
    po.allowWinograd = !o.noWinograd;
    po.packedFilter = o.packedFilters;
    if (o.workspaceMiB >= 0) po.workspaceLimit = VkDeviceSize(o.workspaceMiB) << 20;
    return po;
}

Options parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string f = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) usageError(f + " needs a value");
            return argv[++i];
        };
        if (f == "-h" || f == "--help") {
            std::fputs(kUsage, stdout);
            std::exit(0);
        } else if (f == "--shapes") {
            o.shapeFiles.push_back(next());
        } else if (f == "--suite") {
            o.suites.push_back(next());
        } else if (f == "--suites-dir") {
            o.suitesDir = next();
        } else if (f == "--batch") {
            o.batches.push_back(parseInt(f, next(), 1));
        } else if (f == "--dtype") {
            std::string v = next();
            auto t = vkconv::parseDType(v);
            if (!t) usageError("--dtype: unknown type '" + v + "' (fp32, fp16, bf16)");
            if (std::find(o.dtypes.begin(), o.dtypes.end(), *t) == o.dtypes.end()) o.dtypes.push_back(*t);
        } else if (f == "--layout") {
            std::string v = next();
            auto l = vkconv::parseTensorLayout(v);
            if (!l) usageError("--layout: unknown layout '" + v + "' (nchw, nhwc)");
            if (std::find(o.layouts.begin(), o.layouts.end(), *l) == o.layouts.end()) o.layouts.push_back(*l);
        } else if (f == "--tile") {
            o.tile = next();
        } else if (f == "--algo") {
            o.algo = next();
        } else if (f == "--epilogue") {
            o.epilogue = parseEpilogue(next());
        } else if (f == "--device") {
            o.device = next();
        } else if (f == "--json") {
            o.jsonPath = next();
        } else if (f == "--csv") {
            o.csvPath = next();
        } else if (f == "--isa") {
            o.isaDir = next();
        } else if (f == "--expect-isa") {
            std::string v = next();
            size_t colon = v.find(':');
            if (colon == std::string::npos || colon == 0 || colon + 1 == v.size())
                usageError("--expect-isa expects SHADER:TEXT, got '" + v + "'");
            o.expectIsa.push_back({v.substr(0, colon), v.substr(colon + 1)});
        } else if (f == "--check") {
            o.check = true;
        } else if (f == "--warmup") {
            o.warmup = int(parseInt(f, next(), 0));
        } else if (f == "--warmup-ms") {
            o.warmupMs = int(parseInt(f, next(), 0));
        } else if (f == "--workspace-mib") {
            o.workspaceMiB = parseInt(f, next(), 0);
        } else if (f == "--no-winograd") {
            o.noWinograd = true;
        } else if (f == "--packed-filters") {
            o.packedFilters = true;
        } else if (f == "--trace") {
            o.traceDir = next();
        } else if (f == "--passes") {
            o.passes = true;
        } else if (f == "--find") {
            o.find = true;
        } else if (f == "--find-fresh") {
            o.find = o.findFresh = true;
        } else if (f == "--find-exhaustive") {
            o.find = o.findExhaustive = true;
        } else if (f == "--calls") {
            o.calls = int(parseInt(f, next(), 1));
        } else if (f == "--repeats") {
            o.repeats = int(parseInt(f, next(), 1));
        } else if (f == "--peak") {
            o.peak = true;
        } else if (f == "--shader-stats") {
            o.shaderStats = true;
        } else if (f == "--max-gflop") {
            std::string v = next();
            char* end = nullptr;
            o.maxGflop = std::strtod(v.c_str(), &end);
            if (v.empty() || *end || !(o.maxGflop > 0)) usageError("--max-gflop expects a positive number, got '" + v + "'");
        } else if (f == "--plan-only") {
            o.planOnly = true;
        } else if (f == "--caps") {
            o.capsPath = next();
            o.planOnly = true;
        } else if (f == "--validation") {
            o.validation = true;
        } else {
            usageError("unknown argument '" + f + "'");
        }
    }
    if (o.dtypes.empty()) o.dtypes.push_back(vkconv::DType::F32);
    if (o.layouts.empty()) o.layouts.push_back(vkconv::TensorLayout::NCHW);
    if (!o.isaDir.empty() && !o.shaderStats) usageError("--isa needs --shader-stats");
    if (!o.expectIsa.empty() && !o.shaderStats) usageError("--expect-isa needs --shader-stats");
    if (o.planOnly && (o.peak || o.shaderStats || o.check))
        usageError("--plan-only / --caps list plans only: no --peak, --shader-stats or --check");
    if (!o.capsPath.empty() && (!o.device.empty() || o.validation)) usageError("--caps plans offline: no --device or --validation");
    if (o.find && (o.planOnly || o.shaderStats || o.algo == "all"))
        usageError("--find times the candidates on this device: not with --plan-only, --caps, --shader-stats or --algo all");
    if (o.algo != "auto" && o.algo != "all") {
        auto names = vkconv::algorithmNames();
        if (std::find(names.begin(), names.end(), o.algo) == names.end()) {
            std::string known = "auto, all";
            for (auto& n : names) known += ", " + n;
            usageError("--algo: no algorithm named '" + o.algo + "' (have: " + known + ")");
        }
    }
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
        if (name.find("f16*f16") != std::string::npos && name.find("bf16") == std::string::npos && (!best || v > *best)) best = v;
    return best;
}

}  // namespace vkbench
