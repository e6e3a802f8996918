// Walking two trees together: dicts by key, lists by index, scalars by value; arrays, lists
// and tables are handed to diff_arrays.cpp and diff_streams.cpp. With --strict, the metadata
// and the ZIP container are compared too.
#include "zanj/diff.hpp"

#include <algorithm>
#include <atomic>
#include <unordered_map>

#include "base/thread_pool.hpp"
#include "diff/diff_walker.hpp"
#include "object/tree_json.hpp"
#include "array/value_compare.hpp"
#include "json/json_view_access.hpp"

namespace zanj::diff::detail {
namespace {

/// Nodes of one family are compared with each other; across families it is a kind change.
/// Storage is not a family: an inline and an external array are both arrays, a JSON list and
/// an external list both lists.
enum class Family { string, number, boolean, null, array, list, table, mapping };

Family family(const Node& n) {
  switch (n.kind) {
    case NodeKind::string:
      return Family::string;
    case NodeKind::number:
      return Family::number;
    case NodeKind::boolean:
      return Family::boolean;
    case NodeKind::null:
      return Family::null;
    case NodeKind::array:
      return Family::array;
    case NodeKind::list:
    case NodeKind::external_list:
      return Family::list;
    case NodeKind::table:
      return Family::table;
    default:
      return Family::mapping;
  }
}

/// A node's children by key; small objects are searched in place, large ones through a map.
class ChildIndex {
 public:
  explicit ChildIndex(std::vector<std::pair<std::string, JsonView>> children) : children_(std::move(children)) {
    if (children_.size() > 16)
      for (const auto& [key, value] : children_) by_key_.emplace(key, value);
  }
  JsonView find(const std::string& key) const {
    if (!by_key_.empty()) {
      const auto it = by_key_.find(key);
      return it == by_key_.end() ? JsonView() : it->second;
    }
    for (const auto& [k, v] : children_)
      if (k == key) return v;
    return JsonView();
  }
  const std::vector<std::pair<std::string, JsonView>>& all() const { return children_; }

