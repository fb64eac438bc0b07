// Throwaway router replay (session 23, perf-notes 60): a lavapipe context whose caps are overwritten
// with the H200's limits, printing per layer of the given shapes files at batch argv[1] (fp16 NHWC)
// the modelled costs (us at 270 TFLOP/s x 1000) of the direct coopmat kernel, halo_coopmat, winograd
// F(2x2) and F(4x4), and winogradPays.  Needs replay_export.patch; build against the static library:
//   g++ -O1 -std=c++20 -DVK_NO_PROTOTYPES -I build/_toolchain/root/usr/include -I include -I src \
//     replay.cpp build-dev/src/libvkconv_internal.a -ldl -lpthread -o replay
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include "vkconv/context.hpp"
#include "vkconv/plan.hpp"
#include "runtime/context_impl.hpp"
namespace vkconv {
double coopmatModelCost(const ContextImpl&, const ConvDesc&, const PlanOptions&, bool);
double haloCoopmatPaysCost(const ContextImpl&, const ConvDesc&, const PlanOptions&);
double winogradModelCostReplay(const ContextImpl&, const ConvDesc&, uint32_t, const PlanOptions&, bool);
bool winogradPays(const ContextImpl&, const ConvDesc&, const PlanOptions&);
}
int main(int argc, char** argv) {
    setenv("VKCONV_COOPMAT_EMULATE", "1", 1);
    vkconv::ContextCreateInfo info;
    vkconv::Context ctx = vkconv::Context::create(info);
    auto& c = ctx.impl().caps;
    c.vendorId = 0x10DE; c.computeUnits = 132; c.subgroupSize = c.minSubgroupSize = c.maxSubgroupSize = 32;
    c.maxSharedMemory = 49152; c.maxWorkgroupInvocations = 1024; c.maxWorkgroupSize[0] = 1024; c.maxWorkgroupSize[1] = 1024;
    c.maxComputeWorkgroupSubgroups = 32; c.maxStorageBufferRange = 4294967295ull; c.maxWorkgroupCount[0] = 2147483647u; c.maxWorkgroupCount[1] = 65535; c.maxWorkgroupCount[2] = 65535;
    int64_t batch = std::atoi(argv[1]);
    for (int a = 2; a < argc; ++a) {
        std::ifstream f(argv[a]); std::string line; std::getline(f, line);
        while (std::getline(f, line)) {
            std::stringstream ss(line); std::string suite, layer, t; std::vector<int64_t> v;
            std::getline(ss, suite, ','); std::getline(ss, layer, ',');
            while (std::getline(ss, t, ',')) v.push_back(std::atoll(t.c_str()));
            vkconv::ConvDesc d; d.n = batch; d.c = v[1]; d.h = v[2]; d.w = v[3]; d.k = v[4]; d.r = v[5]; d.s = v[6];
            d.pad(v[7], v[8]); d.strideH = v[9]; d.strideW = v[10]; d.dilationH = v[11]; d.dilationW = v[12]; d.groups = v[13];
            d.dtype = vkconv::DType::F16; d.inputLayout = d.outputLayout = vkconv::TensorLayout::NHWC; d.filterLayout = vkconv::FilterLayout::KRSC;
            vkconv::PlanOptions o;
            double direct = vkconv::coopmatModelCost(ctx.impl(), d, o, false);
            double halo = vkconv::haloCoopmatPaysCost(ctx.impl(), d, o);
            double w2 = vkconv::winogradModelCostReplay(ctx.impl(), d, 2, o, true);
            double w4 = vkconv::winogradModelCostReplay(ctx.impl(), d, 4, o, true);
            bool wp = vkconv::winogradPays(ctx.impl(), d, o);
            std::printf("%s,%s,%.4g,%.4g,%.4g,%.4g,%d\n", suite.c_str(), layer.c_str(), direct / 2.7e5, halo / 2.7e5, w2 / 2.7e5, w4 / 2.7e5, int(wp));
        }
    }
}
