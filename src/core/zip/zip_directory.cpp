// ZIP central-directory reader, following the PKWARE APPNOTE (sections 4.3
// and 4.5). Everything read from the archive is untrusted: every length and
// offset is checked against what we actually hold before it is used, and no
// allocation is sized by a count that has not been bounded by the file size.
#include "zip/zip_directory.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>

#include "zanj/error.hpp"
#include "base/utf8.hpp"
#include "base/unicode.hpp"
#include "zip/zip_format.hpp"

namespace zanj {
namespace {

/// The unsigned little-endian number of `width` bytes at `at`; the caller
/// has checked that they exist.
std::uint64_t little_endian(std::string_view bytes, std::size_t at, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = width; i-- > 0;) value = value << 8 | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

std::string quoted(std::string_view name);

/// Little-endian reader over bytes already in memory. Running off the end
/// throws "<what> is truncated" ("<what> of '<owner>' is truncated" with an owner), so callers
/// never index out of bounds. The message is built only then: a directory of many members
/// must not pay for one string per member.
class Cursor {
 public:
  /// `fault`: what running off the end means for the directory; none for a local header's bytes.
  Cursor(std::string_view bytes, std::optional<zip::DirectoryFault> fault, std::string_view what,
         std::string_view owner = {}, bool has_owner = false)
      : bytes_(bytes), fault_(fault), what_(what), owner_(owner), has_owner_(has_owner) {}
  std::size_t remaining() const { return bytes_.size() - pos_; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(uint(2)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(uint(4)); }
  std::uint64_t u64() { return uint(8); }
  void skip(std::size_t n) { take(n); }
  std::string_view take(std::size_t n) {
    need(n);
    const std::string_view out = bytes_.substr(pos_, n);
    pos_ += n;
    return out;
  }

 private:
  void need(std::size_t n) const {
    if (n <= remaining()) return;
    std::string message = std::string(what_) + (has_owner_ ? " of " + quoted(owner_) : std::string()) + " is truncated";
    if (fault_) throw zip::DirectoryError(*fault_, std::move(message));
    throw Error(std::move(message));
  }
  std::uint64_t uint(std::size_t n) {
    need(n);
    pos_ += n;
    return little_endian(bytes_, pos_ - n, n);
  }
  std::string_view bytes_;
  std::size_t pos_ = 0;
  std::optional<zip::DirectoryFault> fault_;
  std::string_view what_, owner_;
  bool has_owner_ = false;
};

std::string read_bytes(const io::ByteSource& source, std::uint64_t offset, std::size_t n) {
  std::string out(n, '\0');
  source.read_at(offset, out.data(), n);
  return out;
}

/// A member name for an error message: quoted, escaped by the one terminal escape so a hostile
/// name cannot break the one-line message or the terminal.
std::string quoted(std::string_view name) { return "'" + terminal_safe(name) + "'"; }

/// The end record fields, widened so Zip64 values can replace them.
struct EndRecord {
  std::uint64_t offset = 0;  // of the end of central directory record itself
  std::uint64_t disk = 0, cd_disk = 0, entries_on_disk = 0, entries_total = 0;
  std::uint64_t cd_size = 0, cd_offset = 0;
  std::string comment;
};

EndRecord parse_end_record(std::string_view tail, std::size_t pos, std::uint64_t tail_start) {
  Cursor c(tail.substr(pos), zip::DirectoryFault::end_record, "end of central directory record");
  EndRecord end;
  end.offset = tail_start + pos;
  c.skip(4);  // signature, already matched
  end.disk = c.u16(), end.cd_disk = c.u16();
  end.entries_on_disk = c.u16(), end.entries_total = c.u16();
  end.cd_size = c.u32(), end.cd_offset = c.u32();
  // A comment cut short by the end of the file is kept as far as it goes (Python does too).
  const std::size_t comment_len = c.u16();
  end.comment = std::string(c.take(std::min(comment_len, c.remaining())));
  return end;
}

/// The end records found in the file's tail: the one Python's zipfile reads, and another one
/// whose comment ends exactly at the end of the file, if there is such a different one.
struct EndCandidates {
  EndRecord chosen;
  std::optional<EndRecord> exact_fit;
};

/// Python's _EndRecData: a record at exactly 22 bytes before the end with an empty comment;
/// otherwise the last signature (rfind) in the final 65,536 + 22 bytes.
/// Where the last end-record signature starts among the positions before `end`, or npos. The
/// tail is up to 64 KiB and searched twice on every open, so it is scanned with memrchr for
/// the signature's first byte rather than by decoding a 32-bit value at every position.
std::size_t last_end_signature_before(std::string_view tail, std::size_t end) {
  const char signature[4] = {static_cast<char>(zip::kEndSig & 0xff), static_cast<char>((zip::kEndSig >> 8) & 0xff),
                             static_cast<char>((zip::kEndSig >> 16) & 0xff), static_cast<char>(zip::kEndSig >> 24)};
  while (end > 0) {
    const void* hit = memrchr(tail.data(), signature[0], end);
    if (!hit) break;
    const auto pos = static_cast<std::size_t>(static_cast<const char*>(hit) - tail.data());
    if (pos + 4 <= tail.size() && std::memcmp(tail.data() + pos, signature, 4) == 0) return pos;
    end = pos;
  }
  return std::string_view::npos;
}

EndCandidates find_end_records(const io::ByteSource& source) {
  const std::uint64_t size = source.size();
  const std::uint64_t tail_len = std::min(size, zip::kEndSize + zip::kMaxComment + 1);
  const std::uint64_t tail_start = size - tail_len;
  const std::string tail = read_bytes(source, tail_start, static_cast<std::size_t>(tail_len));
  const auto ends_file = [&](std::size_t pos) {
    return pos + zip::kEndSize <= tail.size() && pos + zip::kEndSize + little_endian(tail, pos + 20, 2) == tail.size();
  };
  // Signatures may start anywhere a whole one fits: before tail.size() - 3.
  const std::size_t search_end = tail.size() >= 4 ? tail.size() - 3 : 0;
  std::optional<std::size_t> chosen;
  if (tail.size() >= zip::kEndSize && little_endian(tail, tail.size() - zip::kEndSize, 4) == zip::kEndSig &&
      ends_file(tail.size() - zip::kEndSize))
    chosen = tail.size() - zip::kEndSize;
  if (!chosen)
    if (const std::size_t pos = last_end_signature_before(tail, search_end); pos != std::string_view::npos)
      chosen = pos;
  if (!chosen || *chosen + zip::kEndSize > tail.size())
    throw zip::DirectoryError(zip::DirectoryFault::no_end_record,
                              "no end of central directory record (not a ZIP file, or truncated)");
  EndCandidates out{parse_end_record(tail, *chosen, tail_start), std::nullopt};
  // Another record whose comment ends exactly at the end of the file is what readers that
  // scan for a complete record may take instead.
  for (std::size_t pos = last_end_signature_before(tail, search_end); pos != std::string_view::npos;
       pos = last_end_signature_before(tail, pos))
    if (pos != *chosen && ends_file(pos)) {
      out.exact_fit = parse_end_record(tail, pos, tail_start);
      break;
    }
  return out;
}

/// A 32-bit end-record field set to its maximum means "see the Zip64 record";
/// any other value must agree with the Zip64 record (APPNOTE 4.4.1.4).
void merge_zip64(std::uint64_t& field, std::uint64_t sentinel, std::uint64_t wide, const char* what) {
  if (field != sentinel && field != wide)
    throw zip::DirectoryError(zip::DirectoryFault::zip64,
                              std::string("end of central directory and Zip64 end record disagree about the ") + what);
  field = wide;
}

/// If a Zip64 locator directly precedes the end record, read the Zip64 end
/// record it points to, fold its values into `end` and return its offset.
std::optional<std::uint64_t> read_zip64_end(const io::ByteSource& source, EndRecord& end) {
  if (end.offset < zip::kLocatorSize) return std::nullopt;
  const std::uint64_t locator_at = end.offset - zip::kLocatorSize;
  const std::string locator = read_bytes(source, locator_at, zip::kLocatorSize);
  Cursor loc(locator, zip::DirectoryFault::zip64, "Zip64 end of central directory locator");
  if (loc.u32() != zip::kZip64LocatorSig) return std::nullopt;
  const std::uint32_t record_disk = loc.u32();
  std::uint64_t record_at = loc.u64();
  const std::uint32_t disks = loc.u32();
  if (record_disk != 0 || disks > 1)
    throw zip::DirectoryError(zip::DirectoryFault::end_record, "multi-disk (spanned) ZIP archives are not supported");
  if (record_at > locator_at || locator_at - record_at < zip::kZip64EndSize)
    throw zip::DirectoryError(zip::DirectoryFault::zip64,
                              "Zip64 end of central directory record offset is out of range");

  std::string record = read_bytes(source, record_at, zip::kZip64EndSize);
  // Behind a prefix its offsets do not count (a self-extracting stub), the locator points that
  // many bytes short of the record. Python's zipfile never follows the locator: it reads the
  // record just before it. That record is taken when the locator leads to none and the same
  // prefix explains both: the directory it describes ends, in offsets that do not count the
  // prefix either, exactly where the locator says the record is (writers put it right after).
  const std::uint64_t adjacent_at = locator_at - zip::kZip64EndSize;
  if (little_endian(record, 0, 4) != zip::kZip64EndSig && adjacent_at > record_at) {
    std::string adjacent = read_bytes(source, adjacent_at, zip::kZip64EndSize);
    const std::uint64_t cd_size = little_endian(adjacent, 40, 8), cd_offset = little_endian(adjacent, 48, 8);
    if (little_endian(adjacent, 0, 4) == zip::kZip64EndSig && cd_offset <= record_at &&
        cd_size == record_at - cd_offset) {
      record = std::move(adjacent);
      record_at = adjacent_at;
    }
  }
  Cursor c(record, zip::DirectoryFault::zip64, "Zip64 end of central directory record");
  if (c.u32() != zip::kZip64EndSig)
    throw zip::DirectoryError(zip::DirectoryFault::zip64,
                              "Zip64 locator does not point to a Zip64 end of central directory record");
  const std::uint64_t record_size = c.u64();  // excludes the signature and this field
  if (record_size < zip::kZip64EndSize - 12 || record_size > locator_at - record_at - 12)
    throw zip::DirectoryError(zip::DirectoryFault::zip64,
                              "Zip64 end of central directory record has an impossible size");
  c.skip(4);  // versions made by / needed
  merge_zip64(end.disk, zip::kMax16, c.u32(), "disk number");
  merge_zip64(end.cd_disk, zip::kMax16, c.u32(), "central directory disk");
  merge_zip64(end.entries_on_disk, zip::kMax16, c.u64(), "entry count on this disk");
  merge_zip64(end.entries_total, zip::kMax16, c.u64(), "total entry count");
  merge_zip64(end.cd_size, zip::kMax32, c.u64(), "central directory size");
  merge_zip64(end.cd_offset, zip::kMax32, c.u64(), "central directory offset");
  return record_at;
}

/// `cd_limit`: where the central directory must end at the latest (the
/// Zip64 end record if present, else the end record).
void check_end_record(const EndRecord& end, std::uint64_t cd_limit, const zip::ZipLimits& limits) {
  if (end.disk != 0 || end.cd_disk != 0)
    throw zip::DirectoryError(zip::DirectoryFault::end_record, "multi-disk (spanned) ZIP archives are not supported");
  if (end.entries_on_disk != end.entries_total)
    throw zip::DirectoryError(zip::DirectoryFault::central_directory,
                              "end of central directory entry counts disagree (" + std::to_string(end.entries_on_disk) +
                                  " on this disk, " + std::to_string(end.entries_total) + " in total)");
  if (end.entries_total > limits.max_entries)
    throw zip::DirectoryError(zip::DirectoryFault::too_many_entries,
                              "archive claims " + std::to_string(end.entries_total) +
                                  " entries, more than the limit of " + std::to_string(limits.max_entries));
  if (end.cd_offset > cd_limit || end.cd_size > cd_limit - end.cd_offset)
    throw zip::DirectoryError(zip::DirectoryFault::end_record,
                              "central directory (offset " + std::to_string(end.cd_offset) + ", size " +
                                  std::to_string(end.cd_size) +
                                  ") does not end before the end of central directory record");
  // Each entry takes at least 46 bytes: this bounds the count by the file size.
  if (end.entries_total > end.cd_size / zip::kCentralSize)
    throw zip::DirectoryError(zip::DirectoryFault::end_record, "archive claims " + std::to_string(end.entries_total) +
                                                                   " entries, but its " + std::to_string(end.cd_size) +
                                                                   "-byte central directory cannot hold them");
}

/// The Zip64 extended information block (id 0x0001) of an extra field, if any.
std::optional<std::string_view> find_zip64_extra(std::string_view extra, std::string_view owner,
                                                 std::optional<zip::DirectoryFault> fault) {
  Cursor c(extra, fault, "extra field", owner, true);
  // Fewer than 4 bytes left cannot hold a block header: some writers pad
  // the extra field with zeros, so ignore such a tail.
  while (c.remaining() >= 4) {
    const std::uint16_t id = c.u16();
    const std::uint16_t len = c.u16();
    if (len > c.remaining()) {
      std::string message = "extra field of " + quoted(owner) + " has a block running past its end";
      if (fault) throw zip::DirectoryError(*fault, std::move(message));
      throw Error(std::move(message));
    }
    const std::string_view data = c.take(len);
    if (id == zip::kZip64ExtraId) return data;
  }
  return std::nullopt;
}

/// Central directory: the Zip64 block holds only the fields whose fixed
/// counterpart is at its maximum, in this order (APPNOTE 4.5.3). A maximum
/// without a Zip64 block is kept literally, as Python's zipfile does.
std::uint64_t resolve_central_zip64(ZipEntry& e, std::string_view block, std::uint16_t disk_start) {
  Cursor c(block, zip::DirectoryFault::zip64, "Zip64 extra field", e.name, true);
  if (e.uncompressed_size == zip::kMax32) e.uncompressed_size = c.u64();
  if (e.compressed_size == zip::kMax32) e.compressed_size = c.u64();
  if (e.local_header_offset == zip::kMax32) e.local_header_offset = c.u64();
  return disk_start == zip::kMax16 ? c.u32() : disk_start;
}

/// The local Zip64 block should hold both sizes (APPNOTE 4.5.3); Python
/// writes it even for small members, whose fixed fields then hold the real
/// sizes. A shorter block is read like the central one.
void resolve_local_zip64(zip::LocalHeader& h, std::string_view block, std::string_view owner) {
  Cursor c(block, std::nullopt, "Zip64 extra field of local header", owner, true);
  const bool both = block.size() >= 16;
  const auto take = [&](std::uint64_t& field, std::optional<std::uint64_t>& recorded) {
    if (!both && field != zip::kMax32) return;
    const std::uint64_t wide = c.u64();
    recorded = wide;
    if (field == zip::kMax32) field = wide;
  };
  take(h.uncompressed_size, h.zip64_uncompressed_size);
  take(h.compressed_size, h.zip64_compressed_size);
}

ZipEntry parse_central_entry(Cursor& c, std::uint64_t at, std::uint64_t index) {
  const auto where = [&] { return "central directory entry " + std::to_string(index); };
  if (c.remaining() < zip::kCentralSize)
    throw zip::DirectoryError(zip::DirectoryFault::central_directory, where() + " is truncated");
  if (c.u32() != zip::kCentralSig)
    throw zip::DirectoryError(zip::DirectoryFault::central_directory,
                              where() + " has a bad signature (at offset " + std::to_string(at) + ")");
  ZipEntry e;
  e.central_offset = at;
  e.version_made_by = c.u16(), e.version_needed = c.u16(), e.flags = c.u16(), e.method = c.u16();
  e.dos_time = c.u16(), e.dos_date = c.u16(), e.crc32 = c.u32();
  e.compressed_size = c.u32(), e.uncompressed_size = c.u32();
  const std::size_t name_len = c.u16(), extra_len = c.u16(), comment_len = c.u16();
  std::uint64_t disk_start = c.u16();
  c.skip(2);  // internal attributes
  e.external_attributes = c.u32();
  e.local_header_offset = c.u32();
  if (name_len + extra_len + comment_len > c.remaining())
    throw zip::DirectoryError(zip::DirectoryFault::central_directory,
                              where() + ": name, extra field or comment runs past the end of the central directory");
  e.name = std::string(c.take(name_len));
  const std::string_view extra = c.take(extra_len);
  c.skip(comment_len);
  if (const auto block = find_zip64_extra(extra, e.name, zip::DirectoryFault::central_directory)) {
    e.has_zip64_extra = true;
    disk_start = resolve_central_zip64(e, *block, static_cast<std::uint16_t>(disk_start));
  }
  if (disk_start != 0)
    throw zip::DirectoryError(
        zip::DirectoryFault::central_directory,
        "entry " + quoted(e.name) + " starts on another disk (multi-disk archives are not supported)");
  return e;
}

std::vector<ZipEntry> parse_central_directory(const io::ByteSource& source, const EndRecord& end) {
  if (end.cd_size > std::numeric_limits<std::size_t>::max())
    throw zip::DirectoryError(zip::DirectoryFault::end_record, "central directory too large");
  const std::string cd = read_bytes(source, end.cd_offset, static_cast<std::size_t>(end.cd_size));
  Cursor c(cd, zip::DirectoryFault::end_record, "central directory");
  std::vector<ZipEntry> entries;
  entries.reserve(static_cast<std::size_t>(end.entries_total));  // bounded by cd_size / 46
  for (std::uint64_t i = 0; i < end.entries_total; ++i) {
    const std::uint64_t at = end.cd_offset + (cd.size() - c.remaining());
    ZipEntry e = parse_central_entry(c, at, i);
    // Local headers precede the central directory.
    if (end.cd_offset < zip::kLocalSize || e.local_header_offset > end.cd_offset - zip::kLocalSize)
      throw zip::DirectoryError(
          zip::DirectoryFault::central_directory,
          "local header offset of " + quoted(e.name) + " points into or past the central directory");
    entries.push_back(std::move(e));
  }
  if (c.remaining() != 0)
    throw zip::DirectoryError(zip::DirectoryFault::end_record,
                              "central directory has " + std::to_string(c.remaining()) + " bytes after its " +
                                  std::to_string(end.entries_total) + " entries (wrong entry count?)");
  return entries;
}

}  // namespace

std::string method_name(std::uint16_t method) {
  switch (static_cast<ZipMethod>(method)) {
    case ZipMethod::store:
      return "store";
    case ZipMethod::deflate:
      return "deflate";
    case ZipMethod::deflate64:
      return "deflate64";
    case ZipMethod::bzip2:
      return "bzip2";
    case ZipMethod::lzma:
      return "lzma";
    case ZipMethod::zstd:
      return "zstd";
    case ZipMethod::xz:
      return "xz";
  }
  return "method " + std::to_string(method);
}

// ---- ZipEntry --------------------------------------------------------------

namespace {
constexpr std::uint32_t kTypeMask = 0170000, kTypeRegular = 0100000, kTypeSymlink = 0120000;
}  // namespace

bool ZipEntry::encrypted() const { return (flags & zip::kFlagEncrypted) != 0; }
bool ZipEntry::utf8_flag() const { return (flags & zip::kFlagUtf8) != 0; }
bool ZipEntry::is_directory() const { return !name.empty() && name.back() == '/'; }
std::uint32_t ZipEntry::unix_mode() const {
  return (version_made_by >> 8) == 3 ? external_attributes >> 16 : 0;  // 3 = Unix
}
bool ZipEntry::is_symlink() const { return (unix_mode() & kTypeMask) == kTypeSymlink; }

bool ZipEntry::is_regular_file() const {
  const std::uint32_t type = unix_mode() & kTypeMask;
  // No type bits at all (non-Unix makers, some writers) counts as a file.
  return !is_directory() && (type == 0 || type == kTypeRegular);
}

std::int64_t ZipEntry::mtime_unix() const {
  using namespace std::chrono;
  // Month and day 0 (as in an all-zero date) are read as 1. Out-of-range
  // days, hours and minutes roll over instead of failing: it is only a time.
  const unsigned month_number = std::clamp((dos_date >> 5) & 0xFu, 1u, 12u);
  const unsigned day_number = std::max(dos_date & 0x1Fu, 1u);
  const sys_days first{year{1980 + (dos_date >> 9)} / month{month_number} / day{1}};
  const std::int64_t days_since_epoch = (first + days{day_number - 1}).time_since_epoch().count();
  const std::int64_t seconds = (dos_time >> 11) * 3600 + ((dos_time >> 5) & 0x3F) * 60 + (dos_time & 0x1F) * 2;
  return days_since_epoch * 86400 + seconds;
}

std::string ZipEntry::mtime_iso8601() const {
  using namespace std::chrono;
  const std::int64_t t = mtime_unix();  // >= 1980, so plain division floors
  const year_month_day date{sys_days{days{t / 86400}}};
  const std::int64_t s = t % 86400;
  // Digits by hand, not snprintf: ls and info print this for every member. DOS years are
  // 1980-2107, so four digits always suffice.
  char buf[] = "0000-00-00T00:00:00";
  const auto put = [&](std::size_t at, unsigned value, std::size_t width) {
    for (std::size_t i = width; i-- > 0; value /= 10) buf[at + i] = static_cast<char>('0' + value % 10);
  };
  put(0, static_cast<unsigned>(static_cast<int>(date.year())), 4);
  put(5, static_cast<unsigned>(date.month()), 2);
  put(8, static_cast<unsigned>(date.day()), 2);
  put(11, static_cast<unsigned>(s / 3600), 2);
  put(14, static_cast<unsigned>(s / 60 % 60), 2);
  put(17, static_cast<unsigned>(s % 60), 2);
  return std::string(buf, sizeof buf - 1);
}

// ---- ZipDirectory ----------------------------------------------------------

namespace {

/// Python's zipfile: UTF-8 with flag bit 11, code page 437 without (ASCII reads the same).
std::string python_visible_name(const ZipEntry& e) {
  if (e.utf8_flag() || base::is_ascii(e.name)) return e.name;
  return base::cp437_to_utf8(e.name);
}

}  // namespace

void zip::ZipDirectory::index_names() {
  for (ZipEntry& e : entries) e.python_name = python_visible_name(e);
  // A hash table, not a sorted list: building it is linear and a lookup compares one name,
  // where sorting 50,000 names and bisecting for every reference showed in the profile.
  std::size_t size = 16;
  while (size < 2 * entries.size()) size *= 2;
  by_name_.assign(size, kNoEntry);
  unique_names_ = true;
  const std::size_t mask = size - 1;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string_view name = entries[i].python_name;
    for (std::size_t slot = std::hash<std::string_view>{}(name)&mask;; slot = (slot + 1) & mask) {
      if (by_name_[slot] == kNoEntry) {
        by_name_[slot] = i;
        break;
      }
      if (entries[by_name_[slot]].python_name == name) {  // the first entry of a name wins
        unique_names_ = false;
        break;
      }
    }
  }
  indexed_ = entries.size();
}

const ZipEntry* zip::ZipDirectory::find(std::string_view name) const {
  if (indexed_ != entries.size()) {  // index missing or stale
    for (const ZipEntry& e : entries)
      if (python_visible_name(e) == name) return &e;
    return nullptr;
  }
  // Lookups mostly go in storage order (a document's references and externals_info's keys come
  // in the order the writer wrote the members): the entry after this thread's last find is
  // tried first, a neighbour in memory, where a table probe is a cache miss or two on 50,000
  // members. A guess only: it is taken only when it is that name's one entry.
  thread_local const ZipDirectory* guess_in = nullptr;
  thread_local std::size_t guess = 0;
  if (guess_in == this && unique_names_ && guess + 1 < entries.size() && entries[guess + 1].python_name == name)
    return &entries[++guess];
  const std::size_t mask = by_name_.size() - 1;
  for (std::size_t slot = std::hash<std::string_view>{}(name)&mask;; slot = (slot + 1) & mask) {
    const std::size_t i = by_name_[slot];
    if (i == kNoEntry) return nullptr;
    if (entries[i].python_name == name) {
      guess_in = this, guess = i;
      return &entries[i];
    }
  }
}

namespace {
/// Whether two of `keys` are equal: an open-addressing table of their indices.
bool any_equal(const std::vector<std::string_view>& keys) {
  std::size_t size = 16;
  while (size < 2 * keys.size()) size *= 2;
  constexpr std::size_t kFree = SIZE_MAX;
  std::vector<std::size_t> table(size, kFree);
  const std::size_t mask = size - 1;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    for (std::size_t slot = std::hash<std::string_view>{}(keys[i]) & mask;; slot = (slot + 1) & mask) {
      if (table[slot] == kFree) {
        table[slot] = i;
        break;
      }
      if (keys[table[slot]] == keys[i]) return true;
    }
  }
  return false;
}
}  // namespace