 private:
  std::vector<std::pair<std::string, JsonView>> children_;
  std::unordered_map<std::string_view, JsonView> by_key_;
};

}  // namespace

std::string preview(const Json& value) {
  std::string text = to_json(value);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

std::string preview(JsonView value) {
  std::string text = to_json(value);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

std::string describe_node(const Node& n) {
  auto count = [](std::size_t k, const char* what) { return " (" + std::to_string(k) + " " + what + ")"; };
  switch (n.kind) {
    case NodeKind::string:
    case NodeKind::number:
    case NodeKind::boolean:
      return std::string(kind_name(n.kind)) + " " + preview(n.json);
    case NodeKind::null:
      return "null";
    case NodeKind::dict:
      return "dict" + count(n.json.size(), "keys");
    case NodeKind::list:
      return "list" + count(n.json.size(), "items");
    case NodeKind::external_list:
      return "external list (" + n.member() + ")";
    case NodeKind::table:
      return "table" + count(n.table->columns.size(), "columns");
    case NodeKind::array:
      return std::string(n.array->library() == "torch" ? "tensor " : "array ") + n.array->numpy_dtype() + " " +
             shape_text(n.array->shape);
    default:
      return n.format;  // dataclass or other format-keyed node: its format says what it is
  }
}

std::string storage_text(const Node& n) {
  if (n.is_reference()) return "external (" + n.member() + ")";
  if (n.array) return "inline (" + std::string(encoding_name(n.array->encoding)) + ")";
  return "inline";
}

void TreeDiffer::add(Difference d) {
  if (work_ == ArrayWork::collect || stopped()) return;  // a first walk that only notes the arrays
  d.scope = scope_;
  report_.differences.push_back(std::move(d));
}

void TreeDiffer::storage_changed(const std::string& path, std::string a, std::string b) {
  if (options_.strict && a != b) add({scope_, path, DiffKind::storage_changed, std::move(a), std::move(b), {}});
}

void TreeDiffer::compare(const std::string& path, JsonView a, JsonView b) {
  if (stopped() || is_excluded(options_, path)) return;
  ++report_.nodes_compared;
  const Node na = classify(a), nb = classify(b);
  const Family family_a = family(na);
  if (family_a != family(nb)) {
    add({scope_, path, DiffKind::kind_changed, describe_node(na), describe_node(nb), {}});
    return;
  }
  switch (family_a) {
    case Family::array:
      compare_arrays(path, na, nb);
      return;
    case Family::table:
      compare_tables(path, na, nb);
      return;
    case Family::mapping:
      compare_mappings(path, na, nb);
      return;
    case Family::list:
      storage_changed(path, storage_text(na), storage_text(nb));
      if (na.kind == NodeKind::list && nb.kind == NodeKind::list && !(is_scalar_list(a) && is_scalar_list(b))) {
        compare_plain_lists(path, na, nb);
      } else {
        compare_lists(path, na, nb);  // streamed, with a count of differing items
      }
      return;
    default:
      compare_scalars(path, na, nb);
      return;
  }
}

void TreeDiffer::compare_scalars(const std::string& path, const Node& a, const Node& b) {
  if (options_.structure_only) return;  // same family (both numbers, both strings...): same structure
  bool equal = false;
  if (a.kind == NodeKind::number) {
    const auto x = array::json_number(a.json), y = array::json_number(b.json);
    equal = x && y && !array::compare_numbers(*x, *y, tolerance_for(options_, path), options_.nan_equal).differ;
  } else {
    equal = a.json == b.json;
  }
  if (!equal) add({scope_, path, DiffKind::value_changed, a.json.copy(), b.json.copy(), {}});
}

void TreeDiffer::compare_mappings(const std::string& path, const Node& a, const Node& b) {
  // Another class (or a dict became a dataclass): said once here, then the fields are still
  // compared key by key, so a renamed class with one changed field shows which.
  if (a.format != b.format) add({scope_, path, DiffKind::kind_changed, describe_node(a), describe_node(b), {}});
  const ChildIndex in_a(node_children(a)), in_b(node_children(b));
  for (const auto& [key, value] : in_a.all()) {
    if (stopped()) return;
    const std::string child = child_path(path, key);
    if (const JsonView other = in_b.find(key)) {
      compare(child, value, other);
    } else if (!is_excluded(options_, child)) {
      add({scope_, child, DiffKind::removed, describe_node(classify(value)), nullptr, {}});
    }
  }
  for (const auto& [key, value] : in_b.all()) {
    const std::string child = child_path(path, key);
    if (!in_a.find(key) && !is_excluded(options_, child))
      add({scope_, child, DiffKind::added, nullptr, describe_node(classify(value)), {}});
  }
}

void TreeDiffer::compare_plain_lists(const std::string& path, const Node& a, const Node& b) {
  const JsonView x = a.json, y = b.json;
  const std::size_t common = std::min(x.size(), y.size());
  for (std::size_t i = 0; i < common && !stopped(); ++i) compare(child_path(path, std::to_string(i)), x[i], y[i]);
  for (std::size_t i = common; i < x.size(); ++i) {
    const std::string child = child_path(path, std::to_string(i));
    if (!is_excluded(options_, child))
      add({scope_, child, DiffKind::removed, describe_node(classify(x[i])), nullptr, {}});
  }
  for (std::size_t i = common; i < y.size(); ++i) {
    const std::string child = child_path(path, std::to_string(i));
    if (!is_excluded(options_, child))
      add({scope_, child, DiffKind::added, nullptr, describe_node(classify(y[i])), {}});
  }
}

bool TreeDiffer::subtree_differs(const std::string& path, JsonView a, JsonView b, std::string& first) {
  DiffOptions once = options_;
  once.stop_at_first = true;
  DiffReport scratch;
  TreeDiffer sub(a_, b_, once, scratch, scope_);
  sub.compare(path, a, b);
  report_.nodes_compared += scratch.nodes_compared;
  report_.elements_compared += scratch.elements_compared;
  if (scratch.differences.empty()) return false;
  first = difference_text(scratch.differences.front());
  return true;
}

namespace {

/// The metadata without externals_info, which only says where externals are stored.
Json meta_for_diff(JsonView meta) {
  if (!meta.is_object()) return meta.copy();
  JsonObject out;
  for (const auto [key, value] : meta.members())
    if (key != "externals_info") out.emplace_back(std::string(key), value.copy());
  return Json(std::move(out));
}

/// --strict: members only on one side, compression methods, and the order of the members.
void compare_containers(const Archive& a, const Archive& b, TreeDiffer& differ) {
  std::vector<std::size_t> order_in_b;  // positions in b of the members both have, in a's order
  for (const ZipEntry& e : a.entries()) {
    const ZipEntry* other = b.find(e.python_name);  // find() takes the name as Python sees it
    if (!other) {
      differ.add({DiffScope::archive,
                  e.name,
                  DiffKind::removed,
                  "member (" + std::to_string(e.uncompressed_size) + " bytes)",
                  nullptr,
                  {}});
      continue;
    }
    if (other->method != e.method)
      differ.add({DiffScope::archive,
                  e.name,
                  DiffKind::storage_changed,
                  method_name(e.method),
                  method_name(other->method),
                  {}});
    order_in_b.push_back(static_cast<std::size_t>(other - b.entries().data()));
  }
  for (const ZipEntry& e : b.entries())
    if (!a.find(e.python_name))
      differ.add({DiffScope::archive,
                  e.name,
                  DiffKind::added,
                  nullptr,
                  "member (" + std::to_string(e.uncompressed_size) + " bytes)",
                  {}});
  for (std::size_t i = 1; i < order_in_b.size(); ++i)
    if (order_in_b[i] < order_in_b[i - 1]) {
      const ZipEntry& moved = b.entries()[order_in_b[i]];
      differ.add({DiffScope::archive,
                  moved.name,
                  DiffKind::storage_changed,
                  "stored after '" + b.entries()[order_in_b[i - 1]].name + "'",
                  "stored before it",
                  {}});
      break;  // one is enough to say the order differs
    }
}

}  // namespace

std::vector<ArrayResult> compare_array_pairs(const ZanjFile& a, const ZanjFile& b, const DiffOptions& options,
                                             const std::vector<ArrayPair>& pairs, unsigned threads) {
  std::vector<ArrayResult> results(pairs.size());
  const unsigned count = static_cast<unsigned>(std::min<std::size_t>(threads, pairs.size()));
  // Each comparison reads ahead on both sides (queue_bytes each): shared out between the
  // threads, so that memory does not grow with -j.
  DiffOptions shared = options;
  shared.queue_bytes = std::max<std::size_t>(options.queue_bytes / count, std::size_t{256} << 10);
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i; (i = next++) < pairs.size();) {
      DiffReport part;
      TreeDiffer differ(a, b, shared, part, DiffScope::object);
      try {
        differ.compare_array_values(pairs[i].path, pairs[i].a, pairs[i].b);
      } catch (...) {  // boundary: a worker's failure, thrown where the walk meets this array
        results[i].error = std::current_exception();
      }
      results[i].differences = std::move(part.differences);
      results[i].elements = part.elements_compared;
    }
  };
  base::ThreadPool pool(count - 1);
  for (unsigned t = 1; t < count; ++t) pool.submit(work);
  work();
  pool.wait();
  return results;
}

}  // namespace zanj::diff::detail

