// Shapes files and the suites directory.
#pragma once
#include <string>
#include <vector>

#include "common.hpp"
#include "vkconv/conv_desc.hpp"

namespace vkbench {

std::string defaultSuitesDir();  // $VKCONV_SUITES_DIR, the installed share/vkconv/bench/suites, or the source tree's
std::vector<Shape> readShapes(const std::string& path);  // throws vkconv::Error(Io) naming file and line
std::vector<std::string> listSuites(const std::string& dir);
// The shapes --suite/--shapes select (every suite when neither is given); (suite, layer)
// duplicates keep the first.
std::vector<Shape> loadShapes(const Options& o);

// The ConvDesc of one benchmark row: NCHW pairs with KCRS filters, NHWC with KRSC.
vkconv::ConvDesc makeDesc(const Shape& s, int64_t batch, vkconv::DType dtype, vkconv::TensorLayout layout,
                          const Epilogue& e);

}  // namespace vkbench
