#pragma once
// The walker behind diff_archives, shared by diff*.cpp (private to the core): one TreeDiffer
// compares two JSON trees (the objects, or with --strict the metadata) node by node and
// records Differences. Arrays (diff_arrays.cpp) and lists and tables (diff_streams.cpp) are
// compared by streaming their values from both archives.
#include <exception>
#include <string>
#include <vector>

#include "zanj/diff.hpp"
#include "zanj/tree.hpp"
#include "array/value_compare.hpp"

namespace zanj::diff::detail {

/// How compare_arrays treats two arrays (diff_archives with several threads): compare them as
/// they come (direct); note the pair and go on, recording nothing (collect); or take the next
/// result the threads computed, the walk meeting the arrays in the same order (replay).
enum class ArrayWork { direct, collect, replay };
struct ArrayPair {
  std::string path;
  Node a, b;
};
struct ArrayResult {
  std::vector<Difference> differences;
  std::uint64_t elements = 0;
  std::exception_ptr error;  ///< an array that could not be read: thrown where the walk meets it
};

class TreeDiffer {
 public:
  TreeDiffer(const ZanjFile& a, const ZanjFile& b, const DiffOptions& options, DiffReport& report, DiffScope scope)
      : a_(a), b_(b), options_(options), report_(report), scope_(scope) {}

  /// Compare two nodes at object path `path` and everything below them.
  void compare(const std::string& path, JsonView a, JsonView b);
  /// Record one difference. With options.stop_at_first only the first is recorded: after it,
  /// stopped() is true and the walk returns without reading more (the answer is known).
  void add(Difference d);
  /// Whether options.stop_at_first and a difference is recorded in the report (by this walker
  /// or another writing the same report): every compare then returns at once.
  bool stopped() const { return options_.stop_at_first && !report_.differences.empty(); }

  /// Whether `a` and `b` (list items, compared as whole subtrees) differ, and if so the first
  /// difference's text; reads members like compare() but keeps no report.
  bool subtree_differs(const std::string& path, JsonView a, JsonView b, std::string& first);

  const DiffOptions& options() const { return options_; }

  /// Collect mode: the walk notes each pair of arrays (take_pairs) and records nothing else;
  /// lists and tables, which stream their members, are skipped.
  void collect_arrays() { work_ = ArrayWork::collect; }
  std::vector<ArrayPair> take_pairs() { return std::move(pairs_); }
  /// Replay mode: the arrays' results, in the order collect mode met them.
  void replay_arrays(std::vector<ArrayResult> results) {
    work_ = ArrayWork::replay;
    results_ = std::move(results);
  }
  /// Compare two arrays now (what compare_arrays does in direct mode).
  void compare_array_values(const std::string& path, const Node& a, const Node& b);

 private:
  void compare_scalars(const std::string& path, const Node& a, const Node& b);
  void compare_mappings(const std::string& path, const Node& a, const Node& b);
  void compare_plain_lists(const std::string& path, const Node& a, const Node& b);
  void storage_changed(const std::string& path, std::string a, std::string b);
  // diff_arrays.cpp
  void compare_arrays(const std::string& path, const Node& a, const Node& b);
  // diff_streams.cpp
  void compare_lists(const std::string& path, const Node& a, const Node& b);
  void compare_tables(const std::string& path, const Node& a, const Node& b);

  const ZanjFile& a_;
  const ZanjFile& b_;
  const DiffOptions& options_;
  DiffReport& report_;
  DiffScope scope_;
  ArrayWork work_ = ArrayWork::direct;
  std::vector<ArrayPair> pairs_;      ///< collect
  std::vector<ArrayResult> results_;  ///< replay
  std::size_t next_result_ = 0;
};

/// Compare each pair's values (TreeDiffer::compare_array_values) on `threads` threads, this one
/// included: one result per pair, in their order.
std::vector<ArrayResult> compare_array_pairs(const ZanjFile& a, const ZanjFile& b, const DiffOptions& options,
                                             const std::vector<ArrayPair>& pairs, unsigned threads);

/// A short description of a node for added/removed/kind_changed: "dict (3 keys)",
/// "array float32 [3, 4]", "number 1.5", ...
std::string describe_node(const Node& node);
/// How a node is stored, for storage_changed: "inline (array_list_meta)", "external (w.npy)".
std::string storage_text(const Node& node);
/// A JSON value shortened for one-line messages.
std::string preview(const Json& value);
std::string preview(JsonView value);

}  // namespace zanj::diff::detail
