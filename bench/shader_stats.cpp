// vkconv-bench shader-stats: the compile lab.  Builds every pipeline variant of every algorithm (and the peak
// probes) with VK_PIPELINE_CREATE_CAPTURE_STATISTICS / _INTERNAL_REPRESENTATIONS and prints what
// the driver reports per pipeline executable (VGPRs, SGPRs, spills, LDS, occupancy, code size).
// Nothing runs on the GPU, so it works on RADV's null device (RADV_FORCE_FAMILY=navi31 ...).
#include "shader_stats.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "conv/algorithm.hpp"
#include "conv/gradient.hpp"
#include "peak.hpp"
#include "report.hpp"
#include "runtime/context_access.hpp"
#include "runtime/pipeline.hpp"
#include "shapes.hpp"
#include "vkconv/plan.hpp"
#include "util/json.hpp"

namespace vkbench {

namespace {

struct Executable {
    std::string name, description;
    uint32_t subgroupSize = 0;
    std::vector<std::pair<std::string, std::string>> stats;  // name -> value as text (integers exact)
    std::map<std::string, double> numeric;                   // lower-case name -> value
    std::set<std::string> integral;                          // names whose text is an exact integer
};

struct PipelineStats {
    std::string algorithm, variant;
    vkconv::PipelineKey key;
    std::vector<Executable> executables;
    int64_t spills = 0;
    bool representations = false;  // its ISA text was captured (and --expect-isa read it)
};

constexpr int kIsaChecksPerShader = 2;

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

std::string sanitize(const std::string& s) {
    std::string out;
    for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_';
    return out;
}

void queryExecutables(vkconv::ContextImpl& impl, VkPipeline pipeline, PipelineStats& ps) {
    auto& dt = impl.dt;
    if (!impl.caps.pipelineExecutableInfo || !dt.vkGetPipelineExecutablePropertiesKHR) return;
    VkPipelineInfoKHR pi{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
    pi.pipeline = pipeline;
    uint32_t n = 0;
    if (dt.vkGetPipelineExecutablePropertiesKHR(impl.device, &pi, &n, nullptr) != VK_SUCCESS) return;
    std::vector<VkPipelineExecutablePropertiesKHR> props(n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
    if (dt.vkGetPipelineExecutablePropertiesKHR(impl.device, &pi, &n, props.data()) != VK_SUCCESS) return;
    for (uint32_t e = 0; e < n; ++e) {
        Executable ex;
        ex.name = props[e].name;
        ex.description = props[e].description;
        ex.subgroupSize = props[e].subgroupSize;
        VkPipelineExecutableInfoKHR ei{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
        ei.pipeline = pipeline;
        ei.executableIndex = e;
        uint32_t ns = 0;
        if (dt.vkGetPipelineExecutableStatisticsKHR(impl.device, &ei, &ns, nullptr) == VK_SUCCESS) {
            std::vector<VkPipelineExecutableStatisticKHR> st(ns, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
            if (dt.vkGetPipelineExecutableStatisticsKHR(impl.device, &ei, &ns, st.data()) == VK_SUCCESS) {
                for (uint32_t i = 0; i < ns; ++i) {
                    double v = 0;
                    std::string text;
                    switch (st[i].format) {
                        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
                            v = st[i].value.b32;
                            text = v ? "true" : "false";
                            break;
                        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
                            v = double(st[i].value.i64);
                            text = std::to_string(st[i].value.i64);
                            break;
                        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
                            v = double(st[i].value.u64);
                            text = std::to_string(st[i].value.u64);
                            break;
                        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
                            v = st[i].value.f64;
                            text = std::to_string(v);
                            break;
                        default: text = "?";
                    }
                    ex.stats.push_back({st[i].name, text});
                    if (st[i].format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR ||
                        st[i].format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR)
                        ex.integral.insert(st[i].name);
                    ex.numeric[lower(st[i].name)] = v;
                    if (lower(st[i].name).find("spill") != std::string::npos && v > 0) ps.spills += int64_t(v);
                }
            }
        }
        ps.executables.push_back(std::move(ex));
    }
}

// Calls fn(executable index, representation name, bytes, isText) for every internal representation
// of every executable of the pipeline (none without VK_KHR_pipeline_executable_properties).
template <typename Fn>
void forEachRepresentation(vkconv::ContextImpl& impl, VkPipeline pipeline, Fn&& fn) {
    auto& dt = impl.dt;
    if (!impl.caps.pipelineExecutableInfo || !dt.vkGetPipelineExecutableInternalRepresentationsKHR) return;
    VkPipelineInfoKHR pi{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
    pi.pipeline = pipeline;
    uint32_t n = 0;
    dt.vkGetPipelineExecutablePropertiesKHR(impl.device, &pi, &n, nullptr);
    for (uint32_t e = 0; e < n; ++e) {
        VkPipelineExecutableInfoKHR ei{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
        ei.pipeline = pipeline;
        ei.executableIndex = e;
        uint32_t nr = 0;
        if (dt.vkGetPipelineExecutableInternalRepresentationsKHR(impl.device, &ei, &nr, nullptr) != VK_SUCCESS ||
            nr == 0)
            continue;
        std::vector<VkPipelineExecutableInternalRepresentationKHR> reps(
            nr, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR});
        if (dt.vkGetPipelineExecutableInternalRepresentationsKHR(impl.device, &ei, &nr, reps.data()) != VK_SUCCESS)
            continue;
        std::vector<std::vector<char>> data(nr);
        for (uint32_t i = 0; i < nr; ++i) {
            data[i].resize(reps[i].dataSize + 1, 0);
            reps[i].pData = data[i].data();
        }
        VkResult r = dt.vkGetPipelineExecutableInternalRepresentationsKHR(impl.device, &ei, &nr, reps.data());
        if (r != VK_SUCCESS && r != VK_INCOMPLETE) continue;
        for (uint32_t i = 0; i < nr; ++i) {
            size_t bytes = reps[i].dataSize;
            if (reps[i].isText) bytes = strnlen(data[i].data(), bytes);
            fn(e, std::string(reps[i].name), std::string(data[i].data(), bytes), bool(reps[i].isText));
        }
    }
}

// Writes every internal representation of every executable to dir; returns files written.
int dumpIsa(vkconv::ContextImpl& impl, VkPipeline pipeline, const std::string& dir, const std::string& stem) {
    int files = 0;
    forEachRepresentation(
        impl, pipeline, [&](uint32_t e, const std::string& name, const std::string& bytes, bool isText) {
            std::string path =
                dir + "/" + stem + "_e" + std::to_string(e) + "_" + sanitize(name) + (isText ? ".txt" : ".bin");
            try {
                writeTextFile(path, bytes);
                ++files;
            } catch (const std::exception& ex) {
                std::fprintf(stderr, "vkconv-bench: %s\n", ex.what());
            }
        });
    return files;
}

// Whether any text representation of the pipeline contains `text`.
bool isaContains(vkconv::ContextImpl& impl, VkPipeline pipeline, const std::string& text) {
    bool found = false;
    forEachRepresentation(impl, pipeline, [&](uint32_t, const std::string&, const std::string& bytes, bool isText) {
        found = found || (isText && bytes.find(text) != std::string::npos);
    });
    return found;
}

// First statistic whose name matches one of the candidates (case-insensitive), as text.
std::string pick(const Executable& ex, std::initializer_list<const char*> names) {
    for (const char* want : names)
        for (auto& [name, value] : ex.stats)
            if (lower(name) == lower(want)) return value;
    return "-";
}

// Per-invocation scratch / local memory: AMD's "Scratch size", or NVIDIA's "Local Memory Size",
// whose upper 32 bits read 0x10 on every pipeline of driver 580 and whose lower 32 bits are the
// bytes (144 where the machine code has LDL/STL of a 144-byte frame).
std::string scratchBytes(const Executable& ex) {
    std::string amd = pick(ex, {"Scratch size", "Scratch Memory Size"});
    if (amd != "-") return amd;
    auto it = ex.numeric.find("local memory size");
    return it == ex.numeric.end() ? "-" : std::to_string(uint64_t(it->second) & 0xFFFFFFFFu);
}

void printTable(std::FILE* f, const std::vector<PipelineStats>& all) {
    std::fprintf(f, "%-3s %-24s %-26s %4s %6s %6s %7s %7s %8s %8s %6s %7s %8s  %s\n", "#", "algorithm", "shader", "sg",
                 "VGPRs", "SGPRs", "spillV", "spillS", "LDS", "scratch", "occ", "instrs", "code", "variant");
    int idx = 0;
    for (auto& ps : all) {
        ++idx;
        if (ps.executables.empty()) {
            std::fprintf(f, "%-3d %-24s %-26s %4s  (the driver reports no statistics)  %s\n", idx, ps.algorithm.c_str(),
                         ps.key.shader.c_str(),
                         ps.key.requiredSubgroupSize ? std::to_string(ps.key.requiredSubgroupSize).c_str() : "-",
                         ps.variant.c_str());
            continue;
        }
        for (auto& ex : ps.executables) {
            std::fprintf(
                f, "%-3d %-24s %-26s %4u %6s %6s %7s %7s %8s %8s %6s %7s %8s  %s\n", idx, ps.algorithm.c_str(),
                ps.key.shader.c_str(), ex.subgroupSize, pick(ex, {"VGPRs", "Register Count", "Registers"}).c_str(),
                pick(ex, {"SGPRs"}).c_str(), pick(ex, {"Spilled VGPRs"}).c_str(), pick(ex, {"Spilled SGPRs"}).c_str(),
                pick(ex, {"LDS size", "LDS", "Shared Memory Size", "Shared memory"}).c_str(), scratchBytes(ex).c_str(),
                pick(ex, {"Subgroups per SIMD", "Waves per SIMD", "Occupancy"}).c_str(),
                pick(ex, {"Instructions", "Instruction Count"}).c_str(), pick(ex, {"Code size", "Binary Size"}).c_str(),
                ps.variant.c_str());
        }
    }
}

}  // namespace

int runShaderStats(vkconv::Context& ctx, const Options& opts) {
    auto& impl = vkconv::implOf(ctx);
    impl.captureStatistics = true;
    impl.capturePipelineBinaries = !opts.isaDir.empty();
    // The ISA text only where it is read: every pipeline for --isa; for --expect-isa the first
    // kIsaChecksPerShader pipelines of each shader it names (the instructions a shader's matrix
    // operations lower to do not depend on its tile; capturing every one added ~20 s to the
    // RDNA4 lab's ~100 s of compiles).
    auto isaShaders = std::make_shared<std::pair<std::mutex, std::map<std::string, int>>>();
    impl.captureRepresentations = [isaShaders, all = !opts.isaDir.empty(),
                                   prefixes = opts.expectIsa](const vkconv::PipelineKey& k) {
        if (all) return true;
        for (auto& [prefix, text] : prefixes)
            if (k.shader.rfind(prefix, 0) == 0) {
                std::lock_guard<std::mutex> lock(isaShaders->first);
                return ++isaShaders->second[k.shader] <= kIsaChecksPerShader;
            }
        return false;
    };
    const auto& caps = ctx.caps();
    std::printf("== Compile lab: %s (%s %s)\n", caps.deviceName.c_str(), caps.driverName.c_str(),
                caps.driverVersionString().c_str());
    if (!caps.pipelineExecutableInfo)
        std::printf(
            "note: the device lacks VK_KHR_pipeline_executable_properties: pipelines are built, no statistics\n");
    if (!opts.isaDir.empty()) std::filesystem::create_directories(opts.isaDir);

    std::vector<PipelineStats> all;
    std::vector<std::pair<std::string, std::string>> failures, skips;  // (what, why)
    std::set<const vkconv::ComputePipeline*> seen;
    std::vector<std::string> missing;  // --expect-isa failures
    auto collect = [&](const std::string& algo, const std::string& variant) {
        impl.pipelines->forEach([&](const vkconv::ComputePipeline& p) {
            if (!seen.insert(&p).second) return;
            PipelineStats ps;
            ps.algorithm = algo;
            ps.variant = variant;
            ps.key = p.key;
            ps.representations = p.representations;
            queryExecutables(impl, p.pipeline, ps);
            for (auto& [prefix, text] : opts.expectIsa)
                if (p.representations && p.key.shader.rfind(prefix, 0) == 0 && !isaContains(impl, p.pipeline, text))
                    missing.push_back(p.key.shader + " (" + variant + "): no '" + text + "'");
            if (!opts.isaDir.empty()) {
                std::string stem = std::to_string(all.size() + 1) + "_" + sanitize(algo) + "_" + sanitize(p.key.shader);
                dumpIsa(impl, p.pipeline, opts.isaDir, stem);
                // The pipeline alone in a VkPipelineCache: NVIDIA's machine code (bench/nv_sass.py).
                if (!p.binary.empty()) {
                    writeTextFile(opts.isaDir + "/" + stem + "_pipeline_cache.bin",
                                  std::string(p.binary.begin(), p.binary.end()));
                    writeTextFile(opts.isaDir + "/" + stem + "_variant.txt", variant + "\n");
                }
            }
            all.push_back(std::move(ps));
        });
    };
    collect("(earlier)", "");  // nothing yet, normally
    // With --suite / --shapes / --zoo: the pipelines the router's plans of those layers build (at each
    // --batch, --dtype and --layout; --algo forces one), instead of the algorithms' variant lists.
    const bool layers = !opts.suites.empty() || !opts.shapeFiles.empty() || opts.zoo;
    if (layers) {
        for (const Shape& sh : loadShapes(opts))
            for (int64_t b : opts.batches.empty() ? std::vector<int64_t>{sh.n} : opts.batches)
                for (auto dt : opts.dtypes)
                    for (auto lay : opts.layouts) {
                        const LayerProblem prob = makeProblem(sh, b, dt, lay, opts.epilogue, opts.pass);
                        const vkconv::ConvDesc& d = prob.conv;
                        vkconv::PlanOptions po;
                        po.algorithm = opts.algo == "all" ? "auto" : opts.algo;
                        std::string variant = sh.suite + " " + sh.layer + " n" + std::to_string(b) + " " +
                                              std::string(vkconv::toString(dt)) + " " +
                                              std::string(vkconv::toString(lay));
                        // A named forward algorithm asks the forward pass; a transposed row plans its own.
                        const bool forward = prob.convPass == vkconv::ConvPass::Forward;
                        if (std::string why = vkconv::whyUnsupported(ctx, d, forward ? po.algorithm : "auto");
                            !why.empty()) {
                            std::printf("skipped %s: %s\n", variant.c_str(), why.c_str());
                            skips.push_back({variant, why});
                            continue;
                        }
                        std::string algo = po.algorithm;
                        try {
                            const vkconv::Plan plan = createPlan(ctx, prob, po);
                            algo = plan.algorithm();
                            variant += " [" + plan.config() + "]";
                        } catch (const std::exception& e) {
                            failures.push_back({variant, e.what()});
                        }
                        collect(algo, variant);
                    }
    }
    for (const vkconv::Algorithm& a : vkconv::algorithms()) {
        if (layers) break;
        if (opts.algo != "auto" && opts.algo != "all" && opts.algo != a.name) continue;  // --algo NAME
        if (!a.variants) {
            std::printf("%s: lists no variants of its own (shares another algorithm's pipelines)\n", a.name);
            continue;
        }
        for (auto& [desc, po] : a.variants(impl)) {
            if (!opts.tile.empty() && po.tile.rfind(opts.tile, 0) != 0) continue;  // --tile T: T's variants only
            std::string variant = desc.toString() + (po.subgroupSize ? " sg" + std::to_string(po.subgroupSize) : "");
            std::string why = a.whyNot(impl, desc, po);
            if (!why.empty()) {
                std::printf("%s: skipped %s: %s\n", a.name, variant.c_str(), why.c_str());
                skips.push_back({std::string(a.name) + " " + variant, why});
                continue;
            }
            try {
                auto inst = a.instantiate(impl, desc, po);
                variant += " [" + inst->config() + "]";
            } catch (const std::exception& e) {
                failures.push_back({std::string(a.name) + " " + variant, e.what()});
            }
            collect(a.name, variant);
        }
    }
    // The backward passes' algorithms, from their own tables.
    auto gradVariants = [&](const auto& table, const char* pass) {
        for (const auto& a : table) {
            if (layers) break;
            if (opts.algo != "auto" && opts.algo != "all" && opts.algo != a.name) continue;
            for (auto& [problem, po] : a.variants(impl)) {
                std::string variant = std::string(pass) + " " + problem.conv.toString() +
                                      (po.subgroupSize ? " sg" + std::to_string(po.subgroupSize) : "");
                if (std::string why = a.whyNot(impl, problem, po); !why.empty()) {
                    std::printf("%s: skipped %s: %s\n", a.name, variant.c_str(), why.c_str());
                    skips.push_back({std::string(a.name) + " " + variant, why});
                    continue;
                }
                try {
                    auto inst = a.instantiate(impl, problem, po);
                    variant += " [" + inst->config() + "]";
                } catch (const std::exception& e) {
                    failures.push_back({std::string(a.name) + " " + variant, e.what()});
                }
                collect(a.name, variant);
            }
        }
    };
    gradVariants(vkconv::dataGradAlgorithms(), "bwd-data");
    gradVariants(vkconv::weightGradAlgorithms(), "bwd-weight");
    for (auto& [what, failed] : layers ? std::vector<std::pair<std::string, bool>>{} : buildPeakPipelines(ctx)) {
        if (failed)
            failures.push_back({"peak probe", what});
        else
            skips.push_back({"peak probe", what});
    }
    if (!layers) collect("peak probe", "vkconv-bench --peak");

    std::printf("\n");
    printTable(stdout, all);
    int withLocal = 0;  // scratch / local memory (not failing: dynamically indexed arrays land there too)
    for (auto& ps : all)
        for (auto& ex : ps.executables)
            if (std::string b = scratchBytes(ex); b != "-" && b != "0") {
                ++withLocal;
                break;
            }
    int spilled = 0;
    for (auto& ps : all)
        if (ps.spills > 0) {
            ++spilled;
            std::printf("SPILLS: %s %s (%s): %lld spilled registers\n", ps.algorithm.c_str(), ps.key.shader.c_str(),
                        ps.variant.c_str(), (long long)ps.spills);
        }
    for (auto& [what, why] : failures) std::printf("BUILD FAILED: %s: %s\n", what.c_str(), why.c_str());
    std::printf(
        "%zu pipelines, %zu build failures, %d with spills, %d with scratch or local memory, %zu variants skipped%s\n",
        all.size(), failures.size(), spilled, withLocal, skips.size(),
        opts.isaDir.empty() ? "" : ("; internal representations in " + opts.isaDir).c_str());
    for (auto& m : missing) std::printf("ISA MISSING: %s\n", m.c_str());
    bool expectFailed = !missing.empty();
    for (auto& [prefix, text] : opts.expectIsa) {
        size_t n = 0, checked = 0;
        for (auto& ps : all)
            if (ps.key.shader.rfind(prefix, 0) == 0) ++n, checked += ps.representations;
        std::printf("expect-isa %s:%s: %zu of %zu pipelines checked (the first %d of each shader), %s\n",
                    prefix.c_str(), text.c_str(), checked, n, kIsaChecksPerShader,
                    checked == 0 ? "none built (FAIL: nothing to check)" : "see ISA MISSING lines above, if any");
        expectFailed = expectFailed || checked == 0;
    }
    if (!opts.expectIsa.empty() && !caps.pipelineExecutableInfo) {
        std::printf("expect-isa: the device reports no internal representations (FAIL)\n");
        expectFailed = true;
    }

    if (!opts.jsonPath.empty()) {
        using vkconv::Json;
        Json pipelines = Json::array();
        for (auto& ps : all) {
            Json spec = Json::object();
            for (auto& sc : ps.key.spec) spec[std::to_string(sc.id)] = sc.value;
            Json executables = Json::array();
            for (auto& ex : ps.executables) {
                Json stats = Json::object();
                for (auto& [name, value] : ex.stats) {
                    if (ex.integral.count(name))
                        stats[name] = vkconv::jsonDecimal(value);  // u64 hashes stay exact
                    else if (value == "true" || value == "false")
                        stats[name] = value == "true";
                    else
                        stats[name] = vkconv::jsonNumber(ex.numeric.find(lower(name))->second);
                }
                executables.push_back({{"name", ex.name},
                                       {"description", ex.description},
                                       {"subgroup_size", ex.subgroupSize},
                                       {"stats", std::move(stats)}});
            }
            pipelines.push_back({{"algorithm", ps.algorithm},
                                 {"variant", ps.variant},
                                 {"shader", ps.key.shader},
                                 {"spec", std::move(spec)},
                                 {"required_subgroup_size", ps.key.requiredSubgroupSize},
                                 {"spills", ps.spills},
                                 {"executables", std::move(executables)}});
        }
        auto list = [](const std::vector<std::pair<std::string, std::string>>& v, const char* why) {
            Json a = Json::array();
            for (auto& [what, reason] : v) a.push_back({{"what", what}, {why, reason}});
            return a;
        };
        const Json doc = {
            {"schema", "vkconv-shader-stats/1"},
            {"tool", "vkconv-bench"},
            {"created", isoUtcNow()},
            {"host", hostName()},
            {"device", deviceRecord(caps)},
            {"library", libraryRecord()},
            {"pipelines", std::move(pipelines)},
            {"failures", list(failures, "error")},
            {"skipped", list(skips, "reason")},
        };
        writeJsonFile(opts.jsonPath, doc);
        std::printf("statistics written to %s\n", opts.jsonPath.c_str());
    }
    return failures.empty() && spilled == 0 && !expectFailed ? 0 : 1;
}

}  // namespace vkbench
