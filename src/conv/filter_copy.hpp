// The packed filter of plans whose algorithm reads the filter as given (PlanOptions::packedFilter):
// an element-for-element copy by shaders/tensor_copy.comp, so that it needs only the storage-buffer
// usage every vkconv tensor has, and is ordered by the same compute barriers as the convolution.
#pragma once
#include <vulkan/vulkan_core.h>

#include "vkconv/buffer.hpp"
#include "vkconv/conv_desc.hpp"

namespace vkconv {

struct ContextImpl;

void recordFilterCopy(ContextImpl& ctx, VkCommandBuffer cmd, const ConvDesc& d, const BufferView& filter,
                      const BufferView& packed);

}  // namespace vkconv
