#pragma once
// A temporary file with no name: for data that cannot be read in place (an archive arriving on
// a pipe, input.hpp) or has to be read out of order and is too large to hold in memory (a
// Fortran-order array, a reversed slice). Created with O_TMPFILE, or unlinked right after
// creation where the filesystem lacks it, so nothing is left behind whatever happens.
#include <string>
#include <string_view>

#include "io/byte_source.hpp"
#include "zanj/safe_files.hpp"

namespace zanj::io {

class SpoolFile final : public ByteSource {
 public:
  /// Create it in `directory` ("" means $TMPDIR, else /tmp). Throws Error (usage), "cannot
  /// create a temporary file in DIR: reason", when it cannot be created.
  explicit SpoolFile(const std::string& directory = "");

  /// Add bytes at the end. Throws Error (usage) when the disk is full or the write fails.
  void append(std::string_view bytes);

  /// The descriptor, for a writer that writes through it (ZipWriter); call sync_size() after.
  int fd() const { return fd_.get(); }
  /// Take the size from the file itself, after writes through fd().
  void sync_size();

  std::uint64_t size() const override { return size_; }
  void read_at(std::uint64_t offset, void* buffer, std::size_t n) const override;
  std::size_t read_some(std::uint64_t offset, void* buffer, std::size_t n) const override;

 private:
  std::string directory_;  // for messages
  UniqueFd fd_;
  std::uint64_t size_ = 0;
};

}  // namespace zanj::io
