#include "io/spool_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "zanj/error.hpp"

namespace zanj::io {
namespace {

std::string default_directory() {
  const char* dir = std::getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

/// A new read-write file with no name, so nothing is left behind whatever happens to us.
UniqueFd create_unlinked_file(const std::string& dir) {
  UniqueFd fd(::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
  if (fd) return fd;
  // Some filesystems lack O_TMPFILE: make a named file and remove its name at once.
  std::string name = dir + "/zanj-spool-XXXXXX";
  fd = UniqueFd(::mkostemp(name.data(), O_CLOEXEC));
  if (!fd) throw Error("cannot create a temporary file in " + dir + ": " + std::strerror(errno), Exit::usage);
  ::unlink(name.c_str());
  return fd;
}

}  // namespace

SpoolFile::SpoolFile(const std::string& directory)
    : directory_(directory.empty() ? default_directory() : directory), fd_(create_unlinked_file(directory_)) {}

void SpoolFile::append(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd_.get(), bytes.data(), bytes.size(), static_cast<off_t>(size_));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error("cannot write to a temporary file in " + directory_ + ": " + std::strerror(errno), Exit::usage);
    }
    size_ += static_cast<std::uint64_t>(n);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void SpoolFile::sync_size() {
  struct stat st {};
  if (::fstat(fd_.get(), &st) != 0)
    throw Error("cannot look at a temporary file in " + directory_ + ": " + std::strerror(errno), Exit::usage);
  size_ = static_cast<std::uint64_t>(st.st_size);
}

std::size_t SpoolFile::read_some(std::uint64_t offset, void* buffer, std::size_t n) const {
  if (offset >= size_) return 0;
  if (n > size_ - offset) n = static_cast<std::size_t>(size_ - offset);
  for (;;) {
    const ssize_t got = ::pread(fd_.get(), buffer, n, static_cast<off_t>(offset));
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR)
      throw Error("cannot read a temporary file in " + directory_ + ": " + std::strerror(errno), Exit::usage);
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

}  // namespace zanj::io
