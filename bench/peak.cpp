// The peak probes.  Each: build the pipeline, calibrate the loop count (and dispatches per timed
// interval) to about kTargetMs per interval, warm up, time 7 intervals with GPU timestamps in one
// command buffer, take the median, then check the output against its exact analytic value.
#include "peak.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <functional>

#include "conv/dispatch.hpp"
#include "runtime/context_access.hpp"
#include "runtime/gpu_timer.hpp"
#include "runtime/pipeline.hpp"
#include "runtime/shader_registry.hpp"
#include "vkconv/buffer.hpp"
#include "vkconv/error.hpp"

namespace vkbench {

using vkconv::Buffer;
using vkconv::ComputePipeline;
using vkconv::PipelineKey;

namespace {

constexpr int kIntervals = 7;
constexpr double kTargetMs = 20.0;

using Recorder = std::function<void(VkCommandBuffer, uint32_t iters)>;

class Prober {
public:
    explicit Prober(vkconv::Context& ctx)
        : ctx_(ctx), impl_(vkconv::implOf(ctx)), cpu_(ctx.caps().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {}

    bool cpu() const { return cpu_; }
    vkconv::Context& ctx() { return ctx_; }

    const ComputePipeline& pipeline(const std::string& shader, std::vector<vkconv::SpecConstant> spec, uint32_t pcBytes,
                                    uint32_t bindings, uint32_t subgroup = 0) {
        PipelineKey key;
        key.shader = shader;
        key.spec = std::move(spec);
        key.pushConstantBytes = pcBytes;
        key.bindings = bindings;
        key.requiredSubgroupSize = subgroup;
        key.fullSubgroups = subgroup != 0;
        return impl_.pipelines->get(key);
    }

    void bind(VkCommandBuffer cmd, const ComputePipeline& p, std::initializer_list<const Buffer*> bufs, const void* pc,
              uint32_t pcBytes) {
        VkDescriptorBufferInfo infos[4];
        VkWriteDescriptorSet writes[4];
        uint32_t n = 0;
        for (const Buffer* b : bufs) {
            infos[n] = {b->handle(), 0, b->size()};
            writes[n] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            writes[n].dstBinding = n;
            writes[n].descriptorCount = 1;
            writes[n].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            writes[n].pBufferInfo = &infos[n];
            ++n;
        }
        impl_.dt.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
        impl_.dt.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, n, writes);
        if (pcBytes) impl_.dt.vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pcBytes, pc);
    }

    // Workgroups as a 2-D grid (x at most 1024) so every device's maxWorkgroupCount[0] is respected.
    void dispatch(VkCommandBuffer cmd, uint32_t groups) {
        uint32_t x = std::min<uint32_t>(groups, 1024u), y = (groups + x - 1) / x;
        impl_.dt.vkCmdDispatch(cmd, x, y, 1);
    }
    static uint32_t launchedGroups(uint32_t groups) {
        uint32_t x = std::min<uint32_t>(groups, 1024u);
        return x * ((groups + x - 1) / x);
    }

    // Per-dispatch nanoseconds of `perInterval` back-to-back dispatches, for each of `intervals`.
    std::vector<double> time(const Recorder& rec, uint32_t iters, int perInterval, int intervals, int warmup) {
        std::vector<double> out;
        if (impl_.caps.timestamps && impl_.caps.timestampPeriod > 0) {
            vkconv::GpuTimer timer(impl_, uint32_t(intervals));
            ctx_.submitAndWait([&](VkCommandBuffer cmd) {
                timer.reset(cmd);
                for (int i = 0; i < warmup; ++i) rec(cmd, iters);
                for (int t = 0; t < intervals; ++t) {
                    timer.begin(cmd, uint32_t(t));
                    for (int i = 0; i < perInterval; ++i) rec(cmd, iters);
                    timer.end(cmd, uint32_t(t));
                }
            });
            for (double ns : timer.intervalsNs(uint32_t(intervals))) out.push_back(ns / perInterval);
        } else {
            if (warmup)
                ctx_.submitAndWait([&](VkCommandBuffer cmd) {
                    for (int i = 0; i < warmup; ++i) rec(cmd, iters);
                });
            for (int t = 0; t < intervals; ++t) {
                auto t0 = std::chrono::steady_clock::now();
                ctx_.submitAndWait([&](VkCommandBuffer cmd) {
                    for (int i = 0; i < perInterval; ++i) rec(cmd, iters);
                });
                out.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
                              perInterval);
            }
        }
        return out;
    }

    struct Calibrated {
        uint32_t iters;
        int perInterval;
        std::vector<double> ns;  // per dispatch, one per interval
    };

    // Picks the loop count (<= maxIters) for ~kTargetMs per dispatch, then enough dispatches per
    // interval to reach kTargetMs when the loop count is capped, and times kIntervals intervals.
    Calibrated calibrateAndTime(const Recorder& rec, uint32_t probeIters, uint32_t maxIters) {
        Calibrated c;
        c.iters = std::min(probeIters, maxIters);
        double ns = median(time(rec, c.iters, 1, 1, 1));
        if (ns > 0 && maxIters > c.iters) {
            double scale = kTargetMs * 1e6 / ns;
            c.iters = uint32_t(std::clamp(std::floor(double(c.iters) * scale), 1.0, double(maxIters)));
            ns = median(time(rec, c.iters, 1, 1, 1));
        }
        c.perInterval = ns > 0 ? int(std::clamp(std::round(kTargetMs * 1e6 / ns), 1.0, 1000.0)) : 1;
        c.ns = time(rec, c.iters, c.perInterval, kIntervals, 2);
        return c;
    }

    void fill(Buffer& b, VkDeviceSize offset, VkDeviceSize bytes, uint32_t word) {
        ctx_.submitAndWait(
            [&](VkCommandBuffer cmd) { impl_.dt.vkCmdFillBuffer(cmd, b.handle(), offset, bytes, word); });
    }

private:
    vkconv::Context& ctx_;
    vkconv::ContextImpl& impl_;
    bool cpu_;
};

