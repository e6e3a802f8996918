#pragma once
// What array_stats (zanj/array.hpp) keeps while the values stream past: one value at a time,
// constant memory.
#include <cstdint>
#include <optional>
#include <string_view>

#include "zanj/array.hpp"
#include "array/value_compare.hpp"

namespace zanj {

/// Takes values one at a time (Welford's update for mean and variance, a compensated sum).
/// Welford runs in long double: x86-64's 80-bit format (and the 128-bit one of other 64-bit
/// Linux targets) has 15 exponent bits, so `v - mean` and its square cannot overflow or
/// underflow for any finite double, and subnormal inputs are exact. In double, [1e308,
/// -1e308] made `v - mean` infinite and the standard deviation NaN.
class StatsAccumulator {
 public:
  void add_real(double v);
  void add_integer(Int128 v);
  void add_complex(double re, double im);  ///< counted, and checked for NaN and infinities
  void add_other() { ++count_; }           ///< strings and bytes: counted only
  void add(const Number& n);               ///< by the number's kind
  /// What the values added so far give; `numeric` says how to read an array with no values.
  ArrayStats result(bool numeric) const;

 private:
  void add_finite(double v);

  std::uint64_t count_ = 0, nan_ = 0, pos_inf_ = 0, neg_inf_ = 0, finite_ = 0;
  std::optional<Number> min_, max_;
  long double mean_ = 0, m2_ = 0;      // Welford
  double sum_ = 0, compensation_ = 0;  // Neumaier
};

}  // namespace zanj
