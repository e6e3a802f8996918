#pragma once
// The first bytes of a member, decoded from the start and no further: `cat`, `diff` and `stats`
// read one .npy header per array, so reading a 128-byte header must not cost a whole member.
// One decoding path for everything (member_decoder.hpp); this is its prefix mode.
#include <cstddef>
#include <optional>
#include <string>

#include "io/byte_source.hpp"
#include "zip/zip_directory.hpp"

namespace zanj::zip {

/// Up to `n` bytes from the start of `entry`'s data (fewer when the member is shorter). Reads
/// little more compressed data than those bytes need. Throws MemberDataError (undecodable)
/// for a corrupt stream, an encrypted member or an unknown method, and Error when the local
/// header is unreadable or disagrees with the entry; `archive_name` prefixes messages.
/// (Optional for older callers; it always holds the bytes.)
std::optional<std::string> read_member_prefix(const io::ByteSource& source, const ZipEntry& entry, std::size_t n,
                                              const std::string& archive_name);

}  // namespace zanj::zip
