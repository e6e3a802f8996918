#pragma once
// The first bytes of a stored or deflated member, decoded here rather than by libarchive.
// libarchive's ZIP reader inflates a whole 256 KiB block before handing over any of it, so
// reading a 128-byte .npy header that way costs as much as a 256 KiB member; `cat`, `diff`
// and `stats` read one header per array. Used by Archive::read_prefix, which falls back to
// libarchive for every other method and for encrypted members.
#include <cstddef>
#include <optional>
#include <string>

#include "zanj/byte_source.hpp"
#include "zanj/zip_directory.hpp"

namespace zanj {

/// Up to `n` bytes from the start of `entry`'s data (fewer when the member is shorter), or
/// nullopt when the member is neither stored nor deflated, or is encrypted. Reads at most the
/// member's compressed bytes. Throws MemberDataError (undecodable) for a corrupt deflate
/// stream and Error when the local header is unreadable; `archive_name` prefixes messages.
std::optional<std::string> read_member_prefix(const ByteSource& source, const ZipEntry& entry, std::size_t n,
                                              const std::string& archive_name);

}  // namespace zanj
