// vkconv-bench output: the stdout table, per-suite summaries, JSON (vkconv-bench/1) and CSV.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common.hpp"
#include "vkconv/device_caps.hpp"

namespace vkbench {

// Fills pct_peak from the peak of the row's arithmetic path: "coopmat" in the algorithm name ->
// the best fp16 cooperative-matrix peak; else fp32 -> fp32 FMA, fp16/bf16 -> fp16 FMA.
void applyPeak(Row& row, const Peaks& peaks);

void printTableHeader(std::FILE* f);
void printRow(std::FILE* f, const Row& row);
void printNote(std::FILE* f, const Shape& s, int64_t batch, const std::string& note);
// Per (suite, batch, dtype, layout, algorithm): layers, sum of times, aggregate and geomean TFLOP/s.
void printSummary(std::FILE* f, const std::vector<Row>& rows);

// Pieces shared by every JSON vkconv-bench writes.
std::string isoUtcNow();
std::string hostName();
nlohmann::ordered_json deviceRecord(const vkconv::DeviceCaps& caps);  // the "device" object
nlohmann::ordered_json libraryRecord();                               // the "library" object
nlohmann::ordered_json peaksRecord(const Peaks& peaks);               // the "peaks" object ({} if none)
// A document as one line of compact JSON and a newline, written with writeTextFile.
void writeJsonFile(const std::string& path, const nlohmann::ordered_json& doc);
// A row's layer in the shapes' columns (docs/bench-json.md), n being the batch it ran at; a
// transposed row's also "transposed": true and its output padding.
nlohmann::ordered_json shapeJson(const Shape& s, int64_t n);

struct RunInfo {
    const vkconv::DeviceCaps* caps;
    const Options* opts;
    const Peaks* peaks;
    std::string timer;  // "vulkan-timestamps" or "host"
};
void writeJsonReport(const std::string& path, const RunInfo& info, const std::vector<Row>& rows);
void writeCsvReport(const std::string& path, const std::vector<Row>& rows);
std::string csvCell(const std::string& s);  // quoted (RFC 4180) when it holds a comma, quote or newline

// Writes text to path atomically enough for our purposes; throws vkconv::Error(Io).
void writeTextFile(const std::string& path, const std::string& text);

}  // namespace vkbench
