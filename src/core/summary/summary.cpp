#include "zanj/summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <exception>
#include <optional>
#include <unordered_set>

#include "array/dtype.hpp"
#include "base/thread_pool.hpp"
#include "object/tree_json.hpp"
#include "summary/model_card.hpp"
#include "zanj/error.hpp"
#include "zanj/tree.hpp"

namespace zanj {

std::optional<std::string> iso8601_utc(double seconds) {
  // Years 1 to 9999, as Python's datetime: outside, NaN and infinities included, the cast to
  // time_t would be undefined and gmtime_r could fail.
  constexpr double kFirst = -62135596800.0, kEnd = 253402300800.0;
  if (!(seconds >= kFirst && seconds < kEnd)) return std::nullopt;
  const auto t = static_cast<std::time_t>(std::floor(seconds));
  std::tm tm{};
  if (!gmtime_r(&t, &tm)) return std::nullopt;
  char buf[40];  // four-digit years, as ISO 8601 and Python's isoformat() write them
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec);
  return std::string(buf);
}

std::optional<std::uint64_t> array_value_bytes(const std::string& dtype, const std::vector<std::uint64_t>& shape) {
  const base::Result<array::Dtype> parsed = array::read_dtype_name(dtype);
  if (!parsed) return std::nullopt;
  std::uint64_t n = parsed->itemsize;
  for (auto d : shape)
    if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
  return n;
}

namespace {

/// zanj_cfg as shown to users: handler source code replaced by the handlers' names.
Json config_without_code(JsonView cfg, std::vector<std::string>& handlers) {
  if (!cfg.is_object()) return cfg.copy();
  JsonObject out;
  for (const auto [k, v] : cfg.members()) {
    if (k == "serialization_handlers" || k == "load_handlers") {
      JsonArray names;
      if (v.is_object())
        for (const auto handler : v.members()) {
          names.emplace_back(std::string(handler.key));
          handlers.emplace_back(handler.key);
        }
      out.emplace_back(std::string(k), Json(std::move(names)));
    } else {
      out.emplace_back(std::string(k), v.copy());
    }
  }
  return Json(std::move(out));
}

std::string first_word(std::string_view s) { return std::string(s.substr(0, s.find(' '))); }

/// Summary::row_arrays: the npy entries of externals_info whose path starts with the whole
/// path of a jsonl entry (each path is a list of keys and indices, compared item by item as
/// JSON text).
std::uint64_t count_row_arrays(JsonView externals) {
  if (!externals.is_object()) return 0;
  const auto prefix_key = [](JsonView path, std::size_t n) {
    std::string key;
    for (std::size_t i = 0; i < n; ++i) key += to_json(path[i]) + '\x1f';
    return key;
  };
  std::unordered_set<std::string> lists;
  for (const auto [name, info] : externals.members()) {
    const JsonView path = info.find("path");
    if (info.string_at("item_type") == "jsonl" && path.is_array()) lists.insert(prefix_key(path, path.size()));
  }
  if (lists.empty()) return 0;
  std::uint64_t count = 0;
  for (const auto [name, info] : externals.members()) {
    const JsonView path = info.find("path");
    if (info.string_at("item_type") != "npy" || !path.is_array()) continue;
    std::string key;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      key += to_json(path[i]) + '\x1f';
      if (lists.count(key)) {
        ++count;
        break;
      }
    }
  }
  return count;
}

void read_meta(JsonView meta, Summary& s) {
  s.row_arrays = count_row_arrays(meta.find("externals_info"));
  if (const JsonView ts = meta.find("timestamp"); ts.is_number()) {
    if (auto text = iso8601_utc(ts.to_double())) {
      s.timestamp = ts.to_double();
      s.saved_at = *text;
    } else {
      s.invalid_timestamp = ts.type() == Json::Type::big_integer ? std::string(ts.big_integer_digits()) : to_json(ts);
    }
  }
  if (const JsonView sys = meta.find("sysinfo")) {
    if (const JsonView py = sys.find("python")) s.python = first_word(py.string_at("version"));
    if (const JsonView pt = sys.find("pytorch")) s.torch = std::string(pt.string_at("torch.__version__"));
  }
  if (const JsonView cfg = meta.find("zanj_cfg")) s.zanj_cfg = config_without_code(cfg, s.handlers);
}

/// What the walk counts, into a Summary's counts and its largest arrays: for a whole walk, or
/// (on threads) for one run of the root's children, added to the others' in document order.
class ArrayTally {
 public:
  /// Counts into `s`, keeping its `largest` biggest arrays, cutting the list back to them when
  /// it holds `cut_at`.
  ArrayTally(Summary& s, std::size_t largest, std::size_t cut_at)
      : s_(s), largest_(largest), cut_at_(std::max(2 * largest, cut_at)) {}

  /// The walk's visitor: counts the node, and descends into every node that has children.
  bool visit(const TreeVisit& v) {
    const Node& n = v.node;
    s_.legacy_format |= n.version == FormatVersion::legacy;
    s_.current_format |= n.version == FormatVersion::current;
    if (n.is_reference()) ++s_.externals;
    if (n.table) ++s_.tables;
    if (n.list) ++s_.external_lists;
    if (!n.array) return true;
    ++s_.arrays;
    ++(n.array->external() ? s_.external_arrays : s_.inline_arrays);
    const std::uint64_t bytes = array_value_bytes(n.array->dtype, n.array->shape).value_or(0);
    s_.array_bytes += bytes;
    add_elements(n.array->element_count());
    if (floor_ && bytes <= *floor_) return true;
    s_.largest_arrays.push_back(ArraySummary{v.path(), n.array->numpy_dtype(), std::string(n.array->library()),
                                             n.array->shape, bytes, n.array->external() ? "external" : "inline",
                                             n.array->member});
    if (s_.largest_arrays.size() >= cut_at_) cut();
    return true;
  }

