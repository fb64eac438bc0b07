// Context::create (vkconv owns instance and device) and Context::adopt (the application's).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/context_impl.hpp"
#include "runtime/feature_chain.hpp"
#include "runtime/find_db.hpp"
#include "runtime/pipeline_cache.hpp"
#include "runtime/pipeline.hpp"
#include "vkconv/context.hpp"
#include "util/env.hpp"

namespace vkconv {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

VKAPI_ATTR VkBool32 VKAPI_CALL debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                             VkDebugUtilsMessageTypeFlagsEXT,
                                             const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
    auto* impl = static_cast<ContextImpl*>(user);
    impl->validationMessages.fetch_add(1);
    std::string msg = data && data->pMessage ? data->pMessage : "(no message)";
    if (data && data->pMessageIdName) msg = std::string("[") + data->pMessageIdName + "] " + msg;
    if (impl->onValidationMessage)
        impl->onValidationMessage(msg);
    else
        std::fprintf(stderr, "[vkconv validation] %s\n", msg.c_str());
    return VK_FALSE;
}

uint32_t typeRank(VkPhysicalDeviceType t) {
    switch (t) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
        default: return 4;
    }
}

struct PhysicalInfo {
    VkPhysicalDevice pd;
    VkPhysicalDeviceProperties props;
};

std::vector<PhysicalInfo> physicalDevices(const InstanceTable& it, VkInstance instance) {
    uint32_t n = 0;
    VKCONV_CHECK(it.enumeratePhysicalDevices(instance, &n, nullptr));
    std::vector<VkPhysicalDevice> pds(n);
    VKCONV_CHECK(it.enumeratePhysicalDevices(instance, &n, pds.data()));
    pds.resize(n);
    std::vector<PhysicalInfo> out;
    for (auto pd : pds) {
        VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        it.getPhysicalDeviceProperties2(pd, &p2);
        out.push_back({pd, p2.properties});
    }
    return out;
}

// VKCONV_DEVICE / ContextCreateInfo::device: an index or a case-insensitive name substring.
size_t selectDevice(const std::vector<PhysicalInfo>& devs, const std::string& selector) {
    if (devs.empty()) throw Error(ErrorCode::NoDevice, "the Vulkan loader reports no physical device");
    if (!selector.empty()) {
        bool numeric = std::all_of(selector.begin(), selector.end(), [](unsigned char c) { return std::isdigit(c); });
        if (numeric) {
            // Compared digit by digit: an index of any length is out of range, never an overflow.
            const std::string digits = selector.substr(std::min(selector.find_first_not_of('0'), selector.size() - 1));
            const std::string count = std::to_string(devs.size());
            if (digits.size() < count.size() || (digits.size() == count.size() && digits < count))
                return std::stoul(digits);
            throw Error(ErrorCode::NoDevice,
                        "device index " + selector + " out of range (" + std::to_string(devs.size()) + " devices)");
        }
        for (size_t i = 0; i < devs.size(); ++i)
            if (lower(devs[i].props.deviceName).find(lower(selector)) != std::string::npos) return i;
        std::string names;
        for (auto& d : devs) names += std::string(names.empty() ? "" : ", ") + d.props.deviceName;
        throw Error(ErrorCode::NoDevice, "no device name contains \"" + selector + "\" (have: " + names + ")");
    }
    size_t best = devs.size();
    for (size_t i = 0; i < devs.size(); ++i) {
        if (devs[i].props.apiVersion < VK_API_VERSION_1_3) continue;
        if (best == devs.size() || typeRank(devs[i].props.deviceType) < typeRank(devs[best].props.deviceType)) best = i;
    }
    if (best == devs.size()) throw Error(ErrorCode::NoDevice, "no device supports Vulkan 1.3");
    return best;
}

