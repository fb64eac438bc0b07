// vkconv-bench: the types its translation units share (options, shapes, rows, peaks).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "vkconv/plan.hpp"
#include "vkconv/types.hpp"

namespace vkbench {

// One line of a shapes CSV (bench/suites/*.csv): symmetric padding, as PyTorch.
struct Shape {
    std::string suite, layer;
    int64_t n = 1, c = 1, h = 1, w = 1, k = 1, r = 1, s = 1;
    int64_t padH = 0, padW = 0, strideH = 1, strideW = 1, dilH = 1, dilW = 1, groups = 1;
    // The model zoo's files (bench/zoo/*.csv) write identical layers of one model once: how many
    // convolutions of the model this row stands for (a model's time is the sum of count x time).
    int64_t count = 1;
    // A transposed convolution (the `transposed` column): c, h x w are its input, k its output
    // channels, r x s its kernel, as PyTorch's ConvTranspose2d(c, k, (r, s)); the output padding
    // (output_pad_h / output_pad_w columns) picks among the output sizes a stride allows.
    bool transposed = false;
    int64_t outPadH = 0, outPadW = 0;
};

struct Epilogue {
    std::string name = "none";  // as given on the command line
    bool bias = false;
    vkconv::Activation activation = vkconv::Activation::None;
};

// The tool a command line asks for: its subcommand (run when none is named).
enum class Mode { Run, Find, Peak, Plans, ShaderStats };

struct Options {
    Mode mode = Mode::Run;
    std::vector<std::string> shapeFiles, suites;
    std::string suitesDir;
    // --zoo [MODELS]: the model zoo's files (every one, or the listed models); --zoo-part I/N
    // keeps the I-th of N deterministic slices of the zoo's distinct shapes.
    bool zoo = false;
    std::vector<std::string> zooModels;
    std::string zooDir;
    int zooPart = 1, zooParts = 1;
    std::vector<int64_t> batches;  // empty: each shape's own n
    std::vector<vkconv::DType> dtypes;
    std::vector<vkconv::TensorLayout> layouts;
    std::string algo = "auto";                          // auto | NAME | all
    vkconv::ConvPass pass = vkconv::ConvPass::Forward;  // --pass: which pass of each layer is timed
    std::string tile;                                   // forced tile configuration (PlanOptions::tile), "" = heuristic
    Epilogue epilogue;
    std::string device;
    std::string jsonPath, csvPath, isaDir;
    // --expect-isa SHADER:TEXT (repeatable): every pipeline whose shader name starts with SHADER
    // must have TEXT in one of its internal representations (e.g. the matrix instruction).
    std::vector<std::pair<std::string, std::string>> expectIsa;
    bool check = false, validation = false;
    bool peak = false;              // run / find --peak: measure the peaks before timing the layers
    bool peakBarrierForms = false;  // peak --barrier-forms: the call floor behind other barrier forms too
    std::string capsPath;           // plans --caps FILE: a device profile (vkconv-info --json); offline context
    int warmup = 3, calls = 20, repeats = 7;
    int warmupMs = 200;           // and keep warming up until this much wall time has passed (GPU clocks)
    double maxGflop = 0.0;        // 0: no limit
    int64_t workspaceMiB = -1;    // PlanOptions::workspaceLimit in MiB; -1: the library's default
    bool noWinograd = false;      // --no-winograd: PlanOptions::allowWinograd = false
    bool packedFilters = false;   // --packed-filters: PlanOptions::packedFilter, the filter packed once before timing
    bool routerOnly = false;      // --router-only: PlanOptions::useFindDatabase = false
    bool explain = false;         // --explain: each row's Plan::explain()
    bool calibrate = false;       // --calibrate: Context::calibrate to the peaks (cached, or --peak's)
    std::string traceDir;         // --trace DIR: implicit_gemm_coopmat's phase clocks per layer (profiling)
    bool passes = false;          // --passes: time each dispatch of a call (profiling)
    bool find = false;            // find: each row's plan is findPlan()'s (measured), not the router's
    bool findFresh = false;       // find --fresh: timing afresh (FindOptions::useDatabase = false)
    bool findExhaustive = false;  // find --exhaustive: every tile as a candidate too (FindOptions::exhaustive)
};

// Parses argv; prints the help and exits 0 on --help, names the flag and exits 2 on a bad one.
Options parseOptions(int argc, char** argv);

// The plan options a run and a plans listing both use: `algo` (auto or a name), then
// --tile, --workspace-mib, --no-winograd and --packed-filters.
vkconv::PlanOptions planOptions(const Options& o, const std::string& algo);

// Measured (or cached) device peaks; absent values were not measured.
struct Peaks {
    std::optional<double> fp32FmaTflops, fp16FmaTflops, bandwidthGbs;
    std::optional<double> callFloorUs;   // one tiny call behind a compute barrier (peak.cpp callFloorProbe)
    std::optional<double> cacheReadGbs;  // reads from a 16 MiB buffer kept in the last-level cache (cacheReadProbe)
    std::optional<double> dispatchUs;    // the same call with no barrier: dispatches overlap (the launch rate)
    // The best slice loop of a matrix-kernel structure that brings its operands in every slice
    // (restaged through shared memory, or B from global memory): the most any staged GEMM here can
    // sustain (peak.cpp smemProbe; bench/bounds.py).  sliceLoopProbe names the row that gave it.
    std::optional<double> sliceLoopTflops;
    std::string sliceLoopProbe;
    std::map<std::string, double> coopmatTflops;  // CoopMatConfig::toString() -> TFLOP/s (TOP/s for integers)
    std::string source;                           // "measured now" or the cache file it came from
    bool empty() const {
        return !fp32FmaTflops && !fp16FmaTflops && !bandwidthGbs && !callFloorUs && !cacheReadGbs && !dispatchUs &&
               !sliceLoopTflops && coopmatTflops.empty();
    }
    std::optional<double> bestF16Coopmat() const;
};

struct CheckResult {
    std::string status = "skipped";   // pass | fail | skipped
    std::optional<double> maxRelErr;  // max |gpu - ref| / max |ref| over the checked outputs
    int64_t checked = 0;              // outputs compared
    int64_t bad = 0;                  // outputs outside the tolerance (NaN included)
    std::string detail;               // first failure, for the log
};

struct Row {
    Shape shape;
    int64_t batch = 1;
    vkconv::DType dtype = vkconv::DType::F32;
    vkconv::TensorLayout layout = vkconv::TensorLayout::NCHW;
    vkconv::ConvPass pass = vkconv::ConvPass::Forward;
    std::string algoRequest;  // what --algo asked for (auto, a name)
    std::string algo, config, epilogue;
    std::string chosenBy, reason;  // Plan::explain(): what chose the plan, and why
    double gflop = 0;
    std::optional<double> us, usMin, usMax, tflops, pctPeak;
    std::string peakLabel;  // which peak pct_peak is relative to
    CheckResult check;
    std::string error;      // non-empty: the run failed (times are absent)
    bool declined = false;  // the error is the algorithm declining the layer (vkconv::ErrorCode::Unsupported)
    // --passes: each dispatch of one call in order, its shader and median time (timestamp after
    // it minus the one before; passes without a barrier between them overlap).
    std::vector<std::pair<std::string, double>> passes;
    // --find: every candidate findAlgorithms() timed (fastest first), and its wall time.
    struct FindCandidate {
        std::string algo, config, error;
        double us = -1;
        bool router = false;
    };
    std::vector<FindCandidate> find;
    std::optional<double> findMs;
    bool findFromDatabase = false;
};

// Summary statistics.
double median(std::vector<double> v);

}  // namespace vkbench
