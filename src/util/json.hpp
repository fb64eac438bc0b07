// JSON through nlohmann-json: device profiles (DeviceCaps::toJson / fromJson), vkconv-bench's
// reports and its peak cache.  Internal: no public header includes it.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace vkconv {

// What vkconv writes: keys stay in the order they were set, so records read like the code that
// builds them and diff line by line.
using Json = nlohmann::ordered_json;
// What it reads: std::map lookups, so a hostile document with many keys cannot make the parse
// (which inserts every key) or the field lookups quadratic.
using JsonDoc = nlohmann::json;

// The deepest nesting parseJson accepts.  nlohmann's parser and destructor are iterative, but
// copying, comparing or dumping a value recurses; no document vkconv reads nests past 4.
inline constexpr int kJsonMaxDepth = 64;

// Parses a whole document; nullopt, with `error` set, when it is not JSON or nests deeper than
// kJsonMaxDepth.
std::optional<JsonDoc> parseJson(std::string_view text, std::string* error = nullptr);

// A measured value as vkconv has always written it: 6 significant digits, an integer when those
// print without a fraction or exponent (Python reads it back as an int), null when not finite.
Json jsonNumber(double v);
// A decimal number's text as a JSON number: an integer (int64 or uint64) where it is one, else a
// double.  Keeps u64 statistics exact.
Json jsonDecimal(std::string_view text);

// Compact (no spaces) text; bytes that are not UTF-8 (a driver's name string) become U+FFFD
// rather than failing the dump.
std::string dumpJson(const Json& j);

}  // namespace vkconv
