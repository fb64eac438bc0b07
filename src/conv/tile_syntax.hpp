// The one syntax of PlanOptions::tile, parsed in one place (CUTLASS-like names):
//
//   tile   := group ( '/' group )*
//   group  := dims tag* | tag+
//   dims   := N ( 'x' N )*              e.g. 128x64x8
//   tag    := LETTER N                  a letter other than 'x', e.g. s4, p2, g3, q32, k2, a1
//   N      := a decimal number without sign or leading zeros, below 2^32
//
// and, for the algorithms that run another algorithm inside them (coopmat_nhwc, dgrad_forward):
//
//   inner  := ALGO | ALGO ':' tile | tile     ALGO := [a-z_][a-z0-9_]* (a registered name)
//
// A tag belongs to the group it follows: in implicit_gemm_coopmat's "128x256x32/2x4s1/s4" the "s1"
// is the tile's single staging buffer and the standalone "/s4" group its split count.  Whether a
// group, dimension or tag means anything is the algorithm's to say: it matches the parsed value
// against its tile table (TileSpec::is, tag, takeTrailing) and words its own "no tile" message.
//
// An algorithm that takes PlanOptions::tile:
//  1. parses it once with parseTile (parseInnerTile for "ALGO[:TILE]"; parseSplitRequest,
//     conv/split_k.hpp, for a trailing "/s<splits>" split count);
//  2. keeps its tiles in a table of structs with named fields (and a name for listings), and
//     matches the parsed value against the fields: spec.is({{t.bm, t.bn, t.bk}, {t.tm, t.tn}}),
//     or spec.shape({3, 2}, "p") then dim() and tag() for a parametric tile;
//  3. declines an unknown or malformed one in whyNot with noTileError(spec, what it has);
//  4. adds its row to README "Algorithms" (the tile table there).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vkconv {

struct TileTag {
    char letter = 0;
    uint32_t value = 0;
    bool operator==(const TileTag&) const = default;
};

struct TileGroup {
    std::vector<uint32_t> dims;  // empty in a group of tags alone ("s4")
    std::vector<TileTag> tags;
    bool operator==(const TileGroup&) const = default;
};

struct TileSpec {
    std::string text;  // as given
    std::vector<TileGroup> groups;
    std::string error;  // "" when the text follows the grammar; else tileSyntaxError's message

    bool empty() const { return text.empty(); }
    bool ok() const { return error.empty(); }
    // As many groups as `sizes`, group i of sizes[i] dimensions (0: a group of tags alone), tags
    // on the last group only, each letter one of `tags` (read them with tag()).
    bool shape(std::initializer_list<size_t> sizes, std::string_view tags = "") const;
    // Dimension i of group g (shape() checked that it exists).
    uint32_t dim(size_t g, size_t i) const { return groups[g].dims[i]; }
    // The groups' dimensions are exactly `dims` and no group has a tag.
    bool is(std::initializer_list<std::initializer_list<uint32_t>> dims) const;
    // The groups' dimensions are exactly `dims`, whatever their tags.
    bool hasDims(std::initializer_list<std::initializer_list<uint32_t>> dims) const;
    // Tag `letter` of group `group`, if it has one.
    std::optional<uint32_t> tag(size_t group, char letter) const;
    // Every tag's letter is one of `letters`.
    bool onlyTags(std::string_view letters) const;
    // Removes tag `letter` where it ends the text (attached to the last group, or, with
    // standalone, only as a last group of its own: "/s4", "s4") and returns its value.
    std::optional<uint32_t> takeTrailing(char letter, bool standalone);
    // The text of the groups (the canonical spelling of what is left after takeTrailing).
    std::string str() const;
};

// Parses a tile string ("" parses to an empty spec without error).
TileSpec parseTile(std::string_view text);

// "ALGO", "ALGO:TILE" or a plain tile.  algorithm is "" for a plain tile (the whole text parses
// as one); tile holds the rest, for the inner algorithm to parse.
struct InnerTile {
    std::string algorithm;
    std::string tile;
    std::string error;
};
InnerTile parseInnerTile(std::string_view text);

// The message formats, each naming the string: a malformed one (TileSpec::error), and one the
// algorithm lacks, with the list of what it has (malformed or well formed):
//   no tile '128x': expected a number after 'x' at character 5
//   no tile '128x' (expected a number after 'x' at character 5; have: 128x128x8/8x8, 64x64x8/4x4)
//   no tile '64x64' (have: 128x128x8/8x8, 64x64x8/4x4)
std::string tileSyntaxError(std::string_view text, std::string_view expected, size_t at);
std::string noTileError(std::string_view text, std::string_view have);
std::string noTileError(const TileSpec& spec, std::string_view have);

// Joins names with ", " for noTileError's list.
template <class Range, class Name>
std::string tileNames(const Range& r, Name name) {
    std::string s;
    for (const auto& t : r) s += (s.empty() ? "" : ", ") + std::string(name(t));
    return s;
}

}  // namespace vkconv
