// vkconv reports every failure through one exception type, vkconv::Error, whose code()
// tells the class of problem and whose what() names the offending field and values.
#pragma once
#include <stdexcept>
#include <string>

#include "vkconv/export.hpp"

namespace vkconv {

enum class ErrorCode {
    InvalidArgument,   // a descriptor field or argument is malformed (zero/negative size, groups mismatch, ...)
    OutputEmpty,       // the convolution produces no output (P or Q < 1)
    IndexOverflow,     // an index or byte range exceeds 32-bit addressing or maxStorageBufferRange
    BufferTooSmall,    // a bound buffer range is smaller than the tensor it must hold
    Unsupported,       // the device lacks a feature the request needs, or no algorithm accepts it
    UnknownAlgorithm,  // PlanOptions::algorithm names no registered algorithm
    Vulkan,            // a Vulkan call failed (the VkResult is in the message)
    NoDevice,          // no Vulkan device, or VKCONV_DEVICE matches none
    Io,                // a file could not be read or written
    Timeout,           // submitted work did not finish within the context's timeout (README, "Timeouts")
};

VKCONV_API const char* toString(ErrorCode code);

class VKCONV_API Error : public std::runtime_error {
public:
    Error(ErrorCode code, const std::string& message)
        : std::runtime_error(std::string(toString(code)) + ": " + message), code_(code) {}
    ErrorCode code() const noexcept { return code_; }

private:
    ErrorCode code_;
};

}  // namespace vkconv
