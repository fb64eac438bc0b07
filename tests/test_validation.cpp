// Every invalid request fails with its specific vkconv::ErrorCode, from ConvDesc::validate(),
// Plan::create or Plan::run, before anything is allocated or submitted.
#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>

#include "environment.hpp"
#include "harness.hpp"

using namespace vkt;
using vkconv::ConvDesc;
using vkconv::ErrorCode;

namespace {

template <class F>
::testing::AssertionResult throwsCode(F&& f, std::initializer_list<ErrorCode> codes) {
    std::string want;
    for (auto c : codes) want += std::string(want.empty() ? "" : " or ") + vkconv::toString(c);
    try {
        f();
    } catch (const vkconv::Error& e) {
        if (std::find(codes.begin(), codes.end(), e.code()) != codes.end()) return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure() << "expected " << want << ", got " << e.what();
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure()
               << "expected vkconv::Error " << want << ", got another exception: " << e.what();
    }
    return ::testing::AssertionFailure() << "expected " << want << ", nothing was thrown";
}

std::string lower(std::string s) {
    for (auto& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

ConvDesc base() {
    ConvDesc d;
    d.c = 4, d.h = 8, d.w = 8, d.k = 4, d.r = 3, d.s = 3;
    d.pad(1, 1);
    return d;
}

struct Bad {
    const char* name;
    std::function<void(ConvDesc&)> mutate;
    ErrorCode code;
    const char* field;  // what() must mention it (case-insensitive); "" to skip
};

std::vector<Bad> badDescs() {
    using E = ErrorCode;
    std::vector<Bad> v;
    for (int64_t bad : {0, -1}) {
        v.push_back({"n", [=](ConvDesc& d) { d.n = bad; }, E::InvalidArgument, ""});
        v.push_back({"c", [=](ConvDesc& d) { d.c = bad; }, E::InvalidArgument, ""});
        v.push_back({"h", [=](ConvDesc& d) { d.h = bad; }, E::InvalidArgument, ""});
        v.push_back({"w", [=](ConvDesc& d) { d.w = bad; }, E::InvalidArgument, ""});
        v.push_back({"k", [=](ConvDesc& d) { d.k = bad; }, E::InvalidArgument, ""});
        v.push_back({"r", [=](ConvDesc& d) { d.r = bad; }, E::InvalidArgument, ""});
        v.push_back({"s", [=](ConvDesc& d) { d.s = bad; }, E::InvalidArgument, ""});
        v.push_back({"groups", [=](ConvDesc& d) { d.groups = bad; }, E::InvalidArgument, "group"});
        v.push_back({"strideH", [=](ConvDesc& d) { d.strideH = bad; }, E::InvalidArgument, "stride"});
        v.push_back({"strideW", [=](ConvDesc& d) { d.strideW = bad; }, E::InvalidArgument, "stride"});
        v.push_back({"dilationH", [=](ConvDesc& d) { d.dilationH = bad; }, E::InvalidArgument, "dil"});
        v.push_back({"dilationW", [=](ConvDesc& d) { d.dilationW = bad; }, E::InvalidArgument, "dil"});
    }
    v.push_back({"padTop", [](ConvDesc& d) { d.padTop = -1; }, E::InvalidArgument, "pad"});
    v.push_back({"padBottom", [](ConvDesc& d) { d.padBottom = -1; }, E::InvalidArgument, "pad"});
    v.push_back({"padLeft", [](ConvDesc& d) { d.padLeft = -2; }, E::InvalidArgument, "pad"});
    v.push_back({"padRight", [](ConvDesc& d) { d.padRight = -1; }, E::InvalidArgument, "pad"});
    v.push_back({"c%groups", [](ConvDesc& d) { d.c = 6, d.k = 8, d.groups = 4; }, E::InvalidArgument, "group"});
    v.push_back({"k%groups", [](ConvDesc& d) { d.c = 8, d.k = 6, d.groups = 4; }, E::InvalidArgument, "group"});
    v.push_back({"groups>c", [](ConvDesc& d) { d.c = 4, d.k = 8, d.groups = 8; }, E::InvalidArgument, "group"});
    v.push_back({"dtype", [](ConvDesc& d) { d.dtype = vkconv::DType(7); }, E::InvalidArgument, ""});
    v.push_back({"inputLayout", [](ConvDesc& d) { d.inputLayout = vkconv::TensorLayout(5); }, E::InvalidArgument, ""});
    v.push_back(
        {"outputLayout", [](ConvDesc& d) { d.outputLayout = vkconv::TensorLayout(9); }, E::InvalidArgument, ""});
    v.push_back(
        {"filterLayout", [](ConvDesc& d) { d.filterLayout = vkconv::FilterLayout(3); }, E::InvalidArgument, ""});
    v.push_back({"activation", [](ConvDesc& d) { d.activation = vkconv::Activation(42); }, E::InvalidArgument, ""});
    // Output size < 1.
    v.push_back({"outH<1", [](ConvDesc& d) { d.h = 2, d.r = 5, d.pad(0, 1); }, E::OutputEmpty, ""});
    v.push_back({"outW<1", [](ConvDesc& d) { d.w = 4, d.s = 3, d.dilationW = 2, d.pad(1, 0); }, E::OutputEmpty, ""});
    v.push_back(
        {"outH<1 asym", [](ConvDesc& d) { d.h = 1, d.r = 4, d.padTop = 2, d.padBottom = 0; }, E::OutputEmpty, ""});
    return v;
}

}  // namespace

class Validation : public VkconvTest {};

TEST_F(Validation, BaseDescIsValid) {
    EXPECT_NO_THROW(base().validate());
    EXPECT_NO_THROW(vkconv::Plan::create(ctx(), base()));
    ConvDesc d = base();
    d.h = 5, d.r = 5, d.pad(0, 0);  // output exactly 1 row
    EXPECT_NO_THROW(d.validate());
    EXPECT_EQ(d.outH(), 1);
}

TEST_F(Validation, InvalidDescriptors) {
    for (const auto& b : badDescs()) {
        ConvDesc d = base();
        b.mutate(d);
        SCOPED_TRACE(std::string("case ") + b.name);
        EXPECT_TRUE(throwsCode([&] { d.validate(); }, {b.code}));
        EXPECT_TRUE(throwsCode([&] { vkconv::Plan::create(ctx(), d); }, {b.code}));
        for (const auto& a : vkconv::algorithmNames()) {
            vkconv::PlanOptions o;
            o.algorithm = a;
            EXPECT_TRUE(throwsCode([&] { vkconv::Plan::create(ctx(), d, o); }, {b.code})) << "algorithm " << a;
        }
        if (*b.field) {
            try {
                d.validate();
            } catch (const vkconv::Error& e) {
                EXPECT_NE(lower(e.what()).find(b.field), std::string::npos)
                    << "message should name the field: " << e.what();
            }
        }
    }
}

TEST_F(Validation, IndexOverflow32Bit) {
    struct Big {
        const char* name;
        std::function<void(ConvDesc&)> mutate;
    };
    const std::vector<Big> cases = {
        {"input 2^31 elements", [](ConvDesc& d) { d.c = 1024, d.h = 1024, d.w = 2048, d.r = d.s = 1, d.pad(0, 0); }},
        {"input n*c*h*w > 2^31",
         [](ConvDesc& d) { d.n = 3, d.c = 1024, d.h = 1024, d.w = 1024, d.r = d.s = 1, d.pad(0, 0); }},
        {"output >= 2^31 elements",
         [](ConvDesc& d) { d.c = 1, d.h = d.w = 1, d.k = 2, d.r = d.s = 1, d.pad(16384, 16384); }},
        {"filter 2^31 elements",
         [](ConvDesc& d) { d.c = 32768, d.h = d.w = 1, d.k = 65536, d.r = d.s = 1, d.pad(0, 0); }},
        {"int64 product overflow",
         [](ConvDesc& d) { d.n = d.c = d.h = d.w = int64_t(1) << 20, d.r = d.s = 1, d.pad(0, 0); }},
    };
    for (const auto& b : cases) {
        SCOPED_TRACE(b.name);
        ConvDesc d = base();
        b.mutate(d);
        // validate() may leave device-dependent ranges to Plan::create, but if it throws it must be IndexOverflow.
        try {
            d.validate();
        } catch (const vkconv::Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::IndexOverflow) << e.what();
        }
        // Plan::create must reject it before allocating anything (these would need many GiB).
        EXPECT_TRUE(throwsCode([&] { vkconv::Plan::create(ctx(), d); }, {ErrorCode::IndexOverflow}));
    }
    ConvDesc d = base();
    d.pad(int64_t(1) << 62, 0);  // h + padTop + padBottom overflows int64
    EXPECT_TRUE(throwsCode([&] { d.validate(); }, {ErrorCode::IndexOverflow, ErrorCode::InvalidArgument}));
}

TEST_F(Validation, MaxStorageBufferRange) {
    const uint64_t range = ctx().caps().maxStorageBufferRange;
    ASSERT_GT(range, 0u);
    const uint64_t elems = range / 4;  // fp32 elements that just fit
    if (elems + 1 >= (uint64_t(1) << 31))
        GTEST_SKIP() << "maxStorageBufferRange " << range << " holds 2^31 fp32 elements: only the 32-bit limit applies";
    // A 1x1 conv over one long row: input and output exactly at the limit must be accepted...
    ConvDesc d;
    d.w = int64_t(elems);
    EXPECT_NO_THROW(vkconv::Plan::create(ctx(), d)) << "input/output of exactly maxStorageBufferRange bytes";
    // ...and one element more must not (input, output and filter each).
    for (int which = 0; which < 3; ++which) {
        ConvDesc e;
        if (which == 0) e.w = int64_t(elems) + 1, e.s = 2;                    // input only
        if (which == 1) e.w = int64_t(elems) / 2 + 1, e.k = 2;                // output only
        if (which == 2) e.c = int64_t(elems) / 2 + 1, e.k = 2, e.groups = 1;  // filter only
        SCOPED_TRACE(e.toString());
        EXPECT_TRUE(throwsCode([&] { vkconv::Plan::create(ctx(), e); }, {ErrorCode::IndexOverflow}));
    }
}

TEST_F(Validation, UnsupportedDType) {
    std::string supported;
    int declined = 0;
    for (auto t : {vkconv::DType::F32, vkconv::DType::F16, vkconv::DType::BF16}) {
        ConvDesc d = base();
        d.dtype = t;
        try {
            vkconv::Plan::create(ctx(), d);
            supported += std::string(vkconv::toString(t)) + " ";
        } catch (const vkconv::Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
            ++declined;
        }
    }
    if (declined == 0) GTEST_SKIP() << "the device supports every dtype (" << supported << ")";
}

TEST_F(Validation, BufferTooSmall) {
    ConvDesc d = base();
    d.hasBias = d.hasResidual = true;
    auto plan = vkconv::Plan::create(ctx(), d);
    const auto data = makeConvData(d, 1, DataMode::Uniform);
    DeviceConv dev = uploadConv(ctx(), d, packConv(d, data), plan.workspaceSize());
    const auto good = dev.tensors(d);
    EXPECT_NO_THROW(plan.run(good));
    const uint32_t es = vkconv::dtypeSize(d.dtype);
    struct Slot {
        const char* name;
        vkconv::BufferView vkconv::ConvTensors::*view;
    };
    std::vector<Slot> slots = {{"input", &vkconv::ConvTensors::input},
                               {"filter", &vkconv::ConvTensors::filter},
                               {"bias", &vkconv::ConvTensors::bias},
                               {"residual", &vkconv::ConvTensors::residual},
                               {"output", &vkconv::ConvTensors::output}};
    if (plan.workspaceSize() > 0) slots.push_back({"workspace", &vkconv::ConvTensors::workspace});
    for (const auto& s : slots) {
        SCOPED_TRACE(s.name);
        auto t = good;
        (t.*s.view).size -= es;  // one element short
        EXPECT_TRUE(throwsCode([&] { plan.run(t); }, {ErrorCode::BufferTooSmall}));
        t = good;
        (t.*s.view).size = 0;
        EXPECT_TRUE(throwsCode([&] { plan.run(t); }, {ErrorCode::BufferTooSmall}));
        t = good;
        t.*s.view = vkconv::BufferView{};  // missing although the descriptor needs it
        EXPECT_TRUE(throwsCode([&] { plan.run(t); }, {ErrorCode::BufferTooSmall, ErrorCode::InvalidArgument}));
    }
    EXPECT_NO_THROW(plan.run(good)) << "the plan must stay usable after rejected runs";
}

TEST_F(Validation, UnknownAlgorithm) {
    for (const char* name : {"no_such_algorithm", "AUTO ", "direct;"}) {
        vkconv::PlanOptions o;
        o.algorithm = name;
        SCOPED_TRACE(std::string("algorithm '") + name + "'");
        EXPECT_TRUE(throwsCode([&] { vkconv::Plan::create(ctx(), base(), o); }, {ErrorCode::UnknownAlgorithm}));
    }
    // whyUnsupported either throws UnknownAlgorithm or declines with a reason.
    try {
        EXPECT_NE(vkconv::whyUnsupported(ctx(), base(), "no_such_algorithm"), "");
    } catch (const vkconv::Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::UnknownAlgorithm) << e.what();
    }
}

