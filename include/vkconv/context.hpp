// A Context is vkconv's handle on one Vulkan device and one compute queue.  Either vkconv
// creates the instance and device (Context::create), or it adopts the application's
// (Context::adopt) and never destroys them.  Functions are loaded with volk into the
// context's own tables; the application's global Vulkan function pointers are never touched.
// Threads: one Context may serve several threads at once for Plan::create, Buffer::create and
// Plan::record / recordPackFilter of any plans, each thread recording into its own command
// buffer (Vulkan's rule: a command pool is externally synchronised); a pipeline is compiled
// once per context by whichever thread asks first, different ones in parallel.  What submits to
// the context's queue (Plan::run, Plan::packFilter, Buffer::upload / download / fill,
// submitAndWait, findAlgorithms) and savePipelineCache need the caller's lock, as the queue does.
// Destroying a Plan or the Context while another thread uses it is the caller's race.
#pragma once
#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vkconv/device_caps.hpp"
#include "vkconv/export.hpp"

struct VolkDeviceTable;

namespace vkconv {

struct ContextCreateInfo {
    // Device: index or case-insensitive name substring.  Empty: $VKCONV_DEVICE, else the
    // first discrete GPU, else integrated, else virtual, else CPU (lavapipe).
    std::string device;
    // Khronos validation layer with a debug messenger; also turned on by VKCONV_VALIDATION=1.
    bool enableValidation = false;
    // Called for every validation message (after counting it); default prints to stderr.
    std::function<void(const std::string&)> onValidationMessage;
    // Directory of the on-disk pipeline cache.  Empty: $VKCONV_CACHE_DIR, else
    // $XDG_CACHE_HOME/vkconv, else ~/.cache/vkconv.  "none" disables the disk cache.
    std::string pipelineCacheDir;
    // Plan without the matrix units (VK_KHR_cooperative_matrix) even where the device has them:
    // every algorithm then runs on the scalar path.  Also turned on by VKCONV_MATRIX_UNITS=0.
    bool disableMatrixUnits = false;
    // Loader entry point; null: vkconv loads the system's libvulkan.
    PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
};

struct ContextAdoptInfo {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t queueFamilyIndex = 0;             // must support compute
    VkQueue queue = VK_NULL_HANDLE;            // vkconv submits to it only in run()/upload/download helpers
    uint32_t apiVersion = VK_API_VERSION_1_3;  // the instance's apiVersion (>= 1.3)
    // The device extensions the application enabled; vkconv uses nothing else.
    std::vector<std::string> enabledDeviceExtensions;
    // The VkPhysicalDeviceFeatures2 chain given to vkCreateDevice (null: vkconv assumes only
    // core 1.3 required features).  Used to know which optional features may be used.
    const VkPhysicalDeviceFeatures2* enabledFeatures = nullptr;
    std::string pipelineCacheDir;     // as in ContextCreateInfo
    bool disableMatrixUnits = false;  // as in ContextCreateInfo
    PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
};

// A card's measured ceilings: what `vkconv-bench --peak` measures and caches per device
// (peaks-<vendor>-<device>-<driver>.json).  Each is absent where it was not measured.
struct MeasuredPeaks {
    std::optional<double> fp32FmaTflops;    // fp32 FMA throughput, TFLOP/s
    std::optional<double> sliceLoopTflops;  // the matrix units' best staged slice loop, fp16 TFLOP/s
    std::optional<double> copyGbs;          // a streaming copy, GB/s
    std::optional<double> cacheReadGbs;     // reads that stay in the last-level cache, GB/s
    std::optional<double> callFloorUs;      // a tiny dispatch behind a compute barrier, µs
};

struct ContextImpl;

class VKCONV_API Context {
public:
    static Context create(const ContextCreateInfo& info = {});
    static Context adopt(const ContextAdoptInfo& info);
    // A planning-only context for the device a profile describes (DeviceCaps::fromJson of a
    // `vkconv-info --json` record): no Vulkan instance or device.  Plan::create chooses the
    // algorithm, tile and split exactly as it would on that device, and Plan::algorithm(),
    // config() and workspaceSize() report them; anything that needs the device (Plan::record,
    // run, Buffer::create, submitAndWait) throws Error(Unsupported).  For tooling: what would
    // vkconv run on a card you do not have (vkconv-bench --caps).
    static Context createOffline(const DeviceCaps& caps);

    Context(Context&&) noexcept;
    Context& operator=(Context&&) noexcept;
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    ~Context();  // waits for the device only if vkconv owns it

    const DeviceCaps& caps() const;
    VkInstance instance() const;
    VkPhysicalDevice physicalDevice() const;
    VkDevice device() const;
    VkQueue queue() const;
    uint32_t queueFamilyIndex() const;
    bool ownsDevice() const;
    bool offline() const;                  // made by createOffline: plans only
    const VolkDeviceTable& table() const;  // the context's device function table

    // Records into a transient command buffer, submits it to the context's queue and waits.
    void submitAndWait(const std::function<void(VkCommandBuffer)>& record);

    // Number of validation-layer messages seen (0 when validation is off).
    uint64_t validationMessages() const;

    // Calibrates the routers' device model to this card's measured ceilings: each one given
    // replaces the value the default model was fitted beside (docs/design.md, "The device
    // model"), so "auto" may choose differently.  Plans created before keep their choice; not
    // thread-safe against Plan::create.
    void calibrate(const MeasuredPeaks& peaks);

    // Writes the pipeline cache to disk now (also done on destruction).
    void savePipelineCache();

private:
    friend struct ContextAccess;  // the library's own access to its internals (not installed)
    explicit Context(std::unique_ptr<ContextImpl> impl);
    std::unique_ptr<ContextImpl> impl_;
};

// Lists the physical devices vkconv can see (index, name, type), without creating a device.
VKCONV_API std::vector<std::string> listDevices();

}  // namespace vkconv
