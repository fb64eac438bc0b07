#include "suites.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace vkt {
namespace {

std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> f;
    std::string cur;
    std::istringstream in(line);
    while (std::getline(in, cur, ',')) {
        while (!cur.empty() && (cur.back() == '\r' || cur.back() == ' ')) cur.pop_back();
        while (!cur.empty() && cur.front() == ' ') cur.erase(cur.begin());
        f.push_back(cur);
    }
    return f;
}

}  // namespace

std::vector<SuiteLayer> readSuiteFile(const std::string& path) {
    static const std::vector<std::string> kHeader = {"suite",    "layer", "n",     "c",     "h",     "w",
                                                     "k",        "r",     "s",     "pad_h", "pad_w", "stride_h",
                                                     "stride_w", "dil_h", "dil_w", "groups"};
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::string line;
    std::getline(in, line);
    // The forward columns, then optionally a transposed-convolution suite's (bench/suites/README.md):
    // its transposed rows are not forward convolutions and are left out.
    const auto header = splitCsv(line);
    std::vector<std::string> transposedHeader = kHeader;
    for (const char* c : {"transposed", "output_pad_h", "output_pad_w"}) transposedHeader.push_back(c);
    const bool transposedColumns = header == transposedHeader;
    if (header != kHeader && !transposedColumns) throw std::runtime_error(path + ": unexpected header '" + line + "'");
    std::vector<SuiteLayer> out;
    for (int lineNo = 2; std::getline(in, line); ++lineNo) {
        if (line.find_first_not_of(" \r\t") == std::string::npos) continue;
        const auto f = splitCsv(line);
        if (f.size() != header.size())
            throw std::runtime_error(path + ":" + std::to_string(lineNo) + ": expected " +
                                     std::to_string(header.size()) + " columns");
        if (transposedColumns && f[kHeader.size()] == "1") continue;
        int64_t v[14];
        for (int i = 0; i < 14; ++i) {
            size_t used = 0;
            try {
                v[i] = std::stoll(f[size_t(i + 2)], &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != f[size_t(i + 2)].size())
                throw std::runtime_error(path + ":" + std::to_string(lineNo) + ": bad number in column " +
                                         kHeader[size_t(i + 2)]);
        }
        SuiteLayer l{f[0], f[1], {}};
        auto& d = l.desc;
        d.n = v[0], d.c = v[1], d.h = v[2], d.w = v[3], d.k = v[4], d.r = v[5], d.s = v[6];
        d.pad(v[7], v[8]);
        d.strideH = v[9], d.strideW = v[10], d.dilationH = v[11], d.dilationW = v[12], d.groups = v[13];
        out.push_back(std::move(l));
    }
    return out;
}

std::string suitesDir() {
    const char* e = std::getenv("VKCONV_SUITES_DIR");
    return e && *e ? std::string(e) : std::string(VKCONV_SUITES_DIR);
}

std::vector<SuiteLayer> readSuites(const std::string& dir) {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".csv") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    std::vector<SuiteLayer> all;
    for (const auto& f : files) {
        auto v = readSuiteFile(f);
        all.insert(all.end(), v.begin(), v.end());
    }
    return all;
}

}  // namespace vkt
