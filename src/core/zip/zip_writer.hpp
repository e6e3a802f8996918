#pragma once
// Writing ZIP archives the way Python's zipfile writes .zanj files (the reference library uses
// it), so that what `pack` makes looks like what the reference makes: local header, data,
// then the central directory; store or deflate; version 2.0 entries made on Unix with mode
// 0600; a Zip64 extra field on the local header of members opened with force_zip64, and Zip64
// records exactly where zipfile puts them (sizes or offsets past 2 GiB - 1, more than 65,535
// members). Output goes to a byte sink. On one that can seek (a file) each member's CRC-32 and
// sizes are patched into its local header when it ends; on one that cannot (an upload) they
// follow the data in a data descriptor (general-purpose flag bit 3, Zip64 sizes in it for
// members with a Zip64 header), as zipfile writes to an unseekable stream. Either way member
// data streams through in bounded memory.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_sink.hpp"
#include "io/byte_source.hpp"
#include "zip/zip_directory.hpp"

namespace zanj::zip {

/// A DOS date and time as ZIP stores them; the default is 1980-01-01 00:00:00, which
/// zipfile gives members opened by name (the reference's external members).
struct DosDateTime {
  std::uint16_t time = 0, date = 0x21;
  /// Seconds since the epoch in local time, as zipfile does (time.localtime); clamped to
  /// 1980..2107, the years DOS dates can hold.
  static DosDateTime from_unix(std::int64_t seconds);
};

struct ZipWriterOptions {
  ZipMethod method = ZipMethod::deflate;  ///< store or deflate
  int level = 6;                          ///< deflate level 0-9; zipfile's default is zlib's 6
  unsigned threads = 1;                   ///< deflate threads for members longer than one block
};

struct ZipMemberOptions {
  bool force_zip64 = false;         ///< Zip64 extra on the local header even for small members
  std::uint64_t expected_size = 0;  ///< without force_zip64, a size past ~2 GiB needs Zip64 too
  DosDateTime modified;
};

class ZipWriter {
 public:
  /// `sink`: an empty output (not owned). `name` is used in messages. Throws Error (usage) for
  /// a method other than store or deflate, or a level outside 0-9.
  ZipWriter(io::ByteSink& sink, std::string name, const ZipWriterOptions& options = {});
  /// `fd`: an empty regular file open for writing (not owned), written in place.
  ZipWriter(int fd, std::string name, const ZipWriterOptions& options = {});
  ~ZipWriter();
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;

  /// Start a member. Throws Error for an empty name, one that is not valid UTF-8, or while
  /// another member is open.
  void begin_member(const std::string& name, const ZipMemberOptions& options = {});
  void write(std::string_view data);
  /// Flush the member's compressed data and patch its local header with CRC-32 and sizes.
  void end_member();
  /// A whole member at once (zipfile's writestr); Zip64 is decided from its size.
  void add_member(const std::string& name, std::string_view data, ZipMemberOptions options = {});
  /// Copy a member of another archive as it is stored, without decoding it: its local header,
  /// compressed data and data descriptor byte for byte from `source` (the archive `entry`
  /// belongs to), and a central-directory entry with the entry's own method, flags, times,
  /// CRC-32, sizes and attributes at its new offset (`edit` and `set` keep every member but
  /// __zanj__.json this way). Central-directory extras other than Zip64 and entry comments are
  /// not kept. Throws Error when the local header does not read.
  void copy_member(const io::ByteSource& source, const ZipEntry& entry);
  /// Write the central directory and end records. Nothing may be added afterwards.
  void finish();

  std::uint64_t bytes_written() const;
  std::size_t member_count() const { return entries_.size(); }

 private:
  struct Entry {
    std::string name;
    std::uint16_t flags = 0, version = 20, time = 0, date = 0;
    std::uint16_t method = 0;
    std::optional<std::uint16_t> made_by;  ///< a copied member's; this writer's own: Unix, `version`
    std::uint32_t crc = 0, external_attributes = 0600u << 16;
    std::uint64_t compressed = 0, uncompressed = 0, offset = 0;
  };
  struct Impl;
  void start(io::ByteSink& sink);
  void patch_local_header(const Entry& e, bool zip64);
  void write_data_descriptor(const Entry& e, bool zip64);
  void write_central_directory();

  std::string name_;
  ZipWriterOptions options_;
  std::vector<Entry> entries_;
  std::unique_ptr<io::FdSink> own_sink_;  // the descriptor constructor's
  std::unique_ptr<Impl> impl_;
};

}  // namespace zanj::zip
