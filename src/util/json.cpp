#include "util/json.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

namespace vkconv {

namespace {

struct TooDeep : std::runtime_error {
    TooDeep() : std::runtime_error("nesting deeper than " + std::to_string(kJsonMaxDepth) + " levels") {}
};

}  // namespace

std::optional<JsonDoc> parseJson(std::string_view text, std::string* error) {
    // The callback sees each container open before the parser descends into it (depth = the
    // containers already open): stop there, before the DOM grows deeper.
    auto limitDepth = [](int depth, JsonDoc::parse_event_t event, JsonDoc&) {
        if ((event == JsonDoc::parse_event_t::object_start || event == JsonDoc::parse_event_t::array_start) &&
            depth >= kJsonMaxDepth)
            throw TooDeep();
        return true;
    };
    try {
        return JsonDoc::parse(text, limitDepth);
    } catch (const std::exception& e) {  // nlohmann::json::exception or TooDeep
        if (error) *error = e.what();
        return std::nullopt;
    }
}

Json jsonDecimal(std::string_view text) {
    const char* b = text.data();
    const char* e = b + text.size();
    if (text.find_first_of(".eEnN") == std::string_view::npos) {  // no fraction, exponent, nan or inf
        if (!text.empty() && text[0] == '-') {
            int64_t i = 0;
            if (auto r = std::from_chars(b, e, i); r.ec == std::errc() && r.ptr == e) return Json(i);
        } else {
            uint64_t u = 0;
            if (auto r = std::from_chars(b, e, u); r.ec == std::errc() && r.ptr == e) return Json(u);
        }
    }
    double d = 0;
    if (auto r = std::from_chars(b, e, d); r.ec != std::errc() || r.ptr != e || !std::isfinite(d)) return Json(nullptr);
    return Json(d);
}

Json jsonNumber(double v) {
    if (!std::isfinite(v)) return Json(nullptr);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return jsonDecimal(buf);
}

std::string dumpJson(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

}  // namespace vkconv
