#pragma once
// A ZIP archive opened for reading: the member table from our own central-directory parser,
// and member data read from each entry's own central-directory record (member_decoder.hpp),
// streamed in chunks. Every read is bounded by the declared size and a ratio limit, and
// checked against the declared CRC-32.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_source.hpp"
#include "zanj/error.hpp"
#include "zanj/limits.hpp"
#include "zip/zip_directory.hpp"

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
  /// (usage) when it cannot be opened, (invalid) when it is not a ZIP or is ambiguous
  /// (ZipDirectory::ambiguity(): duplicate or normalization-equal names, two end records).
  explicit Archive(const std::string& path);
  /// Open bytes from any source; `name` is used in messages. Refuses ambiguity the same way.
  Archive(std::unique_ptr<ByteSource> source, std::string name);
  /// Use a directory already read from `source` (verify reads it once, with its own limits,
  /// reports ambiguity itself, and opens one Archive per thread). Does not refuse ambiguity.
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

  /// Stream one member's uncompressed bytes to `sink`, read from the entry's local header
  /// (checked against the entry: a disagreement is an Error). Throws MemberDataError when the
  /// data is longer or shorter than declared, over the ratio limit, fails its CRC-32, or uses
  /// a method zanj cannot decode.
  void read(const ZipEntry& entry, const ChunkSink& sink) const;
  /// The whole member in memory; refuses (Error) a member declaring more than max_bytes.
  std::string read_all(const ZipEntry& entry, std::uint64_t max_bytes) const;
  /// The first n bytes of a member (fewer if it is shorter); decodes no further. No CRC-32
  /// check: that needs the whole member.
  std::string read_prefix(const ZipEntry& entry, std::size_t n) const;
  /// Stream several members, in the order they are stored. `on_member` is called once per
  /// wanted entry with a function that streams its bytes (call it at most once; not calling
  /// it skips the member).
  using MemberReader = std::function<void(const ChunkSink&)>;
  void read_each(const std::vector<const ZipEntry*>& wanted,
                 const std::function<void(const ZipEntry&, const MemberReader&)>& on_member) const;
  /// Same; returns the wanted members that could not be presented: none, since each is read
  /// from its own central-directory record (kept for callers written against a name-matching
  /// reader).
  std::vector<const ZipEntry*> read_each_found(
      const std::vector<const ZipEntry*>& wanted,
      const std::function<void(const ZipEntry&, const MemberReader&)>& on_member) const;

  /// Most bytes a member may decode to per compressed byte (ResourceLimits::max_ratio);
  /// deflate is held to its physical 1032:1 whatever this says.
  void set_max_ratio(std::uint64_t ratio) { max_ratio_ = ratio; }
  std::uint64_t max_ratio() const { return max_ratio_; }

 private:
  std::unique_ptr<ByteSource> source_;
  std::string name_;
  ZipDirectory directory_;
  std::uint64_t max_ratio_ = reader_limits().max_ratio;  // the global --max-ratio
};

/// Versions of the decompression libraries zanj links (zlib, bzip2, liblzma, zstd), one per line.
std::string archive_library_versions();

}  // namespace zanj
