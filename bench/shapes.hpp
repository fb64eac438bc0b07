// Shapes files and the suites directory.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "vkconv/conv_desc.hpp"
#include "vkconv/conv_transpose_desc.hpp"
#include "vkconv/plan.hpp"

namespace vkbench {

std::string defaultSuitesDir();  // $VKCONV_SUITES_DIR, the installed share/vkconv/bench/suites, or the source tree's
std::string defaultZooDir();     // $VKCONV_ZOO_DIR, the installed share/vkconv/bench/zoo, or the source tree's
std::vector<Shape> readShapes(const std::string& path);  // throws vkconv::Error(Io) naming file and line
std::vector<std::string> listSuites(const std::string& dir);
// The shapes --suite/--shapes or --zoo select (every suite when none is given); (suite, layer)
// duplicates keep the first; --zoo-part I/N keeps the rows of the I-th slice of distinct shapes.
std::vector<Shape> loadShapes(const Options& o);

// What a measurement depends on: every column but suite, layer and count.
using ShapeKey = std::array<int64_t, 17>;
ShapeKey shapeKey(const Shape& s);
// Rows with identical shapes (indices into `shapes`), groups and members in first-seen order: the
// zoo measures each group once and reports it for every row.
std::vector<std::vector<size_t>> identicalShapes(const std::vector<Shape>& shapes);

// The ConvDesc of one benchmark row: NCHW pairs with KCRS filters, NHWC with KRSC.  For a
// transposed row, the forward convolution whose backward-data pass it is (makeTransposeDesc's
// convDesc()).
vkconv::ConvDesc makeDesc(const Shape& s, int64_t batch, vkconv::DType dtype, vkconv::TensorLayout layout,
                          const Epilogue& e);
// A transposed row's descriptor, with the epilogue.
vkconv::ConvTransposeDesc makeTransposeDesc(const Shape& s, int64_t batch, vkconv::DType dtype,
                                            vkconv::TensorLayout layout, const Epilogue& e);

// What one row runs: a pass of a convolution `conv` with the operands X (conv's input), W (its
// filter) and Y (its output, dy), for either kind of row.  A transposed row's passes are passes of
// its convDesc(): its forward pass is conv's backward-data pass (with the row's epilogue), its
// backward-data pass conv's forward pass, its backward-weight pass conv's with X = the transposed
// output's gradient and Y = the transposed input.
struct LayerProblem {
    vkconv::ConvDesc conv;  // epilogue as conv's pass runs it (none for a transposed row)
    std::optional<vkconv::ConvTransposeDesc> transposed;
    vkconv::ConvPass pass = vkconv::ConvPass::Forward;      // the row's pass, in the row's own terms
    vkconv::ConvPass convPass = vkconv::ConvPass::Forward;  // the pass run on conv
    int64_t yH = 1, yW = 1;  // Y's height and width (conv's output, or the transposed input)
    Epilogue epilogue;       // what runs: backward passes drop the activation (and all but wgrad's bias)
    // Not "": why the bench does not run this pass of the row (a transposed backward pass whose
    // output padding reaches the stride: conv's output is larger than the transposed input).
    std::string skip;
    // The row's FLOPs: 2 N K (C/groups) R S yH yW of conv, the same for every pass.
    double flops() const;
    int64_t yElements() const { return conv.n * conv.k * yH * yW; }
    bool transposedPlan() const { return transposed && convPass == vkconv::ConvPass::BackwardData; }
};
LayerProblem makeProblem(const Shape& s, int64_t batch, vkconv::DType dtype, vkconv::TensorLayout layout,
                         const Epilogue& e, vkconv::ConvPass pass);
// Plan::create for the problem: `po`'s pass set to convPass, the transposed descriptor where its
// forward pass runs.
vkconv::Plan createPlan(vkconv::Context& ctx, const LayerProblem& p, vkconv::PlanOptions po);

}  // namespace vkbench
