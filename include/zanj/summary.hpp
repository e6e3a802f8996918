#pragma once
// What `info` reports about an archive, computed from the directory and the two JSON
// members only: no member data is read.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "zanj/json.hpp"
#include "zanj/archive.hpp"

namespace zanj {

struct ArraySummary {
  std::string path;
  std::string dtype;
  std::vector<std::uint64_t> shape;
  std::uint64_t bytes = 0;   ///< values' size: elements x itemsize (0 when the dtype is unknown)
  std::string storage;       ///< "inline" or "external"
  std::string member;
};

struct Summary {
  std::uint64_t members = 0, compressed_bytes = 0, uncompressed_bytes = 0;
  std::uint64_t externals = 0;   ///< reference nodes in __zanj__.json
  std::uint64_t arrays = 0, external_arrays = 0, inline_arrays = 0, tables = 0, external_lists = 0;
  std::uint64_t array_bytes = 0;
  std::vector<ArraySummary> largest_arrays;  ///< up to `largest` arrays, biggest first
  std::string root_type;                     ///< format key, or "dict", "list", ...
  std::uint64_t root_length = 0;             ///< keys or elements of the root
  std::optional<double> timestamp;           ///< meta "timestamp", when it is a date
  std::optional<std::string> invalid_timestamp;  ///< meta "timestamp" as JSON text, when it is no date
  std::string saved_at;                      ///< ISO 8601 UTC, from the timestamp or the member date
  std::string python, torch;                 ///< versions from sysinfo ("" when absent)
  std::optional<Json> zanj_cfg;              ///< without handler source code
  std::vector<std::string> handlers;         ///< names of serialization/load handlers
};

Summary summarize(const ZanjFile& file, std::size_t largest = 5);

/// Seconds since the epoch as "2026-11-20T12:34:56Z"; nullopt outside the years 1 to 9999
/// (NaN and infinities included).
std::optional<std::string> iso8601_utc(double seconds);

}  // namespace zanj
