#pragma once
// ZanjFile's private state: the parsed documents (zanj/archive.hpp hands them out as views).
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
  JsonDocument root;
  std::optional<JsonDocument> meta;
  std::vector<std::string> problems;
  /// JSON values held by root and meta together (at most the limit's: they share it).
  std::uint64_t json_values = 0;
  /// Bytes of root and meta text together (they share --max-json-bytes likewise).
  std::uint64_t json_bytes = 0;
};

}  // namespace zanj
