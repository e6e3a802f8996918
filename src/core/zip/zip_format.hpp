#pragma once
// The constants of the ZIP record layouts (PKWARE APPNOTE 4.3-4.5), defined once for the
// reader (zip_directory), the writer (zip_writer), the member decoder and verify's structure
// checks. The test fixtures that build archives byte by byte keep their own literals on
// purpose: they check these values rather than repeat them.
#include <cstdint>

namespace zanj::zip {

// Record signatures ("PK" and two bytes, read little-endian).
inline constexpr std::uint32_t kLocalSig = 0x04034b50;         ///< local file header
inline constexpr std::uint32_t kCentralSig = 0x02014b50;       ///< central directory header
inline constexpr std::uint32_t kEndSig = 0x06054b50;           ///< end of central directory
inline constexpr std::uint32_t kZip64EndSig = 0x06064b50;      ///< Zip64 end of central directory
inline constexpr std::uint32_t kZip64LocatorSig = 0x07064b50;  ///< Zip64 end locator
inline constexpr std::uint32_t kDescriptorSig = 0x08074b50;    ///< optional data descriptor signature

// Fixed sizes of the records, before their variable-length fields.
inline constexpr std::uint64_t kLocalSize = 30, kCentralSize = 46, kEndSize = 22;
inline constexpr std::uint64_t kLocatorSize = 20, kZip64EndSize = 56;

/// The largest archive comment (its length is a 16-bit field).
inline constexpr std::uint64_t kMaxComment = 0xFFFF;
/// The header id of the Zip64 extended information block in an extra field.
inline constexpr std::uint16_t kZip64ExtraId = 0x0001;
/// A 16- or 32-bit field at its maximum means "see the Zip64 record".
inline constexpr std::uint64_t kMax16 = 0xFFFF, kMax32 = 0xFFFFFFFF;

// General-purpose flag bits.
inline constexpr std::uint16_t kFlagEncrypted = 0x0001;
inline constexpr std::uint16_t kFlagDescriptor = 0x0008;  ///< CRC-32 and sizes follow the data
inline constexpr std::uint16_t kFlagStrongEncryption = 0x0040;
inline constexpr std::uint16_t kFlagUtf8 = 0x0800;  ///< the name is UTF-8

}  // namespace zanj::zip
