#pragma once
// Floats as text at their own precision: the shortest decimal that reads back to the same
// float16, float32 or float64. JSON output uses it so that a float32 0.1 prints "0.1" (not
// 0.10000000149011612) and still round-trips; the numpy-like text layout uses the fixed and
// scientific forms. Texts are built in fixed buffers: formatting allocates nothing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace zanj::format {

enum class FloatPrecision { half, single, double_ };

/// Text of one number, held in place (long enough for any double written out in full).
struct FloatText {
  char data[400];
  std::size_t size = 0;
  std::string_view view() const { return {data, size}; }
};

/// Append a value as Python's json prints a float of that precision: shortest round-trip
/// digits, "1.0" rather than "1", NaN / Infinity / -Infinity tokens. `value` must already be a
/// value of that precision (a half or float widened to double).
void write_json_real(std::string& out, double value, FloatPrecision precision);

/// Shortest positional text ("0.1", "1", "-12.5": no exponent) that reads back to `value` at
/// `precision`. Finite values only.
FloatText shortest_fixed(double value, FloatPrecision precision);

/// Shortest scientific text ("1e-05", "1.5e+10") that reads back to `value` at `precision`.
/// Finite values only.
FloatText shortest_scientific(double value, FloatPrecision precision);

/// Positional text rounded to `fraction_digits` digits after the point ("0.33333333").
FloatText fixed_with_digits(double value, int fraction_digits);

/// Scientific text with `fraction_digits` digits after the mantissa's point ("3.33333333e-01").
FloatText scientific_with_digits(double value, int fraction_digits);

}  // namespace zanj::format
