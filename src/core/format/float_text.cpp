#include "format/float_text.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

#include "array/float16.hpp"
#include "zanj/json.hpp"

namespace zanj::format {
namespace {

bool same_at_precision(double parsed, double value, FloatPrecision precision) {
  switch (precision) {
    case FloatPrecision::half:
      return array::double_to_half(parsed) == array::double_to_half(value);
    case FloatPrecision::single:
      return static_cast<float>(parsed) == static_cast<float>(value);
    case FloatPrecision::double_:
      return parsed == value;
  }
  return false;
}

/// `value` in `format` with `digits` of precision; false when the text does not read back to
/// the same value at `precision`.
bool format_round_trips(double value, std::chars_format format, int digits, FloatPrecision precision, FloatText& out) {
  const auto result = std::to_chars(out.data, out.data + sizeof out.data, value, format, digits);
  if (result.ec != std::errc()) return false;
  out.size = static_cast<std::size_t>(result.ptr - out.data);
  double parsed = 0;
  const auto back = std::from_chars(out.data, result.ptr, parsed);
  return back.ec == std::errc() && same_at_precision(parsed, value, precision);
}

/// The shortest text of `format` for a half: more digits until one reads back (a half needs at
/// most 5 significant digits; the smallest subnormal written out needs 24 after the point).
FloatText shortest_half(double value, std::chars_format format, int first, int last) {
  FloatText text;
  for (int digits = first; digits <= last; ++digits)
    if (format_round_trips(value, format, digits, FloatPrecision::half, text)) break;
  return text;
}

template <typename Float>
FloatText shortest_of(Float value, std::chars_format format) {
  FloatText text;
  const auto result = std::to_chars(text.data, text.data + sizeof text.data, value, format);
  if (result.ec == std::errc()) text.size = static_cast<std::size_t>(result.ptr - text.data);
  return text;
}

/// The shortest `format` text that reads back as `value` at `precision`; a half tries up to
/// `half_digits` digits (its shortest form is searched, to_chars knows no half type).
FloatText shortest_in(double value, FloatPrecision precision, std::chars_format format, int half_digits) {
  switch (precision) {
    case FloatPrecision::double_:
      return shortest_of(value, format);
    case FloatPrecision::single:
      return shortest_of(static_cast<float>(value), format);
    case FloatPrecision::half:
      break;
  }
  return shortest_half(value, format, 0, half_digits);
}

}  // namespace

void write_json_real(std::string& out, double value, FloatPrecision precision) {
  switch (precision) {
    case FloatPrecision::double_:
      write_json_double(out, value);
      return;
    case FloatPrecision::single:
      write_json_float(out, static_cast<float>(value));
      return;
    case FloatPrecision::half:
      break;
  }
  if (!std::isfinite(value)) {
    write_json_double(out, value);  // the NaN / Infinity tokens
    return;
  }
  // %g-style text with the fewest significant digits that read back to the same half.
  const FloatText text = shortest_half(value, std::chars_format::general, 1, 17);
  out.append(text.view());
  if (text.view().find_first_of(".e") == std::string_view::npos) out += ".0";  // Python prints floats so
}

FloatText shortest_fixed(double value, FloatPrecision precision) {
  return shortest_in(value, precision, std::chars_format::fixed, 30);
}

FloatText shortest_scientific(double value, FloatPrecision precision) {
  return shortest_in(value, precision, std::chars_format::scientific, 16);
}

FloatText fixed_with_digits(double value, int fraction_digits) {
  FloatText text;
  const auto r =
      std::to_chars(text.data, text.data + sizeof text.data, value, std::chars_format::fixed, fraction_digits);
  if (r.ec == std::errc()) text.size = static_cast<std::size_t>(r.ptr - text.data);
  return text;
}

FloatText scientific_with_digits(double value, int fraction_digits) {
  FloatText text;
  const auto r =
      std::to_chars(text.data, text.data + sizeof text.data, value, std::chars_format::scientific, fraction_digits);
  if (r.ec == std::errc()) text.size = static_cast<std::size_t>(r.ptr - text.data);
  return text;
}

}  // namespace zanj::format
