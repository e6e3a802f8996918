#pragma once
// CRC-32 (ZIP's, zlib's polynomial) of member data. libdeflate's is the one used: it folds with
// carry-less multiplication where the CPU has it, two to three times the speed of zlib 1.2's
// table-driven crc32_z, which was 3.6% of `info` on a 20 MB JSON member and runs over every
// byte verify, extract and hash decode.
#include <libdeflate.h>

#include <cstddef>
#include <cstdint>

namespace zanj::zip {

/// `crc` (0 to start) extended by data[0, n).
inline std::uint32_t crc32_update(std::uint32_t crc, const void* data, std::size_t n) {
  return libdeflate_crc32(crc, data, n);
}

}  // namespace zanj::zip