std::vector<zip::NameClash> zip::name_clashes(const std::vector<ZipEntry>& entries) {
  std::vector<zip::NameClash> out;
  std::vector<std::size_t> order(entries.size());
  // Names as Python sees them, and as bytes: each group of equal keys is a clash.
  const auto group = [&](const std::vector<std::string_view>& keys, bool normalized) {
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return keys[a] < keys[b]; });
    for (std::size_t i = 0; i < order.size();) {
      std::size_t j = i + 1;
      while (j < order.size() && keys[order[j]] == keys[order[i]]) ++j;
      if (j - i > 1) {
        zip::NameClash clash;
        clash.entries.assign(order.begin() + static_cast<std::ptrdiff_t>(i),
                             order.begin() + static_cast<std::ptrdiff_t>(j));
        std::sort(clash.entries.begin(), clash.entries.end());
        const auto& first = entries[clash.entries.front()];
        const bool all_raw_equal = std::all_of(clash.entries.begin(), clash.entries.end(),
                                               [&](std::size_t k) { return entries[k].name == first.name; });
        clash.same_name = !normalized || std::all_of(clash.entries.begin(), clash.entries.end(), [&](std::size_t k) {
          return python_visible_name(entries[k]) == python_visible_name(first);
        });
        // Byte-identical groups were already reported by the first pass.
        if (!normalized || !all_raw_equal) out.push_back(std::move(clash));
      }
      i = j;
    }
  };
  // Keys are views, not copies: an archive of many members pays no string per member.
  std::vector<std::string_view> keys(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) keys[i] = entries[i].name;
  // Nearly every archive has no two equal names: a linear check first, and the sort (8% of
  // `info` on 50,000 members) only when there is a group to report.
  if (any_equal(keys)) group(keys, false);
  // An ASCII name is its own Python name and its own NFD, so a group of ASCII names only is
  // byte-identical and was reported above: normalize only the others, and with none, stop.
  // Made at the first name that is not ASCII (50,000 empty strings were 1.6 MB to clear).
  std::vector<std::string> normalized;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (base::is_ascii(entries[i].name)) continue;
    if (normalized.empty()) normalized.resize(entries.size());  // before any key views into it
    normalized[i] = base::nfd(python_visible_name(entries[i]));
    keys[i] = normalized[i];
  }
  if (!normalized.empty() && any_equal(keys)) group(keys, true);
  return out;
}

