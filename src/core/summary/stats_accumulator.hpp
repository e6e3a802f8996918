#pragma once
// What array_stats (zanj/array.hpp) keeps while the values stream past: one value at a time,
// constant memory.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "zanj/array.hpp"
#include "array/value_compare.hpp"

namespace zanj::summary {

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
    const double a = std::fabs(v);
    wide_ |= (a < kSmallest && v != 0) || a > kLargest;
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
