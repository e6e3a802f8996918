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
  // JSON and jsonl. Every command must stay under 128 MiB on any archive under 1 MB (which can
  // hold a JSON member of tens of MB), so these are memory budgets, measured (README, limits):
  // - a parsed value costs 40 bytes, 72 as an object member, plus its string's heap block;
  //   with the text it came from, the worst documents cost 65-110 bytes per value, so
  //   1,000,000 values peak near 115 MB;
  // - a string is held twice while parsed (text and value): 32 MiB of JSON text peaks near
  //   70 MB;
  // - the documents loaded at once share both budgets: __zanj_meta__.json gets what
  //   __zanj__.json left, diff's second archive what the first left, and a .jsonl line
  //   read meanwhile what the loaded trees left (diff's two streams half of it each).
  // A 26 MB __zanj__.json of 300,000 small dicts (1.8 million values) is refused by default;
  // --max-json-values 2000000 reads it at about 150 MB.
  std::uint64_t max_json_bytes = std::uint64_t{32} << 20;       ///< one JSON member: 32 MiB
  std::uint64_t max_json_values = 1'000'000;                    ///< elements + members + root, all documents held
  std::uint64_t max_jsonl_line_bytes = std::uint64_t{8} << 20;   ///< one .jsonl line: 8 MiB
  std::uint64_t max_jsonl_rows = 10'000'000;                    ///< lines of one .jsonl member
  std::uint32_t max_json_depth = 1024;
  std::uint32_t max_npy_header_bytes = 10000;
  /// Deflate cannot expand data more than about 1032:1; a member claiming more is lying.
  static constexpr std::uint64_t max_deflate_ratio = 1032;
  /// Most bytes any member may decode to per compressed byte, plus 1 MiB (bzip2, LZMA, xz,
  /// zstd; deflate stays at its physical 1032:1). Checked on the declared sizes before
  /// decoding and on the compressed bytes actually consumed while decoding. LZMA reaches about
  /// 7,000:1 on zeros; bzip2 far more on large runs, so a big honest bzip2 member of zeros may
  /// need a higher limit (the global --max-ratio).
  std::uint64_t max_ratio = 10'000;

  /// Take the limits that are global options (JSON, jsonl, ratio) from `other` and keep the rest.
  void take_global_limits(const ResourceLimits& other) {
    max_ratio = other.max_ratio;
    max_json_bytes = other.max_json_bytes;
    max_json_values = other.max_json_values;
    max_jsonl_line_bytes = other.max_jsonl_line_bytes;
    max_jsonl_rows = other.max_jsonl_rows;
  }
};

/// The limits a reader applies when its caller passes none (ZanjFile, jsonl rows, JSON values
/// of a line). main sets them once from the global --max-json-* options before any command
/// runs and nothing changes them after, so threads read them freely.
ResourceLimits& reader_limits();

}  // namespace zanj