void finish(ProbeResult& r, const Prober::Calibrated& c, double workPerDispatch, double unitScale) {
    double med = median(c.ns), best = *std::min_element(c.ns.begin(), c.ns.end());
    r.value = workPerDispatch / (med * 1e-9) / unitScale;
    r.best = workPerDispatch / (best * 1e-9) / unitScale;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%d x %.3f ms dispatches", c.perInterval, med / 1e6);
    r.detail = std::string(buf) + (r.detail.empty() ? "" : ", " + r.detail);
}

ProbeResult fmaProbe(Prober& p, bool f16) {
    ProbeResult r;
    r.name = f16 ? "fp16 FMA (f16vec4)" : "fp32 FMA (vec4)";
    r.unit = "TFLOP/s";
    const auto& caps = p.ctx().caps();
    if (f16 && !caps.shaderFloat16) {
        r.skipped = "the device lacks shaderFloat16";
        return r;
    }
    const uint32_t groups = p.cpu() ? 256 : 65536;  // x 256 invocations
    const uint32_t invocations = Prober::launchedGroups(groups) * 256;
    Buffer out = Buffer::create(p.ctx(), VkDeviceSize(invocations) * 4);
    p.fill(out, 0, VK_WHOLE_SIZE, 0);
    const auto& pipe = p.pipeline(f16 ? "peak_fma_f16" : "peak_fma_f32", {}, 12, 1);
    Recorder rec = [&](VkCommandBuffer cmd, uint32_t iters) {
        struct {
            uint32_t iters;
            float a, b;
        } pc{iters, 1.0f, 1.0f};
        p.bind(cmd, pipe, {&out}, &pc, sizeof pc);
        p.dispatch(cmd, groups);
    };
    // fp16 chains stay exact while 16 * iters + 7 <= 2048.
    auto c = p.calibrateAndTime(rec, 4, f16 ? 127 : 1024);
    const double fmasPerInvocation = 512.0 * c.iters;  // 8 x 4-wide chains x 16 steps per loop
    char buf[96];
    std::snprintf(buf, sizeof buf, "%u inv x %u loops x 512 FMA", invocations, c.iters);
    r.detail = buf;
    finish(r, c, 2.0 * fmasPerInvocation * invocations, 1e12);

    std::vector<float> v(invocations);
    out.download(v.data(), v.size() * 4);
    const float want = 112.0f + 512.0f * float(c.iters);  // components start at 0..7 (sum 112)
    r.checkOk = true;
    r.checkMsg = "ok";
    for (uint32_t i = 0; i < invocations; ++i)
        if (v[i] != want) {
            r.checkOk = false;
            std::snprintf(buf, sizeof buf, "invocation %u: %.9g, expected %.9g", i, double(v[i]), double(want));
            r.checkMsg = buf;
            break;
        }
    return r;
}

const char* componentName(uint32_t t) {  // a VkComponentTypeKHR value
    if (t == VK_COMPONENT_TYPE_BFLOAT16_KHR) return "bf16";
    switch (t) {
        case VK_COMPONENT_TYPE_FLOAT16_KHR: return "f16";
        case VK_COMPONENT_TYPE_FLOAT32_KHR: return "f32";
        case VK_COMPONENT_TYPE_SINT8_KHR: return "s8";
        case VK_COMPONENT_TYPE_UINT8_KHR: return "u8";
        case VK_COMPONENT_TYPE_SINT32_KHR: return "s32";
        case VK_COMPONENT_TYPE_UINT32_KHR: return "u32";
        default: return "other";
    }
}

bool isInt8(uint32_t t) { return t == VK_COMPONENT_TYPE_SINT8_KHR || t == VK_COMPONENT_TYPE_UINT8_KHR; }

std::string coopmatShader(const vkconv::CoopMatConfig& cm) {
    return std::string("peak_cm_") + componentName(cm.a) + "_" + componentName(cm.b) + "_" + componentName(cm.c);
}

// Why the probe does not run this configuration ("" when it does).
std::string coopmatWhyNot(const vkconv::DeviceCaps& caps, const vkconv::CoopMatConfig& cm) {
    const bool intMath = isInt8(cm.a);
    if (cm.scope != VK_SCOPE_SUBGROUP_KHR) return "not subgroup scope";
    if (cm.saturatingAccumulation) return "saturating accumulation is not probed";
    if (cm.c != cm.result) return "C and result types differ";
    if (isInt8(cm.a) != isInt8(cm.b)) return "mixed float/integer inputs";
    if (!vkconv::shaders::find(coopmatShader(cm)))
        return "no probe for these types in this build (" + coopmatShader(cm) + ")";
    if (cm.a == VK_COMPONENT_TYPE_BFLOAT16_KHR && !caps.bfloat16CooperativeMatrix)
        return "bfloat16 coopmat not enabled";
    if (intMath && !(caps.shaderInt8 && caps.storageBuffer8BitAccess)) return "needs int8 arithmetic and 8-bit storage";
    if (!intMath && !caps.storageBuffer16BitAccess) return "needs 16-bit storage";
    return "";
}

// 4 subgroups per workgroup, the device's default subgroup size required where it can be.
const ComputePipeline& coopmatPipeline(Prober& p, const vkconv::CoopMatConfig& cm) {
    const auto& caps = p.ctx().caps();
    return p.pipeline(coopmatShader(cm), {{0, 4 * caps.subgroupSize}, {1, cm.m}, {2, cm.n}, {3, cm.k}}, 4, 3,
                      caps.subgroupSizeControl ? caps.subgroupSize : 0);
}

