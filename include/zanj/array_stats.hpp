#pragma once
// Summary statistics of an array, streamed: one pass over the values, constant memory. min,
// max, mean and std are over the finite values; NaNs and infinities are counted apart (as
// numpy's nanmin/nanmax/nanmean/nanstd see an array with its infinities removed), so one
// bad value does not hide what the others are.
#include <cstdint>
#include <optional>
#include <string_view>

#include "zanj/archive.hpp"
#include "zanj/tree.hpp"
#include "array/value_compare.hpp"

namespace zanj {

struct ArrayStats {
  std::uint64_t count = 0;   ///< elements
  bool numeric = false;      ///< bool, integer or float (complex and strings: counts only)
  std::uint64_t nan = 0, pos_inf = 0, neg_inf = 0;  ///< complex: either part NaN / infinite
  std::uint64_t finite = 0;  ///< the values min .. std are over
  std::optional<Number> min, max;  ///< exact for integers
  std::optional<double> sum, mean, std;  ///< std is the population one (numpy's ddof=0)
};

/// Takes values one at a time (Welford's update for mean and variance, a compensated sum).
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
  double mean_ = 0, m2_ = 0;           // Welford
  double sum_ = 0, compensation_ = 0;  // Neumaier
};

/// Stream one array's values (inline or external, any byte order or layout) through a
/// StatsAccumulator. `path` names the array in messages. Throws Error when the values cannot
/// be read (see ArrayValues).
ArrayStats array_stats(const Archive& archive, const ArrayNode& node, std::string_view path);

}  // namespace zanj
