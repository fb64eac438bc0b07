// Planning under adversarial problems.  Seeded random descriptors (sizes from 1 to past the 32-bit
// index range, pads wider than the kernel, strides and dilations that empty the output, groups
// that do and do not divide, every dtype, layout and epilogue) are planned on the recorded device
// profiles (NVIDIA H200; RADV's null devices for RDNA1, RDNA3 and RDNA4), on this device's own
// caps and on those caps cut to Vulkan 1.3's minimum limits, with "auto" and with every algorithm
// forced.  Each call returns a plan or throws vkconv::Error, never anything else; it throws
// exactly where validation or whyUnsupported says it must, with validation's code; "auto" plans
// every valid problem the device can hold; a plan's workspace stays within
// PlanOptions::workspaceLimit.  Offline contexts plan without compiling, so the few thousand plans
// take seconds, and the sanitizer build runs them (label asan), where a signed overflow in the
// size arithmetic of any router or tile chooser fails the run.
#include <cstdlib>
#include <optional>

#include "environment.hpp"
#include "plan_fuzzer.hpp"

using namespace vkt;
using vkconv::ConvDesc;
using vkconv::DType;
using vkconv::ErrorCode;

namespace {

struct Outcome {
    bool ok = false;
    std::optional<ErrorCode> code;
    std::string what;
    std::string algorithm;
    VkDeviceSize workspace = 0;
};

// Plan::create's result, with any exception that is not a vkconv::Error reported as one.
Outcome tryPlan(vkconv::Context& ctx, const ConvDesc& d, const vkconv::PlanOptions& o) {
    Outcome r;
    try {
        vkconv::Plan p = vkconv::Plan::create(ctx, d, o);
        r.ok = true;
        r.algorithm = p.algorithm();
        r.workspace = p.workspaceSize();
        if (p.config().empty()) r.what = "empty config()";
    } catch (const vkconv::Error& e) {
        r.code = e.code();
        r.what = e.what();
    } catch (const std::exception& e) {
        r.what = std::string("not a vkconv::Error: ") + e.what();
    }
    return r;
}

std::optional<ErrorCode> validationCode(const ConvDesc& d) {
    try {
        d.validate();
    } catch (const vkconv::Error& e) {
        return e.code();
    }
    return std::nullopt;
}

}  // namespace

class PlanFuzz : public VkconvTest {};

TEST_F(PlanFuzz, EveryPlanIsAPlanOrANamedError) {
    const auto [count, seed] = fuzzRun(0);
    const auto names = vkconv::algorithmNames();
    int planned = 0, declined = 0, invalid = 0, forcedOk = 0;
    for (auto& prof : profiles(ctx().caps())) {
        Fuzzer fz(seed + uint64_t(prof.name.size()));
        for (int i = 0; i < count; ++i) {
            const ConvDesc d = fz.next();
            SCOPED_TRACE(prof.name + ": problem " + std::to_string(i) + " " + d.toString());
            const auto bad = validationCode(d);
            const std::string deviceWhy = vkconv::whyUnsupported(prof.ctx, d, "auto");
            vkconv::PlanOptions autoOpts;
            const Outcome a = tryPlan(prof.ctx, d, autoOpts);
            if (bad) {
                ++invalid;
                EXPECT_FALSE(a.ok) << "planned an invalid problem with " << a.algorithm;
                EXPECT_EQ(a.code, bad) << a.what;
                EXPECT_FALSE(deviceWhy.empty());
            } else if (!deviceWhy.empty()) {
                ++declined;  // the device's limits (maxStorageBufferRange, 16-bit storage)
                EXPECT_FALSE(a.ok) << "planned with " << a.algorithm << " what whyUnsupported declines: " << deviceWhy;
                EXPECT_TRUE(a.code == ErrorCode::IndexOverflow || a.code == ErrorCode::Unsupported) << a.what;
            } else {
                ++planned;
                EXPECT_TRUE(a.ok) << "auto found no algorithm: " << a.what;
                EXPECT_LE(a.workspace, autoOpts.workspaceLimit) << a.algorithm;
                if (a.ok) {
                    EXPECT_EQ(vkconv::whyUnsupported(prof.ctx, d, a.algorithm), "") << "auto chose " << a.algorithm;
                }
            }
            for (const auto& name : names) {
                vkconv::PlanOptions o;
                o.algorithm = name;
                const std::string why = vkconv::whyUnsupported(prof.ctx, d, name);
                const Outcome f = tryPlan(prof.ctx, d, o);
                SCOPED_TRACE("forced " + name);
                if (bad) {
                    EXPECT_EQ(f.code, bad) << f.what;
                } else if (why.empty()) {
                    ++forcedOk;
                    EXPECT_TRUE(f.ok) << "whyUnsupported had no reason, but: " << f.what;
                    EXPECT_EQ(f.algorithm, name);
                    EXPECT_LE(f.workspace, o.workspaceLimit);
                } else {
                    EXPECT_FALSE(f.ok) << "planned although whyUnsupported says: " << why;
                    EXPECT_TRUE(f.code == ErrorCode::Unsupported || f.code == ErrorCode::IndexOverflow) << f.what;
                }
            }
        }
    }
    std::cout << "[ info ] " << planned << " problems planned, " << declined << " beyond a device's limits, " << invalid
              << " invalid; " << forcedOk << " forced algorithms accepted" << std::endl;
    // The generator must reach all three outcomes, and forced plans, or the test checks little.
    EXPECT_GT(planned, count);
    EXPECT_GT(declined, 0);
    EXPECT_GT(invalid, 0);
    EXPECT_GT(forcedOk, count);
}