ProbeResult coopmatProbe(Prober& p, const vkconv::CoopMatConfig& cm) {
    ProbeResult r;
    r.name = "coopmat " + cm.toString();
    const auto& caps = p.ctx().caps();
    const bool intMath = isInt8(cm.a);
    r.unit = intMath ? "TOP/s" : "TFLOP/s";
    r.skipped = coopmatWhyNot(caps, cm);
    if (!r.skipped.empty()) return r;

    const uint32_t sgSize = caps.subgroupSize;
    const uint64_t tile = uint64_t(cm.m) * cm.n;
    uint32_t subgroups = p.cpu() ? 1024 : 131072;
    subgroups = uint32_t(std::min<uint64_t>(subgroups, caps.maxStorageBufferRange / (tile * 4)) / 4 * 4);
    const uint32_t groups = subgroups / 4;
    const uint32_t launched = Prober::launchedGroups(groups) * 4;
    const auto& pipe = coopmatPipeline(p, cm);

    // A: 2 matrices M x K with one 1 per row (k == m % K); B: 4 matrices K x N of ones.
    const uint32_t elemBytes = intMath ? 1 : 2;
    const uint16_t one16 = cm.a == VK_COMPONENT_TYPE_FLOAT16_KHR ? 0x3C00 : 0x3F80;
    std::vector<uint8_t> a(2ull * cm.m * cm.k * elemBytes, 0), b(4ull * cm.k * cm.n * elemBytes, 0);
    auto put = [&](std::vector<uint8_t>& v, size_t i) {
        if (intMath)
            v[i] = 1;
        else
            std::memcpy(&v[i * 2], &one16, 2);
    };
    for (uint32_t mat = 0; mat < 2; ++mat)
        for (uint32_t m = 0; m < cm.m; ++m) put(a, (size_t(mat) * cm.m + m) * cm.k + m % cm.k);
    for (size_t i = 0; i < size_t(4) * cm.k * cm.n; ++i) put(b, i);
    Buffer aBuf = Buffer::create(p.ctx(), a.size()), bBuf = Buffer::create(p.ctx(), b.size());
    aBuf.upload(a.data(), a.size());
    bBuf.upload(b.data(), b.size());
    Buffer out = Buffer::create(p.ctx(), VkDeviceSize(launched) * tile * 4);
    p.fill(out, 0, VK_WHOLE_SIZE, 0xFFFFFFFFu);

    Recorder rec = [&](VkCommandBuffer cmd, uint32_t iters) {
        p.bind(cmd, pipe, {&aBuf, &bBuf, &out}, &iters, 4);
        p.dispatch(cmd, groups);
    };
    // f16 accumulators count exactly up to 2048.
    auto c = p.calibrateAndTime(rec, 16, 2040);
    char buf[128];
    std::snprintf(buf, sizeof buf, "%u subgroups of %u x %u loops x 8 mulAdds", launched, sgSize, c.iters);
    r.detail = buf;
    finish(r, c, 2.0 * cm.m * cm.n * cm.k * 8.0 * c.iters * launched, 1e12);

    std::vector<uint32_t> v(size_t(launched) * tile);
    out.download(v.data(), v.size() * 4);
    uint32_t want = 8u * c.iters;
    float wantF = float(want);
    r.checkOk = true;
    r.checkMsg = "ok";
    for (size_t i = 0; i < v.size(); ++i) {
        float f;
        std::memcpy(&f, &v[i], 4);
        bool ok = intMath ? v[i] == want : f == wantF;
        if (!ok) {
            r.checkOk = false;
            std::snprintf(buf, sizeof buf, "subgroup %zu element %zu: %.9g, expected %u", size_t(i / tile),
                          size_t(i % tile), intMath ? double(v[i]) : double(f), want);
            r.checkMsg = buf;
            break;
        }
    }
    return r;
}

// The matrix kernels' slice loop without global loads (peak/coopmat_smem.comp): every A and B
// fragment loaded from shared memory, as implicit_gemm_coopmat's subgroups do, and per mode one
// more part of a real slice (a barrier, restaging, ...).  Each shape mirrors a routed tile's
// subgroup layout and slice depth, so that tile's measured rate can be read against what its
// structure could reach (docs/performance.md, "implicit_gemm_coopmat").
struct SmemShape {
    const char* tile;  // the implicit_gemm_coopmat tile it mirrors
    uint32_t warpsM, warpsN, fm, fn, ks;
};
constexpr SmemShape kSmemShapes[] = {
    {"128x256x32/2x4s1", 2, 4, 4, 4, 2},
    {"192x128x64/4x4s1", 4, 4, 3, 2, 4},
    {"128x128x64/2x4s1", 2, 4, 4, 2, 4},
    {"128x128x32/2x4", 2, 4, 4, 2, 2},
    {"64x64x64/2x2", 2, 2, 2, 2, 4},
    // Four subgroups of 64x64 / 64x32: small enough for a region per subgroup (SmemMode::Private).
    {"128x128x32/2x2", 2, 2, 4, 4, 2},
    {"128x64x32/2x2", 2, 2, 4, 2, 2},
};

// How a probe row loads its fragments and closes its slices.
// The GlobalB modes stage A alone: B comes from a storage buffer laid out in fragment order, each
// lane's elements of a fragment one 16-byte load, a slice ahead (filters pre-packed in the matrix
// units' register layout).
enum class SmemMode { Plain, Barrier, Staged, Double, Private, HeldB, GlobalBPlain, GlobalB, GlobalBDouble };
constexpr SmemMode kSmemModes[] = {SmemMode::Plain,        SmemMode::Barrier, SmemMode::Staged,
                                   SmemMode::Double,       SmemMode::Private, SmemMode::HeldB,
                                   SmemMode::GlobalBPlain, SmemMode::GlobalB, SmemMode::GlobalBDouble};
