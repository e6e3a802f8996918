#pragma once
// Files streamed into a tar (or any format libarchive writes) as they are produced: each
// entry's size is known before its header is written, so nothing is staged on disk.
#include <cstdint>
#include <string>
#include <string_view>

struct archive;

namespace zanj::exporter {

class ArchiveWriter {
 public:
  /// Set up the format and filter (libarchive's names). Throws Error (usage) for a name
  /// libarchive does not know, or when libarchive is missing.
  ArchiveWriter(const std::string& format, const std::string& filter, std::string name);
  ~ArchiveWriter();
  ArchiveWriter(const ArchiveWriter&) = delete;
  ArchiveWriter& operator=(const ArchiveWriter&) = delete;

  /// Start writing to `fd` (not owned).
  void open(int fd);
  /// One regular file, mode 0644, of exactly `size` bytes given through write().
  void begin(const std::string& path, std::uint64_t size);
  void write(std::string_view bytes);
  void end();
  /// Flush the filter and the format's trailer; afterwards nothing can be added.
  void close();

 private:
  [[noreturn]] void fail(const std::string& what) const;
  ::archive* a_ = nullptr;
  std::string name_, entry_;
  bool open_ = false;
};

}  // namespace zanj::exporter
