#pragma once
// Arrays: their values, wherever they are stored (inline in __zanj__.json in any mode, or in
// an .npy member, C or Fortran order, either byte order), parts of them selected with numpy's
// basic indexing, and their statistics.
//
// Whatever the storage, values come out the same way: whole elements, C order,
// little-endian, only the selected ones, streamed chunk by chunk (ArrayValues::stream) or
// copied into a caller's buffer (ArrayValues::read_into). An external member is inflated no
// further than the last selected value; an out-of-order read (Fortran order, negative steps)
// holds the member in memory when small, else spools it to an unlinked temporary file.
//
// Slices are written after an object path: "w[0:10]", "w[:, 3]", "w[-1]", "w[::2]",
// "w[1:-1:3, ...]". A slice is parsed once and resolved against a shape into a Selection
// (per axis: which indices, in output order). Every slicing error is the user's (a bad
// slice, an index out of range, too many indices) and is thrown as Error with Exit::usage.
#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/tree.hpp"

namespace zanj {

struct SliceItem {
  enum class Kind { index, range, ellipsis };
  Kind kind = Kind::range;
  std::int64_t index = 0;                         ///< Kind::index (may be negative)
  std::optional<std::int64_t> start, stop, step;  ///< Kind::range; nullopt where omitted
};

struct SliceSpec {
  std::vector<SliceItem> items;  ///< empty: everything
  std::string text;              ///< as written, for messages
  /// True when resolving needs the axis length up front: negative indices or bounds, or a
  /// negative step (tables and lists only learn their length by reading the member).
  bool needs_length() const;
};

/// Parse "[...]", brackets included: comma-separated integers, start:stop:step ranges (each
/// part optional) and at most one "...". Throws Error (usage) saying what is wrong.
SliceSpec parse_slice(std::string_view text);

/// Selected indices along one axis: start, start + step, ... (`count` of them).
struct Segment {
  std::uint64_t start = 0;
  std::int64_t step = 1;
  std::uint64_t count = 0;
  std::uint64_t at(std::uint64_t i) const {
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(start) + static_cast<std::int64_t>(i) * step);
  }
  bool operator==(const Segment&) const = default;
};

struct AxisSelection {
  std::vector<Segment> segments;  ///< in output order; two when a summary leaves a gap
  bool kept = true;               ///< false when an integer index dropped the axis
  std::uint64_t count() const;
};

struct Selection {
  std::vector<std::uint64_t> source_shape;
  std::vector<AxisSelection> axes;  ///< one per source axis

  std::vector<std::uint64_t> shape() const;  ///< the result's shape: counts of the kept axes
  std::uint64_t count() const;               ///< elements selected
  /// Every axis selects increasing indices, so a C-order source is read front to back.
  bool ascending() const;
  /// The selection is the whole array in its own order.
  bool everything() const;
};

/// Everything, in C order.
Selection select_all(const std::vector<std::uint64_t>& shape);

/// Resolve a slice against a shape with numpy's rules: negative indices count from the end,
/// range bounds are clipped, missing trailing axes are taken whole, an integer drops its axis.
Selection select(const SliceSpec& spec, const std::vector<std::uint64_t>& shape);

/// What a summarized print shows: along each result axis longer than 2 * edge_items, only the
/// first and last edge_items (two segments; the printer writes "..." between them).
Selection summarize(const Selection& selection, std::uint64_t edge_items);

/// The first / last n along the result's first axis. Throws Error (usage) for a 0-d result.
Selection take_head(const Selection& selection, std::uint64_t n);
Selection take_tail(const Selection& selection, std::uint64_t n);

/// Size of one array's values, from its dtype name and shape; nullopt when unknown.
std::optional<std::uint64_t> array_value_bytes(const std::string& dtype, const std::vector<std::uint64_t>& shape);

/// Limits on reading .npy members.
struct NpyLimits {
  /// Longest header dict accepted, in bytes; numpy's own default limit.
  std::size_t max_header_bytes = 10000;
};

