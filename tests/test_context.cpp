// Context, Buffer and Plan plumbing: device listing and caps, adopting an application's
// VkInstance/VkDevice, record() into an application command buffer, Plan reuse, BufferView
// offsets.  This file calls the Vulkan loader directly (linked, no dlopen), as an app would.
#undef VK_NO_PROTOTYPES
#include <dlfcn.h>
#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cstring>
#include <iostream>

#include "environment.hpp"
#include "half.hpp"
#include "harness.hpp"

using namespace vkt;
using vkconv::ConvDesc;
using vkconv::DType;

namespace {

// Minimal JSON syntax check (objects, arrays, strings, numbers, literals).
struct JsonChecker {
    const std::string& s;
    size_t i = 0;
    void ws() {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    }
    bool lit(const char* t) {
        const size_t n = std::strlen(t);
        if (s.compare(i, n, t) != 0) return false;
        i += n;
        return true;
    }
    bool str() {
        if (i >= s.size() || s[i] != '"') return false;
        for (++i; i < s.size(); ++i) {
            if (s[i] == '\\')
                ++i;
            else if (s[i] == '"')
                return ++i, true;
            else if (static_cast<unsigned char>(s[i]) < 0x20)
                return false;
        }
        return false;
    }
    bool num() {
        const size_t b = i;
        while (i < s.size() && std::strchr("+-0123456789.eE", s[i])) ++i;
        return i > b;
    }
    bool value() {
        ws();
        if (i >= s.size()) return false;
        const char ch = s[i];
        if (ch == '{' || ch == '[') {
            const char close = ch == '{' ? '}' : ']';
            ++i, ws();
            if (i < s.size() && s[i] == close) return ++i, true;
            for (;;) {
                if (ch == '{') {
                    ws();
                    if (!str()) return false;
                    ws();
                    if (i >= s.size() || s[i++] != ':') return false;
                }
                if (!value()) return false;
                ws();
                if (i < s.size() && s[i] == ',') {
                    ++i;
                    continue;
                }
                return i < s.size() && s[i++] == close;
            }
        }
        if (ch == '"') return str();
        return lit("true") || lit("false") || lit("null") || num();
    }
    bool document() { return value() && (ws(), i == s.size()); }
};

const ConvDesc& smallDesc() {
    static const ConvDesc d = [] {
        ConvDesc x;
        x.n = 2, x.c = 6, x.h = 9, x.w = 7, x.k = 10, x.r = 3, x.s = 3, x.hasBias = true;
        x.pad(1, 1);
        return x;
    }();
    return d;
}

std::vector<std::string> acceptingAlgorithms(vkconv::Context& c, const ConvDesc& d) {
    std::vector<std::string> v;
    for (const auto& a : vkconv::algorithmNames())
        if (vkconv::whyUnsupported(c, d, a).empty()) v.push_back(a);
    return v;
}

// compare() knows nothing of the plan and seed: add them for the failure message.
CheckResult labeled(CheckResult r, const vkconv::Plan& plan, uint64_t seed) {
    r.algorithm = plan.algorithm(), r.config = plan.config(), r.seed = seed;
    return r;
}

void check(VkResult r, const char* what) {
    if (r != VK_SUCCESS) throw std::runtime_error(std::string(what) + " failed: VkResult " + std::to_string(int(r)));
}

}  // namespace

class ContextTest : public VkconvTest {};

TEST_F(ContextTest, ListDevices) {
    const auto devs = vkconv::listDevices();
    ASSERT_FALSE(devs.empty());
    for (const auto& d : devs) EXPECT_FALSE(d.empty());
}