bool globalB(SmemMode m) {
    return m == SmemMode::GlobalBPlain || m == SmemMode::GlobalB || m == SmemMode::GlobalBDouble;
}
bool staged(SmemMode m) {
    return m == SmemMode::Staged || m == SmemMode::Private || m == SmemMode::Double || m == SmemMode::GlobalB ||
           m == SmemMode::GlobalBDouble;
}
bool doubled(SmemMode m) { return m == SmemMode::Double || m == SmemMode::GlobalBDouble; }
const char* smemModeName(SmemMode m) {
    switch (m) {
        case SmemMode::Plain: return "";
        case SmemMode::Barrier: return ", a barrier each";
        case SmemMode::Staged: return ", each restaged between two barriers";
        case SmemMode::Double: return ", double-buffered: the other copy restaged, one barrier";
        case SmemMode::Private: return ", each subgroup restaging its own rows between two subgroup barriers";
        case SmemMode::HeldB: return ", B held in registers (A alone from shared memory)";
        case SmemMode::GlobalBPlain: return ", B from global memory in fragment order (A alone from shared memory)";
        case SmemMode::GlobalB: return ", B from global memory, A restaged between two barriers";
        case SmemMode::GlobalBDouble:
            return ", B from global memory, A double-buffered: the other copy restaged, one barrier";
    }
    return "";
}

const vkconv::CoopMatConfig* f16Config16(const vkconv::DeviceCaps& caps) {
    for (const auto& cm : caps.coopMatConfigs)
        if (cm.scope == VK_SCOPE_SUBGROUP_KHR && cm.m == 16 && cm.n == 16 && cm.k == 16 &&
            cm.a == VK_COMPONENT_TYPE_FLOAT16_KHR && cm.b == VK_COMPONENT_TYPE_FLOAT16_KHR &&
            cm.c == VK_COMPONENT_TYPE_FLOAT32_KHR && cm.result == VK_COMPONENT_TYPE_FLOAT32_KHR)
            return &cm;
    return nullptr;
}

// Why this device runs none of the shared-memory rows ("" when it runs them).
std::string smemDeviceWhyNot(const vkconv::DeviceCaps& caps) {
    if (!f16Config16(caps)) return "no 16x16x16 f16*f16+f32 subgroup configuration";
    if (!vkconv::shaders::find("peak_cm_smem_f16")) return "no probe in this build (peak_cm_smem_f16)";
    if (!caps.shaderFloat16 || !caps.storageBuffer16BitAccess) return "needs fp16 arithmetic and 16-bit storage";
    return "";
}

// Residency by shared memory: the four-subgroup layouts (two or more workgroups to an SM by
// registers), a barrier per slice, declaring more shared memory each row, show how much of it
// the driver lets workgroups share an SM with.
std::vector<uint32_t> smemPadsKiB(const SmemShape& s) {
    if (s.warpsM * s.warpsN != 4 || s.ks != 2) return {};
    return {24, 32, 40, 46};
}

// A region per subgroup only for the four-subgroup shapes (the larger ones cannot fit it in 48 KiB);
// two copies only for the 32-deep shapes of at most 256 staged rows (the double-buffered tiles').
bool smemOffered(const SmemShape& s, SmemMode mode) {
    if (mode == SmemMode::Private) return s.warpsM * s.warpsN <= 4;
    if (mode == SmemMode::Double) return s.ks == 2 && 16 * (s.warpsM * s.fm + s.warpsN * s.fn) <= 256;
    return true;  // GlobalBDouble: wherever two copies of A fit (smemWhyNot)
}

// Shared bytes the shader declares for this shape and mode (its USED words).
uint64_t smemBytes(const SmemShape& s, SmemMode mode) {
    const uint64_t ld = 2ull * s.ks + 1;
    const uint64_t tile =
        globalB(mode) ? 16ull * s.warpsM * s.fm + 8 : 16ull * (s.warpsM * s.fm + s.warpsN * s.fn) + 16;
    const uint64_t rows = mode == SmemMode::Private ? uint64_t(s.warpsM) * s.warpsN * (16ull * (s.fm + s.fn) + 16)
                          : doubled(mode)           ? 2 * tile
                                                    : tile;
    return rows * ld * 16;
}

std::string smemWhyNot(const vkconv::DeviceCaps& caps, const SmemShape& s, SmemMode mode) {
    if (std::string w = smemDeviceWhyNot(caps); !w.empty()) return w;
    if (smemBytes(s, mode) > caps.maxSharedMemory) return "its staged rows exceed the device's shared memory";
    // The layouts are the routed tiles' on 32-wide subgroups (at most 512 invocations); at 64 lanes
    // the 16-subgroup one would be 1024, which RADV compiles under a 96-VGPR cap (its restaged
    // variant spilled on navi31), so such a row is not this tile's ceiling.
    const uint64_t inv = uint64_t(s.warpsM) * s.warpsN * caps.subgroupSize;
    if (inv > 512 || inv > caps.maxWorkgroupInvocations || inv > caps.maxWorkgroupSize[0])
        return std::to_string(inv) + " invocations at this subgroup size (the tile's layout has at most 512)";
    return "";
}

// padTo: bytes of shared memory the workgroup declares in all (0: what the shape needs).
const ComputePipeline& smemPipeline(Prober& p, const SmemShape& s, SmemMode mode, uint32_t padTo = 0) {
    const auto& caps = p.ctx().caps();
    return p.pipeline("peak_cm_smem_f16",
                      {{0, s.warpsM * s.warpsN * caps.subgroupSize},
                       {1, s.warpsM},
                       {2, s.warpsN},
                       {3, s.fm},
                       {4, s.fn},
                       {5, s.ks},
                       {6, mode == SmemMode::Barrier ? 1u : 0u},
                       {7, mode == SmemMode::HeldB ? 0u : 1u},
                       {8, staged(mode) ? 1u : 0u},
                       {9, mode == SmemMode::Private ? 1u : 0u},
                       {10, caps.subgroupSize},
                       {11, doubled(mode) ? 1u : 0u},
                       {12, padTo > smemBytes(s, mode) ? uint32_t((padTo - smemBytes(s, mode)) / 16) : 0u},
                       {13, globalB(mode) ? 1u : 0u}},
                      8, 2, caps.subgroupSizeControl ? caps.subgroupSize : 0);
}

