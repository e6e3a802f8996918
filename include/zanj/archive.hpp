#pragma once
// A ZIP archive opened for reading: the member table from our own central-directory parser
// (which sees method, CRC-32 and offsets that libarchive does not expose), and member data
// through libarchive's seekable ZIP reader, streamed in chunks. Every read is bounded by the
// declared size and checked against the declared CRC-32 here, not trusted to libarchive.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/byte_source.hpp"
#include "zanj/error.hpp"
#include "zanj/zip_directory.hpp"

namespace zanj {

/// A member's data is bad. Thrown by Archive reads (it is an Error like any other) so that
/// callers which report rather than stop (verify) can tell the failures apart.
class MemberDataError : public Error {
 public:
  enum class Kind {
    undecodable,   ///< the decompressor failed (corrupt stream, unsupported method)
    too_long,      ///< it inflates past its declared size (reading stopped there)
    too_short,     ///< it ends before its declared size
    crc_mismatch,  ///< the CRC-32 of its bytes differs from the declared one
  };
  MemberDataError(Kind kind, std::string message) : Error(std::move(message)), kind_(kind) {}
  Kind kind() const noexcept { return kind_; }

 private:
  Kind kind_;
};

/// Receives a member's bytes chunk by chunk; return false to stop reading early.
using ChunkSink = std::function<bool(std::string_view chunk)>;

class Archive {
 public:
  /// Open a file, or standard input for "-" (named "<stdin>"; see input.hpp). Throws Error
  /// (usage) when it cannot be opened, (invalid) when it is not a ZIP.
  explicit Archive(const std::string& path);
  /// Open bytes from any source; `name` is used in messages.
  Archive(std::unique_ptr<ByteSource> source, std::string name);
  /// Use a directory already read from `source` (verify reads it once, with its own limits,
  /// and opens one Archive per thread).
  Archive(std::unique_ptr<ByteSource> source, std::string name, ZipDirectory directory);
  ~Archive();
  Archive(Archive&&) noexcept;
  Archive& operator=(Archive&&) noexcept;

  const std::string& name() const { return name_; }
  const ZipDirectory& directory() const { return directory_; }
  const std::vector<ZipEntry>& entries() const { return directory_.entries; }
  const ZipEntry* find(std::string_view member) const { return directory_.find(member); }
  std::uint64_t file_size() const { return source_->size(); }
  const ByteSource& source() const { return *source_; }

  /// Stream one member's uncompressed bytes to `sink`. Throws Error when the data is longer or
  /// shorter than declared, fails its CRC-32, or uses a method libarchive cannot decode.
  void read(const ZipEntry& entry, const ChunkSink& sink) const;
  /// The whole member in memory; refuses (Error) a member declaring more than max_bytes.
  std::string read_all(const ZipEntry& entry, std::uint64_t max_bytes) const;
  /// The first n bytes of a member (fewer if it is shorter); decodes no further (stored and
  /// deflated members are decoded directly, see member_prefix.hpp). No CRC-32 check: that
  /// needs the whole member.
  std::string read_prefix(const ZipEntry& entry, std::size_t n) const;
  /// Stream several members in one pass through the archive, in the order they are stored.
  /// `on_member` is called once per wanted entry with a function that streams its bytes
  /// (call it at most once; not calling it skips the member). Members that libarchive does
  /// not present are reported by an Error after the pass.
  using MemberReader = std::function<void(const ChunkSink&)>;
  void read_each(const std::vector<const ZipEntry*>& wanted,
                 const std::function<void(const ZipEntry&, const MemberReader&)>& on_member) const;
  /// Same, but returns the wanted members libarchive did not present (it reads names from the
  /// local headers and drops central-directory entries that share one) instead of throwing.
  std::vector<const ZipEntry*> read_each_found(
      const std::vector<const ZipEntry*>& wanted,
      const std::function<void(const ZipEntry&, const MemberReader&)>& on_member) const;

 private:
  std::unique_ptr<ByteSource> source_;
  std::string name_;
  ZipDirectory directory_;
};

/// Versions of libarchive and the compression libraries it was built with.
std::string archive_library_versions();

}  // namespace zanj