TEST_F(ContextTest, CapsAreSane) {
    const auto& c = ctx().caps();
    EXPECT_FALSE(c.deviceName.empty());
    EXPECT_GE(VK_API_VERSION_MAJOR(c.apiVersion) * 100 + VK_API_VERSION_MINOR(c.apiVersion), 103u);
    EXPECT_GT(c.subgroupSize, 0u);
    EXPECT_EQ(c.subgroupSize & (c.subgroupSize - 1), 0u) << "subgroup size is a power of two";
    EXPECT_LE(c.minSubgroupSize, c.subgroupSize);
    EXPECT_GE(c.maxSubgroupSize, c.subgroupSize);
    EXPECT_GE(c.maxWorkgroupInvocations, 128u);  // Vulkan minimums
    EXPECT_GE(c.maxSharedMemory, 16384u);
    EXPECT_GE(c.maxStorageBufferRange, uint64_t(1) << 27);
    EXPECT_GE(c.maxPushConstantsSize, 128u);
    for (int i = 0; i < 3; ++i) EXPECT_GT(c.maxWorkgroupSize[i], 0u);
    EXPECT_GE(c.maxWorkgroupCount[0], 65535u);
    EXPECT_GT(c.minStorageBufferOffsetAlignment, 0u);
    EXPECT_EQ(c.minStorageBufferOffsetAlignment & (c.minStorageBufferOffsetAlignment - 1), 0u);
    if (c.timestamps) {
        EXPECT_GT(c.timestampPeriod, 0.0f);
        EXPECT_GT(c.timestampValidBits, 0u);
        EXPECT_LE(c.timestampValidBits, 64u);
        EXPECT_EQ(c.timestampMask,
                  c.timestampValidBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << c.timestampValidBits) - 1);
    }
    if (c.cooperativeMatrix) {
        EXPECT_FALSE(c.coopMatConfigs.empty());
    }
    for (const auto& m : c.coopMatConfigs) {
        EXPECT_GT(m.m * m.n * m.k, 0u);
        EXPECT_FALSE(m.toString().empty());
    }
    EXPECT_EQ(c.apiVersionString().rfind("1.", 0), 0u) << c.apiVersionString();
    EXPECT_FALSE(c.driverVersionString().empty());
    EXPECT_FALSE(c.deviceTypeString().empty());
    EXPECT_NE(vkconv::toString(c.amdArch), nullptr);
    const auto text = c.toText();
    EXPECT_NE(text.find(c.deviceName), std::string::npos) << text;
}

TEST_F(ContextTest, CapsJson) {
    const auto json = ctx().caps().toJson();
    ASSERT_FALSE(json.empty());
    EXPECT_EQ(json.front(), '{');
    EXPECT_EQ(json.back(), '}');
    EXPECT_TRUE(JsonChecker{json}.document()) << json;
    EXPECT_NE(json.find(ctx().caps().deviceName), std::string::npos);
}

TEST_F(ContextTest, AccessorsAndOwnership) {
    EXPECT_TRUE(ctx().ownsDevice());
    EXPECT_NE(ctx().instance(), VK_NULL_HANDLE);
    EXPECT_NE(ctx().physicalDevice(), VK_NULL_HANDLE);
    EXPECT_NE(ctx().device(), VK_NULL_HANDLE);
    EXPECT_NE(ctx().queue(), VK_NULL_HANDLE);
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx().physicalDevice(), &n, nullptr);
    std::vector<VkQueueFamilyProperties> fam(n);
    vkGetPhysicalDeviceQueueFamilyProperties(ctx().physicalDevice(), &n, fam.data());
    ASSERT_LT(ctx().queueFamilyIndex(), n);
    EXPECT_TRUE(fam[ctx().queueFamilyIndex()].queueFlags & VK_QUEUE_COMPUTE_BIT);
}

