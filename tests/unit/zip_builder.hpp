#pragma once
// A tiny ZIP writer for tests: stored members only, with optional Zip64
// extras and Zip64 end records, so the directory parser can be fed exact,
// known layouts (and then deliberately broken ones, by patching bytes).
#include <cstdint>
#include <string>
#include <vector>

namespace zanj::test {

inline std::uint32_t crc32_of(const std::string& data) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char byte : data) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

/// Append `value` as `width` little-endian bytes.
inline void put(std::string& out, std::uint64_t value, int width) {
  for (int i = 0; i < width; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

/// Overwrite `width` little-endian bytes at `offset` (to break a built archive).
inline void patch(std::string& bytes, std::uint64_t offset, std::uint64_t value, int width) {
  for (int i = 0; i < width; ++i) bytes[offset + i] = static_cast<char>((value >> (8 * i)) & 0xFF);
}

/// An end of central directory record without its comment length (the caller appends it and
/// the comment), for hiding a second record inside a real one's comment: `entries` entries
/// in `cd_size` bytes at `cd_offset`.
inline std::string end_record_head(std::uint64_t entries, std::uint64_t cd_size, std::uint64_t cd_offset) {
  std::string out;
  put(out, 0x06054b50, 4);
  put(out, 0, 4);  // disk numbers
  put(out, entries, 2);
  put(out, entries, 2);
  put(out, cd_size, 4);
  put(out, cd_offset, 4);
  return out;
}

struct TestMember {
  std::string name;
  std::string data;
  bool zip64_local = false;    ///< Zip64 extra with both sizes on the local header (like Python's force_zip64)
  bool zip64_central = false;  ///< central sizes/offset set to 0xFFFFFFFF, real values in a Zip64 extra
  std::uint16_t dos_time = 0, dos_date = 0x21;  // 1980-01-01 00:00:00
  std::uint16_t version_made_by = 0x0314;       // Unix, 2.0
  std::uint32_t external_attributes = 0100644u << 16;
};

struct ZipOptions {
  std::string comment;
  bool zip64_end = false;    ///< write a Zip64 end record and locator
  bool sentinel_end = true;  ///< with zip64_end: 32-bit end fields set to 0xFFFF/0xFFFFFFFF
};

struct BuiltZip {
  std::string bytes;
  std::vector<std::uint64_t> local_offsets, central_offsets;
  std::uint64_t cd_offset = 0, cd_size = 0, zip64_end_offset = 0, end_offset = 0;
};

inline BuiltZip build_zip(const std::vector<TestMember>& members, const ZipOptions& options = {}) {
  BuiltZip zip;
  std::string& out = zip.bytes;
  for (const TestMember& m : members) {
    zip.local_offsets.push_back(out.size());
    put(out, 0x04034b50, 4);
    put(out, 20, 2);
    put(out, 0, 2);  // flags
    put(out, 0, 2);  // stored
    put(out, m.dos_time, 2);
    put(out, m.dos_date, 2);
    put(out, crc32_of(m.data), 4);
    put(out, m.data.size(), 4);
    put(out, m.data.size(), 4);
    put(out, m.name.size(), 2);
    put(out, m.zip64_local ? 20 : 0, 2);
    out += m.name;
    if (m.zip64_local) {
      put(out, 1, 2);
      put(out, 16, 2);
      put(out, m.data.size(), 8);
      put(out, m.data.size(), 8);
    }
    out += m.data;
  }
  zip.cd_offset = out.size();
  for (std::size_t i = 0; i < members.size(); ++i) {
    const TestMember& m = members[i];
    const std::uint64_t wide = 0xFFFFFFFFu;
    zip.central_offsets.push_back(out.size());
    put(out, 0x02014b50, 4);
    put(out, m.version_made_by, 2);
    put(out, m.zip64_central ? 45 : 20, 2);
    put(out, 0, 2);
    put(out, 0, 2);
    put(out, m.dos_time, 2);
    put(out, m.dos_date, 2);
    put(out, crc32_of(m.data), 4);
    put(out, m.zip64_central ? wide : m.data.size(), 4);
    put(out, m.zip64_central ? wide : m.data.size(), 4);
    put(out, m.name.size(), 2);
    put(out, m.zip64_central ? 28 : 0, 2);
    put(out, 0, 2);  // comment length
    put(out, 0, 2);  // disk start
    put(out, 0, 2);  // internal attributes
    put(out, m.external_attributes, 4);
    put(out, m.zip64_central ? wide : zip.local_offsets[i], 4);
    out += m.name;
    if (m.zip64_central) {  // uncompressed, compressed, local offset: APPNOTE order
      put(out, 1, 2);
      put(out, 24, 2);
      put(out, m.data.size(), 8);
      put(out, m.data.size(), 8);
      put(out, zip.local_offsets[i], 8);
    }
  }
  zip.cd_size = out.size() - zip.cd_offset;
  const bool sentinel = options.zip64_end && options.sentinel_end;
  if (options.zip64_end) {
    zip.zip64_end_offset = out.size();
    put(out, 0x06064b50, 4);
    put(out, 44, 8);
    put(out, 0x032d, 2);
    put(out, 45, 2);
    put(out, 0, 4);
    put(out, 0, 4);
    put(out, members.size(), 8);
    put(out, members.size(), 8);
    put(out, zip.cd_size, 8);
    put(out, zip.cd_offset, 8);
    put(out, 0x07064b50, 4);
    put(out, 0, 4);
    put(out, zip.zip64_end_offset, 8);
    put(out, 1, 4);
  }
  zip.end_offset = out.size();
  out += end_record_head(sentinel ? 0xFFFF : members.size(), sentinel ? 0xFFFFFFFFu : zip.cd_size,
                         sentinel ? 0xFFFFFFFFu : zip.cd_offset);
  put(out, options.comment.size(), 2);
  out += options.comment;
  return zip;
}

}  // namespace zanj::test
