// Reading the files vkconv keeps or is given (pipeline cache, find database, shape lists): only
// regular files, opened without blocking, so that a FIFO, a device node or a directory at the
// path is refused by name instead of hanging the process in open() or read().
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace vkconv {

struct FileRead {
    std::optional<std::string> bytes;  // the whole file; nullopt when it could not be read
    std::string why;                   // why not: "no such file", "not a regular file (a FIFO)", ...
    bool missing = false;              // the path does not exist (the usual case of a first run)
};

// Reads `path` whole if it is a regular file of at most `maxBytes` bytes.
FileRead readRegularFile(const std::string& path, uint64_t maxBytes);

}  // namespace vkconv