TEST_F(ContextTest, BuffersHostVisibleAndMove) {
    auto hv = vkconv::Buffer::create(ctx(), 256, vkconv::MemoryKind::HostVisible);
    ASSERT_NE(hv.mapped(), nullptr);
    std::vector<uint8_t> in(256), out(256);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 7 + 3);
    hv.upload(in.data(), 200, 16);
    hv.download(out.data(), 200, 16);
    EXPECT_EQ(std::memcmp(in.data(), out.data(), 200), 0);
    EXPECT_EQ(std::memcmp(static_cast<uint8_t*>(hv.mapped()) + 16, in.data(), 200), 0);
    hv.fill(0xDEADBEEFu);
    uint32_t w = 0;
    hv.download(&w, 4, 252);
    EXPECT_EQ(w, 0xDEADBEEFu);
    vkconv::Buffer moved = std::move(hv);
    EXPECT_EQ(hv.handle(), VK_NULL_HANDLE);
    EXPECT_EQ(moved.size(), 256u);
    // Device-local buffers through the staging path.
    auto dl = vkconv::Buffer::create(ctx(), 1 << 20);
    std::vector<uint8_t> big(1 << 20), back(1 << 20);
    for (size_t i = 0; i < big.size(); ++i) big[i] = uint8_t(i ^ (i >> 8));
    dl.upload(big.data(), big.size());
    dl.download(back.data(), back.size());
    EXPECT_EQ(big, back);
}

TEST_F(ContextTest, PlanReuseWithDifferentBuffers) {
    ConvDesc d = smallDesc();
    d.hasResidual = true;
    d.activation = vkconv::Activation::Relu;
    for (const auto& a : acceptingAlgorithms(ctx(), d)) {
        vkconv::PlanOptions o;
        o.algorithm = a;
        auto plan = vkconv::Plan::create(ctx(), d, o);
        std::vector<ConvData> datas;
        std::vector<DeviceConv> devs;
        const uint64_t seeds[] = {11, 12, 13};
        for (uint64_t seed : seeds) {
            datas.push_back(makeConvData(d, seed, DataMode::Uniform));
            devs.push_back(uploadConv(ctx(), d, packConv(d, datas.back()), plan.workspaceSize()));
        }
        // Run 0, 1, 2, then 0 again: nothing may leak from one binding set into the next.
        for (size_t i : {0, 1, 2, 0}) {
            poison(devs[i], d.dtype);
            plan.run(devs[i].tensors(d));
            const auto r =
                labeled(compare(d, downloadOutput(d, devs[i].output), referenceAll(d, datas[i]), DataMode::Uniform),
                        plan, seeds[i]);
            EXPECT_TRUE(passed(r)) << "algorithm " << a << ", buffer set " << i;
        }
    }
}

