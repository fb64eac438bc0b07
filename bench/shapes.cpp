// Shapes: the suites' CSV files (bench/suites/*.csv), the model zoo's (bench/zoo/*.csv) and
// --shapes files.
#include "shapes.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <sstream>

#include "util/file_read.hpp"
#include "vkconv/error.hpp"

#ifndef VKCONV_BENCH_SUITES_DIR
#define VKCONV_BENCH_SUITES_DIR "bench/suites"
#endif
#ifndef VKCONV_BENCH_ZOO_DIR
#define VKCONV_BENCH_ZOO_DIR "bench/zoo"
#endif

namespace vkbench {

namespace fs = std::filesystem;

namespace {

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) out.push_back(trim(cell));
    if (!line.empty() && line.back() == ',') out.emplace_back();
    return out;
}

[[noreturn]] void fail(const std::string& msg) { throw vkconv::Error(vkconv::ErrorCode::Io, msg); }

// $ENV (binaries run from another checkout, as the tests do), else an installed
// <prefix>/share/vkconv/bench/<name> beside <prefix>/bin/vkconv-bench, else the build tree's
// source directory.
std::string dataDir(const char* env, const char* name, const char* sourceDir) {
    const char* e = std::getenv(env);
    if (e && *e) return e;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / "share" / "vkconv" / "bench" / name;
        if (fs::is_directory(installed, ec)) return installed.string();
    }
    return sourceDir;
}

}  // namespace

std::string defaultSuitesDir() { return dataDir("VKCONV_SUITES_DIR", "suites", VKCONV_BENCH_SUITES_DIR); }

std::string defaultZooDir() { return dataDir("VKCONV_ZOO_DIR", "zoo", VKCONV_BENCH_ZOO_DIR); }

ShapeKey shapeKey(const Shape& s) {
    return {s.n,       s.c,       s.h,    s.w,    s.k,      s.r,          s.s,       s.padH,   s.padW,
            s.strideH, s.strideW, s.dilH, s.dilW, s.groups, s.transposed, s.outPadH, s.outPadW};
}

std::vector<std::vector<size_t>> identicalShapes(const std::vector<Shape>& shapes) {
    std::vector<std::vector<size_t>> groups;
    std::map<ShapeKey, size_t> index;
    for (size_t i = 0; i < shapes.size(); ++i) {
        auto [it, fresh] = index.emplace(shapeKey(shapes[i]), groups.size());
        if (fresh) groups.emplace_back();
        groups[it->second].push_back(i);
    }
    return groups;
}

