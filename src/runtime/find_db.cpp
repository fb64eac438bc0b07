#include "runtime/find_db.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <fstream>
#include <sstream>

#include "runtime/pipeline_cache.hpp"
#include "vkconv/device_caps.hpp"
#include "util/file_read.hpp"
#include "vkconv/version.hpp"

namespace vkconv {

namespace {

constexpr const char* kMagic = "vkconv-find-db 1";
constexpr uint64_t kMaxFileBytes = uint64_t(1) << 28;  // far more than any real database

// Fields are tab-separated, one record per line: tabs and line breaks inside a field (an error
// message) become spaces.
std::string field(const std::string& s) {
    std::string o = s;
    for (char& ch : o)
        if (ch == '\t' || ch == '\n' || ch == '\r') ch = ' ';
    return o;
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> f;
    size_t start = 0;
    for (;;) {
        size_t tab = line.find('\t', start);
        f.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
        if (tab == std::string::npos) return f;
        start = tab + 1;
    }
}

}  // namespace

FindDb::FindDb(const DeviceCaps& c, std::string dir) {
    char id[160];
    std::snprintf(id, sizeof id, "%s\t%04x\t%04x\t%u\t%02x%02x%02x%02x%02x%02x%02x%02x\t%s", kMagic, c.vendorId,
                  c.deviceId, c.driverVersion, c.pipelineCacheUUID[0], c.pipelineCacheUUID[1], c.pipelineCacheUUID[2],
                  c.pipelineCacheUUID[3], c.pipelineCacheUUID[4], c.pipelineCacheUUID[5], c.pipelineCacheUUID[6],
                  c.pipelineCacheUUID[7], versionString());
    header_ = id;
    if (!dir.empty()) {
        path_ = dir + "/" + deviceCacheFileName(c, "find", ".txt");
    }
}

// One record, or nullopt where any field is malformed: a NaN or negative time on a row without an
// error, a size that is not a whole number, a line cut short (no closing "end").
static std::optional<FindDbRow> parseRow(const std::vector<std::string>& f) {
    if (f.size() != 10 || f[0] != "R" || f[9] != "end" || f[3].empty()) return std::nullopt;
    FindDbRow r;
    r.optAlgorithm = f[1], r.optTile = f[2], r.algorithm = f[3], r.config = f[4], r.error = f[8];
    const char* us = f[5].c_str();
    char* end = nullptr;
    r.microseconds = std::strtod(us, &end);
    if (end == us || *end || !std::isfinite(r.microseconds)) return std::nullopt;
    if (r.error.empty() ? r.microseconds < 0 : r.microseconds != -1.0) return std::nullopt;
    const auto [p, ec] = std::from_chars(f[6].data(), f[6].data() + f[6].size(), r.workspaceSize);
    if (ec != std::errc() || p != f[6].data() + f[6].size()) return std::nullopt;
    if (f[7] != "0" && f[7] != "1") return std::nullopt;
    r.router = f[7] == "1";
    return r;
}

void FindDb::load() {
    loaded_ = true;
    if (path_.empty()) return;
    const FileRead file = readRegularFile(path_, kMaxFileBytes);
    if (!file.bytes) {
        if (!file.missing)
            std::fprintf(stderr, "[vkconv] ignoring the find database %s: %s\n", path_.c_str(), file.why.c_str());
        return;
    }
    std::istringstream in(*file.bytes);
    std::string line;
    if (!std::getline(in, line) || line != header_) return;  // another device, driver or version
    // A problem with any unreadable row is dropped whole: it is timed afresh by the next find and
    // the file rewritten without the damage, instead of losing a candidate for good.
    std::string key;
    std::map<std::string, std::vector<FindDbRow>> read;
    std::set<std::string> damaged;
    while (std::getline(in, line)) {
        std::vector<std::string> f = split(line);
        if (f.size() == 2 && f[0] == "K" && !f[1].empty()) {
            key = f[1];
            read[key];
        } else if (std::optional<FindDbRow> r = key.empty() ? std::nullopt : parseRow(f)) {
            read[key].push_back(std::move(*r));
        } else if (!key.empty()) {
            damaged.insert(key);
        }
    }
    for (auto& [k, rows] : read)
        if (!rows.empty() && !damaged.count(k)) entries_[k] = std::move(rows);
}

std::optional<std::vector<FindDbRow>> FindDb::lookup(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!loaded_) load();
    auto it = entries_.find(key);
    if (it == entries_.end()) return std::nullopt;
    return it->second;
}

void FindDb::store(const std::string& key, std::vector<FindDbRow> rows) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!loaded_) load();
    entries_[key] = std::move(rows);
    if (path_.empty()) return;
    std::ostringstream o;
    o << header_ << "\n";
    for (auto& [k, rs] : entries_) {
        o << "K\t" << field(k) << "\n";
        for (auto& r : rs) {
            char us[32];
            std::snprintf(us, sizeof us, "%.4f", r.microseconds);
            o << "R\t" << field(r.optAlgorithm) << "\t" << field(r.optTile) << "\t" << field(r.algorithm) << "\t"
              << field(r.config) << "\t" << us << "\t" << r.workspaceSize << "\t" << (r.router ? 1 : 0) << "\t"
              << field(r.error) << "\tend\n";
        }
    }
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), ec);
    std::string tmp = path_ + ".tmp" + std::to_string(reinterpret_cast<uintptr_t>(this));
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << o.str();
        if (!out) {
            std::fprintf(stderr, "[vkconv] could not write the find database %s\n", tmp.c_str());
            std::filesystem::remove(tmp, ec);
            return;
        }
    }
    std::filesystem::rename(tmp, path_, ec);
    if (ec) {
        std::fprintf(stderr, "[vkconv] could not replace the find database %s: %s\n", path_.c_str(),
                     ec.message().c_str());
        std::filesystem::remove(tmp, ec);
    }
}

}  // namespace vkconv
