// What the cooperative-matrix algorithms share: the test-only emulation hook, the operand
// types, the subgroup size their tiles are laid out for, and the device / build checks.
#pragma once
#include <string>

#include "runtime/context_impl.hpp"
#include "vkconv/conv_desc.hpp"
#include "vkconv/types.hpp"

namespace vkconv {

// The test hook coopmat_emulate (util/test_hooks.hpp): fp16 and bf16 problems run the CM_EMULATE
// builds of the kernels, which do the matrix products with plain arithmetic, so that devices
// without cooperative matrices (lavapipe in CI) execute every staging, padding and epilogue path.
bool coopmatEmulated(DType t);

VkComponentTypeKHR coopmatOperandType(DType t);

// A subgroup-scope, non-saturating A*B+C configuration with 16-bit operands of the storage type
// and fp32 C and result.
bool coopmatOperandsMatch(const CoopMatConfig& c, DType t);

// The 16x16x16 configuration the emulation stands in for.
const CoopMatConfig& coopmatEmulatedConfig(DType t);

// The subgroup size the tiles are laid out for: 32 where the device lets it be required (NVIDIA's
// only size; RDNA3's WMMA is wave32-native), otherwise the device's default.
struct SubgroupChoice {
    uint32_t size, required;
};
SubgroupChoice coopmatSubgroup(const DeviceCaps& caps);
// For kernels whose work is laid out by whole subgroups of coopmatSubgroup's size: "" when that
// size is fixed (required, or the device's only one) and the caller asked for no other
// (`requested`, 0: none), else the reason; `layout` says what depends on it ("the kernel's blocks
// are laid out", "the reduction is split").
std::string coopmatFixedSubgroupWhyNot(const DeviceCaps& caps, uint32_t requested, const std::string& layout);

// "" when the build has `shader` (the shipped variant's name; "_emu_" variants when emulating) and
// the device has what cooperative-matrix kernels of dtype t need, else the reason.
std::string coopmatDeviceWhyNot(const ContextImpl& ctx, DType t, const std::string& shader);

// "" when the device (or the emulation) has the subgroup-scope 16x16x16 configuration with dtype t
// operands and fp32 accumulation that the 16x16-fragment kernels are written for, else the reason.
std::string coopmatFragment16WhyNot(const DeviceCaps& caps, DType t);

// Filters per NHWC output store of halo_coopmat and implicit_gemm_coopmat (their OUT_WORD): the
// most of 8, 4 and 2 that divides K/groups (16-, 8- or 4-byte stores: 4 for RetinaNet's 36-filter
// box heads, 2 for e.g. 18 or 42 filters), 0 for odd K/groups (element stores).
uint32_t coopmatNhwcOutWord(const ConvDesc& d);
// The configuration's wide-output letter: "O" (16-byte stores, or NCHW runs), "O4" / "O2" (the
// narrow NHWC words), "" (element stores).
std::string coopmatOutputTag(bool vecOut, uint32_t outWord);

// The matrix kernels' fp16 scratch (shaders/include/epilogue_half.glsl: accumulators converted to
// fp16 in registers, half the scratch bytes, outputs copied as they are): fp16 NHWC output in
// wide words of 8 or 4 filters (vecOut, 4 | K/groups) with nothing fused, so the output is the accumulator rounded once
// either way; the device reports a subgroup-scope m x n configuration with fp16 C and result (the emulation always has
// it).
bool coopmatHalfScratch(const DeviceCaps& caps, const ConvDesc& d, bool vecOut, uint32_t m = 16, uint32_t n = 16);

// "f16, 16x16x16 ..." list of the device's configurations, for messages.
std::string coopmatConfigList(const DeviceCaps& caps);

}  // namespace vkconv
