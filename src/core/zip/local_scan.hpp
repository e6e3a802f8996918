#pragma once
// Members found by their local headers, for an archive whose central directory is missing or
// cut (an interrupted download or upload): what `zanj extract --salvage` recovers and what
// verify says a salvage would recover. The file is read front to back; a local header is
// trusted no further than its own bytes: a member counts as complete only when all its data
// is in the file and, where the header leaves the sizes to a data descriptor, the data decodes
// to its end and the descriptor that follows agrees with it. Its CRC-32 is checked when read.
#include <cstdint>
#include <string>
#include <vector>

#include "io/byte_source.hpp"
#include "zanj/archive.hpp"

namespace zanj::zip {

/// A local header whose member cannot be recovered, and why.
struct LostMember {
  std::string name;  ///< as the header spells it (possibly cut short), or "" when unreadable
  std::uint64_t offset = 0;
  std::string reason;
};

struct LocalScan {
  /// Complete members, described as a central directory would (central_offset 0, no Unix
  /// mode: a regular file unless the name ends in '/'), in file order.
  std::vector<ZipEntry> entries;
  std::vector<LostMember> lost;
};

struct LocalScanLimits {
  std::uint64_t max_entries = 1'000'000;  ///< headers looked at, complete or not
  std::uint64_t max_ratio = 10'000;       ///< for data decoded to find a data descriptor
};

/// The length of a data descriptor at `at` that agrees with (crc, compressed, uncompressed), in
/// any of its forms (signature or not, 4- or 8-byte sizes), or 0 when none does: where a
/// member written with flag bit 3 ends (verify, the scan, copying a member as stored).
std::uint64_t descriptor_at(const io::ByteSource& source, std::uint64_t at, std::uint32_t crc, std::uint64_t compressed,
                            std::uint64_t uncompressed);

/// Every local header in `source`, front to back.
LocalScan scan_local_headers(const io::ByteSource& source, const LocalScanLimits& limits = {});

}  // namespace zanj::zip
