#include "object/table_frame.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "zanj/error.hpp"

namespace zanj::object {
namespace {

/// A Python int as pandas converts it to float64 (correctly rounded; OverflowError beyond).
double integer_to_double(const Json& v) {
  switch (v.type()) {
    case Json::Type::integer:
      return static_cast<double>(v.as_int64());
    case Json::Type::unsigned_integer:
      return static_cast<double>(v.as_uint64());
    default:
      return std::strtod(v.as_big_integer().digits.c_str(), nullptr);  // correctly rounded
  }
}

}  // namespace

bool is_pandas_table(const Node& node) {
  return node.kind == NodeKind::table && node.format.rfind("pandas.DataFrame", 0) == 0;
}

std::string_view frame_dtype_name(FrameDtype dtype) {
  switch (dtype) {
    case FrameDtype::int64:
      return "int64";
    case FrameDtype::uint64:
      return "uint64";
    case FrameDtype::float64:
      return "float64";
    case FrameDtype::boolean:
      return "bool";
    case FrameDtype::object:
      return "object";
  }
  return "object";
}

std::vector<std::pair<std::string_view, const Json*>> frame_row_cells(const Json& row, std::uint64_t number) {
  if (!row.is_object())
    throw Error("table row " + std::to_string(number) + " is a JSON " + std::string(row.type_name()) +
                ", not an object: zanj does not model the frame pandas builds from it");
  std::vector<std::pair<std::string_view, const Json*>> cells;
  std::unordered_map<std::string_view, std::size_t> position;
  for (const auto& [key, value] : row.as_object()) {
    const auto [it, fresh] = position.emplace(key, cells.size());
    if (fresh)
      cells.emplace_back(key, &value);
    else
      cells[it->second].second = &value;  // a repeated key: the last value, the first place
  }
  return cells;
}

void FrameSchemaBuilder::add_row(const Json& row, std::uint64_t number) {
  ++rows_;
  for (const auto& [key, value] : frame_row_cells(row, number)) {
    auto it = index_.find(std::string(key));
    if (it == index_.end()) {
      it = index_.emplace(std::string(key), names_.size()).first;
      names_.emplace_back(key);
      seen_.emplace_back();
    }
    Seen& seen = seen_[it->second];
    ++seen.present;
    see(seen, *value, number, key);
  }
}

// pandas 1.5's maybe_convert_objects, for the values json.loads gives: it stops at the first
// value that makes the column object, and checks an int's range only before any None.
void FrameSchemaBuilder::see(Seen& s, const Json& cell, std::uint64_t number, std::string_view column) {
  if (s.object) return;
  switch (cell.type()) {
    case Json::Type::null:
      s.null = true;
      return;
    case Json::Type::boolean:
      s.boolean = true;
      return;
    case Json::Type::real:
      s.real = true;
      return;  // NaN too: a float, as pandas stores it
    case Json::Type::integer:
    case Json::Type::unsigned_integer:
    case Json::Type::big_integer: {
      s.integer = true;
      if (s.null) {  // pandas stores it as a float without checking its range
        if (std::isinf(integer_to_double(cell)))
          throw Error("table row " + std::to_string(number) + " column '" + std::string(column) +
                      "': an integer beyond a double after a null, which pandas fails to load (OverflowError)");
        return;
      }
      if (cell.type() == Json::Type::big_integer) {  // below int64 or above uint64
        s.object = true;
        return;
      }
      if (cell.type() == Json::Type::integer && cell.as_int64() < 0) s.sint = true;
      if (cell.type() == Json::Type::unsigned_integer &&
          cell.as_uint64() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        s.uint = true;
      if (s.uint && s.sint) s.object = true;
      return;
    }
    default:
      s.object = true;
      return;  // strings, lists, dicts
  }
}

std::vector<FrameColumn> FrameSchemaBuilder::result(const std::vector<std::string>& empty_columns) const {
  std::vector<FrameColumn> columns;
  if (rows_ == 0) {  // pandas.DataFrame(columns=...): every column of dtype object
    for (const auto& name : empty_columns) columns.push_back({name, FrameDtype::object});
    return columns;
  }
  for (std::size_t i = 0; i < names_.size(); ++i) {
    const Seen& s = seen_[i];
    const bool nan = s.nan || s.present < rows_;  // a row without the key holds NaN
    FrameDtype dtype = FrameDtype::object;
    if (s.object) {
      dtype = FrameDtype::object;
    } else if (s.null || nan) {
      // Missing values: floats when the rest are numbers (or a NaN was among them), else object.
      if (!s.boolean && (s.real || s.integer || nan)) dtype = FrameDtype::float64;
    } else if (s.boolean) {
      if (!s.real && !s.integer) dtype = FrameDtype::boolean;
    } else if (s.real) {
      dtype = FrameDtype::float64;
    } else if (s.integer) {
      dtype = s.uint ? FrameDtype::uint64 : FrameDtype::int64;
    }
    columns.push_back({names_[i], dtype});
  }
  return columns;
}

Json frame_cell(FrameDtype dtype, const Json* cell) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (dtype) {
    case FrameDtype::float64:
      if (!cell || cell->is_null()) return Json(nan);
      if (cell->type() == Json::Type::real) return *cell;
      return Json(integer_to_double(*cell));
    case FrameDtype::object:
      if (!cell) return Json(nan);
      return *cell;
    default:
      return cell ? *cell : Json(nan);  // int64, uint64 and bool columns have every key
  }
}

}  // namespace zanj::object
