#pragma once
// Selecting part of an array with numpy's basic indexing, written after an object path:
// "w[0:10]", "w[:, 3]", "w[-1]", "w[::2]", "w[1:-1:3, ...]". A slice is parsed once, resolved
// against a shape into a Selection (per axis: which indices, in output order). A RunCursor
// (run_cursor.hpp) turns a Selection into the runs of stored elements it covers.
//
// Every error here is the user's (a bad slice, an index out of range, too many indices) and is
// thrown as Error with Exit::usage.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

/// A shape as text for messages: "[32, 16]", "[]" for 0-d.
std::string shape_string(const std::vector<std::uint64_t>& shape);

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

}  // namespace zanj