std::vector<Shape> readShapes(const std::string& path) {
    // Regular files only (a FIFO would block the read forever, a directory reads as empty), and a
    // UTF-8 byte-order mark, which spreadsheet exports write, is not part of the first column's name.
    const vkconv::FileRead file = vkconv::readRegularFile(path, uint64_t(1) << 30);
    if (!file.bytes) fail("cannot read shapes file " + path + ": " + file.why);
    std::istringstream in(file.bytes->rfind("\xEF\xBB\xBF", 0) == 0 ? file.bytes->substr(3) : *file.bytes);
    std::string line;
    if (!std::getline(in, line)) fail(path + ": empty file");
    std::vector<std::string> header = splitCsv(line);
    const char* want[] = {"suite", "layer", "n",     "c",        "h",        "w",     "k",     "r",
                          "s",     "pad_h", "pad_w", "stride_h", "stride_w", "dil_h", "dil_w", "groups"};
    std::vector<size_t> col;
    for (const char* name : want) {
        auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end()) fail(path + ": missing column '" + name + "'");
        col.push_back(size_t(it - header.begin()));
    }
    // Optional columns (-1: absent).  The zoo's files have a count column (identical layers of a
    // model written once); transposed convolutions a `transposed` column (0 or 1) and, optionally,
    // their output padding.
    auto optionalCol = [&](const char* name) -> int64_t {
        const auto it = std::find(header.begin(), header.end(), name);
        return it == header.end() ? -1 : int64_t(it - header.begin());
    };
    const int64_t countCol = optionalCol("count"), transposedCol = optionalCol("transposed"),
                  outPadHCol = optionalCol("output_pad_h"), outPadWCol = optionalCol("output_pad_w");
    if ((outPadHCol >= 0 || outPadWCol >= 0) && transposedCol < 0)
        fail(path + ": output_pad_h / output_pad_w columns need a transposed column");
    std::vector<Shape> shapes;
    int lineNo = 1;
    while (std::getline(in, line)) {
        ++lineNo;
        if (trim(line).empty() || trim(line)[0] == '#') continue;
        auto cells = splitCsv(line);
        auto cell = [&](size_t i) -> const std::string& {
            if (col[i] >= cells.size()) fail(path + ":" + std::to_string(lineNo) + ": too few columns");
            return cells[col[i]];
        };
        auto num = [&](size_t i) -> int64_t {
            const std::string& v = cell(i);
            char* end = nullptr;
            long long x = std::strtoll(v.c_str(), &end, 10);
            if (v.empty() || *end)
                fail(path + ":" + std::to_string(lineNo) + ": " + want[i] + " is not an integer: '" + v + "'");
            return x;
        };
        Shape s;
        s.suite = cell(0);
        s.layer = cell(1);
        s.n = num(2);
        s.c = num(3);
        s.h = num(4);
        s.w = num(5);
        s.k = num(6);
        s.r = num(7);
        s.s = num(8);
        s.padH = num(9);
        s.padW = num(10);
        s.strideH = num(11);
        s.strideW = num(12);
        s.dilH = num(13);
        s.dilW = num(14);
        s.groups = num(15);
        if (countCol >= 0) {
            const std::string v = size_t(countCol) < cells.size() ? cells[size_t(countCol)] : std::string();
            char* end = nullptr;
            const long long x = std::strtoll(v.c_str(), &end, 10);
            if (v.empty() || *end || x < 1)
                fail(path + ":" + std::to_string(lineNo) + ": count is not a positive integer: '" + v + "'");
            s.count = x;
        }
        auto optionalNum = [&](int64_t c, const char* name, int64_t hi) -> int64_t {
            if (c < 0) return 0;
            const std::string v = size_t(c) < cells.size() ? cells[size_t(c)] : std::string();
            char* end = nullptr;
            const long long x = std::strtoll(v.c_str(), &end, 10);
            if (v.empty()) return 0;
            if (*end || x < 0 || x > hi)
                fail(path + ":" + std::to_string(lineNo) + ": " + name + " is not an integer in [0, " +
                     std::to_string(hi) + "]: '" + v + "'");
            return x;
        };
        s.transposed = optionalNum(transposedCol, "transposed", 1) == 1;
        s.outPadH = optionalNum(outPadHCol, "output_pad_h", INT32_MAX);
        s.outPadW = optionalNum(outPadWCol, "output_pad_w", INT32_MAX);
        if (!s.transposed && (s.outPadH || s.outPadW))
            fail(path + ":" + std::to_string(lineNo) + ": output padding on a row that is not transposed");
        shapes.push_back(s);
    }
    return shapes;
}

std::vector<std::string> listSuites(const std::string& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".csv") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<Shape> loadShapes(const Options& o) {
    std::string dir = o.suitesDir.empty() ? defaultSuitesDir() : o.suitesDir;
    std::vector<std::string> files = o.shapeFiles;
    std::vector<std::string> suites = o.suites;
    auto pathIn = [](const std::string& where, const std::string& name, const char* what) {
        fs::path p = fs::path(where) / (name + ".csv");
        if (!fs::exists(p)) {
            std::string known;
            for (auto& n : listSuites(where)) known += (known.empty() ? "" : ", ") + n;
            fail("no " + std::string(what) + " '" + name + "' in " + where +
                 " (have: " + (known.empty() ? "none" : known) + ")");
        }
        return p.string();
    };
    if (o.zoo) {
        const std::string zdir = o.zooDir.empty() ? defaultZooDir() : o.zooDir;
        std::vector<std::string> models = o.zooModels;
        if (models.empty()) {
            models = listSuites(zdir);
            if (models.empty())
                fail("no model zoo: " + zdir + " holds no *.csv (bench/zoo/make_zoo.py writes them; --zoo-dir)");
        }
        for (auto& m : models) files.push_back(pathIn(zdir, m, "zoo model"));
    } else if (files.empty() && suites.empty()) {
        suites = listSuites(dir);
        if (suites.empty())
            fail("no suites: " + dir + " holds no *.csv (copy ../shared/shapes/*.csv there, or use --shapes)");
    }
    for (auto& s : suites) files.push_back(pathIn(dir, s, "suite"));
    // (suite, layer): the first one wins; without --batch each row runs at its own n, so a layer
    // listed at two batches keeps both rows.
    std::vector<Shape> out;
    std::set<std::tuple<std::string, std::string, int64_t>> seen;
    for (auto& f : files)
        for (auto& s : readShapes(f))
            if (seen.insert({s.suite, s.layer, o.batches.empty() ? s.n : 0}).second) out.push_back(s);
    if (o.zooParts > 1) {
        // Part I of N: the distinct shapes in their sorted order, every N-th from the I-th, so
        // the parts depend on the shapes alone (not on file or model order) and each shape with
        // every row that has it lands in exactly one part.  bench/torch_baseline.py splits alike.
        std::vector<ShapeKey> keys;
        for (auto& s : out) keys.push_back(shapeKey(s));
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        std::erase_if(out, [&](const Shape& s) {
            const size_t i = size_t(std::lower_bound(keys.begin(), keys.end(), shapeKey(s)) - keys.begin());
            return int(i % size_t(o.zooParts)) != o.zooPart - 1;
        });
    }
    return out;
}

