#pragma once
// A temporary file for member data that has to be read out of order (a Fortran-order array,
// a reversed slice) and is too large to hold in memory. The file is unlinked as soon as it is
// created, so nothing is left behind whatever happens to the process.
#include <string>
#include <string_view>

#include "zanj/byte_source.hpp"

namespace zanj {

class SpoolFile final : public ByteSource {
 public:
  /// Create it in `directory` ("" means $TMPDIR, else /tmp). Throws Error (usage) when the
  /// file cannot be created.
  explicit SpoolFile(const std::string& directory = "");
  ~SpoolFile() override;
  SpoolFile(const SpoolFile&) = delete;
  SpoolFile& operator=(const SpoolFile&) = delete;

  /// Add bytes at the end. Throws Error (usage) when the disk is full or the write fails.
  void append(std::string_view bytes);

  std::uint64_t size() const override { return size_; }
  void read_at(std::uint64_t offset, void* buffer, std::size_t n) const override;
  std::size_t read_some(std::uint64_t offset, void* buffer, std::size_t n) const override;

 private:
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

}  // namespace zanj
