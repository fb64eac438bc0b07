// What a Context holds.  Shared by the runtime's translation units; not installed.
#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "conv/device_model.hpp"
#include "runtime/instance_table.hpp"
#include "runtime/vk.hpp"
#include "vkconv/device_caps.hpp"

namespace vkconv {

class PipelineCache;
class PipelineRegistry;
struct PipelineKey;
class FindDb;

class PassProbe;

struct ContextImpl {
    InstanceTable it;
    VolkDeviceTable dt{};
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t queueFamily = 0;
    bool ownsInstance = false, ownsDevice = false;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    std::function<void(const std::string&)> onValidationMessage;
    std::atomic<uint64_t> validationMessages{0};

    DeviceCaps caps;
    // The routers' fitted numbers for this card (conv/device_model.hpp), set once with caps and
    // again by Context::calibrate.
    DeviceModel model;
    VkPhysicalDeviceMemoryProperties memory{};

    VkCommandPool commandPool = VK_NULL_HANDLE;  // for submitAndWait
    VkFence fence = VK_NULL_HANDLE;
    // Submissions that outlived the timeout.  The GPU may still run them, so their command
    // buffer, fence and the staging buffers they copy through stay alive until a later
    // submitAndWait finds the fence signalled, or the context's destruction waits for them.
    struct InFlight {
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        VkFence fence = VK_NULL_HANDLE;
        std::vector<std::shared_ptr<void>> keep;
    };
    std::vector<InFlight> inFlight;
    // A finite wait turns a GPU hang into an error instead of a frozen process ($VKCONV_TIMEOUT_S).
    uint64_t waitTimeoutNs = 600ull * 1000000000ull;
    std::unique_ptr<PipelineCache> pipelineCache;
    std::unique_ptr<PipelineRegistry> pipelines;  // every pipeline this context made, shared by plans
    std::unique_ptr<FindDb> findDb;               // findAlgorithms' measured rankings (vkconv/find.hpp)
    // When findAlgorithms last had the GPU busy: a find soon after needs no long warm-up.
    std::chrono::steady_clock::time_point lastFindWork{};
    // Set before building plans to make every pipeline with VK_PIPELINE_CREATE_CAPTURE_STATISTICS
    // (when the device has pipelineExecutableInfo): the registry ORs it into each key it builds.
    // Used by vkconv-bench --shader-stats; off for normal use.
    bool captureStatistics = false;
    // Which of those pipelines also keep their _INTERNAL_REPRESENTATIONS (the ISA text; null: none):
    // RADV prints them at every build (~20 s of the RDNA4 lab's ~120).  Called from the threads
    // that build pipelines.
    std::function<bool(const PipelineKey&)> captureRepresentations;
    // Set by `vkconv-bench --shader-stats --isa`: the registry also builds each pipeline into a
    // private, empty VkPipelineCache and keeps that cache's data (ComputePipeline::binary).  On
    // drivers that return no internal representations (NVIDIA) that blob holds the machine code
    // (bench/nv_sass.py disassembles it).
    bool capturePipelineBinaries = false;
    // Set by `vkconv-bench --trace` before it builds plans: one-pass fp16 implicit_gemm_coopmat
    // plans run the kernel's trace build, which writes its phase clocks to the workspace
    // (shaders/include/coopmat_trace.glsl).  Off for normal use.
    bool coopmatTrace = false;
    // Set by `vkconv-bench --passes` while it records one profiled batch: the dispatch helpers
    // (bindConvTensors, cmdDispatch) tell it each pass's pipeline and write a timestamp after each
    // dispatch.  nullptr for normal use.
    PassProbe* passProbe = nullptr;
    // An offline context whose device table only checks commands (runtime/dry_run.hpp; tests).
    bool dryRun = false;

    ~ContextImpl();
    // Throws Error(Unsupported) naming `what` when this is a planning-only context
    // (Context::createOffline: a device profile, no VkDevice).
    void requireDevice(const char* what) const;
    void loadDeviceTable();
    void createHelpers(const std::string& cacheDir);
    // Records into a transient command buffer, submits it and waits up to waitTimeoutNs.  On a
    // timeout the submission joins inFlight together with `keep` (what it reads or writes that
    // the caller would otherwise free) and Error(Timeout) is thrown.
    void submitAndWait(const std::function<void(VkCommandBuffer)>& record,
                       std::vector<std::shared_ptr<void>> keep = {});
    // Frees the in-flight submissions whose fence has signalled.
    void reclaimFinished();
    uint32_t findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) const;
};

// Queries everything DeviceCaps holds.  `enabled` says which optional features/extensions the
// VkDevice actually has (for adopted devices that is what the application enabled).
struct EnabledDeviceFeatures {
    std::vector<std::string> extensions;
    bool shaderFloat16 = false, shaderInt8 = false, shaderInt16 = false, shaderInt64 = false;
    bool storageBuffer16BitAccess = false, storageBuffer8BitAccess = false;
    bool subgroupSizeControl = false, computeFullSubgroups = false;
    bool vulkanMemoryModel = false, cooperativeMatrix = false, bfloat16Type = false, bfloat16CooperativeMatrix = false;
    bool pipelineExecutableInfo = false;
    bool shaderSubgroupClock = false, shaderDeviceClock = false;
    bool hasExtension(const char* name) const;
};

DeviceCaps queryDeviceCaps(const InstanceTable& it, VkPhysicalDevice pd, uint32_t queueFamily,
                           const EnabledDeviceFeatures& enabled);

// What vkconv would enable on a device it creates: every useful optional feature the device has.
EnabledDeviceFeatures chooseFeatures(const InstanceTable& it, VkPhysicalDevice pd);

}  // namespace vkconv
