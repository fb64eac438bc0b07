#include "runtime/pipeline.hpp"

#include <optional>

#include "runtime/context_impl.hpp"
#include "runtime/pipeline_cache.hpp"
#include "runtime/shader_registry.hpp"

namespace vkconv {

PipelineRegistry::~PipelineRegistry() {
    if (!ctx_.device) return;  // a planning-only context made no pipelines
    for (auto& [key, slot] : pipelines_) {
        const std::unique_ptr<ComputePipeline>& p = slot.pipeline;
        if (!p) continue;  // a build still running when the context goes is the caller's race
        ctx_.dt.vkDestroyPipeline(ctx_.device, p->pipeline, nullptr);
        ctx_.dt.vkDestroyPipelineLayout(ctx_.device, p->layout, nullptr);
        ctx_.dt.vkDestroyDescriptorSetLayout(ctx_.device, p->setLayout, nullptr);
    }
}

const ComputePipeline& PipelineRegistry::get(const PipelineKey& requested) {
    PipelineKey key = requested;
    key.captureStatistics = key.captureStatistics || ctx_.captureStatistics;
    std::shared_future<const ComputePipeline*> ready;
    std::optional<std::promise<const ComputePipeline*>> built;  // only where this thread builds the key
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto [it, first] = pipelines_.try_emplace(key);
        if (it->second.pipeline) return *it->second.pipeline;  // the hot path: a lookup, nothing allocated
        if (first) {
            built.emplace();
            it->second.ready = built->get_future().share();
        } else {
            ready = it->second.ready;  // another thread is building it
        }
    }
    if (!built) return *ready.get();
    try {
        auto p = std::make_unique<ComputePipeline>(build(key));  // outside the lock: builds run in parallel
        const ComputePipeline* raw = p.get();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            pipelines_.at(key).pipeline = std::move(p);
        }
        built->set_value(raw);
        return *raw;
    } catch (...) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            pipelines_.erase(key);  // a later call tries again
        }
        built->set_exception(std::current_exception());
        throw;
    }
}

void PipelineRegistry::forEach(const std::function<void(const ComputePipeline&)>& f) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [key, slot] : pipelines_)
        if (slot.pipeline) f(*slot.pipeline);
}

// Builds the pipeline once more into a private, empty VkPipelineCache and returns that cache's
// data: the driver's compiled form of this pipeline alone, for the compile lab.  Best effort: an
// empty vector when the driver refuses.
std::vector<uint8_t> PipelineRegistry::captureBinary(const VkComputePipelineCreateInfo& pci) {
    auto& d = ctx_.dt;
    std::vector<uint8_t> data;
    VkPipelineCacheCreateInfo cci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    VkPipelineCache cache = VK_NULL_HANDLE;
    if (d.vkCreatePipelineCache(ctx_.device, &cci, nullptr, &cache) != VK_SUCCESS) return data;
    VkPipeline p = VK_NULL_HANDLE;
    if (d.vkCreateComputePipelines(ctx_.device, cache, 1, &pci, nullptr, &p) == VK_SUCCESS) {
        d.vkDestroyPipeline(ctx_.device, p, nullptr);
        size_t n = 0;
        if (d.vkGetPipelineCacheData(ctx_.device, cache, &n, nullptr) == VK_SUCCESS && n) {
            data.resize(n);
            if (d.vkGetPipelineCacheData(ctx_.device, cache, &n, data.data()) != VK_SUCCESS)
                data.clear();
            else
                data.resize(n);
        }
    }
    d.vkDestroyPipelineCache(ctx_.device, cache, nullptr);
    return data;
}

