#pragma once
// What `info` reports about an archive, computed from the directory and the two JSON
// members only: no member data is read. And what `stats --hist` and `zanj report` show of an
// array's values (profile_array: statistics, a histogram and a thumbnail in one pass); the
// report pages themselves are in report.hpp.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "zanj/json.hpp"
#include "zanj/archive.hpp"
#include "zanj/array.hpp"
#include "zanj/tree.hpp"

namespace zanj {

struct ArraySummary {
  std::string path;
  std::string dtype;    ///< numpy's name (ArrayNode::numpy_dtype)
  std::string library;  ///< "torch" or "numpy" (ArrayNode::library)
  std::vector<std::uint64_t> shape;
  std::uint64_t bytes = 0;  ///< values' size: elements x itemsize (0 when the dtype is unknown)
  std::string storage;      ///< "inline" or "external"
  std::string member;
};

struct Summary {
  std::uint64_t members = 0, compressed_bytes = 0, uncompressed_bytes = 0;
  std::uint64_t externals = 0;  ///< reference nodes in __zanj__.json
  std::uint64_t arrays = 0, external_arrays = 0, inline_arrays = 0, tables = 0, external_lists = 0;
  std::uint64_t array_bytes = 0;
  /// Elements of all those arrays (a model's parameter count); nullopt when a shape is missing
  /// or the total passes 64 bits.
  std::optional<std::uint64_t> array_elements = 0;
  /// External arrays inside the rows of external lists (a list of dataclasses that each hold
  /// an array), counted from externals_info (an npy entry whose path goes through a jsonl
  /// entry's): the rows are not read, so they are not in `arrays` nor `array_bytes`.
  std::uint64_t row_arrays = 0;
  std::vector<ArraySummary> largest_arrays;  ///< up to `largest` arrays, biggest first
  std::string root_type;                     ///< format key, or "dict", "list", ...
  /// The format keys found on the tree's nodes: the version, or both when an archive mixes
  /// them (docs/format.md); none when no node is format-keyed.
  bool legacy_format = false, current_format = false;
  std::uint64_t root_length = 0;                 ///< keys or elements of the root
  std::optional<double> timestamp;               ///< meta "timestamp", when it is a date
  std::optional<std::string> invalid_timestamp;  ///< meta "timestamp" as JSON text, when it is no date
  std::string saved_at;                          ///< ISO 8601 UTC, from the timestamp or the member date
  std::string python, torch;                     ///< versions from sysinfo ("" when absent)
  std::optional<Json> zanj_cfg;                  ///< without handler source code
  std::vector<std::string> handlers;             ///< names of serialization/load handlers
};

Summary summarize(const ZanjFile& file, std::size_t largest = 5);

// Nodes inside the rows of external lists and tables (here until tree.hpp, where they belong,
// can change without rebuilding every reader of it). Every release serializes a long list's
// elements with the archive's settings, so a row can hold an external array of its own
// (member "lst/3/arr.npy", externals_info path ["lst", 3, "arr"]) that the loader fills in
// after the list: the object tree continues through a .jsonl member's lines, and
// "lst/3/arr" names the "arr" of row 3.
/// A node found by its object path, with the rows the path went through (the node's views
/// point into them, so they live as long as this does).
struct FoundNode {
  JsonView json;
  std::vector<std::shared_ptr<const Json>> rows;
};

/// find_node, continuing into the rows of external lists and tables: at such a node the next
/// segment is a row index, and that row is read from its member (the lines before it are
/// skipped, the ones after it not read) and parsed. Throws Error (invalid) as find_node does
/// when there is no such node or row.
FoundNode find_node_in_rows(const ZanjFile& file, const NodeTarget& target);

/// `zanj stats` of a list of numbers, or of one numeric column of a table.
struct ValueStats {
  std::string path;  ///< the list's object path, or TABLE/COLUMN
  std::string kind;  ///< "list" or "column"
  ArrayStats stats;  ///< over the numbers (bools as 0 and 1); other values only in `count`
};
/// The statistics of a list's items (inline or external) or of each column of a table, read
/// one row at a time; only lists and columns holding at least one number are given. Throws
/// Error when a row cannot be read.
std::vector<ValueStats> value_stats(const ZanjFile& file, const Node& node, const std::string& path);

/// Which rows walk_tree_with_rows enters.
struct RowWalkOptions {
  bool tables = true;       ///< the rows of tables too, not only of external lists
  bool scalar_rows = true;  ///< visit a row that is a number, string, bool or null
  /// When set, a list whose rows cannot be read (a corrupt member, a line that is not JSON) is
  /// reported here and the walk goes on after it (the rows before the failure were visited);
  /// when not, the Error is thrown.
  std::function<void(const std::string& message)> on_unreadable_rows;
};

/// walk_tree, continuing into the rows of the external lists and tables it visits (when the
/// visitor returns true for them): each row is read from its member, parsed and walked before
/// the next line is read, so the visitor sees "lst/3/arr" (depth one more than "lst") as it sees
/// any node, and memory is one row. A member already being walked further up is not entered
/// again (a row that refers to its own list). Throws Error (invalid) for a row that is not
/// valid JSON.
void walk_tree_with_rows(const ZanjFile& file, JsonView start, const std::vector<std::string>& start_segments,
                         const std::function<bool(const TreeVisit&)>& visitor, const RowWalkOptions& options = {});

/// Seconds since the epoch as "2026-11-20T12:34:56Z"; nullopt outside the years 1 to 9999
/// (NaN and infinities included).
std::optional<std::string> iso8601_utc(double seconds);

/// Equal-width bins over [lo, hi] of an array's finite values (counts.size() bins; none when
/// there were no finite values).
struct Histogram {
  double lo = 0, hi = 0;
  std::vector<std::uint64_t> counts;
  double min = 0, max = 0;  ///< the smallest and largest value counted (what labels show)
  std::uint64_t total() const;
};

/// For display: the occupied part of `h` in at most `bins` bins (empty bins at either end
/// dropped, neighbours summed).
Histogram rebin(const Histogram& h, std::size_t bins);

/// A thumbnail of a 2-D array (higher-D arrays as rows x last axis): the mean of the finite
/// values in each of rows x cols cells, row-major; NaN for a cell with none.
struct Heatmap {
  std::size_t rows = 0, cols = 0;  ///< 0 x 0 below two dimensions
  std::uint64_t source_rows = 0, source_cols = 0;
  std::vector<double> cells;
};

struct ProfileOptions {
  std::size_t bins = 256;          ///< histogram bins before rebinning (even)
  std::size_t heatmap_side = 128;  ///< largest thumbnail side, in cells; 0: no thumbnail
};

/// What one pass over an array's values gives.
struct ArrayProfile {
  ArrayStats stats;
  Histogram histogram;  ///< real values only (bool and integers included; not complex)
  Heatmap heatmap;
  std::uint64_t zeros = 0;  ///< elements equal to 0 (real values only)
  bool all_zero() const { return stats.count > 0 && zeros == stats.count; }
};

/// Stream an array's values once into statistics, a histogram and a heatmap thumbnail. Memory
/// is constant (bins and cells). Throws Error when the values cannot be read.
ArrayProfile profile_array(const Archive& archive, const ArrayNode& node, std::string_view path,
                           const ProfileOptions& options = {});

// ---- model card ------------------------------------------------------------------------
// The model card `zanj info` shows for an archive that holds a model: the reference library's
// ConfiguredModel (a root of the model's class with "zanj_model_config", "meta",
// "training_records" and "state_dict") or any dict with a state dict beside other keys.
// Computed from __zanj__.json alone, as the rest of info: no member is read.

/// Tensors and their elements, summed over a group of state-dict entries.
struct ParameterCount {
  std::uint64_t tensors = 0;
  std::uint64_t parameters = 0;  ///< elements (a tensor without a readable shape adds none)
};

/// The state-dict entries whose key starts with one top-level module ("net" of "net.0.weight").
struct ModuleParameters {
  std::string module;
  ParameterCount count;
};

/// The entries of one numpy dtype.
struct DtypeParameters {
  std::string dtype;  ///< numpy's name (ArrayNode::numpy_dtype)
  ParameterCount count;
};

/// Keys that differ only in their numeric components ("layers.0.mlp.weight",
/// "layers.1.mlp.weight", ...), collapsed into one pattern with '#' for each number.
struct LayerPattern {
  std::string pattern;  ///< "layers.#.mlp.weight"
  ParameterCount count;
};

/// One key of the training records with a short description of its value.
struct TrainingRecordItem {
  std::string key;
  std::string summary;  ///< "list of 100 numbers, 2.31 ... 0.118", "12", "dict of 3 keys", ...
};

struct ModelCard {
  std::string path;             ///< object path of the dict holding the state dict ("" for the root)
  std::string state_dict_path;  ///< object path of the state dict
  std::string class_name;       ///< meta.class_name, else the holder's format key ("" when neither)
  std::string config_type;      ///< the config dataclass ("MLPConfig"), "" when untyped or absent
  /// The config's fields in their order: scalars as they are, other values as compact JSON.
  std::vector<std::pair<std::string, Json>> config;
  ParameterCount total;
  /// meta.num_params, when present: what the library counted when it saved the model
  /// (trainable parameters only, so buffers make `total` larger).
  std::optional<std::uint64_t> recorded_parameters;
  std::vector<ModuleParameters> modules;  ///< in the state dict's order of first appearance
  std::vector<DtypeParameters> dtypes;    ///< most parameters first
  /// Patterns that stand for two or more keys, in order of first appearance.
  std::vector<LayerPattern> repeated;
  /// "training_records" (or "_training_records") found beside the state dict, even when null.
  bool has_training_records = false;
  bool training_records_null = false;
  std::vector<TrainingRecordItem> training_records;  ///< one per key (a list: one "records" item)
};

/// The model card of the first dict (in document order, the root first) that holds a state
/// dict: a key that is "state_dict" or ends in "state_dict" whose value is a dict with at least
/// one array. nullopt when the archive holds none.
std::optional<ModelCard> model_card(const ZanjFile& file);

/// summarize(file, largest) and model_card(file), what `info` shows: each walks the whole
/// tree, so with `threads` >= 2 and a large tree they walk it on two threads at once, or,
/// where no string of the document could start a card, the summary's walk alone takes the
/// `threads`. The results are the same; when both throw, summarize's error is the one thrown.
struct SummaryWithCard {
  Summary summary;
  std::optional<ModelCard> card;
};
SummaryWithCard summarize_with_card(const ZanjFile& file, std::size_t largest, unsigned threads);

/// "layers.#.mlp.weight" for "layers.12.mlp.weight": each all-digit component between dots
/// replaced by '#'.
std::string layer_pattern(std::string_view key);

}  // namespace zanj
