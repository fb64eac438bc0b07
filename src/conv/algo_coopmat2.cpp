// Level 5b "implicit_gemm_coopmat2" (shaders/implicit_gemm_coopmat2.comp): the implicit GEMM on
// workgroup-scope cooperative matrices with tensor addressing (VK_NV_cooperative_matrix2), 16-bit
// operands, fp32 accumulation.  The driver stages the operand boxes through shared memory and
// splits the workgroup's accumulator among its subgroups; padding is the tensor layouts' constant
// clamp.  Stride-1 convolutions with C/groups % 32 == 0; everything else declines (the router then
// takes implicit_gemm_coopmat).
#include <algorithm>

#include "conv/algorithm.hpp"
#include "conv/dispatch.hpp"
#include "conv/tile_score.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/shader_registry.hpp"
#include "vkconv/error.hpp"

namespace vkconv {

std::string coopmatWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> coopmatInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::string implicitGemmWhyNot(const ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> implicitGemmInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);
std::unique_ptr<AlgorithmInstance> directInstantiate(ContextImpl&, const ConvDesc&, const PlanOptions&);

namespace {

constexpr uint32_t kWorkgroup = 256;  // the shader's fixed local size

struct Cm2Tile {
    const char* name;
    uint32_t bm, bn, bk;
    uint32_t prefetch;   // 1: the next slice's loads are issued before this slice's product
    double efficiency;   // relative full-wave throughput (to be measured; equal until then)
};

// Name: BMxBNxBK, "p" when prefetching.
constexpr Cm2Tile kCm2Tiles[] = {
    {"128x128x32", 128, 128, 32, 0, 1.0},  {"128x256x32", 128, 256, 32, 0, 1.0},
    {"256x128x32", 256, 128, 32, 0, 1.0},  {"128x128x64", 128, 128, 64, 0, 1.0},
    {"128x128x32p", 128, 128, 32, 1, 1.0}, {"128x256x32p", 128, 256, 32, 1, 1.0},
    {"256x128x32p", 256, 128, 32, 1, 1.0}, {"128x128x64p", 128, 128, 64, 1, 1.0},
};

enum SpecCoopmat2 : uint32_t {
    kSpecBM = 101, kSpecBN = 102, kSpecBK = 103, kSpecTN = 104, kSpecTP = 105, kSpecTQ = 106, kSpecPrefetch = 107,
    kSpecAlignIn = 108, kSpecAlignOut = 109, kSpecPlain = 110,
};

VkComponentTypeKHR operandType(DType t) {
    return t == DType::BF16 ? VK_COMPONENT_TYPE_BFLOAT16_KHR : VK_COMPONENT_TYPE_FLOAT16_KHR;
}

std::string shaderName(DType t) { return std::string("implicit_gemm_coopmat2_") + dtypeSuffix(t); }

// A workgroup-scope configuration for 256 invocations with operands of the storage type and fp32
// accumulation.
const CoopMatConfig* pickConfig(const DeviceCaps& caps, DType t) {
    for (const auto& c : caps.coopMat2Configs) {
        if (c.scope != VK_SCOPE_WORKGROUP_KHR || c.workgroupInvocations != kWorkgroup || c.saturatingAccumulation) continue;
        if (c.a != operandType(t) || c.b != operandType(t)) continue;
        if (c.c != VK_COMPONENT_TYPE_FLOAT32_KHR || c.result != VK_COMPONENT_TYPE_FLOAT32_KHR) continue;
        if (c.m == 0 || c.n == 0 || c.k == 0) continue;
        return &c;
    }
    return nullptr;
}

// The output-pixel block of a BM-row tile: TN images x TP rows x TQ columns (powers of two, product
// BM) wasting the fewest pixels on the output's N x P x Q; ties go to wider rows (longer
// contiguous runs of the input).
struct PixelBlock {
    uint32_t tn = 1, tp = 1, tq = 1;
    uint64_t blocks = 0;  // workgroups along the pixels
};
// 1x1, stride 1, no padding, NHWC in and out, one group: a plain GEMM over the N*P*Q pixels.
bool plainGemm(const ConvDesc& d) {
    return d.r == 1 && d.s == 1 && d.strideH == 1 && d.strideW == 1 && d.padTop == 0 && d.padBottom == 0 && d.padLeft == 0 &&
           d.padRight == 0 && d.groups == 1 && d.inputLayout == TensorLayout::NHWC && d.outputLayout == TensorLayout::NHWC;
}

PixelBlock pixelBlock(const ConvDesc& d, uint32_t bm) {
    const uint64_t N = d.n, P = d.outH(), Q = d.outW();
    if (plainGemm(d)) return {bm, 1, 1, (N * P * Q + bm - 1) / bm};
    PixelBlock best;
    uint64_t bestPadded = 0;
    for (uint32_t tq = 1; tq <= bm; tq *= 2)
        for (uint32_t tp = 1; tq * tp <= bm; tp *= 2) {
            uint32_t tn = bm / (tq * tp);
            uint64_t bq = (Q + tq - 1) / tq, bp = (P + tp - 1) / tp, bn = (N + tn - 1) / tn;
            uint64_t padded = bq * bp * bn * bm;
            bool tie = padded == bestPadded && (tq > best.tq || (tq == best.tq && tp > best.tp));
            if (!best.blocks || padded < bestPadded || tie) {
                best = {tn, tp, tq, bq * bp * bn};
                bestPadded = padded;
            }
        }
    return best;
}

std::string tileWhyNot(const ContextImpl& ctx, const ConvDesc& d, const Cm2Tile& t, const CoopMatConfig& cm) {
    const auto& caps = ctx.caps;
    if (t.bm % cm.m || t.bn % cm.n || t.bk % cm.k) return "the device's granularity does not tile it";
    if (std::max({t.bm, t.bn, t.bk}) > caps.coopMat2MaxDimension) return "exceeds the device's flexible-dimension limit";
    if (d.channelsPerGroup() % t.bk) return "C/groups is not a multiple of its " + std::to_string(t.bk) + "-value slice";
    PixelBlock pb = pixelBlock(d, t.bm);
    uint64_t gy = uint64_t(d.groups) * uint64_t((d.filtersPerGroup() + t.bn - 1) / t.bn);
    if (pb.blocks > caps.maxWorkgroupCount[0] || gy > caps.maxWorkgroupCount[1]) return "the grid exceeds maxWorkgroupCount";
    return "";
}

const Cm2Tile* chooseTile(const ContextImpl& ctx, const ConvDesc& d, const CoopMatConfig& cm, const PlanOptions& o, std::string* why) {
    const double units = modelComputeUnits(ctx.caps.computeUnits);
    const Cm2Tile* best = nullptr;
    double bestScore = 0;
    for (const auto& t : kCm2Tiles) {
        if (!o.tile.empty() && o.tile != t.name) continue;
        std::string w = tileWhyNot(ctx, d, t, cm);
        if (!w.empty()) {
            if (why && why->empty()) *why = std::string(t.name) + ": " + w;
            continue;
        }
        // Pixel-block waste counts like a partial tile: useful pixels over the padded blocks.
        PixelBlock pb = pixelBlock(d, t.bm);
        double M = double(d.n) * double(d.outH()) * double(d.outW());
        double pixelUse = M / (double(pb.blocks) * t.bm);
        double score = waveTileScore(d, t.bm, t.bn, t.efficiency, units) * pixelUse;
        if (!best || score > bestScore) { best = &t; bestScore = score; }
    }
    return best;
}

class Coopmat2Instance final : public AlgorithmInstance {
public:
    Coopmat2Instance(ContextImpl& ctx, const ConvDesc& d, const CoopMatConfig& cm, const Cm2Tile& tile,
                     std::unique_ptr<AlgorithmInstance> fallback)
        : ctx_(ctx), desc_(d), pc_(makePushConstants(d)), cm_(cm), tile_(tile), block_(pixelBlock(d, tile.bm)),
          fallback_(std::move(fallback)) {
        PipelineKey key = convPipelineKey(shaderName(d.dtype), d, kWorkgroup);
        key.spec.push_back({kSpecBM, tile_.bm});
        key.spec.push_back({kSpecBN, tile_.bn});
        key.spec.push_back({kSpecBK, tile_.bk});
        key.spec.push_back({kSpecTN, block_.tn});
        key.spec.push_back({kSpecTP, block_.tp});
        key.spec.push_back({kSpecTQ, block_.tq});
        key.spec.push_back({kSpecPrefetch, tile_.prefetch});
        key.spec.push_back({kSpecPlain, plainGemm(d) ? 1u : 0u});
        // Channel-innermost tensors whose strides are multiples of 8 elements (16 bytes).
        key.spec.push_back({kSpecAlignIn, d.inputLayout == TensorLayout::NHWC && d.c % 8 == 0 ? 1u : 0u});
        key.spec.push_back({kSpecAlignOut, d.outputLayout == TensorLayout::NHWC && d.k % 8 == 0 && d.filtersPerGroup() % 8 == 0 ? 1u : 0u});
        pipeline_ = &ctx_.pipelines->get(key);
        gx_ = uint32_t(block_.blocks);
        gy_ = uint32_t(((d.filtersPerGroup() + tile_.bn - 1) / tile_.bn) * d.groups);
    }
    void record(VkCommandBuffer cmd, const ConvTensors& t) const override {
        // Tensor loads and stores need 16-byte aligned bases; other views take the fallback.
        if (t.input.offset % 16 || t.filter.offset % 16 || t.output.offset % 16) {
            fallback_->record(cmd, t);
            return;
        }
        bindConvTensors(ctx_, cmd, *pipeline_, t);
        pushConstants(ctx_, cmd, *pipeline_, pc_);
        ctx_.dt.vkCmdDispatch(cmd, gx_, gy_, 1);
    }
    VkDeviceSize workspaceSize() const override { return fallback_->workspaceSize(); }
    std::string name() const override { return "implicit_gemm_coopmat2"; }
    std::string config() const override {
        return std::string("tile ") + tile_.name + (plainGemm(desc_) ? " plain GEMM" : "") + " pixels " + std::to_string(block_.tn) + "x" + std::to_string(block_.tp) + "x" +
               std::to_string(block_.tq) + " gran " + std::to_string(cm_.m) + "x" + std::to_string(cm_.n) + "x" +
               std::to_string(cm_.k) + " wg" + std::to_string(kWorkgroup) + "; unaligned views: " + fallback_->name();
    }

private:
    ContextImpl& ctx_;
    ConvDesc desc_;
    ConvPushConstants pc_;
    CoopMatConfig cm_;
    const Cm2Tile& tile_;
    PixelBlock block_;
    std::unique_ptr<AlgorithmInstance> fallback_;  // for views that are not 16-byte aligned
    const ComputePipeline* pipeline_ = nullptr;
    uint32_t gx_ = 0, gy_ = 0;
};

// What runs views the tensor loads cannot take: the subgroup-scope kernel (it has element-wise
// staging for them), else the scalar implicit GEMM, else the reference kernel.
std::unique_ptr<AlgorithmInstance> makeFallback(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    PlanOptions f = o;
    f.tile.clear();
    f.algorithm = "implicit_gemm_coopmat";
    if (coopmatWhyNot(ctx, d, f).empty()) return coopmatInstantiate(ctx, d, f);
    f.algorithm = "implicit_gemm";
    if (implicitGemmWhyNot(ctx, d, f).empty()) return implicitGemmInstantiate(ctx, d, f);
    f.algorithm = "direct";
    return directInstantiate(ctx, d, f);
}

}  // namespace

std::string coopmat2WhyNot(const ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    const auto& caps = ctx.caps;
    if (d.dtype == DType::F32) return "fp32 storage is the scalar kernels' job (the matrix units would round the operands to 16 bits)";
    if (!shaders::find(shaderName(d.dtype))) {
        if (d.dtype == DType::BF16)
            return "this build has no bf16 NV_cooperative_matrix2 shader (needs a glslang with GL_EXT_bfloat16 and "
                   "GL_NV_cooperative_matrix2)";
        return "this build has no NV_cooperative_matrix2 shaders (its shader compiler lacks GL_NV_cooperative_matrix2)";
    }
    if (!caps.cooperativeMatrix2) {
        if (!ctx.ownsDevice) {
            auto avail = chooseFeatures(ctx.it, ctx.physicalDevice);
            if (avail.hasExtension(VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME))
                return "the device has VK_NV_cooperative_matrix2 but the application did not enable it with "
                       "cooperativeMatrixWorkgroupScope, cooperativeMatrixFlexibleDimensions, "
                       "cooperativeMatrixPerElementOperations and cooperativeMatrixTensorAddressing";
        }
        return "the device has no VK_NV_cooperative_matrix2 with workgroup scope, flexible dimensions, per-element "
               "operations and tensor addressing (or it is not enabled)";
    }
    if (d.dtype == DType::F16 && !caps.shaderFloat16) return "needs shaderFloat16";
    if (d.dtype == DType::BF16 && !caps.bfloat16CooperativeMatrix)
        return "bf16 needs VK_KHR_shader_bfloat16 with shaderBFloat16Type and shaderBFloat16CooperativeMatrix enabled";
    if (!caps.storageBuffer16BitAccess) return "needs storageBuffer16BitAccess";
    if (!caps.vulkanMemoryModel) return "needs vulkanMemoryModel";
    if (caps.apiVersion < VK_API_VERSION_1_3) return "its SPIR-V 1.6 shaders need a Vulkan 1.3 device";
    const CoopMatConfig* cm = pickConfig(caps, d.dtype);
    if (!cm)
        return std::string("no workgroup-scope ") + dtypeSuffix(d.dtype) + " x " + dtypeSuffix(d.dtype) +
               " + f32 -> f32 flexible-dimension configuration for " + std::to_string(kWorkgroup) + " invocations";
    if (d.strideH != 1 || d.strideW != 1)
        return "stride " + std::to_string(d.strideH) + "x" + std::to_string(d.strideW) +
               ": the tensor box of a strided tap needs a layout stride the extension does not allow (stride 1 only)";
    if (d.channelsPerGroup() % 32)
        return "C/groups = " + std::to_string(d.channelsPerGroup()) + " is not a multiple of 32 (one filter tap per reduction slice)";
    if (o.subgroupSize && o.subgroupSize != caps.subgroupSize)
        return "workgroup-scope matrices run at the device's subgroup size (" + std::to_string(caps.subgroupSize) + ")";
    if (!o.tile.empty()) {
        bool known = false;
        for (const auto& t : kCm2Tiles) known = known || o.tile == t.name;
        if (!known) {
            std::string names;
            for (const auto& t : kCm2Tiles) names += std::string(names.empty() ? "" : ", ") + t.name;
            return "no tile '" + o.tile + "' (have: " + names + ")";
        }
    }
    std::string why;
    if (!chooseTile(ctx, d, *cm, o, &why)) return o.tile.empty() ? "no tile fits (" + why + ")" : "tile " + o.tile + " does not fit: " + why;
    return "";
}

std::unique_ptr<AlgorithmInstance> coopmat2Instantiate(ContextImpl& ctx, const ConvDesc& d, const PlanOptions& o) {
    const CoopMatConfig* cm = pickConfig(ctx.caps, d.dtype);
    const Cm2Tile* t = cm ? chooseTile(ctx, d, *cm, o, nullptr) : nullptr;
    if (!t) throw Error(ErrorCode::Unsupported, "implicit_gemm_coopmat2: no configuration for " + d.toString());
    return std::make_unique<Coopmat2Instance>(ctx, d, *cm, *t, makeFallback(ctx, d, o));
}

// Every tile x 16-bit dtype x (NHWC/KRSC, NCHW/KCRS).
std::vector<std::pair<ConvDesc, PlanOptions>> coopmat2Variants(const ContextImpl&) {
    std::vector<std::pair<ConvDesc, PlanOptions>> v;
    for (DType t : {DType::F16, DType::BF16})
        for (bool nhwc : {true, false})
            for (const auto& tile : kCm2Tiles) {
                ConvDesc d;
                d.n = 8; d.c = 64; d.h = d.w = 56; d.k = 256; d.r = d.s = 3; d.pad(1, 1); d.dtype = t;
                d.inputLayout = d.outputLayout = nhwc ? TensorLayout::NHWC : TensorLayout::NCHW;
                d.filterLayout = nhwc ? FilterLayout::KRSC : FilterLayout::KCRS;
                PlanOptions o;
                o.algorithm = "implicit_gemm_coopmat2";
                o.tile = tile.name;
                v.push_back({d, o});
            }
    return v;
}

}  // namespace vkconv
