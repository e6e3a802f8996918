#pragma once
// ZanjFile's private state: the parsed documents (zanj/archive.hpp hands them out as views),
// and how core code that works on the Json trees reaches them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/private_access.hpp"
#include "json/json_parse.hpp"
#include "zanj/archive.hpp"
#include "zanj/json.hpp"

namespace zanj {

struct ZanjFile::Impl {
  Archive archive;
  Json root;
  std::optional<Json> meta;
  std::vector<std::string> problems;
  /// JSON values held by root and meta together (at most the limit's: they share it).
  std::uint64_t json_values = 0;
  /// Bytes of root and meta text together (they share --max-json-bytes likewise).
  std::uint64_t json_bytes = 0;
  /// Keeps json_values counted against what .jsonl lines read meanwhile may hold.
  HeldJsonValues held;
};

/// __zanj__.json's parsed tree.
inline const Json& root_json(const ZanjFile& file) { return PrivateAccess::impl(file).root; }
/// __zanj_meta__.json's parsed tree, or nullptr when it is missing or broken.
inline const Json* meta_json(const ZanjFile& file) {
  const auto& meta = PrivateAccess::impl(file).meta;
  return meta ? &*meta : nullptr;
}

}  // namespace zanj
