// The user-facing switches (README, "Environment"): what each one changes, on a real context
// and on an offline one planned from a profile that has matrix units.
#include <fstream>
#include <sstream>

#include "environment.hpp"

namespace {

vkconv::DeviceCaps h200Caps() {
    std::ifstream f(std::string(VKCONV_PROFILES_DIR) + "/nvidia_h200.json");
    std::stringstream text;
    text << f.rdbuf();
    return vkconv::DeviceCaps::fromJson(text.str());
}

// A layer every matrix-unit device runs on its matrix units: fp16 NHWC 3x3, 256 channels.
vkconv::ConvDesc deepFp16Layer() {
    vkconv::ConvDesc d;
    d.n = 8;
    d.c = 256;
    d.h = d.w = 28;
    d.k = 256;
    d.r = d.s = 3;
    d.pad(1, 1);
    d.dtype = vkconv::DType::F16;
    d.inputLayout = d.outputLayout = vkconv::TensorLayout::NHWC;
    d.filterLayout = vkconv::FilterLayout::KRSC;
    return d;
}

bool onMatrixUnits(const vkconv::Plan& p) {
    return p.algorithm().find("coopmat") != std::string::npos || p.config().find("coopmat") != std::string::npos;
}

}  // namespace

TEST(UserSwitches, MatrixUnitsOffPlansTheScalarPath) {
    const vkconv::DeviceCaps caps = h200Caps();
    ASSERT_TRUE(caps.cooperativeMatrix);
    {
        vkconv::Context with = vkconv::Context::createOffline(caps);
        EXPECT_TRUE(onMatrixUnits(vkconv::Plan::create(with, deepFp16Layer())));
    }
    vkt::EnvOverride off("VKCONV_MATRIX_UNITS", "0");
    vkconv::Context without = vkconv::Context::createOffline(caps);
    EXPECT_FALSE(without.caps().cooperativeMatrix);
    EXPECT_TRUE(without.caps().coopMatConfigs.empty());
    const vkconv::Plan p = vkconv::Plan::create(without, deepFp16Layer());
    EXPECT_FALSE(onMatrixUnits(p)) << p.algorithm() << " " << p.config();
}

TEST(UserSwitches, MatrixUnitsOffOnACreatedContext) {
    vkconv::ContextCreateInfo info = vkt::testContextInfo();
    info.disableMatrixUnits = true;
    vkconv::Context c = vkconv::Context::create(info);
    EXPECT_FALSE(c.caps().cooperativeMatrix);
    EXPECT_FALSE(c.caps().bfloat16CooperativeMatrix);
    EXPECT_TRUE(c.caps().coopMatConfigs.empty());
}