std::optional<std::string> zip::ZipDirectory::ambiguity() const {
  if (other_end_record)
    return "two end of central directory records (at offsets " + std::to_string(eocd_offset) + " and " +
           std::to_string(*other_end_record) + ") describe different archives to different readers";
  if (python_offset_shift != 0)
    return "the central directory does not end where the end record begins (" + std::to_string(python_offset_shift) +
           " bytes apart): Python's zipfile would read it elsewhere";
  const auto clashes = zip::name_clashes(entries);
  if (clashes.empty()) return std::nullopt;
  const zip::NameClash& c = clashes.front();
  const ZipEntry& e = entries[c.entries.front()];
  if (c.same_name) return std::to_string(c.entries.size()) + " entries are named " + quoted(e.name);
  // They look the same on a terminal: show their bytes as well.
  const auto bytes = [](const std::string& name) {
    std::string out;
    for (const char byte : name) {
      const auto ch = static_cast<unsigned char>(byte);
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", ch);
      out += ch >= 0x20 && ch < 0x7F ? std::string(1, byte) : std::string(hex);
    }
    return out;
  };
  const ZipEntry& other = entries[c.entries[1]];
  return "member names " + quoted(e.name) + " and " + quoted(other.name) + " (bytes '" + bytes(e.name) + "' and '" +
         bytes(other.name) + "') are the same name after Unicode normalization";
}

