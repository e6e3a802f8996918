#include "io/byte_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "zanj/error.hpp"

namespace zanj::io {
namespace {

/// True when [offset, offset + n) lies inside a source of `size` bytes,
/// written so that a huge offset or length cannot overflow the sum.
bool fits(std::uint64_t offset, std::uint64_t n, std::uint64_t size) { return offset <= size && n <= size - offset; }

[[noreturn]] void throw_past_end(std::uint64_t offset, std::size_t n, std::uint64_t size) {
  throw Error("unexpected end of file (wanted " + std::to_string(n) + " bytes at offset " + std::to_string(offset) +
              ", file has " + std::to_string(size) + ")");
}

/// How many of n bytes at offset exist in a source of `size` bytes.
std::size_t available(std::uint64_t offset, std::size_t n, std::uint64_t size) {
  if (offset >= size) return 0;
  const std::uint64_t left = size - offset;
  return left < n ? static_cast<std::size_t>(left) : n;
}

}  // namespace

// ---- FileSource ------------------------------------------------------------

FileSource::FileSource(const std::string& path) : path_(path), fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
  if (!fd_) throw Error(InArchive{path}, std::strerror(errno), Exit::usage);
  take_size();
}

FileSource::FileSource(UniqueFd fd, std::string name) : path_(std::move(name)), fd_(std::move(fd)) { take_size(); }

void FileSource::take_size() {
  struct stat st {};
  if (::fstat(fd_.get(), &st) != 0) throw Error(InArchive{path_}, std::strerror(errno), Exit::usage);
  // Random access needs a seekable, fixed-size file; a FIFO or device would
  // make pread fail or block, and a directory has no bytes to read.
  if (!S_ISREG(st.st_mode)) throw Error(InArchive{path_}, "not a regular file", Exit::usage);
  size_ = static_cast<std::uint64_t>(st.st_size);
}

std::size_t FileSource::read_some(std::uint64_t offset, void* buffer, std::size_t n) const {
  // Clamp to the size seen at open so that every caller sees the same file
  // length, even if the file grows while we read it.
  n = available(offset, n, size_);
  if (n == 0) return 0;
  for (;;) {
    const ssize_t got = ::pread(fd_.get(), buffer, n, static_cast<off_t>(offset));
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR) throw Error(InArchive{path_}, std::strerror(errno), Exit::usage);
  }
}

void FileSource::read_at(std::uint64_t offset, void* buffer, std::size_t n) const {
  if (!fits(offset, n, size_)) throw_past_end(offset, n, size_);
  auto* out = static_cast<unsigned char*>(buffer);
  std::size_t done = 0;
  // pread may return fewer bytes than asked; loop until done. A return of 0
  // means the file shrank after we opened it.
  while (done < n) {
    const std::size_t got = read_some(offset + done, out + done, n - done);
    if (got == 0) throw_past_end(offset, n, offset + done);
    done += got;
  }
}

// ---- MemorySource ----------------------------------------------------------

std::size_t MemorySource::read_some(std::uint64_t offset, void* buffer, std::size_t n) const {
  n = available(offset, n, bytes_.size());
  // memcpy with a null pointer is undefined even for zero bytes.
  if (n != 0) std::memcpy(buffer, bytes_.data() + offset, n);
  return n;
}

void MemorySource::read_at(std::uint64_t offset, void* buffer, std::size_t n) const {
  if (!fits(offset, n, bytes_.size())) throw_past_end(offset, n, bytes_.size());
  if (n != 0) std::memcpy(buffer, bytes_.data() + offset, n);
}

}  // namespace zanj::io
