#include "io/byte_sink.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "zanj/error.hpp"

namespace zanj::io {

void ByteSink::patch(std::uint64_t, std::string_view) {
  throw Error("internal: bytes patched in an output that cannot seek");
}

void write_all_at(int fd, std::uint64_t offset, std::string_view bytes, const std::string& name) {
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(InArchive{name}, std::string("cannot write: ") + std::strerror(errno), Exit::usage);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
}

void FdSink::write(std::string_view bytes) {
  write_all_at(fd_, size_, bytes, name_);
  size_ += bytes.size();
}

void FdSink::patch(std::uint64_t offset, std::string_view bytes) { write_all_at(fd_, offset, bytes, name_); }

}  // namespace zanj::io