struct ArrayReadOptions {
  /// Out-of-order reads of members larger than this spool to a temporary file.
  std::uint64_t max_in_memory_bytes = std::uint64_t{8} << 20;
  std::string spool_directory;  ///< "" means $TMPDIR, else /tmp
  NpyLimits npy;
  std::size_t chunk_bytes = std::size_t{1} << 20;  ///< about how much each sink call gets
  /// Called as an external member is inflated (optional): its bytes read so far and its size.
  /// A read that stops after the last selected value ends before the size is reached.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

/// Receives values: whole elements, C order, little-endian. Return false to stop reading.
using ValueSink = std::function<bool(std::string_view elements)>;

/// The values of one array node. Copyable (copies share the opened array); valid while the
/// Archive it reads from lives.
class ArrayValues {
 public:
  /// Open the array at object path `path` (used in messages). Inline nodes are decoded now;
  /// external ones have their .npy header read and checked against the node: dtype and shape
  /// must agree and the member must hold all the data. Throws Error (invalid) naming the
  /// archive, the path and what is wrong.
  ArrayValues(const Archive& archive, const ArrayNode& node, std::string_view path, ArrayReadOptions options = {});

  /// numpy's name for the delivered values' type, little-endian: "<f4", "|b1", "<U5", ...
  std::string dtype() const;
  /// Bytes per delivered element.
  std::size_t item_size() const;
  const std::vector<std::uint64_t>& shape() const;
  bool external() const;
  bool fortran_order() const;  ///< as stored (values are delivered in C order regardless)

  /// Stream the selected values (a Selection made for shape()) to `sink`. May be called more
  /// than once. Throws Error when member data is corrupt (CRC-32, truncation), possibly
  /// after some values were delivered.
  void stream(const Selection& selection, const ValueSink& sink) const;
  /// Copy the selected values into `destination`, which holds `capacity` bytes: at least
  /// selection.count() * item_size(), else Error (usage) before anything is read.
  void read_into(const Selection& selection, void* destination, std::size_t capacity) const;
  /// The selected values in a new buffer.
  std::vector<std::byte> read(const Selection& selection) const;

 private:
  friend struct PrivateAccess;
  class Reader;  // the opened array
  std::shared_ptr<const Reader> impl_;
};

/// An integer wide enough for any int64 or uint64 value, and their differences.
__extension__ typedef __int128 Int128;

/// One number from an array element or a JSON value. Integers stay integers so that 64-bit
/// values (beyond 2^53) compare exactly; bools are the integers 0 and 1.
struct Number {
  enum class Kind { integer, real, complex };
  Kind kind = Kind::integer;
  Int128 integer = 0;
  double re = 0, im = 0;  ///< real and complex (re is also set for integers, rounded)

  static Number from_integer(Int128 v) { return {Kind::integer, v, static_cast<double>(v), 0}; }
  static Number from_real(double v) { return {Kind::real, 0, v, 0}; }
  static Number from_complex(std::complex<double> v) { return {Kind::complex, 0, v.real(), v.imag()}; }
};

/// Text for a number: integers in decimal, reals as Python prints them, complex as "(1+2j)".
std::string number_text(const Number& n);

/// numpy.allclose's tolerances: a pair is close when |a - b| <= atol + rtol * |b|.
struct Tolerance {
  double rtol = 0;
  double atol = 0;
  bool exact() const { return rtol == 0 && atol == 0; }
  bool operator==(const Tolerance&) const = default;
};

/// Summary statistics of an array, streamed: one pass over the values, constant memory. min,
/// max, mean and std are over the finite values; NaNs and infinities are counted apart (as
/// numpy's nanmin/nanmax/nanmean/nanstd see an array with its infinities removed), so one
/// bad value does not hide what the others are.
struct ArrayStats {
  std::uint64_t count = 0;                          ///< elements
  bool numeric = false;                             ///< bool, integer or float (complex and strings: counts only)
  std::uint64_t nan = 0, pos_inf = 0, neg_inf = 0;  ///< complex: either part NaN / infinite
  std::uint64_t finite = 0;                         ///< the values min .. std are over
  std::optional<Number> min, max;                   ///< exact for integers
  std::optional<double> sum, mean, std;             ///< std is the population one (numpy's ddof=0)
};

/// Stream one array's values (inline or external, any byte order or layout) into ArrayStats.
/// `path` names the array in messages. Throws Error when the values cannot be read.
ArrayStats array_stats(const Archive& archive, const ArrayNode& node, std::string_view path);

}  // namespace zanj