ComputePipeline PipelineRegistry::build(const PipelineKey& key) {
    const auto& caps = ctx_.caps;
    const auto* shader = shaders::find(key.shader);
    if (!shader)
        throw Error(ErrorCode::Unsupported, "shader variant '" + key.shader + "' was not built into this library");
    if (!caps.pushDescriptor)
        throw Error(ErrorCode::Unsupported,
                    "the device (or the adopted VkDevice) lacks VK_KHR_push_descriptor, which vkconv needs");
    if (key.pushConstantBytes > caps.maxPushConstantsSize)
        throw Error(ErrorCode::Unsupported, "push constants exceed maxPushConstantsSize");
    if (key.requiredSubgroupSize && (!caps.subgroupSizeControl || key.requiredSubgroupSize < caps.minSubgroupSize ||
                                     key.requiredSubgroupSize > caps.maxSubgroupSize))
        throw Error(ErrorCode::Unsupported, "subgroup size " + std::to_string(key.requiredSubgroupSize) +
                                                " cannot be required on this device (range " +
                                                std::to_string(caps.minSubgroupSize) + ".." +
                                                std::to_string(caps.maxSubgroupSize) +
                                                (caps.subgroupSizeControl ? ")" : ", no subgroup size control)"));

    ComputePipeline out;
    out.key = key;
    // A planning-only context (Context::createOffline) stops after the checks a device would
    // make: plans are chosen and described exactly as on the profiled device, never recorded.
    if (!ctx_.device) return out;
    auto& d = ctx_.dt;
    std::vector<VkDescriptorSetLayoutBinding> bindings(key.bindings);
    for (uint32_t i = 0; i < key.bindings; ++i)
        bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo sci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    sci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    sci.bindingCount = key.bindings;
    sci.pBindings = bindings.data();
    VKCONV_CHECK(d.vkCreateDescriptorSetLayout(ctx_.device, &sci, nullptr, &out.setLayout));

    VkPushConstantRange pcr{VK_SHADER_STAGE_COMPUTE_BIT, 0, key.pushConstantBytes};
    VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    lci.setLayoutCount = 1;
    lci.pSetLayouts = &out.setLayout;
    lci.pushConstantRangeCount = key.pushConstantBytes ? 1 : 0;
    lci.pPushConstantRanges = &pcr;
    VkResult r = d.vkCreatePipelineLayout(ctx_.device, &lci, nullptr, &out.layout);
    if (r != VK_SUCCESS) {
        d.vkDestroyDescriptorSetLayout(ctx_.device, out.setLayout, nullptr);
        throwVk(r, "vkCreatePipelineLayout");
    }

    VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mci.codeSize = shader->bytes;
    mci.pCode = shader->code;
    VkShaderModule module = VK_NULL_HANDLE;
    VKCONV_CHECK(d.vkCreateShaderModule(ctx_.device, &mci, nullptr, &module));

    std::vector<VkSpecializationMapEntry> entries;
    std::vector<uint32_t> values;
    for (size_t i = 0; i < key.spec.size(); ++i) {
        entries.push_back({key.spec[i].id, uint32_t(i * 4), 4});
        values.push_back(key.spec[i].value);
    }
    VkSpecializationInfo spec{uint32_t(entries.size()), entries.data(), values.size() * 4, values.data()};
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo rss{
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
    rss.requiredSubgroupSize = key.requiredSubgroupSize;
    VkComputePipelineCreateInfo pci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pci.stage.module = module;
    pci.stage.pName = "main";
    pci.stage.pSpecializationInfo = entries.empty() ? nullptr : &spec;
    if (key.requiredSubgroupSize) pci.stage.pNext = &rss;
    if (key.fullSubgroups && caps.computeFullSubgroups)
        pci.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    if (key.captureStatistics && caps.pipelineExecutableInfo) {
        pci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
        if (ctx_.captureRepresentations && ctx_.captureRepresentations(key)) {
            pci.flags |= VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR;
            out.representations = true;
        }
    }
    pci.layout = out.layout;
    r = d.vkCreateComputePipelines(ctx_.device, ctx_.pipelineCache->handle(), 1, &pci, nullptr, &out.pipeline);
    if (r == VK_SUCCESS && ctx_.capturePipelineBinaries) out.binary = captureBinary(pci);
    d.vkDestroyShaderModule(ctx_.device, module, nullptr);
    if (r != VK_SUCCESS) {
        d.vkDestroyPipelineLayout(ctx_.device, out.layout, nullptr);
        d.vkDestroyDescriptorSetLayout(ctx_.device, out.setLayout, nullptr);
        throwVk(r, ("vkCreateComputePipelines(" + key.shader + ")").c_str());
    }
    return out;
}

}  // namespace vkconv