namespace {

/// A read below that failed: the reason, and the Error itself for a caller that goes on to
/// throw it as it was.
struct ZipFault {
  std::string why;
  std::exception_ptr error;
};

/// The readers of this file (Cursor, the byte source) stop at the first fault by throwing; a
/// caller to whom that fault is an answer (is there a directory here? a local header?) gets it
/// here as a value.
template <class Read>
auto zip_read_result(Read read) -> base::Result<decltype(read()), ZipFault> {
  try {
    return read();
  } catch (const Error& e) {  // boundary: the readers' unwinding becomes a value, once
    return ZipFault{e.what(), std::current_exception()};
  }
}

/// The end record's Zip64 values folded in and checked; returns where the directory must end.
std::uint64_t resolve_end_record(const io::ByteSource& source, EndRecord& end, const zip::ZipLimits& limits,
                                 bool& zip64) {
  std::uint64_t cd_limit = end.offset;
  if (const auto zip64_at = read_zip64_end(source, end)) {
    zip64 = true;
    cd_limit = *zip64_at;
  }
  check_end_record(end, cd_limit, limits);
  return cd_limit;
}

/// Would this end record open as a directory? Its fields check out and a central header
/// (or nothing, for an empty archive) is where it says the directory starts.
bool opens_as_directory(const io::ByteSource& source, EndRecord end, const zip::ZipLimits& limits) {
  const base::Result<bool, ZipFault> opens = zip_read_result([&] {
    bool zip64 = false;
    resolve_end_record(source, end, limits, zip64);
    if (end.entries_total == 0) return end.cd_size == 0;
    return end.cd_size >= 4 && little_endian(read_bytes(source, end.cd_offset, 4), 0, 4) == zip::kCentralSig;
  });
  return opens.ok() && *opens;
}

}  // namespace

