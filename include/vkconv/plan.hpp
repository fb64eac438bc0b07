// A Plan binds one ConvDesc to one algorithm, tile configuration and compiled pipeline on one
// Context.  Build it once (cheap to run afterwards, any number of times, with any buffers).
//
// record() into the caller's command buffer:
//  * before: writes to input/filter/bias/residual must be made available to
//    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT / VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
//  * after: the output is written by VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT /
//    VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT; place a barrier before reading it;
//  * it changes the bound compute pipeline and push constants; multi-pass algorithms
//    (split-K) place their own barriers between passes;
//  * the workspace (when workspaceSize() > 0) is written and read by
//    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT within the call; two recordings that share one
//    workspace need at least an execution dependency between them (any barrier between the
//    first's output and the second's input is one).
// The Context must outlive the Plan.
#pragma once
#include <vulkan/vulkan_core.h>

#include <memory>
#include <string>
#include <vector>

#include "vkconv/buffer.hpp"
#include "vkconv/conv_desc.hpp"
#include "vkconv/conv_transpose_desc.hpp"
#include "vkconv/export.hpp"

namespace vkconv {

class Context;

struct PlanOptions {
    std::string algorithm = "auto";  // "auto" or a name from algorithmNames(pass)
    uint32_t subgroupSize = 0;       // 0: the algorithm's default for this device
    // "": the algorithm's heuristic; else a tile configuration it has, for tuning, in one syntax
    // for every algorithm (README "Algorithms" lists each one's): '/'-separated groups of
    // 'x'-separated numbers, each group optionally followed by tags of a letter and a number,
    // e.g. implicit_gemm "128x128x8/8x8", implicit_gemm_splitk "64x64x8/4x4/s4" or "s4" (s:
    // splits; more than the reduction has BK slices are clamped to that count), grouped_coopmat
    // "8x32x16/1x1p4g4"; coopmat_nhwc and dgrad_forward take "ALGO" or "ALGO:TILE" for the
    // algorithm they run inside.  A tile the algorithm lacks declines the plan ("no tile ...").
    std::string tile;
    // Most workspace bytes a plan may need (Plan::workspaceSize()).  "auto" picks a
    // workspace-using algorithm (split-K, winograd) only within it and a forced one declines
    // beyond it (winograd works in chunks that fit it); 0 forbids workspace-using algorithms.
    // 512 MiB lets winograd transform a VGG-16 batch-32 layer in one chunk (docs/design.md).
    VkDeviceSize workspaceLimit = VkDeviceSize(512) << 20;
    // "auto" may pick winograd for 3x3 stride-1 layers.  Its transforms round ~2-20x more than
    // direct summation (roundingAmplification / operandRounding below; with 16-bit storage on
    // the matrix units the transformed operands themselves are fp16: fp16 F(4x4) ~10x; bf16
    // 1-2x, its operands scaled by powers of two into fp16's range by a pass over the input and
    // the filter; bf16 F(2x2) on bf16 operands, 2-4x, where that pass would cost more than it
    // saves, and with packedFilter).  fp16 F(4x4)'s transformed inputs reach 49x the largest
    // input; where an fp16 V, U or M overflows (inputs beyond ~1300 in magnitude), that tile's
    // outputs are summed directly instead.  false keeps "auto" to direct-summation algorithms.
    // A forced "winograd" ignores it.
    bool allowWinograd = true;
    // Constant weights (inference): the filter binding holds the plan's packed filter, written
    // once by Plan::recordPackFilter / packFilter, instead of the filter in the desc's layout.
    // Plans whose algorithm transforms the filter on every call (winograd's transformed filters,
    // coopmat_nhwc's and implicit_gemm_nhwc's KCRS -> KRSC transpose) then skip that pass, and
    // their workspace shrinks by its output; for the others the packed filter is a copy.  "auto"
    // prices the algorithms without the pass.  Backward-data and transposed plans too (a decoder's
    // constant weights): dgrad_forward's flipped filter and dgrad_phases' sub-filters (with their
    // inner plans' own packing) are then the packed filter.  Not backward-weight (it writes w).
    bool packedFilter = false;
    // "auto" takes the fastest plan that the context's find database measured for this problem
    // and these options (findAlgorithms / findPlan, or `vkconv-bench find`, on this device and
    // driver), where it holds one that still plans; else the router's choice.  Tune a card once,
    // and every later Plan::create runs the measured winner (README, "Tuning a card").  false:
    // the router's choice always.
    bool useFindDatabase = true;
    // The pass the plan runs on the ConvDesc's convolution.  Backward passes compute the gradients
    // of the convolution itself: the desc's activation must be None and hasResidual false (apply
    // the activation's derivative to dy first; a residual's gradient is dy); hasBias asks
    // backward-weight for the bias gradient too and changes nothing in backward-data.
    ConvPass pass = ConvPass::Forward;
    // Backward passes: add the gradient to what the gradient buffer holds (cuDNN's beta = 1, for
    // gradient accumulation) instead of overwriting it.  The sum is formed in fp32 and rounded
    // once to the storage type.  Forward plans ignore it.
    bool accumulate = false;
};

// How a plan's algorithm was chosen (Plan::explain).
struct VKCONV_API PlanExplanation {
    // "router" (auto, no measurement), "find database" (auto, a measured winner), or
    // "PlanOptions::algorithm" (named by the caller).
    std::string chosenBy;
    std::string algorithm, config;  // Plan::algorithm(), Plan::config()
    std::string reason;             // the rule or the measurement that chose it
    // With the find database: the recorded time of the chosen plan and of the router's pick
    // (< 0 where none was recorded).
    double measuredMicroseconds = -1.0, routerMeasuredMicroseconds = -1.0;
    struct Rule {
        std::string algorithm;  // what the rule picks
        std::string rule;       // why it would
        std::string outcome;    // "chosen", "does not apply", or "applies, but <algorithm> declines: ..."
    };
    // The router's rules in the order it asks them, up to the one that chose (with the find
    // database or a named algorithm: what the router would have run).
    std::vector<Rule> rules;
    struct Candidate {
        std::string algorithm;
        std::string declines;  // "" where it accepts the problem, else why not
        bool ladder = false;   // a benchmark optimization-ladder rung that auto never picks
        // The router's modelled time for it on this device, µs; < 0 where it declines or no model
        // prices it (the rules alone choose it).
        double modelledMicroseconds = -1.0;
    };
    std::vector<Candidate> candidates;  // every registered algorithm
    std::string deviceModel;            // where the modelled times' numbers come from (the device model)
    std::string toString() const;       // several lines, for people
};

// The forward pass, and a transposed convolution (Plan::create from a ConvTransposeDesc): its
// input, filter, bias, residual and output in its own terms.
struct ConvTensors {
    BufferView input, filter, bias, residual, output;
    BufferView workspace;  // needed when Plan::workspaceSize() > 0
};

// ConvPass::BackwardData: dx (gradInput, shaped like the desc's input) from dy (gradOutput, shaped
// like its output) and the filter.
struct BackwardDataTensors {
    BufferView gradOutput, filter, gradInput;
    BufferView workspace;
};

// ConvPass::BackwardWeight: dw (gradFilter, in the desc's filter layout) and, with desc.hasBias,
// the bias gradient (gradBias, K elements: dy summed over N, P and Q) from x and dy.
struct BackwardWeightTensors {
    BufferView input, gradOutput, gradFilter, gradBias;
    BufferView workspace;
};

class AlgorithmInstance;
struct ContextImpl;

class VKCONV_API Plan {
public:
    static Plan create(Context& ctx, const ConvDesc& desc, const PlanOptions& options = {});
    // A transposed convolution: the backward-data pass of desc.convDesc() with desc's epilogue on
    // its output (options.pass must be Forward or BackwardData; either means this).  record() and
    // run() take its ConvTensors.
    static Plan create(Context& ctx, const ConvTransposeDesc& desc, const PlanOptions& options = {});
    Plan(Plan&&) noexcept;
    Plan& operator=(Plan&&) noexcept;
    ~Plan();

