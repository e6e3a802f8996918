#pragma once
// Resource limits shared by every command that reads member data (verify, extract, cat, pack
// from npz): what a hostile archive may make us spend. Defaults are generous for real models
// and datasets; flags can raise them. An archive keeps the limits it was opened with
// (OpenOptions in archive.hpp): there is no process-wide setting.
#include <cstdint>

namespace zanj {

struct ResourceLimits {
  std::uint64_t max_total_bytes = std::uint64_t{1} << 40;  ///< sum of declared sizes: 1 TiB
  /// Any one member, as declared: the most work (bytes decoded) a member may ask for, whatever
  /// its ratio. A lying archive of a few bytes may claim this much; the data then ends early
  /// (verify: size_mismatch) or runs past it (size_lie), but no more is ever decoded.
  std::uint64_t max_member_bytes = std::uint64_t{256} << 30;  ///< --max-member-bytes: 256 GiB
  std::uint64_t max_entries = 1'000'000;                      ///< ZIP members
  // JSON and jsonl: memory bounds with room for real archives (zanj(1), "JSON AS PYTHON READS
  // IT"). What a document costs (json/json_document.hpp): 20 bytes per
  // value (a 16-byte node and its entry in its container's list) and 4 more per object member
  // (its key's entry; 16 more for a key not met lately), plus the text while it is parsed; a list
  // of 16 or more numbers is its text, one value to the limit. Measured with the text: 23-25
  // bytes per value for lists of strings or empty lists, about 60 for the worst, objects of tiny
  // repeated members ({"a":0,"a":0,...}). The documents loaded at once share both budgets:
  // __zanj_meta__.json gets what __zanj__.json left, diff's second archive what the first left,
  // and a .jsonl line read meanwhile what the loaded trees left (diff's two streams half of it
  // each). With 2,000,000 values and 32 MiB every command stays under 128 MiB on any archive
  // under 1 MB (tests/e2e/test_memory_bounds.py): the limits to set where archives come from
  // strangers. The defaults read real archives, a 40 MB __zanj__.json included, in memory that
  // follows their content.
  std::uint64_t max_json_bytes = std::uint64_t{1} << 30;        ///< one JSON member: 1 GiB
  std::uint64_t max_json_values = 100'000'000;                  ///< elements + members + root, all documents held
  std::uint64_t max_jsonl_line_bytes = std::uint64_t{8} << 20;  ///< one .jsonl line: 8 MiB
  std::uint64_t max_jsonl_rows = 10'000'000;                    ///< lines of one .jsonl member
  std::uint32_t max_json_depth = 1024;
  std::uint32_t max_npy_header_bytes = 10000;
  /// Deflate cannot expand data more than about 1032:1; a member claiming more is lying.
  static constexpr std::uint64_t max_deflate_ratio = 1032;
  /// A ratio is not a refusal: bzip2 and zstd reach millions to one on zeros or whitespace, and
  /// such members are truthful (a model saved with zero-initialized weights). What a member
  /// may cost is bounded by its declared size (never decoded past it) and max_member_bytes.
  /// Over this many bytes per compressed byte, plus 1 MiB, verify warns (high_ratio); the
  /// local-header scan of salvage, which has no trustworthy size, stops decoding there.
  /// Deflate is always held to its physical 1032:1 (a claim over it is a lie: ratio_lie).
  std::uint64_t max_ratio = 10'000;

  /// Take the limits that are the command line's global options (JSON, jsonl, ratio, member
  /// size) from `other` and keep the rest.
  void take_global_limits(const ResourceLimits& other) {
    max_ratio = other.max_ratio;
    max_member_bytes = other.max_member_bytes;
    max_json_bytes = other.max_json_bytes;
    max_json_values = other.max_json_values;
    max_jsonl_line_bytes = other.max_jsonl_line_bytes;
    max_jsonl_rows = other.max_jsonl_rows;
  }
};

}  // namespace zanj