uint32_t computeQueueFamily(const InstanceTable& it, VkPhysicalDevice pd) {
    uint32_t n = 0;
    it.getPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
    std::vector<VkQueueFamilyProperties> qf(n);
    it.getPhysicalDeviceQueueFamilyProperties(pd, &n, qf.data());
    uint32_t chosen = UINT32_MAX;
    for (uint32_t i = 0; i < n; ++i) {
        if (!(qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
        if (chosen == UINT32_MAX || (qf[chosen].timestampValidBits == 0 && qf[i].timestampValidBits > 0)) chosen = i;
    }
    if (chosen == UINT32_MAX) throw Error(ErrorCode::NoDevice, "the device has no compute queue");
    return chosen;
}

bool instanceLayerAvailable(PFN_vkGetInstanceProcAddr gipa, const char* name) {
    auto enumerate =
        reinterpret_cast<PFN_vkEnumerateInstanceLayerProperties>(gipa(nullptr, "vkEnumerateInstanceLayerProperties"));
    uint32_t n = 0;
    enumerate(&n, nullptr);
    std::vector<VkLayerProperties> layers(n);
    enumerate(&n, layers.data());
    for (auto& l : layers)
        if (std::strcmp(l.layerName, name) == 0) return true;
    return false;
}

bool instanceExtensionAvailable(PFN_vkGetInstanceProcAddr gipa, const char* name) {
    auto enumerate = reinterpret_cast<PFN_vkEnumerateInstanceExtensionProperties>(
        gipa(nullptr, "vkEnumerateInstanceExtensionProperties"));
    uint32_t n = 0;
    enumerate(nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> exts(n);
    enumerate(nullptr, &n, exts.data());
    for (auto& e : exts)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

VkInstance createInstance(PFN_vkGetInstanceProcAddr gipa, bool validation, bool& debugUtils) {
    auto enumerateVersion =
        reinterpret_cast<PFN_vkEnumerateInstanceVersion>(gipa(nullptr, "vkEnumerateInstanceVersion"));
    uint32_t loaderVersion = VK_API_VERSION_1_0;
    if (enumerateVersion) enumerateVersion(&loaderVersion);
    if (loaderVersion < VK_API_VERSION_1_3)
        throw Error(ErrorCode::NoDevice,
                    "the Vulkan loader supports only API " + std::to_string(VK_API_VERSION_MAJOR(loaderVersion)) + "." +
                        std::to_string(VK_API_VERSION_MINOR(loaderVersion)) + "; vkconv needs 1.3");
    std::vector<const char*> layers, exts;
    if (validation) {
        if (!instanceLayerAvailable(gipa, "VK_LAYER_KHRONOS_validation"))
            throw Error(ErrorCode::Unsupported,
                        "validation was requested but VK_LAYER_KHRONOS_validation is not installed "
                        "(Debian/Ubuntu: vulkan-validationlayers; or set VK_LAYER_PATH)");
        layers.push_back("VK_LAYER_KHRONOS_validation");
    }
    debugUtils = validation && instanceExtensionAvailable(gipa, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (debugUtils) exts.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    bool portability = instanceExtensionAvailable(gipa, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    if (portability) exts.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vkconv";
    app.pEngineName = "vkconv";
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    ci.enabledLayerCount = uint32_t(layers.size());
    ci.ppEnabledLayerNames = layers.data();
    ci.enabledExtensionCount = uint32_t(exts.size());
    ci.ppEnabledExtensionNames = exts.data();
    if (portability) ci.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    auto create = reinterpret_cast<PFN_vkCreateInstance>(gipa(nullptr, "vkCreateInstance"));
    VkInstance instance = VK_NULL_HANDLE;
    VKCONV_CHECK(create(&ci, nullptr, &instance));
    return instance;
}

// Creates the device with every optional feature vkconv can use that the device has.
VkDevice createDevice(const InstanceTable& it, VkPhysicalDevice pd, uint32_t family, const EnabledDeviceFeatures& e) {
    float priority = 1.0f;
    VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    q.queueFamilyIndex = family;
    q.queueCount = 1;
    q.pQueuePriorities = &priority;

    DeviceFeatureChain chain(e);
    chain.copyFrom(e);

    std::vector<const char*> exts;
    for (auto& s : e.extensions) exts.push_back(s.c_str());
    VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    ci.pNext = &chain.f2;
    ci.queueCreateInfoCount = 1;
    ci.pQueueCreateInfos = &q;
    ci.enabledExtensionCount = uint32_t(exts.size());
    ci.ppEnabledExtensionNames = exts.data();
    VkDevice device = VK_NULL_HANDLE;
    VKCONV_CHECK(it.createDevice(pd, &ci, nullptr, &device));
    return device;
}

// Reads the features an application enabled from the pNext chain it gave vkCreateDevice.
EnabledDeviceFeatures featuresFromChain(const ContextAdoptInfo& info) {
    EnabledDeviceFeatures e;
    e.extensions = info.enabledDeviceExtensions;
    for (auto* s = reinterpret_cast<const VkBaseInStructure*>(info.enabledFeatures); s; s = s->pNext) {
        switch (s->sType) {
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2: {
                auto* f = reinterpret_cast<const VkPhysicalDeviceFeatures2*>(s);
                e.shaderInt16 = f->features.shaderInt16;
                e.shaderInt64 = f->features.shaderInt64;
                break;
            }
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
                e.storageBuffer16BitAccess =
                    reinterpret_cast<const VkPhysicalDeviceVulkan11Features*>(s)->storageBuffer16BitAccess;
                break;
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES:
                e.storageBuffer16BitAccess =
                    reinterpret_cast<const VkPhysicalDevice16BitStorageFeatures*>(s)->storageBuffer16BitAccess;
                break;
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
                auto* f = reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(s);
                e.shaderFloat16 = f->shaderFloat16;
                e.shaderInt8 = f->shaderInt8;
                e.storageBuffer8BitAccess = f->storageBuffer8BitAccess;
                e.vulkanMemoryModel = f->vulkanMemoryModel;
                break;
            }
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
                auto* f = reinterpret_cast<const VkPhysicalDeviceVulkan13Features*>(s);
                e.subgroupSizeControl = f->subgroupSizeControl;
                e.computeFullSubgroups = f->computeFullSubgroups;
                break;
            }
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES: {
                auto* f = reinterpret_cast<const VkPhysicalDeviceSubgroupSizeControlFeatures*>(s);
                e.subgroupSizeControl = f->subgroupSizeControl;
                e.computeFullSubgroups = f->computeFullSubgroups;
                break;
            }
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR:
                e.cooperativeMatrix =
                    reinterpret_cast<const VkPhysicalDeviceCooperativeMatrixFeaturesKHR*>(s)->cooperativeMatrix;
                break;
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR:
                e.pipelineExecutableInfo =
                    reinterpret_cast<const VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR*>(s)
                        ->pipelineExecutableInfo;
                break;
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR: {
                auto* f = reinterpret_cast<const VkPhysicalDeviceShaderClockFeaturesKHR*>(s);
                e.shaderSubgroupClock = f->shaderSubgroupClock;
                e.shaderDeviceClock = f->shaderDeviceClock;
                break;
            }
            default:
                if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR) {  // may be outside the
                                                                                                   // header's enum
                    auto* f = reinterpret_cast<const VkPhysicalDeviceShaderBfloat16FeaturesKHR*>(s);
                    e.bfloat16Type = f->shaderBFloat16Type;
                    e.bfloat16CooperativeMatrix = f->shaderBFloat16CooperativeMatrix;
                }
                break;
        }
    }
    return e;
}

std::string resolveCacheDir(const std::string& configured) {
    if (!configured.empty()) return configured == "none" ? std::string() : configured;
    if (const char* d = std::getenv("VKCONV_CACHE_DIR"); d && *d)
        return std::strcmp(d, "none") == 0 ? std::string() : d;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/vkconv";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/vkconv";
    return {};
}

}  // namespace

ContextImpl::~ContextImpl() {
    if (device && dt.vkDestroyDevice) {  // the table is loaded right after the device exists
        // RADV's null device (compile-only) crashes in vkDeviceWaitIdle; it never ran anything.
        if (ownsDevice && caps.deviceName.rfind("Null hardware", 0) != 0) dt.vkDeviceWaitIdle(device);
        if (pipelineCache) pipelineCache->save();
        bool idle = true;
        for (auto& f : inFlight)
            idle = dt.vkWaitForFences(device, 1, &f.fence, VK_TRUE, waitTimeoutNs) == VK_SUCCESS && idle;
        if (!idle && !ownsDevice) {
            // The application's device still runs a submission of ours: freeing its command
            // buffer, fences or staging memory would corrupt it, so they are left allocated.
            new std::vector<InFlight>(std::move(inFlight));
            commandPool = VK_NULL_HANDLE;
            fence = VK_NULL_HANDLE;
        }
        for (auto& f : inFlight) dt.vkDestroyFence(device, f.fence, nullptr);  // finished (or waited idle above)
        inFlight.clear();                                                      // their command buffers go with the pool
        pipelines.reset();
        pipelineCache.reset();
        if (fence) dt.vkDestroyFence(device, fence, nullptr);
        if (commandPool) dt.vkDestroyCommandPool(device, commandPool, nullptr);
        if (ownsDevice) dt.vkDestroyDevice(device, nullptr);
    }
    if (messenger && it.destroyDebugUtilsMessenger) it.destroyDebugUtilsMessenger(instance, messenger, nullptr);
    if (ownsInstance && instance && it.destroyInstance) it.destroyInstance(instance, nullptr);
}

void ContextImpl::requireDevice(const char* what) const {
    if (!device && !dryRun)
        throw Error(ErrorCode::Unsupported, std::string(what) +
                                                " needs a Vulkan device; this context was made by "
                                                "Context::createOffline from the profile of " +
                                                caps.deviceName + " (planning only)");
}

void ContextImpl::loadDeviceTable() {
    // volk fills a device table through its global vkGetDeviceProcAddr; point it at this
    // context's loader first (the global is private to this library; see export.hpp).
    static std::mutex volkMutex;
    std::lock_guard<std::mutex> lock(volkMutex);
    vkGetDeviceProcAddr = it.getDeviceProcAddr;
    volkLoadDeviceTable(&dt, device);
}

// VKCONV_TIMEOUT_S: a whole number of seconds, 1 to the most that fits in nanoseconds.  Anything
// else is refused by name: a typo read as 0 s would time every submission out, a huge value
// would wrap to a short one.
static uint64_t parseTimeoutSeconds(const char* text) {
    constexpr uint64_t kMax = UINT64_MAX / 1000000000ull;
    uint64_t s = 0;
    const char* end = text + std::strlen(text);
    const auto [p, ec] = std::from_chars(text, end, s);
    if (ec != std::errc() || p != end || s == 0 || s > kMax)
        throw Error(ErrorCode::InvalidArgument, std::string("VKCONV_TIMEOUT_S='") + text +
                                                    "': expected a whole number of seconds from 1 to " +
                                                    std::to_string(kMax));
    return s;
}

// The matrix units' kill switch: the caps no longer offer them, so no algorithm plans for them
// (the find database and plans then belong to the scalar path, as on a device without them).
static void withoutMatrixUnits(DeviceCaps& caps) {
    caps.cooperativeMatrix = false;
    caps.bfloat16CooperativeMatrix = false;
    caps.coopMatConfigs.clear();
}

void ContextImpl::createHelpers(const std::string& cacheDir) {
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT | VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = queueFamily;
    VKCONV_CHECK(dt.vkCreateCommandPool(device, &pci, nullptr, &commandPool));
    it.getPhysicalDeviceMemoryProperties(physicalDevice, &memory);
    const std::string dir = resolveCacheDir(cacheDir);
    pipelineCache = std::make_unique<PipelineCache>(*this, dir);
    pipelines = std::make_unique<PipelineRegistry>(*this);
    findDb = std::make_unique<FindDb>(caps, dir);
    if (const char* t = std::getenv("VKCONV_TIMEOUT_S"); t && *t)
        waitTimeoutNs = parseTimeoutSeconds(t) * 1000000000ull;
}

uint32_t ContextImpl::findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags required,
                                     VkMemoryPropertyFlags preferred) const {
    uint32_t fallback = UINT32_MAX;
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        if (!(typeBits & (1u << i))) continue;
        auto flags = memory.memoryTypes[i].propertyFlags;
        if ((flags & required) != required) continue;
        if ((flags & preferred) == preferred) return i;
        if (fallback == UINT32_MAX) fallback = i;
    }
    if (fallback == UINT32_MAX) throw Error(ErrorCode::Unsupported, "no memory type with the required properties");
    return fallback;
}

