// The find database (vkconv/find.hpp): measured rankings by problem, in memory and in a text
// file next to the pipeline cache.  The file is trusted only when its header names this device
// (vendor, device, pipelineCacheUUID), its driver version and this vkconv version; otherwise it is
// ignored and rewritten by the next store.  A problem with any row it cannot read is dropped
// whole (timed again by the next find, whose store rewrites the file without the damage).
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace vkconv {

struct DeviceCaps;

struct FindDbRow {
    std::string optAlgorithm, optTile;  // the PlanOptions fields that made the plan
    std::string algorithm, config, error;
    double microseconds = -1.0;
    uint64_t workspaceSize = 0;
    bool router = false;
};

class FindDb {
public:
    FindDb(const DeviceCaps& caps, std::string dir);  // dir empty: memory only
    // Both may be called from several threads at once (Plan::create reads the database).
    std::optional<std::vector<FindDbRow>> lookup(const std::string& key);
    void store(const std::string& key, std::vector<FindDbRow> rows);  // and rewrites the file (errors on stderr)
    const std::string& path() const { return path_; }

private:
    void load();
    std::string header_, path_;
    std::mutex mutex_;
    bool loaded_ = false;
    std::map<std::string, std::vector<FindDbRow>> entries_;
};

}  // namespace vkconv
