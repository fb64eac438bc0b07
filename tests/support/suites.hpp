// A tiny reader for bench/suites/*.csv (header:
// suite,layer,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups, and in a suite of
// transposed convolutions transposed,output_pad_h,output_pad_w: its transposed rows are skipped).
#pragma once
#include <vkconv/conv_desc.hpp>

#include <string>
#include <vector>

namespace vkt {

struct SuiteLayer {
    std::string suite, layer;
    vkconv::ConvDesc desc;  // fp32, NCHW, KCRS, no epilogue
};

// $VKCONV_SUITES_DIR when set (binaries run from another checkout), else the build-time path.
std::string suitesDir();

// Every layer of every *.csv in dir, files in name order, rows in file order.  Throws
// std::runtime_error on a malformed file (wrong header, bad number).
std::vector<SuiteLayer> readSuites(const std::string& dir);
std::vector<SuiteLayer> readSuiteFile(const std::string& path);

}  // namespace vkt