// Every context gets its device model here, once its caps are final.
Context::Context(std::unique_ptr<ContextImpl> impl) : impl_(std::move(impl)) { impl_->model = modelFor(impl_->caps); }
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;
Context::~Context() = default;

Context Context::create(const ContextCreateInfo& info) {
    auto impl = std::make_unique<ContextImpl>();
    auto gipa = loaderEntryPoint(info.getInstanceProcAddr);
    bool validation = info.enableValidation || envFlag("VKCONV_VALIDATION");
    bool debugUtils = false;
    impl->instance = createInstance(gipa, validation, debugUtils);
    impl->ownsInstance = true;
    impl->it.load(gipa, impl->instance);
    impl->onValidationMessage = info.onValidationMessage;
    if (debugUtils && impl->it.createDebugUtilsMessenger) {
        VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
        mci.messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
        mci.pfnUserCallback = debugCallback;
        mci.pUserData = impl.get();
        VKCONV_CHECK(impl->it.createDebugUtilsMessenger(impl->instance, &mci, nullptr, &impl->messenger));
    }
    auto devs = physicalDevices(impl->it, impl->instance);
    std::string selector = info.device;
    if (selector.empty())
        if (const char* env = std::getenv("VKCONV_DEVICE")) selector = env;
    size_t index = selectDevice(devs, selector);
    if (devs[index].props.apiVersion < VK_API_VERSION_1_3)
        throw Error(ErrorCode::Unsupported,
                    std::string(devs[index].props.deviceName) + " supports only Vulkan " +
                        std::to_string(VK_API_VERSION_MAJOR(devs[index].props.apiVersion)) + "." +
                        std::to_string(VK_API_VERSION_MINOR(devs[index].props.apiVersion)) + "; vkconv needs 1.3");
    impl->physicalDevice = devs[index].pd;
    impl->queueFamily = computeQueueFamily(impl->it, impl->physicalDevice);
    auto features = chooseFeatures(impl->it, impl->physicalDevice);
    impl->device = createDevice(impl->it, impl->physicalDevice, impl->queueFamily, features);
    impl->ownsDevice = true;
    impl->loadDeviceTable();
    impl->caps = queryDeviceCaps(impl->it, impl->physicalDevice, impl->queueFamily, features);
    if (info.disableMatrixUnits || envSwitch("VKCONV_MATRIX_UNITS") == false) withoutMatrixUnits(impl->caps);
    impl->createHelpers(info.pipelineCacheDir);
    impl->dt.vkGetDeviceQueue(impl->device, impl->queueFamily, 0, &impl->queue);
    return Context(std::move(impl));
}