// Two convolutions chained in one application command buffer with the barriers plan.hpp
// documents; the app also poisons the outputs in the same command buffer.
TEST_F(ContextTest, RecordIntoApplicationCommandBuffer) {
    const ConvDesc d1 = smallDesc();
    ConvDesc d2;
    d2.n = d1.n, d2.c = d1.k, d2.h = d1.outH(), d2.w = d1.outW(), d2.k = 5, d2.r = 1, d2.s = 3, d2.pad(0, 1);
    d2.hasResidual = true;
    auto p1 = vkconv::Plan::create(ctx(), d1), p2 = vkconv::Plan::create(ctx(), d2);
    const auto data1 = makeConvData(d1, 21, DataMode::Uniform);
    auto data2 = makeConvData(d2, 22, DataMode::Uniform);
    DeviceConv dev1 = uploadConv(ctx(), d1, packConv(d1, data1), p1.workspaceSize());
    DeviceConv dev2 = uploadConv(ctx(), d2, packConv(d2, data2), p2.workspaceSize());
    auto t1 = dev1.tensors(d1), t2 = dev2.tensors(d2);
    t2.input = t1.output;  // conv2 reads conv1's output
    auto readback =
        vkconv::Buffer::create(ctx(), roundUp(VkDeviceSize(d2.outputBytes()), 4), vkconv::MemoryKind::HostVisible);

    const VkDevice dev = ctx().device();
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = ctx().queueFamilyIndex();
    VkCommandPool pool;
    check(vkCreateCommandPool(dev, &pci, nullptr, &pool), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = pool, cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, cai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    check(vkAllocateCommandBuffers(dev, &cai, &cmd), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer");
    auto barrier = [&](VkPipelineStageFlags src, VkAccessFlags srcA, VkPipelineStageFlags dst, VkAccessFlags dstA) {
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = srcA, mb.dstAccessMask = dstA;
        vkCmdPipelineBarrier(cmd, src, dst, 0, 1, &mb, 0, nullptr, 0, nullptr);
    };
    vkCmdFillBuffer(cmd, dev1.output.handle(), 0, VK_WHOLE_SIZE, poisonWord(d1.dtype));
    vkCmdFillBuffer(cmd, dev2.output.handle(), 0, VK_WHOLE_SIZE, poisonWord(d2.dtype));
    barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    p1.record(cmd, t1);
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    p2.record(cmd, t2);
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferCopy region{0, 0, VkDeviceSize(d2.outputBytes())};
    vkCmdCopyBuffer(cmd, dev2.output.handle(), readback.handle(), 1, &region);
    barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
            VK_ACCESS_HOST_READ_BIT);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    check(vkCreateFence(dev, &fci, nullptr, &fence), "vkCreateFence");
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1, si.pCommandBuffers = &cmd;
    check(vkQueueSubmit(ctx().queue(), 1, &si, fence), "vkQueueSubmit");
    check(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    vkDestroyFence(dev, fence, nullptr);
    vkDestroyCommandPool(dev, pool, nullptr);

    const auto out1 = downloadOutput(d1, dev1.output);
    EXPECT_TRUE(passed(labeled(compare(d1, out1, referenceAll(d1, data1), DataMode::Uniform), p1, 21)))
        << "first convolution";
    std::vector<uint8_t> bytes(size_t(d2.outputBytes()));
    readback.download(bytes.data(), bytes.size());
    const auto out2 = unpack(bytes.data(), outputDims(d2), outputChannelsLast(d2), d2.dtype);
    data2.input = out1;  // the reference of conv2 reads what conv1 actually produced
    EXPECT_TRUE(passed(labeled(compare(d2, out2, referenceAll(d2, data2), DataMode::Uniform), p2, 22)))
        << "second (chained) convolution";
}

// Tensors placed at nonzero aligned offsets inside one larger buffer, with sentinel bytes
// before, between and after them: the output must be right and no sentinel byte may change.
TEST_F(ContextTest, BufferViewOffsetsKeepSentinels) {
    const VkDeviceSize align = std::max<VkDeviceSize>(ctx().caps().minStorageBufferOffsetAlignment, 4);
    for (auto t : {DType::F32, DType::F16, DType::BF16})
        for (bool depthwise : {false, true}) {
            ConvDesc d;
            d.c = 3, d.h = 5, d.w = 7, d.k = 3, d.r = 3, d.s = 3, d.pad(1, 1), d.dtype = t;  // 105 outputs: odd
            d.hasBias = d.hasResidual = true;
            if (depthwise) {  // the depthwise kernels' vector paths (16-byte NHWC words)
                d.c = d.k = d.groups = 16;
                d.inputLayout = d.outputLayout = vkconv::TensorLayout::NHWC;
            }
            for (const auto& a : acceptingAlgorithms(ctx(), d)) {
                SCOPED_TRACE(a + " " + d.toString());
                vkconv::PlanOptions o;
                o.algorithm = a;
                auto plan = vkconv::Plan::create(ctx(), d, o);
                const auto data = makeConvData(d, 31, DataMode::Uniform);
                const auto packed = packConv(d, data);
                // Layout: [sentinel] input [sentinel] filter [sentinel] bias [sentinel] residual [sentinel] output
                // [sentinel] workspace [sentinel]
                const std::vector<const std::vector<uint8_t>*> srcs = {&packed.input, &packed.filter, &packed.bias,
                                                                       &packed.residual};
                std::vector<VkDeviceSize> off;
                VkDeviceSize pos = 3 * align;
                for (auto* s : srcs) off.push_back(pos), pos = roundUp(pos + s->size() + 1, align) + align;
                const VkDeviceSize outOff = pos;
                pos = roundUp(pos + VkDeviceSize(d.outputBytes()) + 1, align) + align;
                const VkDeviceSize wsOff = pos;
                const VkDeviceSize total = roundUp(pos + plan.workspaceSize() + 1, align) + 2 * align;
                std::vector<uint8_t> host(total);
                for (size_t i = 0; i < host.size(); ++i) host[i] = uint8_t(0xA5 ^ (i * 13));
                for (size_t i = 0; i < srcs.size(); ++i)
                    std::memcpy(host.data() + off[i], srcs[i]->data(), srcs[i]->size());
                const uint32_t nan = poisonWord(t);
                for (VkDeviceSize b = 0; b < VkDeviceSize(d.outputBytes()); b += 2)  // NaN halves/words
                    std::memcpy(host.data() + outOff + b, reinterpret_cast<const uint8_t*>(&nan) + (b % 4), 2);
                auto buf = vkconv::Buffer::create(ctx(), total);
                buf.upload(host.data(), total);
                vkconv::ConvTensors ts;
                ts.input = buf.view(off[0], packed.input.size());
                ts.filter = buf.view(off[1], packed.filter.size());
                ts.bias = buf.view(off[2], packed.bias.size());
                ts.residual = buf.view(off[3], packed.residual.size());
                ts.output = buf.view(outOff, VkDeviceSize(d.outputBytes()));
                if (plan.workspaceSize() > 0) ts.workspace = buf.view(wsOff, plan.workspaceSize());
                plan.run(ts);
                std::vector<uint8_t> after(total);
                buf.download(after.data(), total);
                const auto gpu = unpack(after.data() + outOff, outputDims(d), outputChannelsLast(d), d.dtype);
                EXPECT_TRUE(passed(labeled(compare(d, gpu, referenceAll(d, data), DataMode::Uniform), plan, 31)));
                int64_t changed = 0, first = -1;
                for (VkDeviceSize i = 0; i < total; ++i) {
                    const bool inOut = i >= outOff && i < outOff + VkDeviceSize(d.outputBytes());
                    const bool inWs = plan.workspaceSize() > 0 && i >= wsOff && i < wsOff + plan.workspaceSize();
                    if (!inOut && !inWs && after[i] != host[i] && changed++ == 0) first = int64_t(i);
                }
                EXPECT_EQ(changed, 0) << "bytes outside the output view changed; first at byte " << first
                                      << " (output view [" << outOff << ", " << outOff + d.outputBytes() << "))";
            }
        }
}

// bf16 outputs round to nearest even on every path: with an all-zero input each output is the
// bias plus the residual (one fp32 addition, as the kernels make it), so every stored value must
// be exactly that sum's bf16 round-to-nearest-even; a store that truncates misses about half of
// them (as a device's own bf16 conversion did: the H200's driver does not round it to nearest even).  A 3x3, a
// depthwise and a 1x1 layer, NCHW and NHWC, through every algorithm that takes each.
TEST_F(ContextTest, Bf16StoresRoundToNearestEven) {
    std::vector<ConvDesc> descs;
    for (bool channelsLast : {false, true}) {
        ConvDesc d;
        d.c = 16, d.h = 9, d.w = 7, d.k = 16, d.r = d.s = 3, d.pad(1, 1), d.dtype = DType::BF16;
        d.hasBias = d.hasResidual = true;
        if (channelsLast) {
            d.inputLayout = d.outputLayout = vkconv::TensorLayout::NHWC;
            d.filterLayout = vkconv::FilterLayout::KRSC;
        }
        descs.push_back(d);
        ConvDesc dw = d;
        dw.groups = 16;
        descs.push_back(dw);
        ConvDesc pw = d;
        pw.r = pw.s = 1, pw.pad(0, 0);
        descs.push_back(pw);
    }
    for (const ConvDesc& d : descs)
        for (const auto& a : acceptingAlgorithms(ctx(), d)) {
            SCOPED_TRACE(a + " " + d.toString());
            vkconv::PlanOptions o;
            o.algorithm = a;
            auto plan = vkconv::Plan::create(ctx(), d, o);
            ConvData data = makeConvData(d, 41, DataMode::Uniform);
            std::fill(data.input.begin(), data.input.end(), 0.0f);
            DeviceConv dev = uploadConv(ctx(), d, packConv(d, data), plan.workspaceSize());
            poison(dev, d.dtype);
            plan.run(dev.tensors(d));
            const std::vector<float> gpu = downloadOutput(d, dev.output);
            const RefResult ref = referenceAll(d, data);
            int64_t wrong = 0, first = -1;
            for (size_t i = 0; i < ref.value.size(); ++i) {
                const int64_t idx = ref.indices[i];
                if (gpu[size_t(idx)] != roundToBf16(float(ref.value[i])) && wrong++ == 0) first = int64_t(i);
            }
            EXPECT_EQ(wrong, 0) << plan.config() << ": " << wrong << " of " << ref.value.size()
                                << " outputs are not the round-to-nearest-even bf16 of bias + residual; first: gpu "
                                << (first >= 0 ? gpu[size_t(ref.indices[size_t(first)])] : 0.0f) << ", exact "
                                << (first >= 0 ? ref.value[size_t(first)] : 0.0);
        }
}

namespace {

// What an application does on its own: instance (with the validation layer and its own
// messenger), device, queue.  Destroyed in the destructor, after vkconv's Context is gone.
struct AppVulkan {
    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkPhysicalDevice phys = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t family = 0;
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    std::vector<std::string>& messages;  // outlives this object: vkDestroyDevice reports leaks

    static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                    VkDebugUtilsMessageTypeFlagsEXT,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
        static_cast<std::vector<std::string>*>(user)->push_back(data->pMessage ? data->pMessage : "?");
        return VK_FALSE;
    }

    std::vector<std::string> extensions;  // device extensions enabled

    AppVulkan(std::vector<std::string>& sink, bool pushDescriptor) : messages(sink) {
        VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
        app.pApplicationName = "vkconv_tests adopt";
        app.apiVersion = VK_API_VERSION_1_3;
        const bool layer = validationLayerAvailable();
        const char* layers[] = {"VK_LAYER_KHRONOS_validation"};
        const char* exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
        VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
        mci.messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
        mci.pfnUserCallback = onMessage;
        mci.pUserData = &messages;
        VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
        ici.pApplicationInfo = &app;
        ici.enabledLayerCount = layer ? 1 : 0, ici.ppEnabledLayerNames = layers;
        ici.enabledExtensionCount = layer ? 1 : 0, ici.ppEnabledExtensionNames = exts;
        ici.pNext = layer ? &mci : nullptr;  // also covers vkCreateInstance/vkDestroyInstance
        check(vkCreateInstance(&ici, nullptr, &instance), "vkCreateInstance");
        if (layer) {
            auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
                vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
            check(create(instance, &mci, nullptr, &messenger), "vkCreateDebugUtilsMessengerEXT");
        }
        // The device the shared context uses (so $VKCONV_DEVICE applies here too).
        uint32_t n = 0;
        vkEnumeratePhysicalDevices(instance, &n, nullptr);
        std::vector<VkPhysicalDevice> devs(n);
        vkEnumeratePhysicalDevices(instance, &n, devs.data());
        if (devs.empty()) throw std::runtime_error("no physical device");
        phys = devs[0];
        for (auto p : devs) {
            VkPhysicalDeviceProperties props;
            vkGetPhysicalDeviceProperties(p, &props);
            if (ctx().caps().deviceName == props.deviceName) phys = p;
        }
        vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, nullptr);
        std::vector<VkQueueFamilyProperties> fams(n);
        vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, fams.data());
        for (family = 0; family < n && !(fams[family].queueFlags & VK_QUEUE_COMPUTE_BIT);) ++family;
        // Enable what a compute app typically enables, where supported; nothing else.
        VkPhysicalDeviceFeatures2 s2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        VkPhysicalDeviceVulkan11Features s11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
        VkPhysicalDeviceVulkan12Features s12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
        VkPhysicalDeviceVulkan13Features s13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
        s2.pNext = &s11, s11.pNext = &s12, s12.pNext = &s13;
        vkGetPhysicalDeviceFeatures2(phys, &s2);
        f2.pNext = &f11, f11.pNext = &f12, f12.pNext = &f13;
        f2.features.shaderInt16 = s2.features.shaderInt16;
        f2.features.shaderInt64 = s2.features.shaderInt64;
        f11.storageBuffer16BitAccess = s11.storageBuffer16BitAccess;
        f12.shaderFloat16 = s12.shaderFloat16;
        f12.shaderInt8 = s12.shaderInt8;
        f12.storageBuffer8BitAccess = s12.storageBuffer8BitAccess;
        f12.vulkanMemoryModel = s12.vulkanMemoryModel;
        f12.vulkanMemoryModelDeviceScope = s12.vulkanMemoryModelDeviceScope;
        f13.subgroupSizeControl = s13.subgroupSizeControl;
        f13.computeFullSubgroups = s13.computeFullSubgroups;
        f13.synchronization2 = s13.synchronization2;
        f13.maintenance4 = s13.maintenance4;
        if (pushDescriptor) {  // vkconv's fast path; a 1.3 app enables it when the device has it
            vkEnumerateDeviceExtensionProperties(phys, nullptr, &n, nullptr);
            std::vector<VkExtensionProperties> props(n);
            vkEnumerateDeviceExtensionProperties(phys, nullptr, &n, props.data());
            for (const auto& e : props)
                if (std::strcmp(e.extensionName, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) == 0)
                    extensions.push_back(e.extensionName);
        }
        std::vector<const char*> extNames;
        for (const auto& e : extensions) extNames.push_back(e.c_str());
        const float prio = 1.0f;
        VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        qci.queueFamilyIndex = family, qci.queueCount = 1, qci.pQueuePriorities = &prio;
        VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
        dci.pNext = &f2;
        dci.queueCreateInfoCount = 1, dci.pQueueCreateInfos = &qci;
        dci.enabledExtensionCount = uint32_t(extNames.size()), dci.ppEnabledExtensionNames = extNames.data();
        check(vkCreateDevice(phys, &dci, nullptr, &device), "vkCreateDevice");
        vkGetDeviceQueue(device, family, 0, &queue);
    }
    ~AppVulkan() {
        if (device) vkDestroyDevice(device, nullptr);
        if (messenger) {
            auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
                vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
            destroy(instance, messenger, nullptr);
        }
        if (instance) vkDestroyInstance(instance, nullptr);
    }
};

