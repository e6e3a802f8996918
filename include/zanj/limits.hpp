#pragma once
// Resource limits shared by every command that reads member data (verify, extract, cat, pack
// from npz): what a hostile archive may make us spend. Defaults are generous for real models
// and datasets; flags can raise them.
#include <cstdint>

namespace zanj {

struct ResourceLimits {
  std::uint64_t max_total_bytes = std::uint64_t{1} << 40;   ///< sum of declared sizes: 1 TiB
  std::uint64_t max_member_bytes = std::uint64_t{1} << 40;  ///< any one member: 1 TiB
  std::uint64_t max_entries = 1'000'000;                    ///< ZIP members
  std::uint64_t max_json_bytes = std::uint64_t{4} << 30;    ///< one JSON member (simdjson's ceiling)
  std::uint64_t max_jsonl_line_bytes = std::uint64_t{1} << 30;
  std::uint32_t max_json_depth = 1024;
  std::uint32_t max_npy_header_bytes = 10000;
  /// Deflate cannot expand data more than about 1032:1; a member claiming more is lying.
  static constexpr std::uint64_t max_deflate_ratio = 1032;
  /// Most bytes any member may decode to per compressed byte, plus 1 MiB (bzip2, LZMA, xz,
  /// zstd; deflate stays at its physical 1032:1). Checked on the declared sizes before
  /// decoding and on the compressed bytes actually consumed while decoding. LZMA reaches about
  /// 7,000:1 on zeros; bzip2 far more on large runs, so a big honest bzip2 member of zeros may
  /// need a higher limit (verify --max-ratio).
  std::uint64_t max_ratio = 10'000;
};

}  // namespace zanj
