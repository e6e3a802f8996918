#pragma once
// The rows of a table (a DataFrame's .jsonl member, one object per row) or the elements of an
// external list or tuple (one JSON value per line), streamed: only the selected lines are
// parsed, and reading stops after the last one.
#include <cstdint>
#include <optional>
#include <string_view>

#include "zanj/archive.hpp"
#include "zanj/output_buffer.hpp"
#include "zanj/slice.hpp"
#include "zanj/tree.hpp"

namespace zanj {

enum class RowFormat {
  jsonl,  ///< one JSON value per line (the default)
  json,   ///< one JSON array of the rows (a single index: that row alone)
  csv,    ///< tables only: a header from "columns", then one line per row (RFC 4180 quoting)
};

struct RowRequest {
  SliceSpec slice;                     ///< one index or range over the rows; empty: all
  std::optional<std::uint64_t> head;   ///< then only the first N
  std::optional<std::uint64_t> tail;   ///< then only the last N
};

/// Print the selected rows of a table or external-list node (`path` names it in messages).
/// A negative index, bound or step, or --tail, needs the row count: the member is read once
/// more to count its lines (the count in the node is not trusted). A negative step collects
/// the rows in a temporary file and prints them backwards. Throws Error (usage) for a slice
/// with more than one index or csv of a list; Error (invalid) for a missing member, a line
/// that is not JSON, or a table row that is not an object.
void print_rows(const Archive& archive, const Node& node, std::string_view path, const RowRequest& request,
                RowFormat format, OutputBuffer& out);

/// Every row as one JSON array, no newline (what --resolve puts in "data").
void write_rows_json(const Archive& archive, const Node& node, std::string_view path, OutputBuffer& out);

}  // namespace zanj
