// Printing the peak probe and caching it per device next to the pipeline cache.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "util/file_read.hpp"
#include "peak.hpp"
#include "runtime/context_access.hpp"
#include "runtime/context_impl.hpp"
#include "report.hpp"
#include "runtime/context_access.hpp"
#include "runtime/pipeline_cache.hpp"
#include "util/json.hpp"

namespace vkbench {

namespace fs = std::filesystem;
using vkconv::Json;
using vkconv::JsonDoc;

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
            std::fprintf(f, "  %-46s : %10.3f %-7s (best %.3f; %s)  check %s\n", p.name.c_str(), p.value,
                         p.unit.c_str(), p.best, p.detail.c_str(),
                         p.checkOk ? "ok" : ("FAILED: " + p.checkMsg).c_str());
        }
    }
    if (!r.allOk) std::fprintf(f, "  some probes failed their check: their numbers are not used as peaks\n");
}

std::string peakCachePath(const vkconv::Context& ctx) {
    const auto& impl = vkconv::implOf(ctx);
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
        std::fprintf(stderr,
                     "vkconv-bench: the cache directory is disabled (VKCONV_CACHE_DIR=none); peaks not cached\n");
        return;
    }
    Json probes = Json::array();
    for (auto& p : r.probes) {
        Json j = {{"name", p.name}, {"unit", p.unit}};
        if (!p.skipped.empty()) {
            j["skipped"] = p.skipped;
        } else {
            j["median"] = vkconv::jsonNumber(p.value);
            j["best"] = vkconv::jsonNumber(p.best);
            j["detail"] = p.detail;
            j["check"] = p.checkOk ? std::string("ok") : p.checkMsg;
        }
        probes.push_back(std::move(j));
    }
    const Json doc = {
        {"schema", "vkconv-peaks/1"},
        {"created", isoUtcNow()},
        {"host", hostName()},
        {"device", deviceRecord(ctx.caps())},
        {"driver_version", ctx.caps().driverVersionString()},
        {"library", libraryRecord()},
        {"peaks", peaksRecord(r.peaks)},
        {"probes", std::move(probes)},
    };
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    std::string tmp = path + ".tmp";
    try {
        writeJsonFile(tmp, doc);
        fs::rename(tmp, path, ec);
        if (ec) throw std::runtime_error(ec.message());
        std::fprintf(stderr, "vkconv-bench: peaks cached in %s\n", path.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkconv-bench: could not write the peak cache %s: %s\n", path.c_str(), e.what());
    }
}

namespace {

// Reads the peaks of a cache file's text for the device with these ids; throws
// std::runtime_error naming what is wrong (the file is anyone's to edit, or half-written).
Peaks readPeakCache(const std::string& text, uint32_t vendorId, uint32_t deviceId) {
    std::string err;
    auto doc = vkconv::parseJson(text, &err);
    if (!doc) throw std::runtime_error("not JSON: " + err);
    auto fail = [](const std::string& what) { throw std::runtime_error(what); };
    if (!doc->is_object()) fail("not a JSON object");
    auto member = [&](const JsonDoc& o, const char* key) -> const JsonDoc* {
        auto it = o.find(key);
        return it == o.end() ? nullptr : &*it;
    };
    const JsonDoc* dev = member(*doc, "device");
    if (!dev || !dev->is_object()) fail("field 'device' is missing or not an object");
    for (auto [key, want] : {std::pair<const char*, uint32_t>{"vendor_id", vendorId}, {"device_id", deviceId}}) {
        const JsonDoc* id = member(*dev, key);
        if (!id || !id->is_number_unsigned())
            fail(std::string("field 'device.") + key + "' is missing or not an unsigned integer");
        if (id->get<uint64_t>() != want) fail(std::string("field 'device.") + key + "' names another device");
    }
    const JsonDoc* peaks = member(*doc, "peaks");
    if (!peaks || !peaks->is_object()) fail("field 'peaks' is missing or not an object");
    // A peak is a finite number >= 0; null (or absent) where it was not measured.
    auto peak = [&](const JsonDoc& v, const std::string& name) -> std::optional<double> {
        if (v.is_null()) return std::nullopt;
        if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>()))
            fail("field 'peaks." + name + "' is not a number >= 0");
        return v.get<double>();
    };
    Peaks p;
    std::pair<const char*, std::optional<double>*> fields[] = {
        {"fp32_fma_tflops", &p.fp32FmaTflops},    {"fp16_fma_tflops", &p.fp16FmaTflops},
        {"bandwidth_gbs", &p.bandwidthGbs},       {"call_floor_us", &p.callFloorUs},
        {"cache_read_gbs", &p.cacheReadGbs},      {"dispatch_us", &p.dispatchUs},
        {"slice_loop_tflops", &p.sliceLoopTflops}};
    for (auto& [key, out] : fields)
        if (const JsonDoc* v = member(*peaks, key)) *out = peak(*v, key);
    if (const JsonDoc* n = member(*peaks, "slice_loop_probe")) {
        if (!n->is_string()) fail("field 'peaks.slice_loop_probe' is not a string");
        p.sliceLoopProbe = n->get<std::string>();
    }
    if (const JsonDoc* cm = member(*peaks, "coopmat_tflops"); cm && !cm->is_null()) {
        if (!cm->is_object()) fail("field 'peaks.coopmat_tflops' is not an object");
        for (auto& [name, v] : cm->items()) {
            if (v.is_null())
                fail("field 'peaks.coopmat_tflops." + name + "' is null");  // only measured ones are listed
            p.coopmatTflops[name] = *peak(v, "coopmat_tflops." + name);
        }
    }
    return p;
}

}  // namespace

void calibrateToPeaks(vkconv::Context& ctx, const Peaks& peaks) {
    if (peaks.empty()) {
        std::fprintf(stderr,
                     "vkconv-bench: --calibrate: no peaks for this device (--peak measures them); the "
                     "default device model plans\n");
        return;
    }
    vkconv::MeasuredPeaks m;
    m.fp32FmaTflops = peaks.fp32FmaTflops;
    m.sliceLoopTflops = peaks.sliceLoopTflops;
    m.copyGbs = peaks.bandwidthGbs;
    m.cacheReadGbs = peaks.cacheReadGbs;
    m.callFloorUs = peaks.callFloorUs;
    ctx.calibrate(m);
    std::fprintf(stderr, "vkconv-bench: device model calibrated from %s: %s\n", peaks.source.c_str(),
                 vkconv::implOf(ctx).model.source.c_str());
}

Peaks loadPeakCache(const vkconv::Context& ctx) {
    std::string path = peakCachePath(ctx);
    if (path.empty()) return {};
    const vkconv::FileRead file = vkconv::readRegularFile(path, uint64_t(1) << 24);
    if (!file.bytes) {
        if (!file.missing)
            std::fprintf(stderr,
                         "vkconv-bench: ignoring the peak cache %s: %s (--peak measures and caches the peaks again)\n",
                         path.c_str(), file.why.c_str());
        return {};
    }
    try {
        Peaks p = readPeakCache(*file.bytes, ctx.caps().vendorId, ctx.caps().deviceId);
        p.source = path;
        return p;
    } catch (const std::exception& e) {
        std::fprintf(stderr,
                     "vkconv-bench: ignoring the peak cache %s: %s (--peak measures and caches the peaks again)\n",
                     path.c_str(), e.what());
        return {};
    }
}

}  // namespace vkbench
