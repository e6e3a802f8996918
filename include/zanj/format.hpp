#pragma once
// Printing what an archive holds, streamed: array values (numpy-like text, JSON nested lists,
// CSV, a .npy stream, raw bytes), the rows of tables and external lists (JSON lines, JSON,
// CSV), and subtrees with their external data filled in (--resolve). Everything goes into an
// OutputBuffer one chunk at a time, so printing a multi-gigabyte array takes a few MiB.
// Also THE escape for text from an archive on its way to a terminal.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/array.hpp"
#include "zanj/json.hpp"
#include "zanj/tree.hpp"

namespace zanj {

/// Where formatted values go: one large string that is handed to a writer (stdout in the CLI)
/// whenever it fills. Formatters append to text() in their value loops and call
/// flush_if_full() as they go, so output streams out in large writes while memory stays at
/// about one buffer whatever the array size.
class OutputBuffer {
 public:
  using Writer = std::function<void(std::string_view)>;
  static constexpr std::size_t kDefaultCapacity = std::size_t{1} << 20;

  explicit OutputBuffer(Writer writer, std::size_t capacity = kDefaultCapacity)
      : writer_(std::move(writer)), capacity_(capacity) {
    text_.reserve(capacity_ + capacity_ / 8);
  }

  /// Append here.
  std::string& text() { return text_; }
  void flush_if_full() {
    if (text_.size() >= capacity_) flush();
  }
  /// Hand everything buffered to the writer.
  void flush() {
    if (text_.empty()) return;
    writer_(text_);
    text_.clear();
  }
  /// Append raw bytes, flushing as needed (large blocks go straight through).
  void write(std::string_view bytes) {
    if (text_.size() + bytes.size() <= capacity_) {
      text_.append(bytes);
      return;
    }
    flush();
    if (bytes.size() >= capacity_) {
      writer_(bytes);
    } else {
      text_.append(bytes);
    }
  }

 private:
  Writer writer_;
  std::size_t capacity_;
  std::string text_;
};

/// Text from an archive (keys, member names, format and dtype strings, error messages) made
/// safe for a terminal: every byte of a C0 control, DEL, a C1 control (U+0080-U+009F, which
/// terminals read as CSI and friends) or an invalid UTF-8 sequence (including WTF-8
/// surrogates) becomes \xNN; everything else passes unchanged. The result is valid UTF-8 on
/// one line, and escaping it again changes nothing.
std::string terminal_safe(std::string_view text);

enum class ValueFormat { text, json, csv, npy, raw };

struct ArrayPrintOptions {
  ValueFormat format = ValueFormat::text;
  bool full = false;                       ///< text: never summarize
  std::uint64_t summary_threshold = 1000;  ///< text: summarize arrays with more elements (numpy's)
  std::uint64_t edge_items = 3;            ///< text: elements kept at each end of a summarized axis
  std::size_t line_width = 75;             ///< text: wrap rows longer than this
};

/// Print the selected values of an array in options.format. text, json and csv end with a
/// newline; npy is a complete .npy stream of the selection (C order, little-endian); raw is
/// the values' bytes only. csv takes 0-, 1- and 2-D selections (Error, usage, otherwise).
void print_array(const ArrayValues& values, const Selection& selection, const ArrayPrintOptions& options,
                 OutputBuffer& out);

/// Most empty innermost lists a zero-size array prints as JSON: numpy's tolist() of shape
/// (3, 0) is [[], [], []], so a shape (10**18, 0) would print without end.
constexpr std::uint64_t kMaxEmptyLists = std::uint64_t{1} << 20;

/// The selected values as JSON: nested lists (a 0-d selection is a scalar), bool as
/// true/false, complex as [re, im], floats in the shortest form that reads back at the
/// array's own precision, NaN / Infinity / -Infinity as Python writes them. No newline.
/// A zero-size selection prints as numpy's tolist(): the axes before the first 0 as nested
/// lists of empty lists, in time bounded by kMaxEmptyLists; Error (invalid) when that many
/// empty lists would not do.
void write_array_json(const ArrayValues& values, const Selection& selection, OutputBuffer& out);

/// Throws Error (invalid) when a selection of `shape` is zero-size and would print as more
/// than kMaxEmptyLists empty lists in JSON (write_array_json then refuses it too).
void check_json_printable(const std::vector<std::uint64_t>& shape);

enum class RowFormat {
  jsonl,  ///< one JSON value per line (the default)
  json,   ///< one JSON array of the rows (a single index: that row alone)
  csv,    ///< tables only: a header from "columns", then one line per row (RFC 4180 quoting)
};

struct RowRequest {
  SliceSpec slice;                    ///< one index or range over the rows; empty: all
  std::optional<std::uint64_t> head;  ///< then only the first N
  std::optional<std::uint64_t> tail;  ///< then only the last N
};

/// Print the selected rows of a table or external-list node (`path` names it in messages).
/// A negative index, bound or step, or --tail, needs the row count: the member is read once
/// more to count its lines (the count in the node is not trusted). A negative step collects
/// the rows in a temporary file and prints them backwards. Throws Error (usage) for a slice
/// with more than one index or csv of a list; Error (invalid) for a missing member, a line
/// that is not JSON, or a table row that is not an object.
void print_rows(const Archive& archive, const Node& node, std::string_view path, const RowRequest& request,
                RowFormat format, OutputBuffer& out);

/// Print the selected elements of an inline list (a JSON array in __zanj__.json) the way
/// print_rows prints an external list's: the same slices, --head and --tail, jsonl or json.
/// Throws Error (usage) for a slice with more than one index, an index out of range, or csv.
void print_list_elements(JsonView list, std::string_view where, const RowRequest& request, RowFormat format,
                         OutputBuffer& out);

/// Every row as one JSON array, no newline (what --resolve puts in "data"). `write_row`, when
/// given, writes each row (--resolve fills in the arrays that rows refer to); else each is
/// written as stored.
void write_rows_json(const Archive& archive, const Node& node, std::string_view path, OutputBuffer& out,
                     const std::function<void(std::uint64_t index, const Json& row)>& write_row = {});

/// Every column of a table as one JSON object of lists, {"COLUMN": [values, ...], ...} in the
/// table's column order (a row without the column gives null), no newline. The member is read
/// once per column, so memory stays bounded whatever the table's size.
void write_table_columns_json(const Archive& archive, const Node& node, std::string_view path, OutputBuffer& out);

struct ResolveOptions {
  int indent = 0;  ///< 0: one line, like Python's json.dumps; else that many spaces per level
  ArrayReadOptions arrays;
  /// `cat --plain`: no library wrappers. Every array, inline or external, is its values as
  /// nested lists (numpy's tolist()); every table a list of row objects (pandas'
  /// to_dict("records")), or with table_columns an object of column lists; every external
  /// list or tuple a list; and every other wrapped node (a dataclass, a model) its keys
  /// without the format key.
  bool plain = false;
  bool table_columns = false;
};

/// Write `node`, found at `segments` of file.root(), resolved, without a final newline. Throws
/// Error when a referenced member is missing or corrupt (after what was written so far).
void write_resolved(const ZanjFile& file, JsonView node, const PathSegments& segments, const ResolveOptions& options,
                    OutputBuffer& out);

}  // namespace zanj