namespace {

/// The directory of an archive behind a prefix its offsets do not count (a self-extracting
/// stub, or `cat stub.sh archive.zip`): Python's zipfile and unzip read such a file by moving
/// the directory and every local header offset `shift` bytes on. Taken only when the recorded
/// offset holds no directory and, moved, the directory parses and every entry finds its local
/// header signature: otherwise the recorded offsets are simply wrong, and the caller reports
/// why the recorded directory does not parse.
std::optional<std::vector<ZipEntry>> directory_behind_prefix(const io::ByteSource& source, EndRecord end,
                                                             std::uint64_t shift) {
  end.cd_offset += shift;
  base::Result<std::optional<std::vector<ZipEntry>>, ZipFault> moved =
      zip_read_result([&]() -> std::optional<std::vector<ZipEntry>> {
        std::vector<ZipEntry> entries = parse_central_directory(source, end);
        char signature[4];
        for (ZipEntry& e : entries) {
          e.local_header_offset += shift;
          if (e.local_header_offset > end.cd_offset - zip::kLocalSize ||
              source.read_some(e.local_header_offset, signature, 4) != 4 ||
              little_endian(std::string_view(signature, 4), 0, 4) != zip::kLocalSig)
            return std::nullopt;
        }
        return entries;
      });
  return moved ? std::move(*moved) : std::nullopt;
}

}  // namespace

