// Table, summaries, JSON and CSV of the benchmark rows.
#include "report.hpp"

#include <unistd.h>

#include <cmath>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include "util/json.hpp"
#include "vkconv/error.hpp"
#include "vkconv/version.hpp"

namespace vkbench {

using vkconv::Json;

namespace {

// A measurement, or null where there is none.
Json measured(const std::optional<double>& v) { return v ? vkconv::jsonNumber(*v) : Json(nullptr); }

std::string fmtNum(double v) {
    char buf[32];
    if (v >= 1000)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else if (v >= 100)
        std::snprintf(buf, sizeof buf, "%.1f", v);
    else if (v >= 1)
        std::snprintf(buf, sizeof buf, "%.2f", v);
    else
        std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string checkText(const Row& r) {
    if (r.check.status == "skipped") return "-";
    char buf[96];
    if (r.check.maxRelErr)
        std::snprintf(buf, sizeof buf, "%s %lld pts err %.1e", r.check.status.c_str(), (long long)r.check.checked,
                      *r.check.maxRelErr);
    else
        std::snprintf(buf, sizeof buf, "%s %lld pts NaN/inf", r.check.status.c_str(), (long long)r.check.checked);
    return buf;
}

std::string csvNum(const std::optional<double>& v) {
    if (!v) return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", *v);
    return buf;
}

}  // namespace

std::string csvCell(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

void applyPeak(Row& row, const Peaks& peaks) {
    std::optional<double> peak;
    if (row.algo.find("coopmat") != std::string::npos) {
        peak = peaks.bestF16Coopmat();
        row.peakLabel = "fp16 coopmat";
    } else if (row.dtype == vkconv::DType::F32) {
        peak = peaks.fp32FmaTflops;
        row.peakLabel = "fp32 FMA";
    } else {
        peak = peaks.fp16FmaTflops;
        row.peakLabel = "fp16 FMA";
    }
    if (peak && *peak > 0 && row.tflops) row.pctPeak = 100.0 * *row.tflops / *peak;
}

void printTableHeader(std::FILE* f) {
    std::fprintf(f, "%-14s %-22s %4s %-5s %-4s %9s %10s %10s %10s %8s %6s  %-28s %s\n", "suite", "layer", "N", "dtype",
                 "lay", "GFLOP", "us", "us_min", "us_max", "TFLOP/s", "%peak", "check", "algorithm / config");
}

void printRow(std::FILE* f, const Row& r) {
    std::string lay(vkconv::toString(r.layout));
    if (!r.error.empty()) {
        std::fprintf(f, "%-14s %-22s %4lld %-5s %-4s %9.3f  ERROR %s: %s\n", r.shape.suite.c_str(),
                     r.shape.layer.c_str(), (long long)r.batch, std::string(vkconv::toString(r.dtype)).c_str(),
                     lay.c_str(), r.gflop, r.algo.c_str(), r.error.c_str());
        return;
    }
    char pct[16] = "-";
    if (r.pctPeak) std::snprintf(pct, sizeof pct, "%.1f%%", *r.pctPeak);
    std::fprintf(f, "%-14s %-22s %4lld %-5s %-4s %9.3f %10s %10s %10s %8s %6s  %-28s %s [%s]\n", r.shape.suite.c_str(),
                 r.shape.layer.c_str(), (long long)r.batch, std::string(vkconv::toString(r.dtype)).c_str(), lay.c_str(),
                 r.gflop, fmtNum(*r.us).c_str(), fmtNum(*r.usMin).c_str(), fmtNum(*r.usMax).c_str(),
                 fmtNum(*r.tflops).c_str(), pct, checkText(r).c_str(), r.algo.c_str(), r.config.c_str());
    if (!r.passes.empty()) {
        std::string line = "    passes (us):";
        double sum = 0;
        for (auto& [name, us] : r.passes) line += " " + name + " " + fmtNum(us) + ";", sum += us;
        std::fprintf(f, "%s sum %s\n", line.c_str(), fmtNum(sum).c_str());
    }
    if (!r.find.empty()) {
        std::fprintf(f, "    find (%s, %s ms; '*' the router's pick):\n",
                     r.findFromDatabase ? "from the database" : "timed", r.findMs ? fmtNum(*r.findMs).c_str() : "-");
        for (auto& c : r.find)
            std::fprintf(f, "      %s %10s  %s [%s]%s\n", c.router ? "*" : " ",
                         c.error.empty() ? fmtNum(c.us).c_str() : "-", c.algo.c_str(), c.config.c_str(),
                         c.error.empty() ? "" : (" " + c.error).c_str());
    }
    if (r.check.status == "fail" && !r.check.detail.empty())
        std::fprintf(f, "    check failed on %lld of %lld outputs; first: %s\n", (long long)r.check.bad,
                     (long long)r.check.checked, r.check.detail.c_str());
}

void printNote(std::FILE* f, const Shape& s, int64_t batch, const std::string& note) {
    std::fprintf(f, "%-14s %-22s %4lld  %s\n", s.suite.c_str(), s.layer.c_str(), (long long)batch, note.c_str());
}

void printSummary(std::FILE* f, const std::vector<Row>& rows) {
    struct Agg {
        int layers = 0, failed = 0;
        int64_t convs = 0;
        double us = 0, gflop = 0, logSum = 0;
    };
    bool zoo = false;
    for (auto& r : rows) zoo = zoo || r.shape.count != 1;
    // Key: suite, batch, dtype, layout, algorithm (the request for auto, else the one that ran).
    std::map<std::tuple<std::string, int64_t, int, int, std::string>, Agg> groups;
    std::vector<std::tuple<std::string, int64_t, int, int, std::string>> order;
    for (auto& r : rows) {
        std::string algo = r.algoRequest == "all" ? r.algo : r.algoRequest;
        auto key = std::make_tuple(r.shape.suite, r.batch, int(r.dtype), int(r.layout), algo);
        if (!groups.count(key)) order.push_back(key);
        Agg& a = groups[key];
        if (!r.error.empty() || !r.us) {
            ++a.failed;
            continue;
        }
        // A zoo row stands for `count` identical convolutions of its model.
        ++a.layers;
        a.convs += r.shape.count;
        a.us += double(r.shape.count) * *r.us;
        a.gflop += double(r.shape.count) * r.gflop;
        a.logSum += double(r.shape.count) * std::log(*r.tflops);
    }
    if (order.empty()) return;
    std::fprintf(f, "\n== Summary per suite (aggregate = sum of FLOPs / sum of times%s)\n",
                 zoo ? "; a zoo row counts as many times as its model has the layer" : "");
    std::fprintf(f, "%-14s %4s %-5s %-4s %-24s %6s %12s %10s %10s %8s\n", "suite", "N", "dtype", "lay", "algorithm",
                 "layers", "sum us", "GFLOP", "agg TF/s", "geo TF/s");
    for (auto& key : order) {
        const Agg& a = groups[key];
        auto& [suite, batch, dt, lay, algo] = key;
        std::string dts(vkconv::toString(vkconv::DType(dt))), lays(vkconv::toString(vkconv::TensorLayout(lay)));
        std::string layers = std::to_string(a.layers);
        if (a.failed) layers.append("+").append(std::to_string(a.failed)).append("err");
        if (a.layers == 0) {
            std::fprintf(f, "%-14s %4lld %-5s %-4s %-24s %6s %12s\n", suite.c_str(), (long long)batch, dts.c_str(),
                         lays.c_str(), algo.c_str(), layers.c_str(), "-");
            continue;
        }
        std::fprintf(f, "%-14s %4lld %-5s %-4s %-24s %6s %12s %10.3f %10s %8s\n", suite.c_str(), (long long)batch,
                     dts.c_str(), lays.c_str(), algo.c_str(), layers.c_str(), fmtNum(a.us).c_str(), a.gflop,
                     fmtNum(a.gflop * 1e3 / a.us).c_str(), fmtNum(std::exp(a.logSum / double(a.convs))).c_str());
    }
}

std::string isoUtcNow() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string hostName() {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
    return buf;
}

Json deviceRecord(const vkconv::DeviceCaps& c) {
    return {
        {"name", c.deviceName},
        {"vendor", c.vendorString()},
        {"vendor_id", c.vendorId},
        {"device_id", c.deviceId},
        {"driver",
         c.driverName + " " + c.driverVersionString() + (c.driverInfo.empty() ? "" : " (" + c.driverInfo + ")")},
        {"api_version", c.apiVersionString()},
        {"subgroup_sizes", {c.minSubgroupSize, c.maxSubgroupSize}},
        {"coopmat", c.cooperativeMatrix},
        {"amd_arch", c.amdArch == vkconv::AmdArch::None ? Json(nullptr) : Json(vkconv::toString(c.amdArch))},
        {"type", c.deviceTypeString()},
    };
}

Json libraryRecord() {
    return {
        {"name", "vkconv"},
        {"version", vkconv::versionString()},
        {"git", vkconv::gitRevision()},
        {"shader_compiler", vkconv::shaderCompiler()},
        {"framework", nullptr},
    };
}

Json peaksRecord(const Peaks& p) {
    Json j = Json::object();
    if (p.empty()) return j;
    j["fp32_fma_tflops"] = measured(p.fp32FmaTflops);
    j["fp16_fma_tflops"] = measured(p.fp16FmaTflops);
    Json cm = Json::object();
    for (auto& [name, v] : p.coopmatTflops) cm[name] = vkconv::jsonNumber(v);
    j["coopmat_tflops"] = std::move(cm);
    j["bandwidth_gbs"] = measured(p.bandwidthGbs);
    j["call_floor_us"] = measured(p.callFloorUs);
    j["cache_read_gbs"] = measured(p.cacheReadGbs);
    j["dispatch_us"] = measured(p.dispatchUs);
    j["slice_loop_tflops"] = measured(p.sliceLoopTflops);
    if (!p.sliceLoopProbe.empty()) j["slice_loop_probe"] = p.sliceLoopProbe;
    return j;
}

void writeTextFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out || !(out << text) || !out.flush()) throw vkconv::Error(vkconv::ErrorCode::Io, "cannot write " + path);
}

Json shapeJson(const Shape& s, int64_t n) {
    Json j = {{"suite", s.suite},
              {"layer", s.layer},
              {"n", n},
              {"c", s.c},
              {"h", s.h},
              {"w", s.w},
              {"k", s.k},
              {"r", s.r},
              {"s", s.s},
              {"pad_h", s.padH},
              {"pad_w", s.padW},
              {"stride_h", s.strideH},
              {"stride_w", s.strideW},
              {"dil_h", s.dilH},
              {"dil_w", s.dilW},
              {"groups", s.groups}};
    if (s.transposed) {
        j["transposed"] = true;
        j["output_pad_h"] = s.outPadH;
        j["output_pad_w"] = s.outPadW;
    }
    return j;
}

void writeJsonFile(const std::string& path, const Json& doc) { writeTextFile(path, vkconv::dumpJson(doc) + "\n"); }

void writeJsonReport(const std::string& path, const RunInfo& info, const std::vector<Row>& rows) {
    Json out = {
        {"schema", "vkconv-bench/1"},
        {"tool", "vkconv-bench"},
        {"created", isoUtcNow()},
        {"host", hostName()},
        {"device", deviceRecord(*info.caps)},
        {"library", libraryRecord()},
        {"protocol",
         {
             {"warmup", info.opts->warmup},
             {"warmup_ms", info.opts->warmupMs},
             {"batch", info.opts->calls},
             {"repeats", info.opts->repeats},
             {"statistic", "median"},
             {"timer", info.timer},
             {"packed_filters", info.opts->packedFilters},  // constant weights packed once (--packed-filters)
             {"find", info.opts->find},  // each row's plan measured fastest by findAlgorithms (--find)
         }},
        {"peaks", peaksRecord(*info.peaks)},
    };
    if (info.opts->zoo) {
        // Which slice of the zoo this file holds: report.py merges the parts of one run.
        std::set<std::string> models;
        for (auto& r : rows) models.insert(r.shape.suite);
        out["zoo"] = {{"models", models.size()}, {"part", info.opts->zooPart}, {"parts", info.opts->zooParts}};
    }
    Json& jrows = out["rows"] = Json::array();
    for (auto& r : rows) {
        const Shape& s = r.shape;
        Json j = shapeJson(s, r.batch);
        if (info.opts->zoo) j["count"] = s.count;  // the model's convolutions of this shape
        j.update(Json{
            {"batch", r.batch},
            {"dtype", vkconv::toString(r.dtype)},
            {"layout", vkconv::toString(r.layout)},
            {"pass", vkconv::toString(r.pass)},
            {"algo", r.algo},
            {"config", r.config},
            {"chosen_by", r.chosenBy},
            {"reason", r.reason},
            {"epilogue", r.epilogue},
            {"us", measured(r.us)},
            {"us_min", measured(r.usMin)},
            {"us_max", measured(r.usMax)},
            {"gflop", vkconv::jsonNumber(r.gflop)},
            {"tflops", measured(r.tflops)},
            {"pct_peak", measured(r.pctPeak)},
            {"check", r.check.status},
            {"max_rel_err", measured(r.check.maxRelErr)},
            {"checked_outputs", r.check.status == "skipped" ? Json(nullptr) : Json(r.check.checked)},
        });
        if (!r.passes.empty()) {
            Json& passes = j["passes"] = Json::array();
            for (auto& [name, us] : r.passes) passes.push_back({{"shader", name}, {"us", vkconv::jsonNumber(us)}});
        }
        if (!r.find.empty()) {
            Json candidates = Json::array();
            for (auto& c : r.find) {
                Json cj = {{"algo", c.algo},
                           {"config", c.config},
                           {"router", c.router},
                           {"us", c.error.empty() ? vkconv::jsonNumber(c.us) : Json(nullptr)}};
                if (!c.error.empty()) cj["error"] = c.error;
                candidates.push_back(std::move(cj));
            }
            j["find"] = {{"from_database", r.findFromDatabase},
                         {"wall_ms", measured(r.findMs)},
                         {"candidates", std::move(candidates)}};
        }
        if (!r.error.empty()) j["error"] = r.error;
        jrows.push_back(std::move(j));
    }
    writeJsonFile(path, out);
}

void writeCsvReport(const std::string& path, const std::vector<Row>& rows) {
    std::string out =
        "suite,layer,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups,batch,dtype,layout,algo,config,"
        "epilogue,"
        "us,us_min,us_max,gflop,tflops,pct_peak,check,max_rel_err,checked_outputs,error,pass,transposed,output_pad_h,"
        "output_pad_w\n";
    for (auto& r : rows) {
        const Shape& s = r.shape;
        std::string line = csvCell(s.suite) + "," + csvCell(s.layer);
        for (int64_t v : {r.batch, s.c, s.h, s.w, s.k, s.r, s.s, s.padH, s.padW, s.strideH, s.strideW, s.dilH, s.dilW,
                          s.groups, r.batch})
            line.append(",").append(std::to_string(v));
        line += "," + std::string(vkconv::toString(r.dtype)) + "," + std::string(vkconv::toString(r.layout));
        line += "," + csvCell(r.algo) + "," + csvCell(r.config) + "," + csvCell(r.epilogue);
        line += "," + csvNum(r.us) + "," + csvNum(r.usMin) + "," + csvNum(r.usMax) + "," + csvNum(r.gflop) + "," +
                csvNum(r.tflops);
        line += "," + csvNum(r.pctPeak) + "," + r.check.status + "," + csvNum(r.check.maxRelErr) + ",";
        if (r.check.status != "skipped") line += std::to_string(r.check.checked);
        line += "," + csvCell(r.error) + "," + std::string(vkconv::toString(r.pass)) + "," +
                std::to_string(int(s.transposed)) + "," + std::to_string(s.outPadH) + "," + std::to_string(s.outPadW) +
                "\n";
        out += line;
    }
    writeTextFile(path, out);
}

}  // namespace vkbench