Context Context::createOffline(const DeviceCaps& caps) {
    if (caps.subgroupSize == 0 || caps.maxSharedMemory == 0 || caps.maxWorkgroupInvocations == 0)
        throw Error(ErrorCode::InvalidArgument, "Context::createOffline: the profile of '" + caps.deviceName +
                                                    "' has no subgroup size, shared memory or workgroup limits");
    if (caps.apiVersion < VK_API_VERSION_1_3)
        throw Error(ErrorCode::Unsupported,
                    caps.deviceName + " supports only Vulkan " + caps.apiVersionString() + "; vkconv needs 1.3");
    auto impl = std::make_unique<ContextImpl>();
    impl->caps = caps;
    if (envSwitch("VKCONV_MATRIX_UNITS") == false) withoutMatrixUnits(impl->caps);
    impl->pipelines = std::make_unique<PipelineRegistry>(*impl);
    return Context(std::move(impl));
}

bool Context::offline() const { return impl_->device == VK_NULL_HANDLE; }

Context Context::adopt(const ContextAdoptInfo& info) {
    if (!info.instance || !info.physicalDevice || !info.device || !info.queue)
        throw Error(ErrorCode::InvalidArgument, "ContextAdoptInfo needs instance, physicalDevice, device and queue");
    if (info.apiVersion < VK_API_VERSION_1_3)
        throw Error(ErrorCode::Unsupported, "the adopted instance was created for Vulkan < 1.3; vkconv needs 1.3");
    auto impl = std::make_unique<ContextImpl>();
    auto gipa = loaderEntryPoint(info.getInstanceProcAddr);
    impl->instance = info.instance;
    impl->physicalDevice = info.physicalDevice;
    impl->device = info.device;
    impl->queue = info.queue;
    impl->queueFamily = info.queueFamilyIndex;
    impl->it.load(gipa, info.instance);
    impl->loadDeviceTable();
    auto features = featuresFromChain(info);
    impl->caps = queryDeviceCaps(impl->it, impl->physicalDevice, impl->queueFamily, features);
    if (info.disableMatrixUnits || envSwitch("VKCONV_MATRIX_UNITS") == false) withoutMatrixUnits(impl->caps);
    if (impl->caps.apiVersion < VK_API_VERSION_1_3)
        throw Error(ErrorCode::Unsupported,
                    impl->caps.deviceName + " supports only Vulkan " + impl->caps.apiVersionString());
    impl->createHelpers(info.pipelineCacheDir);
    return Context(std::move(impl));
}