zip::ZipDirectory zip::read_zip_directory(const io::ByteSource& source, const zip::ZipLimits& limits) {
  EndCandidates found = find_end_records(source);
  EndRecord& end = found.chosen;
  zip::ZipDirectory dir;
  resolve_end_record(source, end, limits, dir.zip64);
  constexpr std::uint64_t kPythonZip64Records = kZip64EndSize + zip::kLocatorSize;  // what Python assumes
  const std::uint64_t directory_end = dir.zip64 ? end.offset - std::min(end.offset, kPythonZip64Records) : end.offset;
  std::int64_t shift =
      static_cast<std::int64_t>(directory_end) - static_cast<std::int64_t>(end.cd_offset + end.cd_size);
  base::Result<std::vector<ZipEntry>, ZipFault> recorded =
      zip_read_result([&] { return parse_central_directory(source, end); });
  if (recorded) {
    dir.entries = std::move(*recorded);
  } else {
    auto moved = shift > 0 ? directory_behind_prefix(source, end, static_cast<std::uint64_t>(shift)) : std::nullopt;
    if (!moved) std::rethrow_exception(recorded.failure().error);  // why the recorded directory does not parse
    dir.entries = std::move(*moved);
    dir.prefix_bytes = static_cast<std::uint64_t>(shift);
    end.cd_offset += dir.prefix_bytes;
    shift = 0;  // every reader now reads the same directory at the same place
  }
  dir.eocd_offset = end.offset;
  dir.cd_offset = end.cd_offset;
  dir.cd_size = end.cd_size;
  dir.comment = std::move(end.comment);
  if (found.exact_fit && opens_as_directory(source, *found.exact_fit, limits))
    dir.other_end_record = found.exact_fit->offset;
  // An empty directory reads as empty wherever a reader looks for it.
  dir.python_offset_shift = dir.entries.empty() ? 0 : shift;
  dir.index_names();
  return dir;
}

