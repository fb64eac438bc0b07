#include "conv/tile_syntax.hpp"

#include <algorithm>

namespace vkconv {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }
bool lower(char c) { return c >= 'a' && c <= 'z'; }

// A number at text[at]: no sign, no leading zeros, below 2^32.  On failure sets error and returns
// false; `after` says what it follows, for the message.
bool number(std::string_view text, size_t& at, uint32_t& v, std::string_view after, std::string& error) {
    const size_t start = at;
    uint64_t n = 0;
    while (at < text.size() && digit(text[at])) {
        n = n * 10 + uint64_t(text[at] - '0');
        if (n > 0xffffffffull) {
            error = tileSyntaxError(text, "a number below 2^32", start);
            return false;
        }
        ++at;
    }
    if (at == start) {
        error =
            tileSyntaxError(text, after.empty() ? std::string("a number") : "a number " + std::string(after), start);
        return false;
    }
    if (text[start] == '0' && at - start > 1) {
        error = tileSyntaxError(text, "a number without leading zeros", start);
        return false;
    }
    v = uint32_t(n);
    return true;
}

bool dimsEqual(const std::vector<TileGroup>& g, std::initializer_list<std::initializer_list<uint32_t>> dims) {
    if (g.size() != dims.size()) return false;
    size_t i = 0;
    for (const auto& d : dims) {
        if (!std::equal(g[i].dims.begin(), g[i].dims.end(), d.begin(), d.end())) return false;
        ++i;
    }
    return true;
}

}  // namespace

std::string tileSyntaxError(std::string_view text, std::string_view expected, size_t at) {
    return "no tile '" + std::string(text) + "': expected " + std::string(expected) + " at character " +
           std::to_string(at + 1);
}

std::string noTileError(std::string_view text, std::string_view have) {
    return "no tile '" + std::string(text) + "' (have: " + std::string(have) + ")";
}

std::string noTileError(const TileSpec& spec, std::string_view have) {
    if (spec.ok()) return noTileError(spec.text, have);
    // "no tile 'T': WHY" -> "no tile 'T' (WHY; have: ...)"
    const size_t colon = spec.text.size() + 11;
    return spec.error.substr(0, colon - 1) + " (" + spec.error.substr(colon + 1) + "; have: " + std::string(have) + ")";
}

TileSpec parseTile(std::string_view text) {
    TileSpec s;
    s.text = std::string(text);
    if (text.empty()) return s;
    size_t at = 0;
    for (;;) {
        TileGroup g;
        if (at < text.size() && digit(text[at])) {
            uint32_t v = 0;
            if (!number(text, at, v, "", s.error)) return s;
            g.dims.push_back(v);
            while (at < text.size() && text[at] == 'x') {
                ++at;
                if (!number(text, at, v, "after 'x'", s.error)) return s;
                g.dims.push_back(v);
            }
        }
        while (at < text.size() && lower(text[at]) && text[at] != 'x') {
            const size_t letterAt = at;
            TileTag t{text[at++], 0};
            const std::string after = std::string("after '") + t.letter + "'";
            if (!number(text, at, t.value, after, s.error)) return s;
            const bool seen =
                std::any_of(g.tags.begin(), g.tags.end(), [&](const TileTag& o) { return o.letter == t.letter; });
            if (seen) {
                s.error = tileSyntaxError(text, std::string("one '") + t.letter + "' per group", letterAt);
                return s;
            }
            g.tags.push_back(t);
        }
        if (g.dims.empty() && g.tags.empty()) {
            s.error = tileSyntaxError(text, "a number or a tag such as s4", at);
            return s;
        }
        s.groups.push_back(std::move(g));
        if (at == text.size()) return s;
        if (text[at] != '/') {
            s.error = tileSyntaxError(text, "'x', '/', a tag letter or the end", at);
            return s;
        }
        ++at;
    }
}

bool TileSpec::shape(std::initializer_list<size_t> sizes, std::string_view tags) const {
    if (!ok() || groups.size() != sizes.size() || !onlyTags(tags)) return false;
    size_t i = 0;
    for (size_t n : sizes) {
        if (groups[i].dims.size() != n || (i + 1 < groups.size() && !groups[i].tags.empty())) return false;
        ++i;
    }
    return true;
}

bool TileSpec::is(std::initializer_list<std::initializer_list<uint32_t>> dims) const {
    return hasDims(dims) &&
           std::all_of(groups.begin(), groups.end(), [](const TileGroup& g) { return g.tags.empty(); });
}

bool TileSpec::hasDims(std::initializer_list<std::initializer_list<uint32_t>> dims) const {
    return dimsEqual(groups, dims);
}

std::optional<uint32_t> TileSpec::tag(size_t group, char letter) const {
    if (group >= groups.size()) return std::nullopt;
    for (const TileTag& t : groups[group].tags)
        if (t.letter == letter) return t.value;
    return std::nullopt;
}

bool TileSpec::onlyTags(std::string_view letters) const {
    for (const TileGroup& g : groups)
        for (const TileTag& t : g.tags)
            if (letters.find(t.letter) == std::string_view::npos) return false;
    return true;
}

std::optional<uint32_t> TileSpec::takeTrailing(char letter, bool standalone) {
    if (groups.empty()) return std::nullopt;
    TileGroup& g = groups.back();
    if (g.tags.empty() || g.tags.back().letter != letter) return std::nullopt;
    if (standalone && (!g.dims.empty() || g.tags.size() != 1)) return std::nullopt;
    const uint32_t v = g.tags.back().value;
    g.tags.pop_back();
    if (g.dims.empty() && g.tags.empty()) groups.pop_back();
    return v;
}

std::string TileSpec::str() const {
    std::string s;
    for (const TileGroup& g : groups) {
        if (!s.empty()) s += '/';
        for (size_t i = 0; i < g.dims.size(); ++i) (s += i ? "x" : "") += std::to_string(g.dims[i]);
        for (const TileTag& t : g.tags) (s += t.letter) += std::to_string(t.value);
    }
    return s;
}

InnerTile parseInnerTile(std::string_view text) {
    InnerTile r;
    const size_t colon = text.find(':');
    const std::string_view head = text.substr(0, colon);
    const bool identifier =
        !head.empty() && (lower(head[0]) || head[0] == '_') &&
        std::all_of(head.begin(), head.end(), [](char c) { return lower(c) || digit(c) || c == '_'; });
    if (colon == std::string_view::npos) {
        TileSpec plain = parseTile(text);
        if (plain.ok()) {
            r.tile = std::string(text);
        } else if (identifier) {
            r.algorithm = std::string(text);
        } else {
            r.error = plain.error;
        }
        return r;
    }
    if (!identifier) {
        r.error = tileSyntaxError(text, "an algorithm's name before ':'", 0);
        return r;
    }
    r.algorithm = std::string(head);
    r.tile = std::string(text.substr(colon + 1));  // "ALGO:" is "ALGO"
    return r;
}

}  // namespace vkconv
