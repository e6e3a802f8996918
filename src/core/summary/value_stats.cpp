// Statistics of the values of lists and table columns (`zanj stats` beside the arrays): the
// items or rows are read one at a time, inline or from their member, and each number goes
// through the same accumulator as an array's values.
#include "zanj/summary.hpp"

#include "array/member_reader.hpp"
#include "array/value_compare.hpp"
#include "json/json_view_access.hpp"
#include "summary/stats_accumulator.hpp"
#include "zip/member_name.hpp"
#include "zanj/error.hpp"

namespace zanj {
namespace {

/// One list's or one column's values: numbers (bools as 0 and 1, as in a bool array) are
/// accumulated; anything else (a string, null, a container) is only counted.
struct ValueCounter {
  summary::StatsAccumulator accumulator;
  bool any_number = false;

  void add(JsonView v) {
    if (v.is_bool()) {
      accumulator.add_integer(v.as_bool() ? 1 : 0);
    } else if (const auto n = array::json_number(v)) {
      accumulator.add(*n);
    } else {
      accumulator.add_other();
      return;
    }
    any_number = true;
  }
};

/// Each item of a list, or each row of a table, in order: inline ones as they are, a member's
/// lines parsed one at a time.
void for_each_item(const ZanjFile& file, const Node& node, const std::string& path,
                   const std::function<void(JsonView)>& take) {
  if (node.kind == NodeKind::list) {
    for (const JsonView v : node.json) take(v);
    return;
  }
  if (node.table && node.table->inline_rows) {
    for (const JsonView v : node.table->inline_rows) take(v);
    return;
  }
  const ZipEntry* entry = file.archive().find(node.member());
  if (!entry)
    throw Error(InArchive{file.name()}, InMember{node.member(), true},
                "member '" + zip::printable_name(node.member()) + "' referenced at '" + path + "' is missing");
  array::for_each_jsonl_value(file.archive(), *entry, [&](std::uint64_t, const Json& item) {
    take(json::view_of(item));
    return true;
  });
}

}  // namespace

std::vector<ValueStats> value_stats(const ZanjFile& file, const Node& node, const std::string& path) {
  std::vector<ValueStats> out;
  if (node.table) {
    const std::vector<std::string>& columns = node.table->columns;
    std::vector<ValueCounter> counters(columns.size());
    for_each_item(file, node, path, [&](JsonView row) {
      if (!row.is_object()) return;  // no cells to take (verify names such a row)
      for (std::size_t c = 0; c < columns.size(); ++c)
        if (const JsonView cell = row.find(columns[c])) counters[c].add(cell);
    });
    for (std::size_t c = 0; c < columns.size(); ++c)
      if (counters[c].any_number)
        out.push_back({child_path(path, columns[c]), "column", counters[c].accumulator.result(true)});
    return out;
  }
  if (node.kind != NodeKind::list && node.kind != NodeKind::external_list) return out;
  ValueCounter counter;
  for_each_item(file, node, path, [&](JsonView item) { counter.add(item); });
  if (counter.any_number) out.push_back({path, "list", counter.accumulator.result(true)});
  return out;
}

}  // namespace zanj
