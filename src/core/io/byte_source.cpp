#include "io/byte_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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

// ---- ReadWindow ------------------------------------------------------------

ReadWindow::ReadWindow(const ByteSource& source, std::size_t window)
    : source_(source), capacity_(std::max<std::size_t>(window, 2)) {}

bool ReadWindow::hold(std::uint64_t offset, std::size_t n) const {
  if (n > capacity_ / 2) return false;  // a large read gains nothing from a copy
  if (offset >= begin_ && offset - begin_ <= held_ && n <= held_ - (offset - begin_)) return true;
  // Read ahead as far as the pass has gone forward: doubled while each miss runs over the
  // window's end or lands just past it, back to the least after a jump, so that pieces read out
  // of order (a directory listed in another order than the data) cost a page each, not a window.
  const std::uint64_t end = begin_ + held_;
  const bool forward = held_ > 0 && offset >= begin_ && (offset < end || offset - end <= held_);
  ahead_ = forward ? std::min(ahead_ * 2, capacity_) : std::min(kLeastAhead, capacity_);
  if (!window_) window_ = std::make_unique_for_overwrite<char[]>(capacity_);
  const std::size_t want = available(offset, std::max(ahead_, n), source_.size());
  std::size_t got = 0;
  while (got < want) {  // read_some may return fewer bytes than asked
    ++source_reads_;
    const std::size_t step = source_.read_some(offset + got, window_.get() + got, want - got);
    if (step == 0) break;  // the file shrank: what is left is the source's to report
    got += step;
  }
  begin_ = offset, held_ = got;
  return n <= held_;
}

std::size_t ReadWindow::read_some(std::uint64_t offset, void* buffer, std::size_t n) const {
  n = available(offset, n, source_.size());
  if (n == 0) return 0;
  if (!hold(offset, std::min(n, capacity_ / 2))) {
    ++source_reads_;
    return source_.read_some(offset, buffer, n);
  }
  // What the window holds from offset on: at least min(n, capacity / 2) bytes.
  const std::size_t from = static_cast<std::size_t>(offset - begin_);
  n = std::min(n, held_ - from);
  std::memcpy(buffer, window_.get() + from, n);
  return n;
}

void ReadWindow::read_at(std::uint64_t offset, void* buffer, std::size_t n) const {
  if (n == 0 || !fits(offset, n, source_.size()) || !hold(offset, n)) {
    ++source_reads_;
    source_.read_at(offset, buffer, n);  // throws what the source says of a read past its end
    return;
  }
  std::memcpy(buffer, window_.get() + (offset - begin_), n);
}

}  // namespace zanj::io
