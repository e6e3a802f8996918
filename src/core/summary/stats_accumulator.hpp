#pragma once
// What array_stats (zanj/array.hpp) keeps while the values stream past: one value at a time,
// constant memory.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "zanj/array.hpp"
#include "array/value_compare.hpp"

namespace zanj::summary {

/// The smallest and largest of some finite values, each the first of its equals in order: what
/// `if (v < min) min = v` one value at a time keeps (-0 and 0 compare equal but print apart).
struct Extremes {
  double min, max;
};

/// Of N > 0 finite values: four lanes of compares and selects (packed min and max, no branch
/// per value), then one scan for the first zero when an extreme is a zero, the only equal
/// values whose bits differ. N is a constant so that -O2 packs the loop.
template <std::size_t N>
inline Extremes extremes_of(const double (&v)[N]) {
  static_assert(N > 0 && N % 4 == 0);
  double lo0 = v[0], lo1 = v[0], lo2 = v[0], lo3 = v[0], hi0 = v[0], hi1 = v[0], hi2 = v[0], hi3 = v[0];
  for (std::size_t i = 0; i < N; i += 4) {
    lo0 = v[i] < lo0 ? v[i] : lo0;
    lo1 = v[i + 1] < lo1 ? v[i + 1] : lo1;
    lo2 = v[i + 2] < lo2 ? v[i + 2] : lo2;
    lo3 = v[i + 3] < lo3 ? v[i + 3] : lo3;
    hi0 = hi0 < v[i] ? v[i] : hi0;
    hi1 = hi1 < v[i + 1] ? v[i + 1] : hi1;
    hi2 = hi2 < v[i + 2] ? v[i + 2] : hi2;
    hi3 = hi3 < v[i + 3] ? v[i + 3] : hi3;
  }
  lo0 = lo1 < lo0 ? lo1 : lo0;
  lo2 = lo3 < lo2 ? lo3 : lo2;
  hi0 = hi0 < hi1 ? hi1 : hi0;
  hi2 = hi2 < hi3 ? hi3 : hi2;
  Extremes e{lo2 < lo0 ? lo2 : lo0, hi0 < hi2 ? hi2 : hi0};
  if (e.min == 0 || e.max == 0) {
    std::size_t i = 0;
    while (v[i] != 0) ++i;
    if (e.min == 0) e.min = v[i];
    if (e.max == 0) e.max = v[i];
  }
  return e;
}

/// Takes values one at a time (mean and variance, a compensated sum). The finite values are
/// gathered in blocks of kBlock; a full block is summed in order into the compensated sum
/// (Neumaier's, the same order as one value at a time), its own mean and squared deviations
/// are taken in double (two passes over the block, in cache), and it is merged into the
/// running mean and M2 with Chan et al.'s pairwise formula in long double: one long double
/// division per block instead of one per value (the per-value x87 division was most of a
/// report's statistics time).
/// The totals are long double: x86-64's 80-bit format (and the 128-bit one of other 64-bit
/// Linux targets) has 15 exponent bits, so differences and their squares cannot overflow or
/// underflow for any finite double, and subnormal inputs are exact. In double, [1e308,
/// -1e308] made `v - mean` infinite and the standard deviation NaN; so a block holding any
/// value outside [kSmallest, kLargest] (zero aside), where a double's squares could overflow
/// or lose precision, takes Welford's update in long double one value at a time instead.
class StatsAccumulator {
 public:
  void add_real(double v) {  // inline: once per value of a float array
    ++count_;
    if (!std::isfinite(v)) return add_nonfinite(v);
    any_real_ = true;
    if (v < real_min_) real_min_ = v;
    if (v > real_max_) real_max_ = v;
    add_finite(v);
  }
  /// Whether add_real would take the long double update for the block holding `v` (finite).
  static bool is_wide(double v) {
    const double a = std::fabs(v);
    return (a < kSmallest && v != 0) || a > kLargest;
  }
  /// `n` > 0 finite values with their extremes_of: the same totals as add_real on each in turn.
  /// `maybe_wide`: false when none of them is_wide.
  void add_finite_reals(const double* v, std::size_t n, Extremes e, bool maybe_wide) {
    count_ += n;
    finite_ += n;
    any_real_ = true;
    if (e.min < real_min_) real_min_ = e.min;
    if (e.max > real_max_) real_max_ = e.max;
    while (n > 0) {  // into the block, up to where it is full
      const std::size_t take = std::min(n, kBlock - held_);
      for (std::size_t i = 0; maybe_wide && i < take; ++i) wide_ |= is_wide(v[i]);
      std::copy(v, v + take, block_ + held_);
      held_ += take;
      v += take;
      n -= take;
      if (held_ == kBlock) flush();
    }
  }
  void add_integer(Int128 v);
  void add_complex(double re, double im);  ///< counted, and checked for NaN and infinities
  void add_other() { ++count_; }           ///< strings and bytes: counted only
  void add(const Number& n);               ///< by the number's kind
  /// What the values added so far give; `numeric` says how to read an array with no values.
  ArrayStats result(bool numeric) const;

 private:
  static constexpr std::size_t kBlock = 256;
  static constexpr double kSmallest = 1e-100, kLargest = 1e100;

  void add_finite(double v) {
    ++finite_;
    wide_ |= is_wide(v);
    block_[held_++] = v;
    if (held_ == kBlock) flush();
  }
  void flush();  // merge the block into the totals
  void add_nonfinite(double v);

  std::uint64_t count_ = 0, nan_ = 0, pos_inf_ = 0, neg_inf_ = 0, finite_ = 0;
  std::optional<Number> min_, max_;  // of integers (and of reals once merged, in result())
  bool any_real_ = false;
  double real_min_ = HUGE_VAL, real_max_ = -HUGE_VAL;
  std::uint64_t merged_ = 0;           // values in mean_ and m2_
  long double mean_ = 0, m2_ = 0;      // of the merged values
  double sum_ = 0, compensation_ = 0;  // Neumaier, of the merged values
  std::size_t held_ = 0;               // values in block_, not merged yet
  bool wide_ = false;                  // block_ holds a value for the long double update
  double block_[kBlock] = {};
};

}  // namespace zanj::summary
