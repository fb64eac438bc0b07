#include "util/json_writer.hpp"

#include <cmath>
#include <cstdio>

namespace vkconv {

void JsonWriter::separator() {
    if (afterKey_) { afterKey_ = false; return; }
    if (!first_.empty()) {
        if (!first_.back()) out_ += ',';
        first_.back() = false;
    }
}

JsonWriter& JsonWriter::beginObject() { separator(); out_ += '{'; first_.push_back(true); return *this; }
JsonWriter& JsonWriter::endObject() { out_ += '}'; first_.pop_back(); return *this; }
JsonWriter& JsonWriter::beginArray() { separator(); out_ += '['; first_.push_back(true); return *this; }
JsonWriter& JsonWriter::endArray() { out_ += ']'; first_.pop_back(); return *this; }

JsonWriter& JsonWriter::key(std::string_view k) {
    separator();
    out_ += '"'; out_ += escape(k); out_ += "\":";
    afterKey_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) { separator(); out_ += '"'; out_ += escape(s); out_ += '"'; return *this; }
JsonWriter& JsonWriter::value(double d) {
    separator();
    if (!std::isfinite(d)) { out_ += "null"; return *this; }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", d);
    out_ += buf;
    return *this;
}
JsonWriter& JsonWriter::value(int64_t i) { separator(); out_ += std::to_string(i); return *this; }
JsonWriter& JsonWriter::value(uint64_t u) { separator(); out_ += std::to_string(u); return *this; }
JsonWriter& JsonWriter::value(bool b) { separator(); out_ += b ? "true" : "false"; return *this; }
JsonWriter& JsonWriter::null() { separator(); out_ += "null"; return *this; }
JsonWriter& JsonWriter::raw(std::string_view json) { separator(); out_ += json; return *this; }

std::string JsonWriter::escape(std::string_view s) {
    std::string r;
    for (char ch : s) {
        auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '"': r += "\\\""; break;
            case '\\': r += "\\\\"; break;
            case '\n': r += "\\n"; break;
            case '\t': r += "\\t"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    r += buf;
                } else {
                    r += ch;
                }
        }
    }
    return r;
}

}  // namespace vkconv
