// vkconv-bench peak: what this device can do at best, per arithmetic path, measured with the probes in
// shaders/peak/ (FMA chains, cooperative-matrix mulAdds in registers, a vec4 copy).  Every probe
// checks its result against an exact analytic value, so skipped work cannot pass.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "vkconv/context.hpp"

namespace vkbench {

struct ProbeResult {
    std::string name;     // "fp32 FMA (vec4)", "coopmat 16x16x16 f16*f16+f32->f32 subgroup", "shader copy (vec4)"
    std::string unit;     // TFLOP/s, TOP/s, GB/s
    std::string skipped;  // non-empty: not measured, and why
    double value = 0;     // median over the timed intervals
    double best = 0;
    std::string detail;  // grid, loop count, dispatch time
    bool checkOk = false;
    std::string checkMsg;  // "ok" or the first mismatch
};

struct PeakReport {
    std::vector<ProbeResult> probes;
    Peaks peaks;        // the checked measurements
    bool allOk = true;  // every measured probe passed its check
};

// Runs every probe the device supports; prints progress on stderr.  barrierForms: the call floor
// behind each other barrier form too (peak --barrier-forms).
PeakReport measurePeaks(vkconv::Context& ctx, bool barrierForms = false);
void printPeakReport(std::FILE* f, const vkconv::Context& ctx, const PeakReport& r);

// Builds every probe pipeline this device can run (for the compile lab).  Returns a line for each
// probe not built: (what and why, true when the build itself failed rather than being skipped).
std::vector<std::pair<std::string, bool>> buildPeakPipelines(vkconv::Context& ctx);

// The per-device cache in the pipeline-cache directory: peaks-<vendor>-<device>-<driver>.json.
std::string peakCachePath(const vkconv::Context& ctx);                // "" when the disk cache is disabled
void savePeakCache(const vkconv::Context& ctx, const PeakReport& r);  // notes problems on stderr
Peaks loadPeakCache(const vkconv::Context& ctx);  // empty Peaks when there is none (or it is unreadable)

// --calibrate: the routers' device model calibrated to `peaks` (Context::calibrate), said on stderr.
void calibrateToPeaks(vkconv::Context& ctx, const Peaks& peaks);

}  // namespace vkbench