// ---- local headers ---------------------------------------------------------

zip::LocalHeader zip::read_local_header(const io::ByteSource& source, const ZipEntry& entry) {
  const std::uint64_t at = entry.local_header_offset;
  const auto owner = [&] { return "local header of " + quoted(entry.name); };
  if (at > source.size() || source.size() - at < zip::kLocalSize)
    throw Error(owner() + " lies past the end of the file");
  // One read for the fixed part and, usually, the name and extra field after it: verify reads
  // every local header, so a second system call per member would show on many small members.
  char buffer[zip::kLocalSize + 512];
  const std::size_t got = source.read_some(
      at, buffer, static_cast<std::size_t>(std::min<std::uint64_t>(sizeof buffer, source.size() - at)));
  if (got < zip::kLocalSize) source.read_at(at, buffer, zip::kLocalSize);
  Cursor c(std::string_view(buffer, zip::kLocalSize), std::nullopt, "local header", entry.name, true);
  if (c.u32() != zip::kLocalSig) throw Error(owner() + " not found at offset " + std::to_string(at));
  zip::LocalHeader h;
  h.version_needed = c.u16(), h.flags = c.u16(), h.method = c.u16();
  h.dos_time = c.u16(), h.dos_date = c.u16(), h.crc32 = c.u32();
  h.compressed_size = c.u32(), h.uncompressed_size = c.u32();
  const std::size_t name_len = c.u16(), extra_len = c.u16();

  const std::uint64_t variable_at = at + zip::kLocalSize;  // cannot overflow: checked above
  if (name_len + extra_len > source.size() - variable_at) throw Error(owner() + " runs past the end of the file");
  std::string spilled;  // name and extra field, when they did not fit the first read
  std::string_view variable;
  if (got >= zip::kLocalSize + name_len + extra_len) {
    variable = std::string_view(buffer + zip::kLocalSize, name_len + extra_len);
  } else {
    spilled = read_bytes(source, variable_at, name_len + extra_len);
    variable = spilled;
  }
  h.name = std::string(variable.substr(0, name_len));
  if (const auto block = find_zip64_extra(variable.substr(name_len), entry.name, std::nullopt)) {
    h.has_zip64_extra = true;
    resolve_local_zip64(h, *block, entry.name);
  }
  h.data_offset = variable_at + name_len + extra_len;
  // The central size is authoritative (the local one may be 0 with bit 3).
  if (entry.compressed_size > source.size() - h.data_offset)
    throw Error("data of " + quoted(entry.name) + " (" + std::to_string(entry.compressed_size) + " bytes at offset " +
                std::to_string(h.data_offset) + ") runs past the end of the file");
  return h;
}

