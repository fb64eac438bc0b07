// An application that owns its Vulkan objects and hands vkconv only what it needs: its instance,
// device and queue (Context::adopt), its own buffers (BufferView) and its own command buffer
// (Plan::record).  It links the Vulkan loader as any app does and builds against an installed
// vkconv (find_package(vkconv) or pkg-config vkconv), so it is also the package's own test:
// a 3x3 convolution with bias and ReLU, every output checked against a double-precision loop.
// Exit status: 0 checked, 1 wrong or failed, 77 no Vulkan 1.3 device with compute (a skip).
#include <vulkan/vulkan.h>

#include <vkconv/vkconv.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void check(VkResult r, const char* what) {
    if (r != VK_SUCCESS) throw std::runtime_error(std::string(what) + " failed: VkResult " + std::to_string(r));
}

// Validation messages on the app's own instance: vkconv must cause none.
int g_validationErrors = 0;
VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    ++g_validationErrors;
    std::fprintf(stderr, "validation: %s\n", data->pMessage ? data->pMessage : "?");
    return VK_FALSE;
}

bool hasLayer(const char* name) {
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> layers(n);
    vkEnumerateInstanceLayerProperties(&n, layers.data());
    for (const auto& l : layers)
        if (std::strcmp(l.layerName, name) == 0) return true;
    return false;
}

// The application's Vulkan: one instance, the first device with a compute queue, and the
// features a compute app enables (vkconv adapts to what is enabled; it enables nothing itself).
struct App {
    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkPhysicalDevice phys = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t family = 0;
    std::vector<std::string> extensions;
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};

    bool open() {
        VkApplicationInfo ai{VK_STRUCTURE_TYPE_APPLICATION_INFO};
        ai.pApplicationName = "vkconv example: adopt_device";
        ai.apiVersion = VK_API_VERSION_1_3;
        const bool validate = hasLayer("VK_LAYER_KHRONOS_validation");
        const char* layer = "VK_LAYER_KHRONOS_validation";
        const char* ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
        VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
        mci.messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
        mci.pfnUserCallback = onMessage;
        VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
        ici.pApplicationInfo = &ai;
        if (validate) {
            ici.enabledLayerCount = 1, ici.ppEnabledLayerNames = &layer;
            ici.enabledExtensionCount = 1, ici.ppEnabledExtensionNames = &ext;
            ici.pNext = &mci;
        }
        if (vkCreateInstance(&ici, nullptr, &instance) != VK_SUCCESS) return false;
        if (validate) {
            auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
                vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
            check(create(instance, &mci, nullptr, &messenger), "vkCreateDebugUtilsMessengerEXT");
        }
        uint32_t n = 0;
        vkEnumeratePhysicalDevices(instance, &n, nullptr);
        std::vector<VkPhysicalDevice> devices(n);
        vkEnumeratePhysicalDevices(instance, &n, devices.data());
        for (VkPhysicalDevice p : devices) {
            VkPhysicalDeviceProperties props;
            vkGetPhysicalDeviceProperties(p, &props);
            if (props.apiVersion < VK_API_VERSION_1_3) continue;
            vkGetPhysicalDeviceQueueFamilyProperties(p, &n, nullptr);
            std::vector<VkQueueFamilyProperties> fams(n);
            vkGetPhysicalDeviceQueueFamilyProperties(p, &n, fams.data());
            for (uint32_t i = 0; i < n; ++i)
                if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
                    phys = p, family = i;
                    break;
                }
            if (phys) break;
        }
        if (!phys) return false;
        VkPhysicalDeviceFeatures2 s2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        VkPhysicalDeviceVulkan11Features s11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
        VkPhysicalDeviceVulkan12Features s12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
        VkPhysicalDeviceVulkan13Features s13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
        s2.pNext = &s11, s11.pNext = &s12, s12.pNext = &s13;
        vkGetPhysicalDeviceFeatures2(phys, &s2);
        f2.pNext = &f11, f11.pNext = &f12, f12.pNext = &f13;
        f2.features.shaderInt16 = s2.features.shaderInt16;
        f11.storageBuffer16BitAccess = s11.storageBuffer16BitAccess;
        f12.shaderFloat16 = s12.shaderFloat16;
        f13.subgroupSizeControl = s13.subgroupSizeControl;
        f13.computeFullSubgroups = s13.computeFullSubgroups;
        f13.synchronization2 = s13.synchronization2;
        f13.maintenance4 = s13.maintenance4;
        vkEnumerateDeviceExtensionProperties(phys, nullptr, &n, nullptr);
        std::vector<VkExtensionProperties> exts(n);
        vkEnumerateDeviceExtensionProperties(phys, nullptr, &n, exts.data());
        for (const auto& e : exts)  // vkconv's fast path for descriptors; every desktop driver has it
            if (std::strcmp(e.extensionName, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) == 0)
                extensions.push_back(e.extensionName);
        std::vector<const char*> names;
        for (const auto& e : extensions) names.push_back(e.c_str());
        const float prio = 1.0f;
        VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        qci.queueFamilyIndex = family, qci.queueCount = 1, qci.pQueuePriorities = &prio;
        VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
        dci.pNext = &f2;
        dci.queueCreateInfoCount = 1, dci.pQueueCreateInfos = &qci;
        dci.enabledExtensionCount = uint32_t(names.size()), dci.ppEnabledExtensionNames = names.data();
        check(vkCreateDevice(phys, &dci, nullptr, &device), "vkCreateDevice");
        vkGetDeviceQueue(device, family, 0, &queue);
        return true;
    }
    ~App() {
        if (device) vkDestroyDevice(device, nullptr);
        if (messenger) {
            auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
                vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
            destroy(instance, messenger, nullptr);
        }
        if (instance) vkDestroyInstance(instance, nullptr);
    }
};

