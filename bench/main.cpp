// vkconv-bench: layer-by-layer convolution timings (table, JSON, CSV; run and find), the device's
// peaks (peak), plan listings (plans) and the compile lab (shader-stats).  See --help.
#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "util/file_read.hpp"
#include "common.hpp"
#include "layer_runner.hpp"
#include "peak.hpp"
#include "plan_list.hpp"
#include "report.hpp"
#include "shader_stats.hpp"
#include "shapes.hpp"
#include "runtime/context_access.hpp"
#include "vkconv/vkconv.hpp"

using namespace vkbench;

namespace {

int runBenchmark(vkconv::Context& ctx, const Options& opts, const Peaks& peaks) {
    std::vector<Shape> shapes = loadShapes(opts);
    LayerRunner runner(ctx, opts);
    const auto& caps = ctx.caps();
    std::printf("== vkconv %s (%s) on %s, %s %s\n", vkconv::versionString(), vkconv::gitRevision(),
                caps.deviceName.c_str(), caps.driverName.c_str(), caps.driverVersionString().c_str());
    std::printf(
        "protocol: %d+ warm-up batches (>= %d ms, >= 1500 ms after 500 ms of GPU idle, until the batch time settles), "
        "%d repeats x %d calls (barrier between calls), median "
        "(warmed up and timed again, twice at most, when the repeats differ by > 1.25x); %s\n",
        opts.warmup, opts.warmupMs, opts.repeats, opts.calls,
        runner.gpuTimestamps() ? "Vulkan timestamps" : "HOST timing (this queue has no timestamps)");
    auto fmt = [](const std::optional<double>& v) {
        char buf[32] = "-";
        if (v) std::snprintf(buf, sizeof buf, "%.4g", *v);
        return std::string(buf);
    };
    if (peaks.empty())
        std::printf("peaks: no peak measured (run vkconv-bench peak once): %%peak left blank\n");
    else
        std::printf(
            "peaks (%s): fp32 FMA %s, fp16 FMA %s, best fp16 coopmat %s, staged slice loop %s TFLOP/s; cache read %s "
            "GB/s; "
            "call floor %s us\n",
            peaks.source.c_str(), fmt(peaks.fp32FmaTflops).c_str(), fmt(peaks.fp16FmaTflops).c_str(),
            fmt(peaks.bestF16Coopmat()).c_str(), fmt(peaks.sliceLoopTflops).c_str(), fmt(peaks.cacheReadGbs).c_str(),
            fmt(peaks.callFloorUs).c_str());
    std::printf("pass: %s; epilogue: %s%s; check: %s\n\n", std::string(vkconv::toString(opts.pass)).c_str(),
                opts.epilogue.name.c_str(),
                opts.pass == vkconv::ConvPass::Forward || opts.epilogue.name == "none"
                    ? ""
                    : " (backward passes: no activation; bwd-weight keeps the bias, for its gradient)",
                opts.check ? "float64 reference on ~2048 sampled outputs + corners per row" : "off (--check)");

    // The zoo repeats shapes across models (and within one, each model's file holding a shape once
    // with its count): each distinct shape is timed once and its rows copied to every layer that
    // has it.  Suites and shape files keep a measurement per row.
    std::vector<std::vector<size_t>> same;
    if (opts.zoo) {
        same = identicalShapes(shapes);
        std::set<std::string> models;
        int64_t convs = 0;
        for (auto& s : shapes) models.insert(s.suite), convs += s.count;
        std::printf("zoo: %zu models, %zu rows (%lld convolutions), %zu distinct shapes", models.size(), shapes.size(),
                    (long long)convs, same.size());
        if (opts.zooParts > 1) std::printf(" in part %d of %d", opts.zooPart, opts.zooParts);
        std::printf("\n\n");
    } else {
        for (size_t i = 0; i < shapes.size(); ++i) same.push_back({i});
    }

    struct Job {
        const std::vector<size_t>* owners;  // rows of `shapes` with this shape; the first is timed
        int64_t batch;
        vkconv::DType dtype;
        vkconv::TensorLayout layout;
    };
    std::vector<Job> jobs;
    for (auto& g : same)
        for (int64_t b : opts.batches.empty() ? std::vector<int64_t>{shapes[g[0]].n} : opts.batches)
            for (auto dt : opts.dtypes)
                for (auto lay : opts.layouts) jobs.push_back({&g, b, dt, lay});

    printTableHeader(stdout);
    std::vector<Row> rows;
    auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < jobs.size(); ++i) {
        const Job& j = jobs[i];
        const Shape& shape = shapes[j.owners->front()];
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::fprintf(stderr, "[%zu/%zu %.1fs] %s/%s n%lld %s %s\n", i + 1, jobs.size(), elapsed, shape.suite.c_str(),
                     shape.layer.c_str(), (long long)j.batch, std::string(vkconv::toString(j.dtype)).c_str(),
                     std::string(vkconv::toString(j.layout)).c_str());
        std::vector<std::string> notes;
        std::vector<Row> got = runner.run(shape, j.batch, j.dtype, j.layout, notes);
        for (auto& n : notes) printNote(stdout, shape, j.batch, std::string(vkconv::toString(j.dtype)) + " " + n);
        for (auto& r : got) {
            applyPeak(r, peaks);
            printRow(stdout, r);
        }
        if (j.owners->size() > 1) {
            std::set<std::string> models;
            for (size_t o : *j.owners) models.insert(shapes[o].suite);
            printNote(stdout, shape, j.batch,
                      "timed once for " + std::to_string(j.owners->size()) + " rows of " +
                          std::to_string(models.size()) + " model(s) with this shape");
        }
        for (size_t o : *j.owners)
            for (const Row& r : got) {
                rows.push_back(r);
                rows.back().shape = shapes[o];
            }
        std::fflush(stdout);
    }
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "[done %.1fs] %zu rows\n", elapsed, rows.size());
    printSummary(stdout, rows);

    RunInfo info{&caps, &opts, &peaks, runner.gpuTimestamps() ? "vulkan-timestamps" : "host"};
    if (!opts.jsonPath.empty()) {
        writeJsonReport(opts.jsonPath, info, rows);
        std::fprintf(stderr, "JSON written to %s\n", opts.jsonPath.c_str());
    }
    if (!opts.csvPath.empty()) {
        writeCsvReport(opts.csvPath, rows);
        std::fprintf(stderr, "CSV written to %s\n", opts.csvPath.c_str());
    }

    int errors = 0;
    for (auto& r : rows)
        if (!r.error.empty()) ++errors;
    if (errors) std::printf("\n%d row(s) failed to run (ERROR above)\n", errors);
    if (runner.unrunnable()) std::printf("\n%d layer(s) could not run (\"cannot run\" above)\n", runner.unrunnable());
    if (opts.check) {
        int passed = 0, failed = runner.unrunnable();
        for (auto& r : rows) {
            if (r.check.status == "pass")
                ++passed;
            else if (r.check.status == "fail" || !r.error.empty())
                ++failed;
        }
        std::printf("\n%d passed, %d failed\n", passed, failed);
        return failed > 0 ? 1 : 0;
    }
    return errors > 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options opts = parseOptions(argc, argv);
    try {
        if (!opts.traceDir.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(opts.traceDir, ec);
            if (ec) throw vkconv::Error(vkconv::ErrorCode::Io, "cannot create " + opts.traceDir + ": " + ec.message());
        }
        if (opts.mode == Mode::Plans && !opts.capsPath.empty()) {
            if (opts.calibrate) {
                std::fprintf(stderr,
                             "vkconv-bench: --calibrate needs the card's measured peaks; a --caps profile "
                             "has none\n");
                return 2;
            }
            const vkconv::FileRead caps = vkconv::readRegularFile(opts.capsPath, uint64_t(1) << 24);
            if (!caps.bytes)
                throw vkconv::Error(vkconv::ErrorCode::Io, "cannot read " + opts.capsPath + ": " + caps.why);
            vkconv::Context offline = vkconv::Context::createOffline(vkconv::DeviceCaps::fromJson(*caps.bytes));
            vkconv::implOf(offline).coopmatTrace =
                !opts.traceDir.empty();  // the trace build (src/conv/algo_implicit_gemm_coopmat.cpp)
            return runPlanList(offline, opts);
        }
        vkconv::ContextCreateInfo info;
        info.device = opts.device;
        info.enableValidation = opts.validation;
        std::optional<vkconv::Context> created;
        try {
            created.emplace(vkconv::Context::create(info));
        } catch (const vkconv::Error&) {
            throw;
        } catch (const std::exception& e) {
            // Whatever the device selector's parse throws (a numeric index beyond unsigned long).
            std::fprintf(stderr, "vkconv-bench: --device '%s': cannot select that device (%s)\n", opts.device.c_str(),
                         e.what());
            return 2;
        }
        vkconv::Context& ctx = *created;
        vkconv::implOf(ctx).coopmatTrace =
            !opts.traceDir.empty();  // one-pass fp16 implicit_gemm_coopmat plans run the trace build

        int rc = 0;
        if (opts.mode != Mode::ShaderStats && ctx.caps().deviceName.rfind("Null hardware", 0) == 0) {
            std::fprintf(stderr, "vkconv-bench: %s compiles but cannot run anything: only shader-stats works on it\n",
                         ctx.caps().deviceName.c_str());
            return 1;
        }
        if (opts.mode == Mode::Plans) {
            if (opts.calibrate) calibrateToPeaks(ctx, loadPeakCache(ctx));
            rc = runPlanList(ctx, opts);
        } else if (opts.mode == Mode::ShaderStats) {
            rc = runShaderStats(ctx, opts);
        } else {
            Peaks peaks;
            const bool measure = opts.mode == Mode::Peak || opts.peak;
            if (measure) {
                PeakReport rep = measurePeaks(ctx, opts.peakBarrierForms);
                printPeakReport(stdout, ctx, rep);
                savePeakCache(ctx, rep);
                peaks = rep.peaks;
                if (!rep.allOk) rc = 1;
            } else {
                peaks = loadPeakCache(ctx);
            }
            if (opts.mode != Mode::Peak) {
                if (opts.calibrate) calibrateToPeaks(ctx, peaks);
                if (measure) std::printf("\n");
                rc = std::max(rc, runBenchmark(ctx, opts, peaks));
            }
        }
        if (uint64_t v = ctx.validationMessages()) {
            std::printf("validation: %llu message(s) (see stderr)\n", (unsigned long long)v);
            rc = std::max(rc, 1);
        } else if (opts.validation) {
            std::printf("validation: no messages\n");
        }
        return rc;
    } catch (const vkconv::Error& e) {
        std::fprintf(stderr, "vkconv-bench: %s\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkconv-bench: unexpected error: %s\n", e.what());
        return 1;
    }
}
