#pragma once
// Comparing values the way numpy.allclose does, one pair at a time, and keeping score over
// many pairs (an array's elements, a table's cells, a list's items): how many differ, and the
// largest absolute and relative differences with where they are. `diff` is built on this.
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "zanj/array.hpp"
#include "zanj/json.hpp"

namespace zanj::array {

// Int128, Number, number_text and Tolerance are public (zanj/array.hpp).

/// The number a JSON value holds (integers of any size, reals, NaN and infinities); nullopt
/// for anything that is not a number (bools included: JSON keeps them apart).
std::optional<Number> json_number(const Json& value);
std::optional<Number> json_number(JsonView value);

/// What comparing one pair found.
struct PairResult {
  bool differ = false;
  /// |a - b| and |a - b| / |b| (infinite when b is 0 and a is not); nullopt when a NaN is
  /// involved, where no distance means anything.
  std::optional<double> abs_diff, rel_diff;
  /// |a - b| exactly, for two integers (a double rounds differences past 2^53).
  std::optional<Int128> exact_abs_diff;
};

/// Compare two numbers: integers exactly (their difference is exact, so a tolerance applies
/// to it without rounding), reals and mixed pairs as doubles, complex pairs by the magnitude
/// of their difference. Infinities are close only to the same infinity (as in numpy); NaN is
/// close to NaN when nan_equal (numpy's equal_nan), for complex when either part is NaN.
PairResult compare_numbers(const Number& a, const Number& b, const Tolerance& tolerance, bool nan_equal);

/// Deep equality of two JSON values with numbers compared by compare_numbers (object keys in
/// any order, lists element by element).
bool json_close(const Json& a, const Json& b, const Tolerance& tolerance, bool nan_equal);

/// Where a compared pair sits: an element's flat C-order index, a list item's index, or a
/// table's row with `column` numbering the column (the caller keeps the names).
struct Position {
  std::uint64_t index = 0;
  std::uint32_t column = 0;
};

/// Keeps score over many compared pairs.
class DeltaTracker {
 public:
  DeltaTracker(Tolerance tolerance, bool nan_equal) : tolerance_(tolerance), nan_equal_(nan_equal) {}

  /// Compare two numbers at `at`; true when they differ.
  bool numbers(const Number& a, const Number& b, Position at) { return numbers(a, b, at, tolerance_); }
  /// Same with another tolerance for this pair (a table column with its own --tol rule).
  bool numbers(const Number& a, const Number& b, Position at, const Tolerance& tolerance);
  /// Record a pair compared by other means (strings, bools, nested values); true when differ.
  bool other(bool equal, Position at);
  /// Record `n` pairs known equal without looking at them one by one (their bytes are
  /// identical), at consecutive positions from `first`; `numbers` when they are numbers, whose
  /// differences (0) then count for max_abs() and max_rel().
  void equal_run(std::uint64_t n, Position first, bool numbers);

  const Tolerance& tolerance() const { return tolerance_; }
  std::uint64_t compared() const { return compared_; }
  std::uint64_t differing() const { return differing_; }
  const std::optional<Position>& first_difference() const { return first_; }
  /// The largest |a - b| and |a - b| / |b| over all compared number pairs (close ones too),
  /// and the first position each was reached at; nullopt before any number pair.
  const std::optional<double>& max_abs() const { return max_abs_; }
  const std::optional<double>& max_rel() const { return max_rel_; }
  Position max_abs_at() const { return max_abs_at_; }
  Position max_rel_at() const { return max_rel_at_; }
  /// Whether the pair at max_abs_at() / max_rel_at() is itself a difference (with a tolerance,
  /// or NaNs, the largest distance may be between values that count as equal).
  bool max_abs_differs() const { return max_abs_differs_; }
  bool max_rel_differs() const { return max_rel_differs_; }
  /// max_abs() exactly when the pair it was reached at was two integers.
  const std::optional<Int128>& max_abs_exact() const { return max_abs_exact_; }

 private:
  void count(bool differ, Position at);

  Tolerance tolerance_;
  bool nan_equal_;
  std::uint64_t compared_ = 0, differing_ = 0;
  std::optional<Position> first_;
  std::optional<double> max_abs_, max_rel_;
  Position max_abs_at_, max_rel_at_;
  bool max_abs_differs_ = false, max_rel_differs_ = false;
  std::optional<Int128> max_abs_exact_;
};

}  // namespace zanj::array
