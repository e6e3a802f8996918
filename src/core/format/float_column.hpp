#pragma once
// One column of floats printed the way numpy aligns them in str(array): every value shown is
// measured first, then one notation is chosen for all of them (numpy's rule: scientific when
// the magnitudes reach 1e8, go below 1e-4 or span more than a factor of 1000) and each value
// is padded so that the points line up. At most 8 digits after the point (numpy's precision);
// fewer when the value's shortest round-trip text at its own precision needs fewer.
#include <cstddef>
#include <string>
#include <string_view>

#include "format/float_text.hpp"

namespace zanj::format {

class FloatColumn {
 public:
  explicit FloatColumn(FloatPrecision precision) : precision_(precision) {}

  /// Measure one value (call for every value that will be written).
  void observe(double value);
  /// Choose the notation and widths; call once, after the last observe().
  void finish();
  bool scientific() const { return scientific_; }
  /// Characters each written value takes (without a suffix).
  std::size_t width() const { return width_; }

  /// Append `value` padded to width(). `suffix` ("j" for imaginary parts) goes right after the
  /// digits, before any padding on the right, as numpy writes "1.+0.5j" and "1.+1.j ".
  void write(std::string& out, double value, std::string_view suffix = {}) const;

 private:
  FloatPrecision precision_;
  double max_ = 0, min_ = 0;  // largest and smallest non-zero finite magnitudes
  bool any_nonzero_ = false, scientific_ = false;
  std::size_t fixed_left_ = 0, fixed_fraction_ = 0;                 // positional: widths around the point
  std::size_t sci_left_ = 0, sci_fraction_ = 0, sci_exponent_ = 0;  // scientific: the same, and "e+05"
  std::size_t special_width_ = 0, extra_left_ = 0, width_ = 0;      // nan, inf, -inf
};

}  // namespace zanj::format
