#pragma once
// Our own reader for the ZIP central directory (PKWARE APPNOTE 6.3.x): the one source of
// truth for which members exist and where their data is (member_decoder.hpp reads from it).
// It chooses the end record Python's zipfile chooses and names entries as Python sees them.
// This reader only parses structure; it never decompresses and never judges member names
// (refusing "../x" or "/x" is the extractor's job, not the parser's), but it tells which
// names readers could confuse (name_clashes, ZipDirectory::ambiguity).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "io/byte_source.hpp"
#include "zanj/archive.hpp"

namespace zanj::zip {

// ZipMethod, method_name and ZipEntry are public: zanj/archive.hpp.

/// The local file header found at an entry's local_header_offset.
struct LocalHeader {
  std::uint16_t version_needed = 0, flags = 0, method = 0, dos_time = 0, dos_date = 0;
  /// With flag bit 3 (data descriptor) set, these may be 0: kept as read.
  std::uint32_t crc32 = 0;
  std::uint64_t compressed_size = 0, uncompressed_size = 0;  ///< Zip64-resolved
  std::string name;
  std::uint64_t data_offset = 0;  ///< first byte of the member's data
  bool has_zip64_extra = false;
  /// The sizes written in the Zip64 block, when it holds them (Python writes both even for
  /// small members); verify cross-checks them with the central directory.
  std::optional<std::uint64_t> zip64_uncompressed_size, zip64_compressed_size;
};

struct ZipLimits {
  /// Refuse archives claiming more entries than this, before allocating.
  std::uint64_t max_entries = 1'000'000;
};

/// Entries whose names readers may take for one another.
struct NameClash {
  /// true: the same name for Python or byte for byte (a duplicate); false: different names,
  /// equal after Unicode canonical decomposition (NFD), as macOS or libarchive may read them.
  bool same_name = false;
  std::vector<std::size_t> entries;  ///< positions in directory order, at least two
};
std::vector<NameClash> name_clashes(const std::vector<ZipEntry>& entries);

struct ZipDirectory {
  std::vector<ZipEntry> entries;  ///< in central-directory order
  std::uint64_t eocd_offset = 0, cd_offset = 0, cd_size = 0;
  bool zip64 = false;  ///< Zip64 end records present
  std::string comment;
  /// Another end record that would also open as a directory: one whose comment reaches the
  /// end of the file (what most readers look for), when Python's zipfile chooses a different
  /// one (the last signature in the file's final 64 KiB). Readers would list different members.
  std::optional<std::uint64_t> other_end_record;
  /// Python's zipfile does not trust the directory offset: it takes the directory to end where
  /// the end record (or a 56-byte Zip64 end record and its locator) begins, and shifts every
  /// offset by the difference. Non-zero: Python reads its directory elsewhere than we do.
  std::int64_t python_offset_shift = 0;
  /// Bytes before the archive that its recorded offsets do not count (a self-extracting stub
  /// prepended without adjusting them). Every offset above already includes them.
  std::uint64_t prefix_bytes = 0;

  /// First entry with that name as Python sees it (ZipEntry::python_name), or nullptr. Uses
  /// the index built by index_names() (read_zip_directory calls it); if `entries` was changed
  /// since, it falls back to a linear scan rather than answer wrongly.
  const ZipEntry* find(std::string_view name) const;
  /// (Re)build the name index (and every python_name) after filling or changing `entries`.
  void index_names();
  /// Why readers may disagree about what this archive holds (two end records, duplicate
  /// names, names equal after NFD), in one line naming the member; nullopt when they cannot.
  std::optional<std::string> ambiguity() const;

 private:
  /// Open-addressing hash table of entry positions by python_name (the first entry of a name
  /// only), a power of two in size, at most half full; kNoEntry marks a free slot. Positions,
  /// not pointers or views, so copying or moving the directory keeps it valid.
  static constexpr std::size_t kNoEntry = static_cast<std::size_t>(-1);
  std::vector<std::size_t> by_name_;
  std::size_t indexed_ = kNoEntry;  ///< entries.size() when the index was built
  bool unique_names_ = false;       ///< no two entries share a python_name (find may guess)
};

/// The part of a ZIP's structure that kept its directory from being read, decided where the
/// fault is found: verify's problem code for an unreadable directory comes from it, never from
/// the wording of the message.
enum class DirectoryFault {
  no_end_record,      ///< no end of central directory record at all
  end_record,         ///< the end record's fields, or the directory it points to, do not hold
  too_many_entries,   ///< more entries than ZipLimits::max_entries
  zip64,              ///< the Zip64 end record, locator or extra fields
  central_directory,  ///< an entry of the central directory
};

/// read_zip_directory's refusal: an Error (Exit::invalid) that also says which part is at fault.
class DirectoryError : public Error {
 public:
  DirectoryError(DirectoryFault fault, std::string message) : Error(std::move(message)), fault_(fault) {}
  DirectoryFault fault() const noexcept { return fault_; }

 private:
  DirectoryFault fault_;
};

/// Locate and parse the end records and the whole central directory. The end record is the
/// one Python's zipfile takes: at exactly 22 bytes before the end of the file when a record
/// with an empty comment is there, else the last signature in the final 64 KiB + 22 bytes.
/// Throws DirectoryError for any structural problem (a failed read of the source throws as
/// the source does).
ZipDirectory read_zip_directory(const io::ByteSource& source, const ZipLimits& limits = {});
/// The same, or why not (what read_zip_directory throws): for salvage, to which a directory
/// that does not read is where its work starts.
base::Result<ZipDirectory> read_zip_directory_result(const io::ByteSource& source, const ZipLimits& limits = {});

/// Parse the local header of `entry`; checks that its data lies within the file.
LocalHeader read_local_header(const io::ByteSource& source, const ZipEntry& entry);
/// The same, or why not (what read_local_header throws, a failed read of the source
/// included): for callers to whom a damaged header is an answer (verify, salvage, extract).
base::Result<LocalHeader> read_local_header_result(const io::ByteSource& source, const ZipEntry& entry);

/// A member's bytes in the file, [its local header, the end of its data), with the index of its
/// entry: what the overlap check of verify and extract looks at.
struct MemberExtent {
  std::uint64_t begin = 0, end = 0;
  std::size_t index = 0;
};

/// Members sharing bytes (the zip bomb trick of overlapping entries): for each extent that
/// starts before an earlier one ends, in offset order, the pair (its index, the index of the
/// earlier extent reaching furthest). Every member that shares bytes with another is in some
/// pair. Sorts `extents` by `begin` (ties in their given order), which callers may rely on.
std::vector<std::pair<std::size_t, std::size_t>> overlapping_members(std::vector<MemberExtent>& extents);

}  // namespace zanj::zip
