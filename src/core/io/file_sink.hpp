#pragma once
// A local output file as a byte sink: written to a temporary file beside it (temp_file.hpp)
// and renamed over its name by commit(), so a failing or interrupted run never leaves a
// truncated file. Seekable: ZipWriter patches local headers in place, as zipfile does.
#include <memory>
#include <string>

#include "io/byte_sink.hpp"
#include "io/temp_file.hpp"

namespace zanj::io {

class FileSink final : public ByteSink {
 public:
  /// Check `path` (a file name in an existing directory, not a directory) and create the
  /// temporary file. With Replace::no, commit() refuses to replace an existing file. Throws
  /// Error (usage) naming `path`.
  FileSink(const std::string& path, Replace replace);
  void write(std::string_view bytes) override;
  bool can_patch() const override { return true; }
  void patch(std::uint64_t offset, std::string_view bytes) override;
  OutputObject commit() override;
  /// The temporary file's descriptor, for writers that take one (libarchive).
  int fd() const { return temp_->fd(); }

 private:
  std::string path_, leaf_;
  Replace replace_;
  UniqueFd dir_;
  std::unique_ptr<TempFile> temp_;
};

}  // namespace zanj::io