namespace zanj {

DiffReport diff_archives(const ZanjFile& a, const ZanjFile& b, const DiffOptions& options) {
  DiffReport report;
  {
    diff::detail::TreeDiffer objects(a, b, options, report, DiffScope::object);
    const unsigned threads = base::threads_or_cpus(options.threads);
    if (threads > 1 && !options.stop_at_first && !options.structure_only) {
      // A first walk notes the pairs of arrays; their values are compared on the threads; the
      // second walk takes the results where the first met the arrays, so the report is the
      // one thread's.
      DiffReport unused;
      diff::detail::TreeDiffer collector(a, b, options, unused, DiffScope::object);
      collector.collect_arrays();
      collector.compare("", a.root(), b.root());
      std::vector<diff::detail::ArrayPair> pairs = collector.take_pairs();
      if (pairs.size() > 1) objects.replay_arrays(diff::detail::compare_array_pairs(a, b, options, pairs, threads));
    }
    objects.compare("", a.root(), b.root());
    if (options.strict && !objects.stopped()) {
      diff::detail::TreeDiffer meta(a, b, options, report, DiffScope::meta);
      if (a.meta() && b.meta()) {
        const Json meta_a = diff::detail::meta_for_diff(a.meta()), meta_b = diff::detail::meta_for_diff(b.meta());
        meta.compare("", json::view_of(meta_a), json::view_of(meta_b));
      } else if (a.meta() || b.meta()) {
        meta.add({DiffScope::meta,
                  "",
                  a.meta() ? DiffKind::removed : DiffKind::added,
                  a.meta() ? Json("metadata") : Json(nullptr),
                  b.meta() ? Json("metadata") : Json(nullptr),
                  {}});
      }
      diff::detail::TreeDiffer container(a, b, options, report, DiffScope::archive);
      if (!container.stopped()) diff::detail::compare_containers(a.archive(), b.archive(), container);
    }
  }
  return report;
}

}  // namespace zanj