    // With PlanOptions::packedFilter, tensors.filter is the packed filter (packedFilterSize()).
    void record(VkCommandBuffer cmd, const ConvTensors& tensors) const;
    void run(const ConvTensors& tensors) const;  // record + submit + wait on the context's queue
    // Backward passes, for plans created with that PlanOptions::pass.  The gradient written
    // (gradInput; gradFilter and gradBias) is read first with PlanOptions::accumulate; it may
    // overlap nothing else.  Results are deterministic: the same inputs give the same bits on one
    // device and build (no floating-point atomics).
    void record(VkCommandBuffer cmd, const BackwardDataTensors& tensors) const;
    void run(const BackwardDataTensors& tensors) const;
    void record(VkCommandBuffer cmd, const BackwardWeightTensors& tensors) const;
    void run(const BackwardWeightTensors& tensors) const;

    // PlanOptions::packedFilter: the packed filter's bytes (0 for a plan created without it).  The
    // packed form is opaque and belongs to this plan: another plan reads it only if it was created
    // with the same ConvDesc and PlanOptions on the same device and vkconv version.
    VkDeviceSize packedFilterSize() const;
    // Writes the packed filter from `filter` (desc().filterBytes(), in the desc's filter layout)
    // into `packed` (packedFilterSize() bytes, not overlapping it), in the caller's command buffer.
    // Before: as record()'s inputs.  It ends with a compute-to-compute barrier, so a record() later
    // in the same queue reads the packed filter; other readers need their own barrier.
    void recordPackFilter(VkCommandBuffer cmd, const BufferView& filter, const BufferView& packed) const;
    void packFilter(const BufferView& filter, const BufferView& packed) const;  // record + submit + wait