base::Result<zip::LocalHeader> zip::read_local_header_result(const io::ByteSource& source, const ZipEntry& entry) {
  base::Result<zip::LocalHeader, ZipFault> header =
      zip_read_result([&] { return zip::read_local_header(source, entry); });
  if (!header) return base::Failure{header.why()};
  return std::move(*header);
}

base::Result<zip::ZipDirectory> zip::read_zip_directory_result(const io::ByteSource& source,
                                                               const zip::ZipLimits& limits) {
  base::Result<zip::ZipDirectory, ZipFault> directory =
      zip_read_result([&] { return zip::read_zip_directory(source, limits); });
  if (!directory) return base::Failure{directory.why()};
  return std::move(*directory);
}

std::vector<std::pair<std::size_t, std::size_t>> zip::overlapping_members(std::vector<zip::MemberExtent>& extents) {
  std::stable_sort(extents.begin(), extents.end(),
                   [](const zip::MemberExtent& a, const zip::MemberExtent& b) { return a.begin < b.begin; });
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  const zip::MemberExtent* furthest = nullptr;  // of those before, the one reaching furthest
  for (const zip::MemberExtent& x : extents) {
    if (furthest && x.begin < furthest->end) pairs.emplace_back(x.index, furthest->index);
    if (!furthest || x.end > furthest->end) furthest = &x;
  }
  return pairs;
}

}  // namespace zanj
