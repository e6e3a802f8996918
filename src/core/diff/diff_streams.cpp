// Lists and tables compared item by item. External ones are .jsonl members streamed from both
// archives at once (each read ahead on its own thread through a ChunkPuller), so memory holds
// a line or two plus the read-ahead, whatever the member sizes. A JSON list in __zanj__.json
// and an external list of the same items are equal: storage is not a difference.
#include <limits>
#include <memory>
#include <unordered_map>

#include "diff/diff_walker.hpp"
#include "io/chunk_puller.hpp"
#include "zanj/error.hpp"
#include "array/member_reader.hpp"
#include "object/table_frame.hpp"
#include "object/tree_json.hpp"
#include "json/json_parse.hpp"
#include "json/json_view_access.hpp"
#include "zip/member_name.hpp"

namespace zanj::diff::detail {
namespace {

/// What a line of each of the two streams may hold: both archives' documents stay loaded and
/// each stream holds a line, so each gets half of what the documents left of the limit.
std::uint64_t stream_line_values(const ZanjFile& a, const ZanjFile& b) {
  const std::uint64_t limit = std::min(a.archive().limits().max_json_values, b.archive().limits().max_json_values);
  const std::uint64_t held = a.json_values() + b.json_values();
  return held < limit ? (limit - held) / 2 : 0;
}

/// The items of a list (or the rows of a table) one at a time: from __zanj__.json, or parsed
/// line by line from the node's .jsonl member, each line holding at most `line_values` values.
class ItemSource {
 public:
  ItemSource(const ZanjFile& file, const Node& node, const std::string& path, std::size_t queue_bytes,
             std::uint64_t line_values)
      : file_(file), line_limits_{file.archive().limits().max_json_depth, line_values} {
    if (node.table && node.table->inline_rows) {  // a table an old release wrote inline
      inline_ = node.table->inline_rows;
      return;
    }
    if (!node.is_reference()) {
      if (!node.json.is_array())
        throw Error(InArchive{file.name()},
                    std::string(kind_name(node.kind)) + " at '" + path + "' has no " + std::string(kRefKey));
      inline_ = node.json;
      return;
    }
    const ZipEntry* entry = file.archive().find(node.member());
    if (!entry)
      throw Error(InArchive{file.name()}, InMember{node.member(), true},
                  "member '" + zip::printable_name(node.member()) + "' referenced at '" + path + "' is missing");
    member_ = zip::printable_name(node.member());  // as messages name it
    puller_ = std::make_unique<io::ChunkPuller>(
        [&archive = file.archive(), entry](const io::ChunkPuller::Sink& sink) {
          array::for_each_jsonl_line(archive, *entry, [&](std::uint64_t, std::string_view line) { return sink(line); });
        },
        queue_bytes);
  }

  /// The next item, valid until the following call; nullptr at the end.
  const Json* next() {
    if (inline_) {  // one item at a time, as the lines of a member come
      if (position_ >= inline_.size()) return nullptr;
      current_ = inline_[position_++].copy();
      return &current_;
    }
    if (!puller_->next(line_)) return nullptr;
    ++position_;
    try {
      current_ = json::parse_json(line_, member_ + " line " + std::to_string(position_), line_limits_);
    } catch (const Error& e) {  // context: the archive joins the error
      throw e.in_archive(file_.name());
    }
    return &current_;
  }

  /// Items left (read to the end to count them).
  std::uint64_t count_rest() {
    std::uint64_t n = 0;
    if (inline_) {
      n = inline_.size() - position_;
      position_ = inline_.size();
      return n;
    }
    while (puller_->next(line_)) ++n;
    return n;
  }

 private:
  const ZanjFile& file_;
  json::JsonLimits line_limits_;
  JsonView inline_;  ///< the list in __zanj__.json, or invalid for a member's lines
  std::size_t position_ = 0;
  std::string member_;
  std::unique_ptr<io::ChunkPuller> puller_;
  std::string line_;
  Json current_;
};

ValueDifferences summarize(const array::DeltaTracker& t, std::string unit, std::uint64_t compared,
                           std::uint64_t differing, std::string first,
                           const std::function<Json(array::Position)>& where) {
  ValueDifferences v;
  v.unit = std::move(unit);
  v.compared = compared;
  v.differing = differing;
  v.first = std::move(first);
  v.first_at = t.first_difference() ? where(*t.first_difference()) : Json(nullptr);
  v.max_abs = t.max_abs();
  v.max_rel = t.max_rel();
  v.max_abs_at = where(t.max_abs_at());
  v.max_rel_at = where(t.max_rel_at());
  v.max_abs_differs = t.max_abs_differs();
  v.max_rel_differs = t.max_rel_differs();
  v.tolerance = t.tolerance();
  return v;
}

constexpr std::uint32_t kWholeRow = std::numeric_limits<std::uint32_t>::max();

/// A table's columns by first appearance, with each one's exclusion and tolerance decided once.
class Columns {
 public:
  Columns(const DiffOptions& options, const std::string& table) : options_(options), table_(table) {}
  std::uint32_t ordinal(const std::string& name) {
    const auto it = ordinals_.find(name);
    if (it != ordinals_.end()) return it->second;
    const auto n = static_cast<std::uint32_t>(names_.size());
    const std::string path = child_path(table_, name);
    names_.push_back(name);
    excluded_.push_back(is_excluded(options_, path));
    tolerance_.push_back(tolerance_for(options_, path));
    ordinals_.emplace(name, n);
    return n;
  }
  const std::string& name(std::uint32_t n) const { return names_[n]; }
  bool excluded(std::uint32_t n) const { return excluded_[n]; }
  const Tolerance& tolerance(std::uint32_t n) const { return tolerance_[n]; }