// One host-visible, coherent storage buffer of the application's own (an app would use its
// allocator; vkconv only sees {VkBuffer, offset, size}).
struct AppBuffer {
    VkDevice device = VK_NULL_HANDLE;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    void* data = nullptr;

    AppBuffer(const App& app, VkDeviceSize bytes) : device(app.device), size(bytes) {
        VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        bci.size = bytes, bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        check(vkCreateBuffer(device, &bci, nullptr, &buffer), "vkCreateBuffer");
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device, buffer, &req);
        VkPhysicalDeviceMemoryProperties mp;
        vkGetPhysicalDeviceMemoryProperties(app.phys, &mp);
        const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        uint32_t type = 0;
        while (type < mp.memoryTypeCount &&
               !((req.memoryTypeBits >> type & 1u) && (mp.memoryTypes[type].propertyFlags & want) == want))
            ++type;
        if (type == mp.memoryTypeCount) throw std::runtime_error("no host-visible coherent memory type");
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size, mai.memoryTypeIndex = type;
        check(vkAllocateMemory(device, &mai, nullptr, &memory), "vkAllocateMemory");
        check(vkBindBufferMemory(device, buffer, memory, 0), "vkBindBufferMemory");
        check(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &data), "vkMapMemory");
    }
    ~AppBuffer() {
        vkDestroyBuffer(device, buffer, nullptr);
        vkFreeMemory(device, memory, nullptr);
    }
    vkconv::BufferView view() const { return {buffer, 0, size}; }
    float* floats() const { return static_cast<float*>(data); }
};