std::string libraryOf(void* symbol) {
    Dl_info info{};
    return dladdr(symbol, &info) && info.dli_fname ? info.dli_fname : "?";
}

}  // namespace

// Variant 0: the app enables VK_KHR_push_descriptor (where the device has it) and vkconv loads
// the system loader itself; variant 1: no device extension at all, and the app passes its own
// vkGetInstanceProcAddr.  Without extensions vkconv may decline with Unsupported, but must not
// use anything the app did not enable (the app's validation layer would report it).
TEST_F(ContextTest, AdoptApplicationDevice) {
    int ran = 0;
    for (int variant : {0, 1}) {
        const bool withPush = variant == 0, passLoader = variant == 1;
        SCOPED_TRACE(withPush ? "app enables VK_KHR_push_descriptor, getInstanceProcAddr = null"
                              : "app enables no device extension, getInstanceProcAddr = the app's");
        std::vector<std::string> appMessages;
        int declined = 0;
        {
            AppVulkan app(appMessages, withPush);
            const PFN_vkVoidFunction submitBefore = vkGetDeviceProcAddr(app.device, "vkQueueSubmit");
            ASSERT_NE(submitBefore, nullptr);
            {
                vkconv::ContextAdoptInfo ai;
                ai.instance = app.instance, ai.physicalDevice = app.phys, ai.device = app.device;
                ai.queueFamilyIndex = app.family, ai.queue = app.queue;
                ai.apiVersion = VK_API_VERSION_1_3;
                ai.enabledDeviceExtensions = app.extensions;
                ai.enabledFeatures = &app.f2;
                ai.pipelineCacheDir = "none";
                if (passLoader) ai.getInstanceProcAddr = vkGetInstanceProcAddr;
                auto adopted = vkconv::Context::adopt(ai);
                EXPECT_FALSE(adopted.ownsDevice());
                EXPECT_EQ(adopted.instance(), app.instance);
                EXPECT_EQ(adopted.device(), app.device);
                EXPECT_EQ(adopted.queue(), app.queue);
                EXPECT_EQ(adopted.physicalDevice(), app.phys);
                EXPECT_EQ(adopted.queueFamilyIndex(), app.family);
                EXPECT_EQ(adopted.caps().deviceName, ctx().caps().deviceName);
                EXPECT_EQ(adopted.caps().pushDescriptor, !app.extensions.empty())
                    << "caps must reflect what the app enabled";
                EXPECT_EQ(adopted.caps().shaderFloat16, bool(app.f12.shaderFloat16));
                for (auto t : {DType::F32, DType::F16, DType::BF16}) {
                    ConvDesc d = smallDesc();
                    d.dtype = t;
                    d.activation = vkconv::Activation::Silu;
                    auto algos = acceptingAlgorithms(adopted, d);
                    algos.push_back("auto");
                    for (const auto& a : algos) {
                        vkconv::PlanOptions o;
                        o.algorithm = a;
                        const auto r = runAndCheck(adopted, d, o, 41, DataMode::Uniform);
                        if (r.errorCode == vkconv::ErrorCode::Unsupported && app.extensions.empty()) {
                            if (declined++ == 0)
                                std::cout << "[ info ] adopted device without extensions: " << r.error << std::endl;
                            continue;
                        }
                        ++ran;
                        EXPECT_TRUE(passed(r)) << "adopted context, algorithm " << a;
                    }
                }
                EXPECT_EQ(vkGetDeviceProcAddr(app.device, "vkQueueSubmit"), submitBefore);
            }
            // vkconv is gone; the app's device must still work and its symbols be the loader's.
            EXPECT_EQ(vkGetDeviceProcAddr(app.device, "vkQueueSubmit"), submitBefore);
            EXPECT_EQ(vkDeviceWaitIdle(app.device), VK_SUCCESS);
            VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
            bci.size = 64, bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
            VkBuffer b = VK_NULL_HANDLE;
            EXPECT_EQ(vkCreateBuffer(app.device, &bci, nullptr, &b), VK_SUCCESS);
            vkDestroyBuffer(app.device, b, nullptr);
            for (auto* sym :
                 {reinterpret_cast<void*>(&vkGetDeviceProcAddr), reinterpret_cast<void*>(&vkGetInstanceProcAddr),
                  reinterpret_cast<void*>(&vkQueueSubmit), reinterpret_cast<void*>(&vkCreateDevice)})
                EXPECT_NE(libraryOf(sym).find("libvulkan"), std::string::npos)
                    << "an application Vulkan symbol resolves into " << libraryOf(sym);
            // The app destroys its device, messenger and instance here.
        }
        // Leaked vkconv objects would be reported by vkDestroyDevice above.
        EXPECT_TRUE(appMessages.empty()) << appMessages.size()
                                         << " validation message(s) on the app's instance, first: "
                                         << (appMessages.empty() ? "" : appMessages.front());
    }
    EXPECT_GT(ran, 0) << "no convolution ran on an adopted device";
}
