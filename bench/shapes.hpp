// Shapes files and the suites directory.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "common.hpp"
#include "vkconv/conv_desc.hpp"

namespace vkbench {

std::string defaultSuitesDir();  // $VKCONV_SUITES_DIR, the installed share/vkconv/bench/suites, or the source tree's
std::string defaultZooDir();     // $VKCONV_ZOO_DIR, the installed share/vkconv/bench/zoo, or the source tree's
std::vector<Shape> readShapes(const std::string& path);  // throws vkconv::Error(Io) naming file and line
std::vector<std::string> listSuites(const std::string& dir);
// The shapes --suite/--shapes or --zoo select (every suite when none is given); (suite, layer)
// duplicates keep the first; --zoo-part I/N keeps the rows of the I-th slice of distinct shapes.
std::vector<Shape> loadShapes(const Options& o);

// What a measurement depends on: every column but suite, layer and count.
using ShapeKey = std::array<int64_t, 14>;
ShapeKey shapeKey(const Shape& s);
// Rows with identical shapes (indices into `shapes`), groups and members in first-seen order: the
// zoo measures each group once and reports it for every row.
std::vector<std::vector<size_t>> identicalShapes(const std::vector<Shape>& shapes);

// The ConvDesc of one benchmark row: NCHW pairs with KCRS filters, NHWC with KRSC.
vkconv::ConvDesc makeDesc(const Shape& s, int64_t batch, vkconv::DType dtype, vkconv::TensorLayout layout,
                          const Epilogue& e);

}  // namespace vkbench
