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
  /// What parsing each noticed (a byte-order mark, repeated keys): verify_zanj_file reports it
  /// as verify's own reading would.
  json::JsonParseNotes root_notes, meta_notes;
};

}  // namespace zanj

namespace zanj::object {

/// Whether __zanj__.json and __zanj_meta__.json are parsed on two threads at once (ZanjFile, and
/// verify's own reading): on a many-member archive the two are about the same size (the meta's
/// externals_info lists every member) and together most of `info` and `verify`. Only when both
/// are over 1 MiB and no limit can be reached, so that the outcome, messages included, is the
/// serial reading's: their sizes fit max_json_bytes together, and a document of n bytes holds at
/// most n / 2 + 1 values (each but the last takes a byte and a separator).
bool json_members_side_by_side(const ZipEntry& main, const ZipEntry& meta, std::uint64_t max_json_bytes,
                               std::uint64_t max_json_values);

}  // namespace zanj::object