const DeviceCaps& Context::caps() const { return impl_->caps; }
VkInstance Context::instance() const { return impl_->instance; }
VkPhysicalDevice Context::physicalDevice() const { return impl_->physicalDevice; }
VkDevice Context::device() const { return impl_->device; }
VkQueue Context::queue() const { return impl_->queue; }
uint32_t Context::queueFamilyIndex() const { return impl_->queueFamily; }
bool Context::ownsDevice() const { return impl_->ownsDevice; }
const VolkDeviceTable& Context::table() const { return impl_->dt; }
uint64_t Context::validationMessages() const { return impl_->validationMessages.load(); }
void Context::calibrate(const MeasuredPeaks& peaks) { impl_->model = modelFor(impl_->caps, &peaks); }
void Context::savePipelineCache() {
    if (impl_->pipelineCache) impl_->pipelineCache->save();
}

void Context::submitAndWait(const std::function<void(VkCommandBuffer)>& record) { impl_->submitAndWait(record); }

void ContextImpl::reclaimFinished() {
    std::erase_if(inFlight, [&](InFlight& f) {
        if (dt.vkGetFenceStatus(device, f.fence) != VK_SUCCESS) return false;
        dt.vkFreeCommandBuffers(device, commandPool, 1, &f.cmd);
        dt.vkDestroyFence(device, f.fence, nullptr);
        return true;
    });
}

