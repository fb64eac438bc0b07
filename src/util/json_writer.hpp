// A minimal streaming JSON writer (objects, arrays, strings, numbers, bools, null), enough for
// the capability record and the benchmark's output.  Commas and escaping are handled here.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vkconv {

class JsonWriter {
public:
    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view k);
    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(double d);
    JsonWriter& value(int64_t i);
    JsonWriter& value(uint64_t u);
    JsonWriter& value(int i) { return value(int64_t(i)); }
    JsonWriter& value(unsigned u) { return value(uint64_t(u)); }
    JsonWriter& value(bool b);
    JsonWriter& null();
    JsonWriter& raw(std::string_view json);  // an already-serialised value
    template <typename T>
    JsonWriter& field(std::string_view k, const T& v) { key(k); return value(v); }

    const std::string& str() const { return out_; }
    static std::string escape(std::string_view s);

private:
    void separator();
    std::string out_;
    std::vector<bool> first_;  // per open container: no element written yet
    bool afterKey_ = false;
};

}  // namespace vkconv
