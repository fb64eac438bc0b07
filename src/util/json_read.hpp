// A small JSON reader: device profiles (DeviceCaps::fromJson) and vkconv-bench's peak cache.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vkconv {

struct JsonValue {
    enum class Type { Null, Bool, Number, String, Array, Object } type = Type::Null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<JsonValue> array;
    std::map<std::string, JsonValue> object;

    const JsonValue* get(const std::string& key) const;  // null unless an object holding key
    std::optional<double> num(const std::string& key) const;
};

// Parses a whole document; nullopt (and `error` set) when it is not valid JSON.
std::optional<JsonValue> parseJson(const std::string& text, std::string* error = nullptr);

}  // namespace vkconv
