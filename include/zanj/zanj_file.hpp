#pragma once
// A .zanj archive opened as ZANJ: the archive plus its two parsed JSON members.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/json.hpp"
#include "zanj/limits.hpp"

namespace zanj {

inline constexpr std::string_view kMainMember = "__zanj__.json";
inline constexpr std::string_view kMetaMember = "__zanj_meta__.json";

struct ZanjLimits {
  std::uint64_t max_json_bytes = reader_limits().max_json_bytes;  ///< --max-json-bytes
  JsonLimits json;  ///< max_values: --max-json-values
};

class ZanjFile {
 public:
  /// Opens the archive ("-" is standard input) and parses both JSON members. Throws Error
  /// when the archive or __zanj__.json is unusable. A missing or broken meta is not fatal
  /// here (`meta` stays empty and `problems` says why): what can be shown should still be shown.
  explicit ZanjFile(const std::string& path, const ZanjLimits& limits = {});
  explicit ZanjFile(Archive archive, const ZanjLimits& limits = {});

  Archive archive;
  Json root;
  std::optional<Json> meta;
  std::vector<std::string> problems;

  const std::string& name() const { return archive.name(); }
  /// JSON values held by root and meta together (at most limits.json.max_values: they share
  /// it). diff gives the second archive what the first left.
  std::uint64_t json_values = 0;
  /// Bytes of root and meta text together (they share --max-json-bytes likewise).
  std::uint64_t json_bytes = 0;
  /// Keeps json_values counted against what .jsonl lines read meanwhile may hold.
  HeldJsonValues held;

  /// Parse one JSON member of this archive (the meta, a .jsonl line is elsewhere); adds its
  /// value count to *values when given.
  Json read_json_member(const ZipEntry& entry, const ZanjLimits& limits = {}, std::uint64_t* values = nullptr) const;
};

/// The versions zanj reports for `--version`: zanj, the decompression libraries (zlib, bzip2,
/// liblzma, zstd), one per line.
std::string version_report();

}  // namespace zanj