// alone: one workgroup per compute unit (the grid), so that no second workgroup's products fill
// this one's barrier waits; otherwise eight per compute unit, as many resident as fit.
ProbeResult smemProbe(Prober& p, const SmemShape& s, SmemMode mode, bool alone, uint32_t padTo = 0) {
    ProbeResult r;
    char name[240], pad[64] = "";
    if (padTo) std::snprintf(pad, sizeof pad, ", %u KiB of shared memory declared", padTo / 1024);
    std::snprintf(name, sizeof name,
                  "coopmat f16 from shared memory, %ux%u per subgroup, %u subgroups, %u-deep slices%s%s%s (%s)",
                  16 * s.fm, 16 * s.fn, s.warpsM * s.warpsN, 16 * s.ks, smemModeName(mode),
                  alone ? ", one workgroup per CU" : "", pad, s.tile);
    r.name = name;
    r.unit = "TFLOP/s";
    const auto& caps = p.ctx().caps();
    r.skipped = smemWhyNot(caps, s, mode);
    if (r.skipped.empty() && padTo > caps.maxSharedMemory)
        r.skipped = "more shared memory than the device's per-workgroup limit";
    if (!r.skipped.empty()) return r;
    const uint32_t subgroupsPerGroup = s.warpsM * s.warpsN;
    // Several waves of workgroups on every compute unit, so that residency, not the grid, decides.
    const uint32_t groups = p.cpu() ? 4 : std::max<uint32_t>(1, caps.computeUnits) * (alone ? 1 : 8);
    const uint32_t launched = Prober::launchedGroups(groups) * subgroupsPerGroup;
    Buffer out = Buffer::create(p.ctx(), VkDeviceSize(launched) * 256 * 4);
    p.fill(out, 0, VK_WHOLE_SIZE, 0xFFFFFFFFu);
    // B in fragment order (the shader's B_SLICES slices of WARPS_N x FN x KS fragments, 16 bytes per
    // lane and fragment where a lane holds 8 elements or fewer), all fp16 ones; bound in every mode.
    const uint32_t elems = 256 / caps.subgroupSize, bwords = elems >= 8 ? elems / 8 : 1;
    constexpr VkDeviceSize kBSlices = 64;  // the shader's B_SLICES
    const VkDeviceSize bBytes =
        globalB(mode) ? kBSlices * s.warpsN * s.fn * s.ks * bwords * caps.subgroupSize * 16 : 16;
    Buffer bbuf = Buffer::create(p.ctx(), bBytes);
    p.fill(bbuf, 0, VK_WHOLE_SIZE, 0x3C003C00u);
    const auto& pipe = smemPipeline(p, s, mode, padTo);
    Recorder rec = [&](VkCommandBuffer cmd, uint32_t iters) {
        const uint32_t pc[2] = {iters, 0};
        p.bind(cmd, pipe, {&out, &bbuf}, pc, 8);
        p.dispatch(cmd, groups);
    };
    // Sums stay exact in fp32 while fm * fn * ks * iters <= 2^24.
    const uint32_t perIter = s.fm * s.fn * s.ks;
    auto c = p.calibrateAndTime(rec, 16, (1u << 24) / perIter);
    char buf[128];
    std::snprintf(buf, sizeof buf, "%u subgroups of %u x %u loops x %u mulAdds", launched, caps.subgroupSize, c.iters,
                  perIter);
    r.detail = buf;
    finish(r, c, 2.0 * 16 * 16 * 16 * double(perIter) * c.iters * launched, 1e12);

    std::vector<float> v(size_t(launched) * 256);
    out.download(v.data(), v.size() * 4);
    const float want = float(perIter) * float(c.iters);
    r.checkOk = true;
    r.checkMsg = "ok";
    for (size_t i = 0; i < v.size(); ++i)
        if (v[i] != want) {
            r.checkOk = false;
            std::snprintf(buf, sizeof buf, "subgroup %zu element %zu: %.9g, expected %.9g", i / 256, i % 256,
                          double(v[i]), double(want));
            r.checkMsg = buf;
            break;
        }
    return r;
}

