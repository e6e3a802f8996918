#include "zanj/spool_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "zanj/error.hpp"

namespace zanj {
namespace {
[[noreturn]] void fail(const std::string& what) {
  throw Error("temporary file: " + what + ": " + std::strerror(errno), Exit::usage);
}
}  // namespace

SpoolFile::SpoolFile(const std::string& directory) {
  std::string dir = directory;
  if (dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    dir = tmp && *tmp ? tmp : "/tmp";
  }
  std::string name = dir + "/zanj-spool-XXXXXX";
  std::vector<char> buffer(name.begin(), name.end());
  buffer.push_back('\0');
  fd_ = ::mkstemp(buffer.data());
  if (fd_ < 0) fail("cannot create one in " + dir);
  ::unlink(buffer.data());  // from now on only our descriptor keeps it
}

SpoolFile::~SpoolFile() {
  if (fd_ >= 0) ::close(fd_);
}

void SpoolFile::append(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(size_));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write");
    }
    size_ += static_cast<std::uint64_t>(n);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

std::size_t SpoolFile::read_some(std::uint64_t offset, void* buffer, std::size_t n) const {
  if (offset >= size_) return 0;
  if (n > size_ - offset) n = static_cast<std::size_t>(size_ - offset);
  for (;;) {
    const ssize_t got = ::pread(fd_, buffer, n, static_cast<off_t>(offset));
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR) fail("cannot read");
  }
}

void SpoolFile::read_at(std::uint64_t offset, void* buffer, std::size_t n) const {
  auto* out = static_cast<char*>(buffer);
  while (n > 0) {
    const std::size_t got = read_some(offset, out, n);
    if (got == 0) throw Error("temporary file: read past its end (offset " + std::to_string(offset) + ")");
    out += got;
    offset += got;
    n -= got;
  }
}

}  // namespace zanj