namespace {

// The "tile ..." word of a plan's config (its forced-tile name), "" where it has none.
std::string configTile(const std::string& config) {
    if (config.rfind("tile ", 0) != 0) return "";
    const size_t end = config.find(' ', 5);
    return config.substr(5, end == std::string::npos ? std::string::npos : end - 5);
}

}  // namespace

// PlanOptions under the same problems: a tile name taken from a plan's own config is accepted
// back (forced tiles are how users tune); malformed tile strings, subgroup sizes that are not
// powers of two or that the device cannot require, and tight workspace limits are refused with
// a vkconv::Error or honoured (workspace within the limit, no winograd where it is not allowed,
// a packed filter of at least one byte).
TEST_F(PlanFuzz, OptionsAreHonouredOrRefused) {
    const auto [count, seed] = fuzzRun(0x0f0f);
    const auto names = vkconv::algorithmNames();
    const std::vector<std::string> badTiles = {"banana",
                                               "0x0x0/0x0",
                                               "x",
                                               "/",
                                               "s",
                                               "s0",
                                               "s-3",
                                               "s99999999999999999999",
                                               "64x",
                                               "99999999999x1x1/1x1",
                                               "8x8x8/8x8x8/8x8",
                                               "-1x-1",
                                               "1x1/0",
                                               "16x16/0",
                                               "32x2/1a0",
                                               "4x16x32/1x1p0",
                                               "64x64x8/4x4/s0",
                                               std::string(300, '9')};
    std::mt19937_64 g(seed);
    int roundTrips = 0, refused = 0;
    for (auto& prof : profiles(ctx().caps())) {
        Fuzzer fz(seed + uint64_t(prof.name.size()));
        for (int i = 0; i < count; ++i) {
            const ConvDesc d = fz.next();
            if (validationCode(d) || !vkconv::whyUnsupported(prof.ctx, d, "auto").empty()) continue;
            SCOPED_TRACE(prof.name + ": problem " + std::to_string(i) + " " + d.toString());
            const std::string& name = names[g() % names.size()];
            if (!vkconv::whyUnsupported(prof.ctx, d, name).empty()) continue;
            SCOPED_TRACE("forced " + name);
            vkconv::PlanOptions o;
            o.algorithm = name;
            const vkconv::Plan base = vkconv::Plan::create(prof.ctx, d, o);
            // Its own tile, forced.
            if (const std::string tile = configTile(base.config()); !tile.empty()) {
                vkconv::PlanOptions t = o;
                t.tile = tile;
                const Outcome r = tryPlan(prof.ctx, d, t);
                EXPECT_TRUE(r.ok) << "tile " << tile << " of " << base.config() << ": " << r.what;
                if (r.ok) {
                    ++roundTrips;
                    EXPECT_EQ(configTile(vkconv::Plan::create(prof.ctx, d, t).config()), tile);
                }
            }
            // A malformed tile.
            {
                vkconv::PlanOptions t = o;
                t.tile = badTiles[g() % badTiles.size()];
                const Outcome r = tryPlan(prof.ctx, d, t);
                SCOPED_TRACE("tile '" + t.tile.substr(0, 40) + "'");
                EXPECT_TRUE(r.ok || r.code == ErrorCode::Unsupported || r.code == ErrorCode::InvalidArgument) << r.what;
                if (!r.ok) ++refused;
            }
            // A subgroup size.
            {
                vkconv::PlanOptions t = o;
                t.subgroupSize = std::vector<uint32_t>{3, 4, 8, 16, 32, 48, 64, 128, 1u << 31}[g() % 9];
                const Outcome r = tryPlan(prof.ctx, d, t);
                SCOPED_TRACE("subgroupSize " + std::to_string(t.subgroupSize));
                const uint32_t sg = t.subgroupSize;
                if ((sg & (sg - 1)) != 0) {
                    EXPECT_EQ(r.code, ErrorCode::InvalidArgument) << r.what;
                } else {
                    EXPECT_TRUE(r.ok || r.code == ErrorCode::Unsupported) << r.what;
                    const auto& c = prof.ctx.caps();
                    if (!c.subgroupSizeControl || sg < c.minSubgroupSize || sg > c.maxSubgroupSize) {
                        EXPECT_FALSE(r.ok) << "planned at a subgroup size the device cannot require";
                    }
                }
            }
            // Workspace limits, packed filters, winograd allowed or not: with "auto" and forced.
            for (const std::string& algo : {std::string("auto"), name}) {
                vkconv::PlanOptions t;
                t.algorithm = algo;
                t.workspaceLimit =
                    std::vector<VkDeviceSize>{0, 1, 4096, VkDeviceSize(1) << 20, t.workspaceLimit}[g() % 5];
                t.packedFilter = g() % 2 == 0;
                t.allowWinograd = g() % 2 == 0;
                const Outcome r = tryPlan(prof.ctx, d, t);
                SCOPED_TRACE(algo + " workspaceLimit " + std::to_string(t.workspaceLimit) +
                             (t.packedFilter ? " packed" : "") + (t.allowWinograd ? "" : " no-winograd"));
                if (algo == "auto") {
                    EXPECT_TRUE(r.ok) << "auto found no algorithm: " << r.what;
                    if (!t.allowWinograd) {
                        EXPECT_NE(r.algorithm, "winograd");
                    }
                } else {
                    EXPECT_TRUE(r.ok || r.code == ErrorCode::Unsupported) << r.what;
                }
                if (r.ok) {
                    EXPECT_LE(r.workspace, t.workspaceLimit) << r.algorithm;
                    if (t.packedFilter) {
                        EXPECT_GT(vkconv::Plan::create(prof.ctx, d, t).packedFilterSize(), 0u);
                    }
                }
            }
        }
    }
    std::cout << "[ info ] " << roundTrips << " forced tiles taken back, " << refused << " malformed tiles refused"
              << std::endl;
    EXPECT_GT(roundTrips, 10);
    EXPECT_GT(refused, 10);
}

