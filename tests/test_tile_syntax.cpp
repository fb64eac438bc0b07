// PlanOptions::tile's one grammar (src/conv/tile_syntax.hpp): the parsed value of well-formed
// strings (every form an algorithm takes), the exact message of malformed ones, and the
// "ALGO[:TILE]" form of the algorithms that run another one.  Links the library's internals.
#include <gtest/gtest.h>

#include "conv/tile_syntax.hpp"

using vkconv::InnerTile;
using vkconv::noTileError;
using vkconv::parseInnerTile;
using vkconv::parseTile;
using vkconv::TileGroup;
using vkconv::TileSpec;
using vkconv::TileTag;

namespace {

TileSpec ok(const std::string& text) {
    TileSpec s = parseTile(text);
    EXPECT_TRUE(s.ok()) << text << ": " << s.error;
    EXPECT_EQ(s.str(), text);  // numbers without leading zeros: the text is canonical
    return s;
}

}  // namespace

TEST(TileSyntax, Empty) {
    TileSpec s = parseTile("");
    EXPECT_TRUE(s.ok());
    EXPECT_TRUE(s.empty());
    EXPECT_TRUE(s.groups.empty());
}

TEST(TileSyntax, WellFormed) {
    // implicit_gemm and its split-K form
    TileSpec s = ok("128x128x8/8x8");
    EXPECT_TRUE(s.is({{128, 128, 8}, {8, 8}}));
    EXPECT_FALSE(s.is({{128, 128, 8}}));
    EXPECT_FALSE(s.is({{128, 128, 8}, {8, 4}}));
    s = ok("128x64x8/8x4/s4");
    ASSERT_EQ(s.groups.size(), 3u);
    EXPECT_EQ(s.groups[2], (TileGroup{{}, {{'s', 4}}}));
    EXPECT_EQ(s.takeTrailing('s', true), 4u);
    EXPECT_TRUE(s.is({{128, 64, 8}, {8, 4}}));
    EXPECT_EQ(s.str(), "128x64x8/8x4");
    s = ok("s16");
    EXPECT_EQ(s.takeTrailing('s', true), 16u);
    EXPECT_TRUE(s.groups.empty());
    // implicit_gemm_coopmat: an attached "s1" is the tile's, a group "/s2" the split
    s = ok("128x256x32/2x4s1/s2");
    EXPECT_EQ(s.takeTrailing('s', true), 2u);
    EXPECT_FALSE(s.takeTrailing('s', true));  // "2x4s1": attached, not a split
    EXPECT_TRUE(s.hasDims({{128, 256, 32}, {2, 4}}));
    EXPECT_EQ(s.tag(1, 's'), 1u);
    EXPECT_EQ(s.groups[1].tags, (std::vector<TileTag>{{'s', 1}}));
    s = ok("32x64x32/2x2k4");
    EXPECT_EQ(s.tag(1, 'k'), 4u);
    // halo_coopmat's strip, attached or a group of its own
    for (const char* t : {"256x64/4x1q32", "256x64/4x1/q32"}) {
        s = ok(t);
        EXPECT_EQ(s.takeTrailing('q', false), 32u) << t;
        EXPECT_TRUE(s.is({{256, 64}, {4, 1}})) << t;
    }
    // grouped_coopmat's two tags; few_filters' one; winograd, depthwise, depthwise_tiled
    s = ok("8x32x16/1x1p4g4");
    EXPECT_TRUE(s.shape({3, 2}, "pg"));
    EXPECT_FALSE(s.shape({3, 2}, "p"));
    EXPECT_EQ(s.tag(1, 'p'), 4u);
    EXPECT_EQ(s.tag(1, 'g'), 4u);
    EXPECT_EQ(s.dim(0, 1), 32u);
    s = ok("128x2g3");
    EXPECT_TRUE(s.shape({2}, "g"));
    EXPECT_FALSE(s.shape({2}));
    EXPECT_TRUE(ok("4x4").is({{4, 4}}));
    EXPECT_TRUE(ok("32x8x16/2x4").is({{32, 8, 16}, {2, 4}}));
    EXPECT_TRUE(ok("0x4294967295").is({{0, 4294967295u}}));
    // tags only on the last group for shape()
    EXPECT_FALSE(ok("8x8p2/4").shape({2, 1}, "p"));
}

TEST(TileSyntax, Malformed) {
    const std::pair<const char*, const char*> cases[] = {
        {"128x", "no tile '128x': expected a number after 'x' at character 5"},
        {"x4", "no tile 'x4': expected a number or a tag such as s4 at character 1"},
        {"128x128x8/", "no tile '128x128x8/': expected a number or a tag such as s4 at character 11"},
        {"/s4", "no tile '/s4': expected a number or a tag such as s4 at character 1"},
        {"128x128x8//8x8", "no tile '128x128x8//8x8': expected a number or a tag such as s4 at character 11"},
        {"64x64s", "no tile '64x64s': expected a number after 's' at character 7"},
        {"064x8", "no tile '064x8': expected a number without leading zeros at character 1"},
        {"+64x8", "no tile '+64x8': expected a number or a tag such as s4 at character 1"},
        {"4x4 ", "no tile '4x4 ': expected 'x', '/', a tag letter or the end at character 4"},
        {"4X4", "no tile '4X4': expected 'x', '/', a tag letter or the end at character 2"},
        {"4x4294967296", "no tile '4x4294967296': expected a number below 2^32 at character 3"},
        {"8x8p2p4", "no tile '8x8p2p4': expected one 'p' per group at character 6"},
        {"winograd", "no tile 'winograd': expected a number after 'w' at character 2"},
    };
    for (const auto& [text, error] : cases) {
        TileSpec s = parseTile(text);
        EXPECT_FALSE(s.ok()) << text;
        EXPECT_EQ(s.error, error);
    }
}

TEST(TileSyntax, NoTileMessages) {
    EXPECT_EQ(noTileError(parseTile("64x64"), "4x4, 8x4"), "no tile '64x64' (have: 4x4, 8x4)");
    EXPECT_EQ(noTileError(parseTile("64x"), "4x4, 8x4"),
              "no tile '64x' (expected a number after 'x' at character 4; have: 4x4, 8x4)");
    EXPECT_EQ(noTileError("7x7", "2x2, 4x4"), "no tile '7x7' (have: 2x2, 4x4)");
}

TEST(TileSyntax, InnerAlgorithm) {
    auto check = [](const char* text, const char* algo, const char* tile, const char* error) {
        InnerTile t = parseInnerTile(text);
        EXPECT_EQ(t.algorithm, algo) << text;
        EXPECT_EQ(t.tile, tile) << text;
        EXPECT_EQ(t.error, error) << text;
    };
    check("winograd", "winograd", "", "");
    check("winograd:2x2", "winograd", "2x2", "");
    check("halo_coopmat:256x32/4x1", "halo_coopmat", "256x32/4x1", "");
    check("implicit_gemm:", "implicit_gemm", "", "");         // "ALGO:" is "ALGO"
    check("128x128x32/2x4/s2", "", "128x128x32/2x4/s2", "");  // a plain tile (coopmat_nhwc's inner kernel's)
    check("s4", "", "s4", "");
    check("no_such_algorithm", "no_such_algorithm", "", "");  // the caller looks names up
    check("2x2:winograd", "", "", "no tile '2x2:winograd': expected an algorithm's name before ':' at character 1");
    check("128x", "", "", "no tile '128x': expected a number after 'x' at character 5");
}
