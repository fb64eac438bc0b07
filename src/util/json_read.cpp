// Recursive-descent JSON parser (RFC 8259 subset: \u escapes outside the BMP are kept as-is).
#include "util/json_read.hpp"

#include <cstdlib>
#include <stdexcept>

namespace vkconv {

const JsonValue* JsonValue::get(const std::string& key) const {
    if (type != Type::Object) return nullptr;
    auto it = object.find(key);
    return it == object.end() ? nullptr : &it->second;
}

std::optional<double> JsonValue::num(const std::string& key) const {
    const JsonValue* v = get(key);
    if (!v || v->type != Type::Number) return std::nullopt;
    return v->number;
}

namespace {

struct Parser {
    const std::string& s;
    size_t i = 0;

    [[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what + " at offset " + std::to_string(i)); }
    void ws() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
    }
    bool eat(char c) {
        ws();
        if (i < s.size() && s[i] == c) { ++i; return true; }
        return false;
    }
    void expect(char c) {
        if (!eat(c)) fail(std::string("expected '") + c + "'");
    }
    bool word(const char* w) {
        size_t n = std::char_traits<char>::length(w);
        if (s.compare(i, n, w) == 0) { i += n; return true; }
        return false;
    }

    std::string str() {
        expect('"');
        std::string out;
        while (true) {
            if (i >= s.size()) fail("unterminated string");
            char c = s[i++];
            if (c == '"') return out;
            if (c != '\\') { out += c; continue; }
            if (i >= s.size()) fail("bad escape");
            char e = s[i++];
            switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'u': {
                    if (i + 4 > s.size()) fail("bad \\u escape");
                    unsigned cp = unsigned(std::strtoul(s.substr(i, 4).c_str(), nullptr, 16));
                    i += 4;
                    if (cp < 0x80) out += char(cp);
                    else if (cp < 0x800) { out += char(0xC0 | (cp >> 6)); out += char(0x80 | (cp & 0x3F)); }
                    else { out += char(0xE0 | (cp >> 12)); out += char(0x80 | ((cp >> 6) & 0x3F)); out += char(0x80 | (cp & 0x3F)); }
                    break;
                }
                default: out += e;  // \" \\ \/
            }
        }
    }

    JsonValue value() {
        ws();
        if (i >= s.size()) fail("unexpected end");
        JsonValue v;
        char c = s[i];
        if (c == '{') {
            ++i;
            v.type = JsonValue::Type::Object;
            if (eat('}')) return v;
            do {
                ws();
                std::string k = str();
                expect(':');
                v.object[k] = value();
            } while (eat(','));
            expect('}');
        } else if (c == '[') {
            ++i;
            v.type = JsonValue::Type::Array;
            if (eat(']')) return v;
            do v.array.push_back(value());
            while (eat(','));
            expect(']');
        } else if (c == '"') {
            v.type = JsonValue::Type::String;
            v.string = str();
        } else if (word("true")) {
            v.type = JsonValue::Type::Bool;
            v.boolean = true;
        } else if (word("false")) {
            v.type = JsonValue::Type::Bool;
        } else if (word("null")) {
            v.type = JsonValue::Type::Null;
        } else {
            const char* start = s.c_str() + i;
            char* end = nullptr;
            v.number = std::strtod(start, &end);
            if (end == start) fail("unexpected character");
            i += size_t(end - start);
            v.type = JsonValue::Type::Number;
        }
        return v;
    }
};

}  // namespace

std::optional<JsonValue> parseJson(const std::string& text, std::string* error) {
    Parser p{text};
    try {
        JsonValue v = p.value();
        p.ws();
        if (p.i != text.size()) p.fail("trailing characters");
        return v;
    } catch (const std::exception& e) {
        if (error) *error = e.what();
        return std::nullopt;
    }
}

}  // namespace vkconv