    // The forward convolution (for a transposed plan: ConvTransposeDesc::convDesc()).
    const ConvDesc& desc() const;
    ConvPass pass() const;
    bool transposed() const;  // created from a ConvTransposeDesc
    VkDeviceSize workspaceSize() const;
    std::string algorithm() const;  // the algorithm chosen (never "auto")
    std::string config() const;     // its tile configuration, e.g. "tile 128x64x16 sg32"
    // How much larger than direct summation's this plan's rounding error can be, relative to
    // sum |x*w|: 1 for every algorithm but winograd F(4x4,3x3), whose transforms (1/3, 1/15 in G)
    // enlarge the transformed values by up to (14/3)^2 = 196/9 over the products they stand for
    // (docs/design.md "winograd").  For checking results against a reference.
    double roundingAmplification() const;
    // The further error bound, relative to sum |x*w| over the output's tile, from operands the
    // plan rounds before multiplying them: 0 for every plan but winograd on the matrix units,
    // whose transformed inputs and filters are stored in the 16-bit storage type (2u x the
    // transforms' amplification: u = 2^-11 fp16, 2^-8 bf16; F(4x4): ~0.021 fp16, ~0.17 bf16 as a
    // worst case; measured errors are 30-60x smaller, docs/design.md "winograd").
    double operandRounding() const;

    // Why this algorithm: the router's rules as it asked them, what every other algorithm says
    // about the problem, and the find database's times where they chose.
    PlanExplanation explain() const;

private:
    Plan(Context& ctx, const ConvDesc& desc, const PlanOptions& options, std::unique_ptr<AlgorithmInstance> impl);
    static Plan createGradient(Context& ctx, const ConvDesc& desc, const PlanOptions& options,
                               const ConvTransposeDesc* transposed);
    void recordTransposed(VkCommandBuffer cmd, const ConvTensors& tensors) const;
    void checkFilterView(const ContextImpl& c, const BufferView& filter) const;
    void explainGradient(PlanExplanation& e, const PlanOptions& routerOptions) const;
    ContextImpl* ctx_;  // the context's inner object, which a moved Context keeps
    ConvDesc desc_;
    // A transposed plan's own descriptor (its epilogue and output size); unset otherwise.
    std::unique_ptr<ConvTransposeDesc> transposed_;
    PlanOptions options_;
    std::unique_ptr<AlgorithmInstance> impl_;
    // How the algorithm was chosen: "router", "find database" or "PlanOptions::algorithm", and
    // for the find database the recorded times (chosen, router's pick).
    std::string chosenBy_;
    double measuredUs_ = -1.0, routerMeasuredUs_ = -1.0;
};

// Every algorithm name Plan accepts for a pass, "auto" excluded.
VKCONV_API std::vector<std::string> algorithmNames(ConvPass pass = ConvPass::Forward);

// Why `algorithm` would decline `desc` on this context ("" when it accepts).
VKCONV_API std::string whyUnsupported(Context& ctx, const ConvDesc& desc, const std::string& algorithm);

}  // namespace vkconv