int run() {
    App app;
    if (!app.open()) {
        std::puts("adopt_device: no Vulkan 1.3 device with a compute queue: skipped");
        return 77;
    }
    vkconv::ContextAdoptInfo ai;
    ai.instance = app.instance, ai.physicalDevice = app.phys, ai.device = app.device;
    ai.queueFamilyIndex = app.family, ai.queue = app.queue;
    ai.enabledDeviceExtensions = app.extensions;
    ai.enabledFeatures = &app.f2;
    ai.pipelineCacheDir = "none";  // an app would give its cache directory
    ai.getInstanceProcAddr = vkGetInstanceProcAddr;
    int wrong = 0;
    {
        vkconv::Context ctx = vkconv::Context::adopt(ai);

        // y = relu(conv3x3(x, w, pad 1, stride 2) + b), fp32 NCHW / KCRS, PyTorch's semantics.
        vkconv::ConvDesc d;
        d.n = 2, d.c = 12, d.h = 19, d.w = 23, d.k = 20, d.r = d.s = 3;
        d.padTop = d.padBottom = d.padLeft = d.padRight = 1;
        d.strideH = d.strideW = 2;
        d.hasBias = true, d.activation = vkconv::Activation::Relu;
        vkconv::Plan plan = vkconv::Plan::create(ctx, d);

        AppBuffer x(app, VkDeviceSize(d.inputBytes())), w(app, VkDeviceSize(d.filterBytes())),
            b(app, VkDeviceSize(d.biasBytes())), y(app, VkDeviceSize(d.outputBytes()));
        const VkDeviceSize ws = std::max<VkDeviceSize>(plan.workspaceSize(), 4);
        AppBuffer workspace(app, ws);
        std::mt19937 rng(2026);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (int64_t i = 0; i < d.inputElements(); ++i) x.floats()[i] = u(rng);
        for (int64_t i = 0; i < d.filterElements(); ++i) w.floats()[i] = u(rng);
        for (int64_t i = 0; i < d.k; ++i) b.floats()[i] = u(rng);
        for (int64_t i = 0; i < d.outputElements(); ++i) y.floats()[i] = std::nanf("");  // poison

        // The app's command buffer: host writes -> vkconv's pass -> host reads.
        VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pci.queueFamilyIndex = app.family;
        VkCommandPool pool = VK_NULL_HANDLE;
        check(vkCreateCommandPool(app.device, &pci, nullptr, &pool), "vkCreateCommandPool");
        VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        cai.commandPool = pool, cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, cai.commandBufferCount = 1;
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        check(vkAllocateCommandBuffers(app.device, &cai, &cmd), "vkAllocateCommandBuffers");
        VkCommandBufferBeginInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        cbi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vkBeginCommandBuffer(cmd, &cbi), "vkBeginCommandBuffer");
        VkMemoryBarrier2 before{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
        before.srcStageMask = VK_PIPELINE_STAGE_2_HOST_BIT, before.srcAccessMask = VK_ACCESS_2_HOST_WRITE_BIT;
        before.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        before.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
        VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dep.memoryBarrierCount = 1, dep.pMemoryBarriers = &before;
        vkCmdPipelineBarrier2(cmd, &dep);
        vkconv::ConvTensors t;
        t.input = x.view(), t.filter = w.view(), t.bias = b.view(), t.output = y.view();
        if (plan.workspaceSize() > 0) t.workspace = workspace.view();
        plan.record(cmd, t);
        VkMemoryBarrier2 after{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
        after.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        after.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
        after.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT, after.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
        dep.pMemoryBarriers = &after;
        vkCmdPipelineBarrier2(cmd, &dep);
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1, si.pCommandBuffers = &cmd;
        check(vkQueueSubmit(app.queue, 1, &si, VK_NULL_HANDLE), "vkQueueSubmit");
        check(vkQueueWaitIdle(app.queue), "vkQueueWaitIdle");
        vkDestroyCommandPool(app.device, pool, nullptr);

        // Every output against a double-precision loop; fp32 products summed over C*R*S = 108 terms.
        const int64_t P = d.outH(), Q = d.outW(), red = d.reductionLength();
        for (int64_t n = 0; n < d.n; ++n)
            for (int64_t k = 0; k < d.k; ++k)
                for (int64_t p = 0; p < P; ++p)
                    for (int64_t q = 0; q < Q; ++q) {
                        double acc = b.floats()[k], mag = std::fabs(acc);
                        for (int64_t c = 0; c < d.c; ++c)
                            for (int64_t r = 0; r < d.r; ++r)
                                for (int64_t s = 0; s < d.s; ++s) {
                                    const int64_t ih = p * d.strideH - d.padTop + r, iw = q * d.strideW - d.padLeft + s;
                                    if (ih < 0 || ih >= d.h || iw < 0 || iw >= d.w) continue;
                                    const double v = double(x.floats()[((n * d.c + c) * d.h + ih) * d.w + iw]) *
                                                     w.floats()[((k * d.c + c) * d.r + r) * d.s + s];
                                    acc += v, mag += std::fabs(v);
                                }
                        const double want = acc > 0 ? acc : 0;
                        const float got = y.floats()[((n * d.k + k) * P + p) * Q + q];
                        const double tol = 1e-6 * double(red) * mag + 1e-6;  // grows with the reduction
                        if (!(std::fabs(got - want) <= tol) && wrong++ < 5)
                            std::fprintf(stderr, "y[%lld,%lld,%lld,%lld] = %g, want %g\n", (long long)n, (long long)k,
                                         (long long)p, (long long)q, double(got), want);
                    }
        std::printf("adopt_device: %s, %s on %s: %lld outputs, %d wrong\n", plan.algorithm().c_str(),
                    plan.config().c_str(), ctx.caps().deviceName.c_str(), (long long)d.outputElements(), wrong);
    }  // vkconv's objects go before the app destroys its device
    if (g_validationErrors) std::fprintf(stderr, "adopt_device: %d validation message(s)\n", g_validationErrors);
    return wrong || g_validationErrors ? 1 : 0;
}

}  // namespace

int main() {
    try {
        return run();
    } catch (const vkconv::Error& e) {
        std::fprintf(stderr, "adopt_device: vkconv error: %s\n", e.what());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "adopt_device: %s\n", e.what());
    }
    return 1;
}
