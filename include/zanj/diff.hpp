#pragma once
// Comparing the objects inside two archives (not their bytes), for regression gates: both
// trees are walked together by object path, and every difference found is one Difference.
// How values are stored (inline or external, compression, member order, the meta's
// timestamps) is not a difference unless options.strict.
//
// Numbers compare with numpy.allclose's rule, |a - b| <= atol + rtol * |b| (b is the second
// archive), exact by default (Tolerance, zanj/array.hpp). Arrays, external lists and tables are
// streamed from both archives chunk by chunk, so memory stays bounded whatever their sizes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/array.hpp"
#include "zanj/json.hpp"

namespace zanj {

/// `--tol PATH_GLOB=RTOL[,ATOL]`: a tolerance for the object paths matching a glob.
struct ToleranceRule {
  std::string glob;
  Tolerance tolerance;
};

/// Parse "PATH_GLOB=RTOL[,ATOL]" (split at the last '='; ATOL defaults to 0). Throws Error
/// (usage) unless both numbers are finite and not negative.
ToleranceRule parse_tolerance_rule(std::string_view spec);
/// Parse one tolerance number (--atol, --rtol): finite and not negative, else Error (usage).
double parse_tolerance_value(std::string_view text, std::string_view what);

struct DiffOptions {
  Tolerance tolerance;                ///< for every path no rule matches
  std::vector<ToleranceRule> rules;   ///< the last rule whose glob matches a path wins
  std::vector<std::string> excludes;  ///< globs; a matching path and everything below it is skipped
  bool nan_equal = true;              ///< NaN equals NaN (numpy's equal_nan)
  bool strict = false;                ///< storage and metadata count too
  bool stop_at_first = false;         ///< only whether they differ matters (`diff -q`)
  /// `diff --structure`: compare keys, node kinds, dtypes, shapes, list lengths and table
  /// columns; values (scalars, elements, items, rows) are not read.
  bool structure_only = false;
  std::size_t queue_bytes = std::size_t{4} << 20;  ///< read-ahead per streamed member
  /// Threads comparing arrays' values at once; 0: the CPUs this process may use. The report
  /// does not depend on it. One thread with stop_at_first (the first difference ends it).
  unsigned threads = 0;
};

/// The tolerance for an object path: the last matching rule's, else the global one. Globs
/// match like the shell's fnmatch without flags, so '*' also matches '/'.
Tolerance tolerance_for(const DiffOptions& options, std::string_view path);
/// True when an --exclude glob matches the path.
bool is_excluded(const DiffOptions& options, std::string_view path);

enum class DiffKind {
  added,          ///< only in b
  removed,        ///< only in a
  kind_changed,   ///< e.g. a dict became an array, or numpy.ndarray became torch.Tensor
  value_changed,  ///< a scalar (number, string, bool, null) differs
  dtype_changed,
  shape_changed,
  length_changed,   ///< lists and tables: item or row counts differ
  columns_changed,  ///< tables: column names differ
  array_values,     ///< some elements differ (see Difference::values)
  list_items,       ///< some items of a list of scalars or an external list differ
  table_rows,       ///< some rows of a table differ
  storage_changed,  ///< --strict only: inline/external, encoding, compression, member order
};
/// "added", "removed", "kind_changed", ... (the names the JSON report uses)
std::string_view diff_kind_name(DiffKind kind);

/// Where a difference is: in the object (__zanj__.json and its members), in the metadata
/// (--strict), or in the ZIP container itself (--strict: members and methods).
enum class DiffScope { object, meta, archive };
std::string_view diff_scope_name(DiffScope scope);

/// For array_values, list_items and table_rows: how many elements, items or rows differ, and
/// the largest absolute and relative differences between numbers with their positions
/// (C-order index per axis, item index, or [row, column name]).
struct ValueDifferences {
  std::string unit;  ///< "elements", "items" or "rows"
  std::uint64_t compared = 0, differing = 0;
  Json first_at;      ///< position of the first difference
  std::string first;  ///< what it is, e.g. "1.5 -> 1.75"
  std::optional<double> max_abs, max_rel;
  Json max_abs_at, max_rel_at;
  /// Whether the elements at max_abs_at / max_rel_at differ themselves (a tolerance or NaNs
  /// can put the largest distance between values that count as equal): the text report
  /// shows a maximum only where it is a difference.
  bool max_abs_differs = true, max_rel_differs = true;
  /// max_abs exactly, for integer arrays (a double would round differences past 2^53).
  std::optional<Int128> max_abs_integer;
  /// max_abs_integer when it fits in 64 bits, as machine-readable reports write it exactly.
  std::optional<std::uint64_t> max_abs_exact() const {
    if (!max_abs_integer || *max_abs_integer < 0 || *max_abs_integer > Int128{UINT64_MAX}) return std::nullopt;
    return static_cast<std::uint64_t>(*max_abs_integer);
  }
  Tolerance tolerance;  ///< the tolerance these values were compared with
};

struct Difference {
  DiffScope scope = DiffScope::object;
  std::string path;  ///< object path (member name for the archive scope)
  DiffKind kind = DiffKind::value_changed;
  Json a, b;  ///< what each side has: the scalar, dtype, shape, length or a description
  std::optional<ValueDifferences> values;
};

struct DiffReport {
  std::vector<Difference> differences;
  std::uint64_t nodes_compared = 0;     ///< tree nodes visited on both sides
  std::uint64_t elements_compared = 0;  ///< array elements, list items and table rows
  bool equal() const { return differences.empty(); }
};

/// Compare two opened archives. Throws Error when either cannot be read (a member is corrupt,
/// an array does not match its header, ...): a diff of unreadable data means nothing.
DiffReport diff_archives(const ZanjFile& a, const ZanjFile& b, const DiffOptions& options);

/// One line for a difference, like `h5diff -v`: "path: what" (the root is "/"; metadata and
/// archive paths start with "meta:" and "archive:").
std::string difference_text(const Difference& d);

}  // namespace zanj
