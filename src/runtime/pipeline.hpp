// Compute pipelines from embedded SPIR-V: specialization constants, a push-constant range, a
// push-descriptor set of storage buffers, and optionally a required subgroup size.
#pragma once
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/vk.hpp"

namespace vkconv {

struct ContextImpl;

struct SpecConstant {
    uint32_t id;
    uint32_t value;  // every vkconv spec constant is 32-bit (bools as 0/1)
    auto operator<=>(const SpecConstant&) const = default;
};

struct PipelineKey {
    std::string shader;  // embedded variant name
    std::vector<SpecConstant> spec;
    uint32_t pushConstantBytes = 0;
    uint32_t bindings = 0;              // storage buffers at bindings 0..bindings-1
    uint32_t requiredSubgroupSize = 0;  // 0: the driver's choice
    bool fullSubgroups = false;         // local_size_x is a multiple of the subgroup size and must be full
    bool captureStatistics = false;     // for VK_KHR_pipeline_executable_properties
    auto operator<=>(const PipelineKey&) const = default;
};

struct ComputePipeline {
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    PipelineKey key;
    std::vector<uint8_t> binary;   // this pipeline alone in a VkPipelineCache (capturePipelineBinaries)
    bool representations = false;  // built with its internal representations (captureRepresentations)
};

class PipelineRegistry {
public:
    explicit PipelineRegistry(ContextImpl& ctx) : ctx_(ctx) {}
    ~PipelineRegistry();
    PipelineRegistry(const PipelineRegistry&) = delete;
    PipelineRegistry& operator=(const PipelineRegistry&) = delete;

    // Made once per key and kept for the context's lifetime.  When ContextImpl::captureStatistics
    // is set, the key's captureStatistics is forced on (the compile lab's context-wide switch).
    // Thread-safe: the first caller of a key builds it outside the lock, so threads asking for
    // different keys compile in parallel; later callers of that key wait for its build (and get
    // its exception if it failed; the next call then tries again).
    const ComputePipeline& get(const PipelineKey& key);

    // Calls f for every pipeline made so far, in key order (the compile lab lists them).
    void forEach(const std::function<void(const ComputePipeline&)>& f);

private:
    ComputePipeline build(const PipelineKey& key);
    std::vector<uint8_t> captureBinary(const VkComputePipelineCreateInfo& pci);
    struct Slot {
        std::shared_future<const ComputePipeline*> ready;  // set by the building thread
        std::unique_ptr<ComputePipeline> pipeline;         // null while building
    };
    ContextImpl& ctx_;
    std::mutex mutex_;
    std::map<PipelineKey, Slot> pipelines_;
};

}  // namespace vkconv