  /// Adds what a run after this one's (in document order) counted into `later`.
  void add(Summary& later) {
    s_.legacy_format |= later.legacy_format;
    s_.current_format |= later.current_format;
    s_.externals += later.externals;
    s_.tables += later.tables;
    s_.external_lists += later.external_lists;
    s_.arrays += later.arrays;
    s_.external_arrays += later.external_arrays;
    s_.inline_arrays += later.inline_arrays;
    s_.array_bytes += later.array_bytes;
    add_elements(later.array_elements);  // nullopt when either is
    // Each run's list is its own biggest, earliest first among equals: the biggest of the
    // runs' lists, one after another, are the biggest of the whole walk's.
    for (ArraySummary& a : later.largest_arrays) s_.largest_arrays.push_back(std::move(a));
    if (s_.largest_arrays.size() >= cut_at_) cut();
  }

  /// The list, biggest first, at most `largest` long.
  void finish() {
    std::stable_sort(s_.largest_arrays.begin(), s_.largest_arrays.end(), by_size);
    if (s_.largest_arrays.size() > largest_) s_.largest_arrays.resize(largest_);
  }

 private:
  static bool by_size(const ArraySummary& x, const ArraySummary& y) { return x.bytes > y.bytes; }

  void add_elements(const std::optional<std::uint64_t>& elements) {
    std::uint64_t total = 0;
    if (!s_.array_elements || !elements || __builtin_add_overflow(*s_.array_elements, *elements, &total))
      s_.array_elements = std::nullopt;
    else
      s_.array_elements = total;
  }

  // Only the `largest` biggest arrays are kept: the list is cut back to them whenever it
  // doubles, so a tree of a million tiny arrays holds a few thousand summaries, not a million.
  // Stable sorting keeps the earlier of equal sizes, so the result is the full sort's prefix.
  // After a cut, an array no bigger than the smallest kept one ranks after all the kept ones
  // and can never come back: it is not even summarized (many equal arrays are the common case).
  void cut() {
    finish();
    floor_ = s_.largest_arrays.empty() ? UINT64_MAX : s_.largest_arrays.back().bytes;
  }

  Summary& s_;
  std::size_t largest_, cut_at_;
  std::optional<std::uint64_t> floor_;  ///< size of the smallest array kept at the last cut
};

/// summarize, its tree walked on `pool` and this thread (this one alone without a pool).
Summary summarize_on(const ZanjFile& file, std::size_t largest, base::ThreadPool* pool) {
  Summary s;
  const auto& entries = file.archive().entries();
  s.members = entries.size();
  for (const auto& e : entries) {
    s.compressed_bytes += e.compressed_size;
    s.uncompressed_bytes += e.uncompressed_size;
  }
  if (file.meta()) read_meta(file.meta(), s);
  if (s.saved_at.empty() && !s.invalid_timestamp)
    if (const ZipEntry* main = file.archive().find(kMainMember)) s.saved_at = main->mtime_iso8601();

  const Node root = classify(file.root());
  s.root_type = root.format.empty() ? std::string(kind_name(root.kind)) : root.format;
  if (file.root().is_object() || file.root().is_array()) s.root_length = file.root().size();

  ArrayTally tally(s, largest, 1024);
  if (!pool) {
    walk_tree(file.root(), {}, [&](const TreeVisit& v) { return tally.visit(v); });
    tally.finish();
    return s;
  }
  // The root is visited here; its children's subtrees in runs, each counted apart, and the
  // runs' counts added in document order: the whole walk's counts and list.
  bool descend = false;
  walk_tree(file.root(), {}, [&](const TreeVisit& v) {
    descend = tally.visit(v);
    return false;
  });
  const std::size_t runs = descend ? object::tree_runs(root, pool->threads() + 1) : 0;
  std::vector<Summary> run_counts(runs);
  base::for_each_index(pool, runs, 1, [&](std::size_t r) {
    ArrayTally run(run_counts[r], largest, 64);  // cut sooner: all the runs' lists are held at once
    object::walk_tree_run(root, r, runs, [&](const TreeVisit& v) { return run.visit(v); });
  });
  for (Summary& run : run_counts) tally.add(run);
  tally.finish();
  return s;
}

}  // namespace

Summary summarize(const ZanjFile& file, std::size_t largest) { return summarize_on(file, largest, nullptr); }

SummaryWithCard summarize_with_card(const ZanjFile& file, std::size_t largest, unsigned threads) {
  // Below this many values both walks take a few milliseconds: not worth a thread.
  constexpr std::uint64_t kWorthAThread = std::uint64_t{1} << 16;
  SummaryWithCard out;
  if (threads < 2 || file.json_values() < kWorthAThread) {
    out.summary = summarize(file, largest);
    out.card = model_card(file);
    return out;
  }
  if (!summary::may_hold_model_card(file)) {
    // No card to look for (model_card would return at once): the summary's walk takes every
    // thread.
    base::ThreadPool pool(threads - 1);
    out.summary = summarize_on(file, largest, &pool);
    return out;
  }
  std::exception_ptr card_error;
  {
    // Declared after what its task writes: if summarize throws, the pool's destructor waits
    // for the card's walk before anything it uses goes.
    base::ThreadPool beside(1);
    beside.submit([&] {
      try {
        out.card = summary::walk_for_model_card(file);  // may_hold_model_card said yes above
      } catch (...) {  // boundary: thrown below, after summarize's own error would have been
        card_error = std::current_exception();
      }
    });
    out.summary = summarize(file, largest);
    beside.wait();
  }
  if (card_error) std::rethrow_exception(card_error);
  return out;
}

}  // namespace zanj
