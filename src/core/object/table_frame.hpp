#pragma once
// A pandas table as the reference loader returns it. ZANJ loads a "pandas.DataFrame:external"
// node as pandas.DataFrame(rows), rows being the .jsonl member's lines (json.loads each), or
// as pandas.DataFrame(columns=node["columns"]) when there are none. The frame's columns are
// the row keys by first appearance (the `columns` field is not read), and each column's dtype
// is what pandas infers from its cells (pandas' lib.maybe_convert_objects, pandas 1.5): a key
// missing from a row is a float NaN there, null is None. `zanj hash` digests this frame, and
// `zanj diff` compares it, so that equal frames hash equal and different frames differ.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "zanj/json.hpp"
#include "zanj/tree.hpp"

namespace zanj::object {

/// A table node the reference loads with pandas (its format starts with "pandas.DataFrame",
/// the loader's test); polars tables are digested as their rows (docs/hash.md).
bool is_pandas_table(const Node& node);

/// The dtypes pandas gives a column built from JSON values.
enum class FrameDtype { int64, uint64, float64, boolean, object };
std::string_view frame_dtype_name(FrameDtype dtype);

struct FrameColumn {
  std::string name;
  FrameDtype dtype = FrameDtype::object;
  bool operator==(const FrameColumn&) const = default;
};

/// A row's cells as Python's dict holds them: each key once, at its first position, with its
/// last value (json.loads). Throws Error when the row is not a JSON object: pandas builds
/// other frames from lists and scalars, which zanj does not model, so it refuses them.
std::vector<std::pair<std::string_view, const Json*>> frame_row_cells(const Json& row, std::uint64_t number);

/// The columns of the frame, learnt from the rows one at a time (a first pass over the member).
class FrameSchemaBuilder {
 public:
  /// Row `number` (1-based, for messages).
  void add_row(const Json& row, std::uint64_t number);
  /// The columns in the frame's order with their dtypes. `empty_columns`: the node's
  /// `columns`, the frame's columns when there was no row (each of dtype object).
  std::vector<FrameColumn> result(const std::vector<std::string>& empty_columns) const;

 private:
  /// What pandas has seen in a column (the flags of its Seen class).
  struct Seen {
    bool null = false, nan = false, boolean = false, real = false, integer = false, uint = false, sint = false,
         object = false;
    std::uint64_t present = 0;  ///< rows that hold the key; the others are NaN
  };
  void see(Seen& seen, const Json& cell, std::uint64_t number, std::string_view column);

  std::vector<std::string> names_;
  std::vector<Seen> seen_;
  std::unordered_map<std::string, std::size_t> index_;
  std::uint64_t rows_ = 0;
};

/// A cell's value as the frame holds it, in a column of `dtype`, for digests and comparison:
/// nullptr is a missing key. Ints of a float64 column become doubles, null and a missing key
/// NaN; an object column keeps the JSON value, and a missing key is NaN there (null stays
/// null). Returns the value to compare or hash (a real, an integer, a bool or any JSON value).
Json frame_cell(FrameDtype dtype, const Json* cell);

}  // namespace zanj::object