TEST_F(Validation, AlgorithmNamesAreUsable) {
    const auto names = vkconv::algorithmNames();
    ASSERT_FALSE(names.empty());
    for (const auto& n : names) {
        EXPECT_NE(n, "auto");
        EXPECT_EQ(std::count(names.begin(), names.end(), n), 1) << "duplicate algorithm " << n;
    }
}

// whyUnsupported(...) != "" exactly when Plan::create with that algorithm forced throws Unsupported.
TEST_F(Validation, ForcedAlgorithmThatDeclines) {
    std::vector<ConvDesc> shapes;
    for (int i = 0; i < 11; ++i) shapes.push_back(base());
    shapes[1].r = shapes[1].s = 1, shapes[1].pad(0, 0);
    shapes[2].strideH = shapes[2].strideW = 2;
    shapes[3].dilationH = shapes[3].dilationW = 2, shapes[3].pad(2, 2);
    shapes[4].c = shapes[4].k = shapes[4].groups = 4;
    shapes[5].c = 8, shapes[5].k = 8, shapes[5].groups = 2;
    shapes[6].r = 7, shapes[6].s = 1, shapes[6].pad(3, 0);
    shapes[7].dtype = vkconv::DType::F16, shapes[7].inputLayout = shapes[7].outputLayout = vkconv::TensorLayout::NHWC;
    shapes[8].dtype = vkconv::DType::BF16, shapes[8].filterLayout = vkconv::FilterLayout::KRSC;
    shapes[9].r = shapes[9].s = 5, shapes[9].strideH = 3, shapes[9].pad(2, 2);
    shapes[10].h = 40, shapes[10].r = 33, shapes[10].s = 1, shapes[10].pad(16, 0);  // very tall filter
    int declines = 0;
    for (const auto& d : shapes)
        for (const auto& a : vkconv::algorithmNames()) {
            SCOPED_TRACE(a + " on " + d.toString());
            const std::string why = vkconv::whyUnsupported(ctx(), d, a);
            vkconv::PlanOptions o;
            o.algorithm = a;
            if (why.empty()) {
                EXPECT_NO_THROW(vkconv::Plan::create(ctx(), d, o));
            } else {
                ++declines;
                EXPECT_TRUE(throwsCode([&] { vkconv::Plan::create(ctx(), d, o); }, {ErrorCode::Unsupported}));
            }
        }
    if (declines == 0) GTEST_SKIP() << "no algorithm declined any of the probe shapes";
}

TEST_F(Validation, BadSubgroupSize) {
    const auto& c = ctx().caps();
    for (uint32_t sg : {3u, c.maxSubgroupSize * 2, 1024u * 1024u}) {
        vkconv::PlanOptions o;
        o.subgroupSize = sg;
        SCOPED_TRACE("subgroupSize " + std::to_string(sg));
        EXPECT_TRUE(throwsCode([&] { vkconv::Plan::create(ctx(), base(), o); },
                               {ErrorCode::InvalidArgument, ErrorCode::Unsupported}));
    }
}

TEST_F(Validation, ErrorCodeNames) {
    using E = ErrorCode;
    for (auto c : {E::InvalidArgument, E::OutputEmpty, E::IndexOverflow, E::BufferTooSmall, E::Unsupported,
                   E::UnknownAlgorithm, E::Vulkan, E::NoDevice, E::Io}) {
        ASSERT_NE(vkconv::toString(c), nullptr);
        EXPECT_GT(std::string(vkconv::toString(c)).size(), 0u);
    }
}