vkconv::ConvDesc makeDesc(const Shape& s, int64_t batch, vkconv::DType dtype, vkconv::TensorLayout layout,
                          const Epilogue& e) {
    if (s.transposed) return makeTransposeDesc(s, batch, dtype, layout, e).convDesc();
    vkconv::ConvDesc d;
    d.n = batch;
    d.c = s.c;
    d.h = s.h;
    d.w = s.w;
    d.k = s.k;
    d.r = s.r;
    d.s = s.s;
    d.pad(s.padH, s.padW);
    d.strideH = s.strideH;
    d.strideW = s.strideW;
    d.dilationH = s.dilH;
    d.dilationW = s.dilW;
    d.groups = s.groups;
    d.dtype = dtype;
    d.inputLayout = d.outputLayout = layout;
    d.filterLayout = layout == vkconv::TensorLayout::NCHW ? vkconv::FilterLayout::KCRS : vkconv::FilterLayout::KRSC;
    d.hasBias = e.bias;
    d.activation = e.activation;
    return d;
}

vkconv::ConvTransposeDesc makeTransposeDesc(const Shape& s, int64_t batch, vkconv::DType dtype,
                                            vkconv::TensorLayout layout, const Epilogue& e) {
    vkconv::ConvTransposeDesc d;
    d.n = batch;
    d.inChannels = s.c;
    d.h = s.h;
    d.w = s.w;
    d.outChannels = s.k;
    d.kernelH = s.r;
    d.kernelW = s.s;
    d.pad(s.padH, s.padW);
    d.outputPaddingH = s.outPadH;
    d.outputPaddingW = s.outPadW;
    d.strideH = s.strideH;
    d.strideW = s.strideW;
    d.dilationH = s.dilH;
    d.dilationW = s.dilW;
    d.groups = s.groups;
    d.dtype = dtype;
    d.inputLayout = d.outputLayout = layout;
    d.filterLayout = layout == vkconv::TensorLayout::NCHW ? vkconv::FilterLayout::KCRS : vkconv::FilterLayout::KRSC;
    d.hasBias = e.bias;
    d.activation = e.activation;
    return d;
}

double LayerProblem::flops() const {
    return 2.0 * double(conv.n) * double(conv.k) * double(conv.reductionLength()) * double(yH) * double(yW);
}

LayerProblem makeProblem(const Shape& s, int64_t batch, vkconv::DType dtype, vkconv::TensorLayout layout,
                         const Epilogue& e, vkconv::ConvPass pass) {
    using vkconv::ConvPass;
    LayerProblem p;
    p.pass = pass;
    // Backward passes compute the convolution's own gradients: no activation (its derivative is
    // applied to dy before), and a bias only where backward-weight computes its gradient.
    p.epilogue = e;
    if (pass != ConvPass::Forward) {
        p.epilogue.activation = vkconv::Activation::None;
        p.epilogue.bias = e.bias && pass == ConvPass::BackwardWeight && !s.transposed;
        p.epilogue.name = p.epilogue.bias ? "bias" : "none";
    }
    if (!s.transposed) {
        p.conv = makeDesc(s, batch, dtype, layout, p.epilogue);
        p.convPass = pass;
        p.yH = p.conv.outH(), p.yW = p.conv.outW();
        return p;
    }
    p.transposed = makeTransposeDesc(s, batch, dtype, layout, p.epilogue);
    p.conv = p.transposed->convDesc();
    p.convPass = pass == ConvPass::Forward        ? ConvPass::BackwardData
                 : pass == ConvPass::BackwardData ? ConvPass::Forward
                                                  : ConvPass::BackwardWeight;
    p.yH = p.transposed->h, p.yW = p.transposed->w;
    if (pass != ConvPass::Forward && (p.conv.outH() != p.yH || p.conv.outW() != p.yW))
        p.skip =
            "the backward passes of a transposed row with output padding at or above its stride are not "
            "benchmarked (its forward convolution's output is larger than the transposed input)";
    return p;
}

vkconv::Plan createPlan(vkconv::Context& ctx, const LayerProblem& p, vkconv::PlanOptions po) {
    po.pass = p.convPass;
    if (p.transposedPlan()) {
        po.pass = vkconv::ConvPass::Forward;  // a ConvTransposeDesc plan runs its own forward pass
        return vkconv::Plan::create(ctx, *p.transposed, po);
    }
    return vkconv::Plan::create(ctx, p.conv, po);
}

}  // namespace vkbench
