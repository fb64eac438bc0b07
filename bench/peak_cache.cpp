// Printing the peak probe and caching it per device next to the pipeline cache.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/json_read.hpp"
#include "peak.hpp"
#include "report.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/pipeline_cache.hpp"
#include "util/json_writer.hpp"

namespace vkbench {

namespace fs = std::filesystem;
using vkconv::JsonValue;
using vkconv::parseJson;

void printPeakReport(std::FILE* f, const vkconv::Context& ctx, const PeakReport& r) {
    const auto& c = ctx.caps();
    bool ts = c.timestamps && c.timestampPeriod > 0;
    std::fprintf(f, "== Peak probe: %s (%s; median of 7 intervals after warm-up)\n", c.deviceName.c_str(),
                 ts ? "GPU timestamps" : "host timing: this queue has no timestamps");
    for (auto& p : r.probes) {
        if (!p.skipped.empty()) {
            std::fprintf(f, "  %-46s : not measured (%s)\n", p.name.c_str(), p.skipped.c_str());
        } else if (p.value <= 0) {
            std::fprintf(f, "  %-46s : FAILED %s\n", p.name.c_str(), p.checkMsg.c_str());
        } else {
            std::fprintf(f, "  %-46s : %10.3f %-7s (best %.3f; %s)  check %s\n", p.name.c_str(), p.value, p.unit.c_str(), p.best,
                         p.detail.c_str(), p.checkOk ? "ok" : ("FAILED: " + p.checkMsg).c_str());
        }
    }
    if (!r.allOk) std::fprintf(f, "  some probes failed their check: their numbers are not used as peaks\n");
}

std::string peakCachePath(const vkconv::Context& ctx) {
    const auto& impl = ctx.impl();
    if (!impl.pipelineCache || impl.pipelineCache->path().empty()) return {};
    const auto& c = ctx.caps();
    std::string drv = c.driverVersionString();
    for (char& ch : drv)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.') ch = '_';
    char name[128];
    std::snprintf(name, sizeof name, "peaks-%04x-%04x-%s.json", c.vendorId, c.deviceId, drv.c_str());
    return (fs::path(impl.pipelineCache->path()).parent_path() / name).string();
}

void savePeakCache(const vkconv::Context& ctx, const PeakReport& r) {
    std::string path = peakCachePath(ctx);
    if (path.empty()) {
        std::fprintf(stderr, "vkconv-bench: the cache directory is disabled (VKCONV_CACHE_DIR=none); peaks not cached\n");
        return;
    }
    vkconv::JsonWriter j;
    j.beginObject();
    j.field("schema", "vkconv-peaks/1").field("created", isoUtcNow()).field("host", hostName());
    j.key("device");
    writeDeviceRecord(j, ctx.caps());
    j.field("driver_version", ctx.caps().driverVersionString());
    j.key("library");
    writeLibraryRecord(j);
    j.key("peaks");
    writePeaksRecord(j, r.peaks);
    j.key("probes").beginArray();
    for (auto& p : r.probes) {
        j.beginObject().field("name", p.name).field("unit", p.unit);
        if (!p.skipped.empty()) {
            j.field("skipped", p.skipped);
        } else {
            j.field("median", p.value).field("best", p.best).field("detail", p.detail);
            j.field("check", p.checkOk ? std::string("ok") : p.checkMsg);
        }
        j.endObject();
    }
    j.endArray().endObject();
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    std::string tmp = path + ".tmp";
    try {
        writeTextFile(tmp, j.str() + "\n");
        fs::rename(tmp, path, ec);
        if (ec) throw std::runtime_error(ec.message());
        std::fprintf(stderr, "vkconv-bench: peaks cached in %s\n", path.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkconv-bench: could not write the peak cache %s: %s\n", path.c_str(), e.what());
    }
}

Peaks loadPeakCache(const vkconv::Context& ctx) {
    Peaks p;
    std::string path = peakCachePath(ctx);
    if (path.empty()) return p;
    std::ifstream in(path);
    if (!in) return p;
    std::stringstream ss;
    ss << in.rdbuf();
    std::string err;
    auto doc = parseJson(ss.str(), &err);
    const JsonValue* peaks = doc ? doc->get("peaks") : nullptr;
    const JsonValue* dev = doc ? doc->get("device") : nullptr;
    if (!peaks || !dev || dev->num("vendor_id") != double(ctx.caps().vendorId) || dev->num("device_id") != double(ctx.caps().deviceId)) {
        std::fprintf(stderr, "vkconv-bench: ignoring unreadable peak cache %s%s%s\n", path.c_str(), err.empty() ? "" : ": ", err.c_str());
        return p;
    }
    if (auto v = peaks->num("fp32_fma_tflops")) p.fp32FmaTflops = *v;
    if (auto v = peaks->num("fp16_fma_tflops")) p.fp16FmaTflops = *v;
    if (auto v = peaks->num("bandwidth_gbs")) p.bandwidthGbs = *v;
    if (auto v = peaks->num("call_floor_us")) p.callFloorUs = *v;
    if (auto v = peaks->num("cache_read_gbs")) p.cacheReadGbs = *v;
    if (auto v = peaks->num("dispatch_us")) p.dispatchUs = *v;
    if (auto v = peaks->num("slice_loop_tflops")) p.sliceLoopTflops = *v;
    if (const JsonValue* n = peaks->get("slice_loop_probe"); n && n->type == JsonValue::Type::String) p.sliceLoopProbe = n->string;
    if (const JsonValue* cm = peaks->get("coopmat_tflops"))
        for (auto& [name, v] : cm->object)
            if (v.type == JsonValue::Type::Number) p.coopmatTflops[name] = v.number;
    p.source = path;
    return p;
}

}  // namespace vkbench