ProbeResult copyProbe(Prober& p) {
    ProbeResult r;
    r.name = "shader copy (vec4)";
    r.unit = "GB/s";
    auto& impl = vkconv::implOf(p.ctx());
    VkDeviceSize heap = 0;
    for (uint32_t i = 0; i < impl.memory.memoryHeapCount; ++i)
        if (impl.memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            heap = std::max(heap, impl.memory.memoryHeaps[i].size);
    VkDeviceSize bytes = p.cpu() ? (64ull << 20) : (1ull << 30);
    if (heap) bytes = std::min(bytes, heap / 8);
    bytes = std::min<VkDeviceSize>(bytes, impl.caps.maxStorageBufferRange);
    bytes &= ~VkDeviceSize(1023);
    const uint32_t count = uint32_t(bytes / 16);
    const uint32_t groups = (count + 1023) / 1024;  // 4 elements x 256 invocations per group
    Buffer src = Buffer::create(p.ctx(), bytes), dst = Buffer::create(p.ctx(), bytes);
    // Pattern: 0x3F800000 everywhere, distinct markers at the first, a middle and the last element.
    const VkDeviceSize marks[] = {0, (bytes / 3) & ~VkDeviceSize(15), bytes - 16};
    p.fill(src, 0, VK_WHOLE_SIZE, 0x3F800000u);
    for (int i = 0; i < 3; ++i) p.fill(src, marks[i], 16, 0xA5A50000u + uint32_t(i));
    p.fill(dst, 0, VK_WHOLE_SIZE, 0);
    const auto& pipe = p.pipeline("peak_copy", {}, 4, 2);
    Recorder rec = [&](VkCommandBuffer cmd, uint32_t) {
        p.bind(cmd, pipe, {&src, &dst}, &count, 4);
        p.dispatch(cmd, groups);
    };
    auto c = p.calibrateAndTime(rec, 1, 1);
    char buf[128];
    std::snprintf(buf, sizeof buf, "2 x %llu MiB buffers, GB/s = (read + written bytes) / time",
                  (unsigned long long)(bytes >> 20));
    r.detail = buf;
    finish(r, c, 2.0 * double(bytes), 1e9);

    r.checkOk = true;
    r.checkMsg = "ok";
    const VkDeviceSize probes[] = {marks[0], marks[0] + 16, marks[1] - 16, marks[1], marks[2] - 16, marks[2]};
    for (VkDeviceSize off : probes) {
        uint32_t got[4], want = 0x3F800000u;
        for (int i = 0; i < 3; ++i)
            if (off == marks[i]) want = 0xA5A50000u + uint32_t(i);
        dst.download(got, 16, off);
        for (uint32_t g : got)
            if (g != want && r.checkOk) {
                r.checkOk = false;
                std::snprintf(buf, sizeof buf, "byte offset %llu: 0x%08x, expected 0x%08x", (unsigned long long)off, g,
                              want);
                r.checkMsg = buf;
            }
    }
    return r;
}

// Read bandwidth from the last-level cache: 4 loads in flight per invocation over 16 MiB (L2
// on NVIDIA's H100/H200 is 50 MB) swept again and again.  The implicit GEMMs read their operand
// tiles from there, so bytes staged over this rate is a floor beside FLOPs over the matrix peak.
ProbeResult cacheReadProbe(Prober& p) {
    ProbeResult r;
    r.name = "cache read (vec4)";
    r.unit = "GB/s";
    auto& impl = vkconv::implOf(p.ctx());
    const VkDeviceSize bytes = p.cpu() ? (1ull << 20) : (16ull << 20);
    const uint32_t count = uint32_t(bytes / 16);  // a power of two: the shader wraps with a mask
    // Eight 256-invocation groups per compute unit: 2048 invocations, a full NVIDIA SM.
    const uint32_t groups = std::max<uint32_t>(1, impl.caps.computeUnits) * 8;
    const uint32_t launched = Prober::launchedGroups(groups) * 256;
    Buffer src = Buffer::create(p.ctx(), bytes), dst = Buffer::create(p.ctx(), VkDeviceSize(launched) * 16);
    p.fill(src, 0, VK_WHOLE_SIZE, 1u);
    p.fill(dst, 0, VK_WHOLE_SIZE, 0);
    const auto& pipe = p.pipeline("peak_cache_read", {}, 12, 2);
    Recorder rec = [&](VkCommandBuffer cmd, uint32_t iters) {
        // Skew 4096 elements (64 KiB) per read: a workgroup's window moves through the whole
        // buffer instead of alternating between two places its first-level cache keeps.
        const uint32_t pc[3] = {count, iters * 4, 4096};
        p.bind(cmd, pipe, {&src, &dst}, pc, 12);
        p.dispatch(cmd, groups);
    };
    auto c = p.calibrateAndTime(rec, 4, 1u << 16);
    const double reads = 4.0 * c.iters * launched;
    char buf[128];
    std::snprintf(buf, sizeof buf, "%u inv x %u reads of 16 B from %llu MiB", launched, 4 * c.iters,
                  (unsigned long long)(bytes >> 20));
    r.detail = buf;
    finish(r, c, 16.0 * reads, 1e9);
    // Every word of the source is 1, so every component of every sum is the read count.
    std::vector<uint32_t> v(size_t(launched) * 4);
    dst.download(v.data(), v.size() * 4);
    const uint32_t want = 4u * c.iters;
    r.checkOk = true;
    r.checkMsg = "ok";
    for (size_t i = 0; i < v.size() && r.checkOk; ++i)
        if (v[i] != want) {
            r.checkOk = false;
            std::snprintf(buf, sizeof buf, "invocation %zu: %u, expected %u", i / 4, v[i], want);
            r.checkMsg = buf;
        }
    return r;
}

// The per-call floor: what one convolution call costs at least, whatever its size, under the
// layer runner's protocol (bind, push descriptors and constants, dispatch, compute-to-compute
// barrier; 20 calls per timed batch).  The kernel is the copy probe on one workgroup (4 KiB), so
// the time is the dispatch, the barrier's drain and refill, and one workgroup's launch and
// memory round trip.  Without the barrier the dispatches may overlap; that row says how much
// of the floor the barrier is.
// Forms of the barrier after each call, for `peak --barrier-forms` (diagnostic rows: which
// part of the floor is the drain and which the memory dependency, per driver).
enum class FloorBarrier {
    None,        // dispatches may overlap
    Library,     // vkconv::computeBarrier: sync2 global memory barrier, write -> read|write
    ReadOnly,    // the same with dst access read only (no write-after-write cover)
    Sync1,       // vkCmdPipelineBarrier with a VkMemoryBarrier, shader write -> read|write
    BufferOnly,  // sync2 buffer memory barrier on the destination buffer alone
    ExecOnly,    // execution dependency only: no memory barrier (not enough for a real chain)
    Event,       // vkCmdSetEvent2 after the call, vkCmdWaitEvents2 on it: the same write -> read|write
                 // dependency as Library, through an event (one fresh device-only event per call)
    EventReset,  // the same on one event, reset (vkCmdResetEvent2, compute stage) after each wait
};

void recordFloorBarrier(const vkconv::ContextImpl& impl, VkCommandBuffer cmd, FloorBarrier form, VkBuffer buf,
                        std::vector<VkEvent>* events) {
    const auto& dt = impl.dt;
    VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    mb.srcStageMask = mb.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    mb.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    switch (form) {
        case FloorBarrier::None: return;
        case FloorBarrier::Library: vkconv::computeBarrier(impl, cmd); return;
        case FloorBarrier::ReadOnly:
            mb.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
            di.memoryBarrierCount = 1;
            di.pMemoryBarriers = &mb;
            dt.vkCmdPipelineBarrier2(cmd, &di);
            return;
        case FloorBarrier::Sync1: {
            VkMemoryBarrier m1{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            m1.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
            m1.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
            dt.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                                    1, &m1, 0, nullptr, 0, nullptr);
            return;
        }
        case FloorBarrier::BufferOnly: {
            VkBufferMemoryBarrier2 bb{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
            bb.srcStageMask = bb.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
            bb.srcAccessMask = mb.srcAccessMask;
            bb.dstAccessMask = mb.dstAccessMask;
            bb.srcQueueFamilyIndex = bb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
            bb.buffer = buf;
            bb.size = VK_WHOLE_SIZE;
            di.bufferMemoryBarrierCount = 1;
            di.pBufferMemoryBarriers = &bb;
            dt.vkCmdPipelineBarrier2(cmd, &di);
            return;
        }
        case FloorBarrier::ExecOnly:  // sync2 carries stages only inside barriers, so sync1 with none
            dt.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                                    0, nullptr, 0, nullptr, 0, nullptr);
            return;
        case FloorBarrier::Event:
        case FloorBarrier::EventReset: {
            // Event: a fresh event per call (no reset to order against the next set); EventReset: one
            // event, reset after each wait.  The probe destroys them.
            if (form == FloorBarrier::Event || events->empty()) {
                VkEventCreateInfo eci{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
                eci.flags = VK_EVENT_CREATE_DEVICE_ONLY_BIT;
                VkEvent e = VK_NULL_HANDLE;
                VKCONV_CHECK(dt.vkCreateEvent(impl.device, &eci, nullptr, &e));
                events->push_back(e);
            }
            VkEvent e = events->back();
            di.memoryBarrierCount = 1;
            di.pMemoryBarriers = &mb;
            dt.vkCmdSetEvent2(cmd, e, &di);
            dt.vkCmdWaitEvents2(cmd, 1, &e, &di);
            if (form == FloorBarrier::EventReset) dt.vkCmdResetEvent2(cmd, e, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
            return;
        }
    }
}

const char* floorBarrierName(FloorBarrier f) {
    switch (f) {
        case FloorBarrier::None: return "dispatch alone (no barrier)";
        case FloorBarrier::Library: return "call floor (dispatch + barrier)";
        case FloorBarrier::ReadOnly: return "call floor, barrier write -> read only";
        case FloorBarrier::Sync1: return "call floor, vkCmdPipelineBarrier (sync1)";
        case FloorBarrier::BufferOnly: return "call floor, buffer barrier on the output";
        case FloorBarrier::ExecOnly: return "call floor, execution dependency only";
        case FloorBarrier::Event: return "call floor, set and wait on an event";
        case FloorBarrier::EventReset: return "call floor, set, wait and reset one event";
    }
    return "?";
}

ProbeResult callFloorProbe(Prober& p, FloorBarrier form) {
    ProbeResult r;
    r.name = floorBarrierName(form);
    r.unit = "us/call";
    constexpr uint32_t kCount = 256;  // 16-byte elements: one workgroup of 256 invocations
    constexpr int kCalls = 20;        // vkconv-bench's default --calls
    Buffer src = Buffer::create(p.ctx(), kCount * 16), dst = Buffer::create(p.ctx(), kCount * 16);
    std::vector<uint32_t> pattern(kCount * 4);
    for (uint32_t i = 0; i < pattern.size(); ++i) pattern[i] = 0x9E3779B9u * (i + 1);
    src.upload(pattern.data(), pattern.size() * 4);
    p.fill(dst, 0, VK_WHOLE_SIZE, 0);
    const auto& pipe = p.pipeline("peak_copy", {}, 4, 2);
    auto& impl = vkconv::implOf(p.ctx());
    std::vector<VkEvent> events;
    struct EventsGuard {
        const vkconv::ContextImpl& impl;
        std::vector<VkEvent>& events;
        ~EventsGuard() {
            for (VkEvent e : events) impl.dt.vkDestroyEvent(impl.device, e, nullptr);
        }
    } guard{impl, events};
    Recorder rec = [&](VkCommandBuffer cmd, uint32_t) {
        p.bind(cmd, pipe, {&src, &dst}, &kCount, 4);
        p.dispatch(cmd, 1);
        recordFloorBarrier(impl, cmd, form, dst.handle(), &events);
    };
    // Warm-up long enough for the clock to come up from whatever ran before (~0.2 s of calls).
    p.time(rec, 1, 2000, 1, 0);
    std::vector<double> ns = p.time(rec, 1, kCalls, 7 * 5, 20);
    std::vector<double> us;
    for (double v : ns) us.push_back(v / 1e3);
    r.value = median(us);
    r.best = *std::min_element(us.begin(), us.end());
    char buf[96];
    std::snprintf(buf, sizeof buf, "%d calls per interval, median of %zu intervals", kCalls, us.size());
    r.detail = buf;
    std::vector<uint32_t> got(pattern.size());
    dst.download(got.data(), got.size() * 4);
    r.checkOk = got == pattern;
    r.checkMsg = r.checkOk ? "ok" : "the copied words differ from the source";
    return r;
}

}  // namespace

std::vector<std::pair<std::string, bool>> buildPeakPipelines(vkconv::Context& ctx) {
    Prober p(ctx);
    std::vector<std::pair<std::string, bool>> notes;
    auto build = [&](const std::string& what, const std::function<void()>& f) {
        try {
            f();
        } catch (const vkconv::Error& e) {
            notes.push_back({what + ": " + e.what(), true});
        }
    };
    build("peak_fma_f32", [&] { p.pipeline("peak_fma_f32", {}, 12, 1); });
    if (ctx.caps().shaderFloat16)
        build("peak_fma_f16", [&] { p.pipeline("peak_fma_f16", {}, 12, 1); });
    else
        notes.push_back({"peak_fma_f16: the device lacks shaderFloat16", false});
    build("peak_copy", [&] { p.pipeline("peak_copy", {}, 4, 2); });
    build("peak_cache_read", [&] { p.pipeline("peak_cache_read", {}, 12, 2); });
    for (auto& cm : ctx.caps().coopMatConfigs) {
        std::string why = coopmatWhyNot(ctx.caps(), cm);
        if (why.empty())
            build(coopmatShader(cm) + " " + cm.toString(), [&] { coopmatPipeline(p, cm); });
        else
            notes.push_back({"coopmat " + cm.toString() + ": " + why, false});
    }
    if (std::string w = smemDeviceWhyNot(ctx.caps()); !w.empty()) {
        notes.push_back({"peak_cm_smem_f16: " + w, false});
    } else {
        for (const auto& sh : kSmemShapes)
            for (SmemMode m : kSmemModes) {
                if (!smemOffered(sh, m)) continue;
                std::string what = std::string("peak_cm_smem_f16 ") + sh.tile + smemModeName(m);
                if (std::string why = smemWhyNot(ctx.caps(), sh, m); why.empty())
                    build(what, [&] { smemPipeline(p, sh, m); });
                else
                    notes.push_back({what + ": " + why, false});
            }
        for (const auto& sh : kSmemShapes)
            for (uint32_t kib : smemPadsKiB(sh)) {
                std::string what =
                    std::string("peak_cm_smem_f16 ") + sh.tile + ", " + std::to_string(kib) + " KiB declared";
                if (smemWhyNot(ctx.caps(), sh, SmemMode::Barrier).empty() && kib * 1024 <= ctx.caps().maxSharedMemory)
                    build(what, [&] { smemPipeline(p, sh, SmemMode::Barrier, kib * 1024); });
            }
    }
    return notes;
}

PeakReport measurePeaks(vkconv::Context& ctx, bool barrierForms) {
    PeakReport rep;
    Prober p(ctx);
    auto run = [&](const char* what, const std::function<ProbeResult()>& f) {
        std::fprintf(stderr, "[peak] %s ...\n", what);
        ProbeResult r;
        try {
            r = f();
        } catch (const vkconv::Error& e) {
            r.name = what;
            r.checkOk = false;
            r.checkMsg = std::string("error: ") + e.what();
        }
        if (r.skipped.empty() && !r.checkOk) rep.allOk = false;
        rep.probes.push_back(r);
        return rep.probes.back();
    };
    auto ok = [](const ProbeResult& r) { return r.skipped.empty() && r.checkOk; };
    if (auto r = run("fp32 FMA", [&] { return fmaProbe(p, false); }); ok(r)) rep.peaks.fp32FmaTflops = r.value;
    if (auto r = run("fp16 FMA", [&] { return fmaProbe(p, true); }); ok(r)) rep.peaks.fp16FmaTflops = r.value;
    if (auto r = run("copy bandwidth", [&] { return copyProbe(p); }); ok(r)) rep.peaks.bandwidthGbs = r.value;
    if (auto r = run("cache read bandwidth", [&] { return cacheReadProbe(p); }); ok(r))
        rep.peaks.cacheReadGbs = r.value;
    if (auto r = run("call floor", [&] { return callFloorProbe(p, FloorBarrier::Library); }); ok(r))
        rep.peaks.callFloorUs = r.value;
    if (auto r = run("dispatch alone", [&] { return callFloorProbe(p, FloorBarrier::None); }); ok(r))
        rep.peaks.dispatchUs = r.value;
    if (barrierForms)
        for (FloorBarrier f : {FloorBarrier::ReadOnly, FloorBarrier::Sync1, FloorBarrier::BufferOnly,
                               FloorBarrier::ExecOnly, FloorBarrier::Event, FloorBarrier::EventReset})
            run(floorBarrierName(f), [&] { return callFloorProbe(p, f); });
    for (auto& cm : ctx.caps().coopMatConfigs) {
        std::string label = "coopmat " + cm.toString();
        if (auto r = run(label.c_str(), [&] { return coopmatProbe(p, cm); }); ok(r))
            rep.peaks.coopmatTflops[cm.toString()] = r.value;
    }
    if (std::string w = smemDeviceWhyNot(ctx.caps()); !w.empty()) {
        ProbeResult r;
        r.name = "coopmat f16 from shared memory";
        r.skipped = w;
        rep.probes.push_back(r);
    } else {
        for (const auto& sh : kSmemShapes)
            for (SmemMode m : kSmemModes)
                for (bool alone : {false, true}) {
                    if (!smemOffered(sh, m) ||
                        (alone && m != SmemMode::Barrier && m != SmemMode::Staged && m != SmemMode::Double &&
                         m != SmemMode::GlobalB && m != SmemMode::GlobalBDouble))
                        continue;
                    std::string label = std::string("coopmat from shared memory ") + sh.tile + smemModeName(m) +
                                        (alone ? ", alone" : "");
                    const ProbeResult& r = run(label.c_str(), [&] { return smemProbe(p, sh, m, alone); });
                    // Only rows that bring operands in every slice are a real GEMM's ceiling.
                    if (staged(m) && ok(r) && (!rep.peaks.sliceLoopTflops || r.value > *rep.peaks.sliceLoopTflops)) {
                        rep.peaks.sliceLoopTflops = r.value;
                        rep.peaks.sliceLoopProbe = r.name;
                    }
                }
        for (const auto& sh : kSmemShapes)
            for (uint32_t kib : smemPadsKiB(sh)) {
                std::string label =
                    std::string("coopmat from shared memory ") + sh.tile + ", " + std::to_string(kib) + " KiB declared";
                run(label.c_str(), [&] { return smemProbe(p, sh, SmemMode::Barrier, false, kib * 1024); });
            }
    }
    rep.peaks.source = "measured now";
    return rep;
}

}  // namespace vkbench