void ContextImpl::submitAndWait(const std::function<void(VkCommandBuffer)>& record,
                                std::vector<std::shared_ptr<void>> keep) {
    requireDevice("Context::submitAndWait");
    reclaimFinished();
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = commandPool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VKCONV_CHECK(dt.vkAllocateCommandBuffers(device, &ai, &cmd));
    struct Free {  // until the submission is known finished, or handed to inFlight
        ContextImpl* c;
        VkCommandBuffer b;
        ~Free() {
            if (b) c->dt.vkFreeCommandBuffers(c->device, c->commandPool, 1, &b);
        }
    } guard{this, cmd};
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VKCONV_CHECK(dt.vkBeginCommandBuffer(cmd, &bi));
    record(cmd);
    VKCONV_CHECK(dt.vkEndCommandBuffer(cmd));
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    if (!fence) {  // made on first use: compile-only devices (RADV's null device) have no fences
        VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VKCONV_CHECK(dt.vkCreateFence(device, &fci, nullptr, &fence));
    }
    VKCONV_CHECK(dt.vkResetFences(device, 1, &fence));
    VKCONV_CHECK(dt.vkQueueSubmit(queue, 1, &si, fence));
    // A finite wait turns a GPU hang into an error instead of a frozen process.
    const VkResult r = dt.vkWaitForFences(device, 1, &fence, VK_TRUE, waitTimeoutNs);
    if (r == VK_TIMEOUT) {
        inFlight.push_back({cmd, fence, std::move(keep)});
        guard.b = VK_NULL_HANDLE;
        fence = VK_NULL_HANDLE;  // still pending: the next submission makes its own
        throw Error(ErrorCode::Timeout, "the GPU did not finish a submission within " +
                                            std::to_string(waitTimeoutNs / 1000000000ull) +
                                            " s (VKCONV_TIMEOUT_S); it may still be running: keep its buffers alive "
                                            "until the device is idle (README, \"Timeouts\")");
    }
    VKCONV_CHECK(r);
}

std::vector<std::string> listDevices() {
    auto gipa = loaderEntryPoint(nullptr);
    bool debugUtils = false;
    VkInstance instance = createInstance(gipa, false, debugUtils);
    InstanceTable it;
    it.load(gipa, instance);
    std::vector<std::string> out;
    try {
        auto devs = physicalDevices(it, instance);
        for (size_t i = 0; i < devs.size(); ++i) {
            VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
            it.getPhysicalDeviceProperties2(devs[i].pd, &p2);
            DeviceCaps tmp;
            tmp.deviceType = devs[i].props.deviceType;
            tmp.apiVersion = devs[i].props.apiVersion;
            std::string line = "[";  // appends only: GCC 12 flags "literal" + string with -Wrestrict
            line += std::to_string(i) + "] ";
            line += devs[i].props.deviceName;
            line += " (" + tmp.deviceTypeString() + ", Vulkan " + tmp.apiVersionString() + ")";
            out.push_back(std::move(line));
        }
    } catch (...) {
        it.destroyInstance(instance, nullptr);
        throw;
    }
    it.destroyInstance(instance, nullptr);
    return out;
}

}  // namespace vkconv
