// vkconv: 2-D convolution on any Vulkan 1.3 device.
#pragma once
#include "vkconv/buffer.hpp"
#include "vkconv/context.hpp"
#include "vkconv/conv_desc.hpp"
#include "vkconv/conv_transpose_desc.hpp"
#include "vkconv/device_caps.hpp"
#include "vkconv/error.hpp"
#include "vkconv/find.hpp"
#include "vkconv/plan.hpp"
#include "vkconv/types.hpp"
#include "vkconv/version.hpp"
