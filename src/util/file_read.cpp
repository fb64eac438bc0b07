#include "util/file_read.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace vkconv {

namespace {

const char* kindOf(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    return "not a regular file";
}

}  // namespace

FileRead readRegularFile(const std::string& path, uint64_t maxBytes) {
    FileRead r;
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.  The
    // type is then checked on the descriptor itself, not on a path that may change meanwhile.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        r.missing = errno == ENOENT;
        r.why = std::strerror(errno);
        return r;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        r.why = std::strerror(errno);
    else if (!S_ISREG(st.st_mode))
        r.why = std::string("not a regular file (") + kindOf(st.st_mode) + ")";
    else if (uint64_t(st.st_size) > maxBytes)
        r.why = "larger than " + std::to_string(maxBytes) + " bytes (" + std::to_string(st.st_size) + ")";
    if (!r.why.empty()) {
        ::close(fd);
        return r;
    }
    std::string bytes(size_t(st.st_size), '\0');
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // shorter than fstat said: it shrank while being read
        done += size_t(n);
    }
    ::close(fd);
    bytes.resize(done);
    r.bytes = std::move(bytes);
    return r;
}

}  // namespace vkconv