// Device profiles are files users pass around (vkconv-bench --caps): a mangled one (bytes cut,
// repeated or replaced, numbers made huge or negative, the text truncated) is read back or
// refused with a vkconv::Error, and a profile that reads back plans or refuses to, never anything
// else.  Under ASan and UBSan this is the JSON reader's fuzz.
TEST_F(PlanFuzz, MangledProfilesAreReadOrRefused) {
    std::ifstream in(std::string(VKCONV_PROFILES_DIR) + "/radv_null_gfx1201.json");
    std::stringstream text;
    text << in.rdbuf();
    const std::string base = text.str();
    ASSERT_FALSE(base.empty());
    const auto [count, seed] = fuzzRun(0xbad);
    std::mt19937_64 g(seed);
    const std::vector<std::string> junk = {
        "",     "\"",   "{",       "}",        "[",  "]",   ",",    ":",  "-1", "1e999", "99999999999999999999",
        "null", "true", "\\u0000", "\xff\xfe", "-0", "0.5", "\"\"", "[]", "{}"};
    int read = 0, refused = 0;
    for (int i = 0; i < 4 * count; ++i) {
        std::string s = base;
        for (int edits = 1 + int(g() % 3); edits > 0; --edits) {
            const size_t at = g() % (s.size() + 1), len = std::min<size_t>(g() % 24, s.size() - at);
            switch (g() % 4) {
                case 0: s.erase(at, len); break;
                case 1: s.insert(at, s.substr(at, len)); break;
                case 2: s.replace(at, len, junk[g() % junk.size()]); break;
                default: s.resize(at);
            }
        }
        SCOPED_TRACE("mutation " + std::to_string(i));
        try {
            const vkconv::DeviceCaps caps = vkconv::DeviceCaps::fromJson(s);
            vkconv::Context offline = vkconv::Context::createOffline(caps);
            ++read;
            ConvDesc d;
            d.c = 32, d.h = d.w = 14, d.k = 64, d.r = d.s = 3, d.pad(1, 1), d.dtype = DType::F16;
            d.inputLayout = d.outputLayout = vkconv::TensorLayout::NHWC, d.filterLayout = vkconv::FilterLayout::KRSC;
            const Outcome o = tryPlan(offline, d, {});
            EXPECT_TRUE(o.ok || o.code) << o.what;
        } catch (const vkconv::Error&) {
            ++refused;
        } catch (const std::exception& e) {
            ADD_FAILURE() << "not a vkconv::Error: " << e.what();
        }
    }
    std::cout << "[ info ] " << read << " mangled profiles read back, " << refused << " refused" << std::endl;
    EXPECT_GT(read, 0);
    EXPECT_GT(refused, count);
}
