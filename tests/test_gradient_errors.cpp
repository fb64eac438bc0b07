// The backward passes' host paths: the named errors of invalid requests, explain() for a backward
// plan, and ConvTransposeDesc's sizes (in the sanitizer build's subset: no kernel runs).
#include <gtest/gtest.h>
#include <vkconv/vkconv.hpp>

#include <functional>
#include <string>

#include "support/environment.hpp"
#include "support/gradient_check.hpp"

namespace {

using vkconv::ConvDesc;
using vkconv::ConvPass;
using vkconv::ConvTransposeDesc;
using vkconv::DType;
using vkconv::ErrorCode;
using vkconv::PlanOptions;
using vkt::gradientBase;
using vkt::squareTransposed;

TEST(TransposedDesc, OutputSizeIsPyTorchs) {
    // torch.nn.ConvTranspose2d(…, kernel_size=4, stride=2, padding=1, output_padding=1, dilation=1)
    // on 5x5 gives (5-1)*2 - 2 + 3 + 1 + 1 = 11.
    ConvTransposeDesc t = squareTransposed(3, 2, 5, 4, 2, 1);
    t.outputPaddingH = t.outputPaddingW = 1;
    EXPECT_EQ(t.outH(), 11);
    const ConvDesc c = t.convDesc();
    EXPECT_EQ(c.c, 2);
    EXPECT_EQ(c.k, 3);
    EXPECT_EQ(c.h, 11);
    EXPECT_EQ(c.outH(), 5);  // the forward convolution maps the output back onto the input
}

// Invalid requests get a named error, never a crash or a wrong answer.
class GradientErrors : public vkt::VkconvTest {};

void expectError(ErrorCode code, const std::string& needle, const std::function<void()>& f) {
    try {
        f();
        ADD_FAILURE() << "no error; expected one naming '" << needle << "'";
    } catch (const vkconv::Error& e) {
        EXPECT_EQ(e.code(), code) << e.what();
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

TEST_F(GradientErrors, NamedErrors) {
    auto& ctx = vkt::ctx();
    PlanOptions data, weight;
    data.pass = ConvPass::BackwardData, weight.pass = ConvPass::BackwardWeight;
    ConvDesc act = gradientBase();
    act.activation = vkconv::Activation::Relu;
    expectError(ErrorCode::InvalidArgument, "activation", [&] { (void)vkconv::Plan::create(ctx, act, data); });
    ConvDesc res = gradientBase();
    res.hasResidual = true;
    expectError(ErrorCode::InvalidArgument, "residual", [&] { (void)vkconv::Plan::create(ctx, res, weight); });
    PlanOptions packed = weight;
    packed.packedFilter = true;
    expectError(ErrorCode::InvalidArgument, "packedFilter",
                [&] { (void)vkconv::Plan::create(ctx, gradientBase(), packed); });
    PlanOptions unknown = weight;
    unknown.algorithm = "implicit_gemm";  // a forward algorithm
    expectError(ErrorCode::UnknownAlgorithm, "bwd-weight algorithm named 'implicit_gemm'",
                [&] { (void)vkconv::Plan::create(ctx, gradientBase(), unknown); });
    PlanOptions tile = data;
    tile.tile = "64x64";
    expectError(ErrorCode::InvalidArgument, "needs a named algorithm",
                [&] { (void)vkconv::Plan::create(ctx, gradientBase(), tile); });
    PlanOptions badPass;
    badPass.pass = ConvPass(7);
    expectError(ErrorCode::InvalidArgument, "pass", [&] { (void)vkconv::Plan::create(ctx, gradientBase(), badPass); });

    ConvTransposeDesc t = squareTransposed(4, 3, 5, 3, 2, 1);
    ConvTransposeDesc opad = t;
    opad.outputPaddingH = 2;
    expectError(ErrorCode::InvalidArgument, "outputPaddingH = 2 must be smaller than strideH = 2 or dilationH = 1",
                [&] { opad.validate(); });
    ConvTransposeDesc empty = squareTransposed(4, 3, 1, 1, 1, 1);
    expectError(ErrorCode::OutputEmpty, "the output is -1 x -1", [&] { (void)vkconv::Plan::create(ctx, empty); });
    ConvTransposeDesc groups = t;
    groups.groups = 3;
    expectError(ErrorCode::InvalidArgument, "inChannels = 4 is not divisible by groups = 3",
                [&] { groups.validate(); });
    ConvTransposeDesc zero = t;
    zero.outChannels = 0;
    expectError(ErrorCode::InvalidArgument, "outChannels must be >= 1", [&] { zero.validate(); });
    ConvTransposeDesc huge = t;
    huge.h = int64_t(1) << 40;
    expectError(ErrorCode::IndexOverflow, "exceeds 2^31-1", [&] { huge.validate(); });
    expectError(ErrorCode::InvalidArgument, "BackwardWeight", [&] { (void)vkconv::Plan::create(ctx, t, weight); });
    PlanOptions acc;
    acc.accumulate = true;
    expectError(ErrorCode::InvalidArgument, "accumulate", [&] { (void)vkconv::Plan::create(ctx, t, acc); });

    // Recording with the wrong pass's tensors, or without what the pass needs.
    const ConvDesc d = gradientBase();
    auto buf = vkconv::Buffer::create(ctx, 1 << 16);
    auto buf2 = vkconv::Buffer::create(ctx, 1 << 16);
    const auto fwd = vkconv::Plan::create(ctx, d);
    expectError(ErrorCode::InvalidArgument, "record it with ConvTensors", [&] {
        fwd.run(vkconv::BackwardDataTensors{buf.view(0, 4096), buf.view(4096, 4096), buf2.view(0, 4096), {}});
    });
    PlanOptions direct = data;  // no workspace, so that each view below is what fails
    direct.algorithm = "dgrad_direct";
    const auto bd = vkconv::Plan::create(ctx, d, direct);
    expectError(ErrorCode::InvalidArgument, "record it with BackwardDataTensors", [&] {
        bd.run(vkconv::ConvTensors{buf.view(0, 4096), buf.view(4096, 4096), {}, {}, buf2.view(0, 4096), {}});
    });
    expectError(ErrorCode::InvalidArgument, "gradInput overlaps the gradOutput", [&] {
        bd.run(vkconv::BackwardDataTensors{buf.view(0, 4096), buf.view(8192, 4096), buf.view(2048, 4096), {}});
    });
    expectError(ErrorCode::BufferTooSmall, "gradOutput view holds 16 bytes", [&] {
        bd.run(vkconv::BackwardDataTensors{buf.view(0, 16), buf.view(4096, 4096), buf2.view(0, 4096), {}});
    });
    ConvDesc biased = d;
    biased.hasBias = true;
    // The reference kernel needs no workspace, so the bias view is what the checks reach.
    PlanOptions weightDirect = weight;
    weightDirect.algorithm = "wgrad_direct";
    const auto bw = vkconv::Plan::create(ctx, biased, weightDirect);
    expectError(ErrorCode::InvalidArgument, "gradBias buffer is missing", [&] {
        bw.run(vkconv::BackwardWeightTensors{buf.view(0, 4096), buf.view(4096, 4096), buf2.view(0, 4096), {}, {}});
    });
    expectError(ErrorCode::InvalidArgument, "the gradFilter overlaps the gradBias", [&] {
        bw.run(vkconv::BackwardWeightTensors{
            buf.view(0, 4096), buf.view(4096, 4096), buf2.view(0, 4096), buf2.view(1024, 256), {}});
    });
    const auto bwPlain = vkconv::Plan::create(ctx, d, weightDirect);
    expectError(ErrorCode::InvalidArgument, "gradBias buffer given but the descriptor has no bias", [&] {
        bwPlain.run(vkconv::BackwardWeightTensors{
            buf.view(0, 4096), buf.view(4096, 4096), buf2.view(0, 4096), buf2.view(8192, 256), {}});
    });
}

TEST_F(GradientErrors, ExplainNamesThePassesAlgorithms) {
    PlanOptions o;
    o.pass = ConvPass::BackwardWeight;
    const auto plan = vkconv::Plan::create(vkt::ctx(), gradientBase(), o);
    const vkconv::PlanExplanation e = plan.explain();
    EXPECT_EQ(e.chosenBy, "router");
    EXPECT_EQ(e.algorithm, plan.algorithm());
    ASSERT_FALSE(e.candidates.empty());
    for (const auto& c : e.candidates) EXPECT_EQ(c.algorithm.rfind("wgrad_", 0), 0u) << c.algorithm;
    EXPECT_EQ(plan.pass(), ConvPass::BackwardWeight);
    EXPECT_FALSE(plan.transposed());
}

}  // namespace