 private:
  const DiffOptions& options_;
  const std::string& table_;
  std::vector<std::string> names_;
  std::vector<bool> excluded_;
  std::vector<Tolerance> tolerance_;
  std::unordered_map<std::string, std::uint32_t> ordinals_;
};

std::string missing_or(const Json* cell) { return cell ? preview(*cell) : "(missing)"; }

/// The columns of the frame the reference loader builds from a pandas table (a pass over its rows).
std::vector<object::FrameColumn> frame_columns(const ZanjFile& file, const Node& node, const std::string& path,
                                               std::size_t queue_bytes, std::uint64_t line_values) {
  ItemSource rows(file, node, path, queue_bytes, line_values);
  object::FrameSchemaBuilder schema;
  std::uint64_t number = 0;
  try {
    while (const Json* row = rows.next()) schema.add_row(*row, ++number);
  } catch (const Error& e) {  // context: the table and the archive join the error
    throw e.at_path(AtPath{path, "table"}).in_archive(file.name());
  }
  return schema.result(node.table->columns);
}

Json frame_columns_json(const std::vector<object::FrameColumn>& columns) {
  JsonArray out;
  for (const auto& c : columns)
    out.emplace_back(JsonArray{Json(c.name), Json(std::string(object::frame_dtype_name(c.dtype)))});
  return Json(std::move(out));
}

}  // namespace

void TreeDiffer::compare_lists(const std::string& path, const Node& a, const Node& b) {
  if (work_ == ArrayWork::collect || stopped())
    return;  // streamed in the second walk (their items compare as they come)
  const std::uint64_t line_values = stream_line_values(a_, b_);
  ItemSource items_a(a_, a, path, options_.queue_bytes, line_values),
      items_b(b_, b, path, options_.queue_bytes, line_values);
  array::DeltaTracker tracker(tolerance_for(options_, path), options_.nan_equal);
  std::string first;
  std::uint64_t index = 0;  // items compared so far
  const Json *x = nullptr, *y = nullptr;
  for (;; ++index) {
    x = items_a.next();
    y = items_b.next();
    if (!x || !y) break;
    if (!options_.excludes.empty() && is_excluded(options_, child_path(path, std::to_string(index)))) continue;
    const auto nx = array::json_number(*x), ny = array::json_number(*y);
    bool differ = false;
    std::string what;
    if (options_.structure_only && !(x->is_array() || x->is_object() || y->is_array() || y->is_object())) {
      differ = tracker.other(x->type() == y->type() || (nx && ny), {index});  // only the kind of a scalar item counts
    } else if (nx && ny) {
      differ = tracker.numbers(*nx, *ny, {index});
    } else if (x->is_array() || x->is_object() || y->is_array() || y->is_object()) {
      differ = tracker.other(
          !subtree_differs(child_path(path, std::to_string(index)), json::view_of(*x), json::view_of(*y), what),
          {index});
    } else {
      differ = tracker.other(*x == *y, {index});
    }
    if (differ && tracker.differing() == 1) first = what.empty() ? preview(*x) + " -> " + preview(*y) : what;
    if (differ && options_.stop_at_first) break;
  }
  report_.elements_compared += tracker.compared();
  if (tracker.differing() > 0)
    add({scope_, path, DiffKind::list_items, nullptr, nullptr,
         summarize(tracker, "items", tracker.compared(), tracker.differing(), first,
                   [](array::Position p) { return Json(JsonArray{Json(p.index)}); })});
  if (stopped()) return;  // the rest is not read
  // When one side ran out, the other's remaining items make the lengths differ.
  const std::uint64_t length_a = index + (x ? 1 + items_a.count_rest() : 0);
  const std::uint64_t length_b = index + (y ? 1 + items_b.count_rest() : 0);
  if (length_a != length_b) add({scope_, path, DiffKind::length_changed, length_a, length_b, {}});
}

void TreeDiffer::compare_tables(const std::string& path, const Node& a, const Node& b) {
  if (work_ == ArrayWork::collect) return;  // streamed in the second walk
  storage_changed(path, storage_text(a), storage_text(b));
  if (stopped()) return;
  // pandas tables: the loaded frames' columns, in their order and with their dtypes (what the
  // digest covers), and each cell as the frame holds it (1 and 1.0 in a float column are
  // equal, null and a missing key are both NaN there).
  std::unordered_map<std::string, object::FrameDtype> dtypes;
  const bool frames = object::is_pandas_table(a) && object::is_pandas_table(b);
  if (frames) {
    const std::uint64_t line_values = stream_line_values(a_, b_);
    const auto fa = frame_columns(a_, a, path, options_.queue_bytes, line_values),
               fb = frame_columns(b_, b, path, options_.queue_bytes, line_values);
    if (fa != fb) add({scope_, path, DiffKind::columns_changed, frame_columns_json(fa), frame_columns_json(fb), {}});
    for (const auto& c : fa) dtypes.emplace(c.name, c.dtype);
    for (const auto& c : fb)
      if (dtypes.count(c.name) && dtypes[c.name] != c.dtype) dtypes[c.name] = object::FrameDtype::object;
  } else if (a.table->columns != b.table->columns) {
    JsonArray ca, cb;
    for (const auto& c : a.table->columns) ca.emplace_back(c);
    for (const auto& c : b.table->columns) cb.emplace_back(c);
    add({scope_, path, DiffKind::columns_changed, Json(std::move(ca)), Json(std::move(cb)), {}});
  }
  if (options_.structure_only || stopped()) return;  // rows are values
  const std::uint64_t line_values = stream_line_values(a_, b_);
  ItemSource rows_a(a_, a, path, options_.queue_bytes, line_values),
      rows_b(b_, b, path, options_.queue_bytes, line_values);
  array::DeltaTracker tracker(tolerance_for(options_, path), options_.nan_equal);
  Columns columns(options_, path);
  std::string first;
  std::uint64_t row = 0, differing_rows = 0;  // rows compared so far, and how many differ
  const Json *x = nullptr, *y = nullptr;
  for (;; ++row) {
    x = rows_a.next();
    y = rows_b.next();
    if (!x || !y) break;
    const std::uint64_t before = tracker.differing();
    Json fx, fy;  // cells as the frames hold them
    auto cell = [&](std::uint32_t col, const Json* cx, const Json* cy) {
      if (columns.excluded(col)) return;
      if (frames) {
        const auto dtype = dtypes.find(columns.name(col));
        if (dtype != dtypes.end() && dtype->second != object::FrameDtype::object) {
          fx = object::frame_cell(dtype->second, cx);
          fy = object::frame_cell(dtype->second, cy);
          cx = &fx;
          cy = &fy;
        }
      }
      const auto nx = cx ? array::json_number(*cx) : std::nullopt, ny = cy ? array::json_number(*cy) : std::nullopt;
      const bool differ =
          nx && ny ? tracker.numbers(*nx, *ny, {row, col}, columns.tolerance(col))
                   : tracker.other(cx && cy && array::json_close(*cx, *cy, columns.tolerance(col), options_.nan_equal),
                                   {row, col});
      if (differ && tracker.differing() == 1) first = missing_or(cx) + " -> " + missing_or(cy);
    };
    if (x->is_object() && y->is_object()) {
      for (const auto& [key, value] : x->as_object()) cell(columns.ordinal(key), &value, y->find(key));
      for (const auto& [key, value] : y->as_object())
        if (!x->find(key)) cell(columns.ordinal(key), nullptr, &value);
    } else if (tracker.other(array::json_close(*x, *y, tracker.tolerance(), options_.nan_equal), {row, kWholeRow}) &&
               tracker.differing() == 1) {
      first = preview(*x) + " -> " + preview(*y);
    }
    if (tracker.differing() > before) {
      ++differing_rows;
      if (options_.stop_at_first) {
        ++row;  // this row was compared
        break;
      }
    }
  }
  report_.elements_compared += row;
  if (differing_rows > 0)
    add({scope_, path, DiffKind::table_rows, nullptr, nullptr,
         summarize(tracker, "rows", row, differing_rows, first, [&](array::Position p) {
           if (p.column == kWholeRow) return Json(JsonArray{Json(p.index)});
           return Json(JsonArray{Json(p.index), Json(columns.name(p.column))});
         })});
  if (stopped()) return;  // the rest is not read
  const std::uint64_t rows_in_a = row + (x ? 1 + rows_a.count_rest() : 0);
  const std::uint64_t rows_in_b = row + (y ? 1 + rows_b.count_rest() : 0);
  if (rows_in_a != rows_in_b) add({scope_, path, DiffKind::length_changed, rows_in_a, rows_in_b, {}});
}

}  // namespace zanj::diff::detail
