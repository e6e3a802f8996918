#include "format/float_column.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace zanj::format {
namespace {

constexpr int kMaxFractionDigits = 8;  // numpy's default print precision

/// A float's text split for alignment: sign and integer digits, fraction digits, exponent.
struct FloatParts {
  FloatText text;
  std::size_t point = 0, exponent = 0;  // positions of '.' and of 'e' (== size when none)
  std::size_t left() const { return point; }
  std::size_t fraction() const { return exponent - point - 1; }
  std::size_t exponent_size() const { return text.size - exponent; }
};

/// Make sure the mantissa has a point and no zeros after its last digit, as numpy writes "1."
/// and "1.5e+10". Works in the text's own buffer.
FloatParts split_float(const FloatText& text) {
  FloatParts p;
  p.text = text;
  char* s = p.text.data;
  std::size_t e = std::string_view(s, p.text.size).find('e');
  if (e == std::string_view::npos) e = p.text.size;
  std::size_t point = std::string_view(s, e).find('.');
  if (point == std::string_view::npos) {  // insert the point before the exponent
    std::memmove(s + e + 1, s + e, p.text.size - e);
    s[e] = '.';
    point = e++;
    ++p.text.size;
  }
  std::size_t end = e;
  while (end > point + 1 && s[end - 1] == '0') --end;
  std::memmove(s + end, s + e, p.text.size - e);
  p.text.size -= e - end;
  p.point = point;
  p.exponent = end;
  return p;
}

FloatParts positional(double v, FloatPrecision precision) {
  FloatText t = shortest_fixed(v, precision);
  const std::size_t point = t.view().find('.');
  if (point != std::string_view::npos && t.size - point - 1 > kMaxFractionDigits)
    t = fixed_with_digits(v, kMaxFractionDigits);
  return split_float(t);
}

FloatParts scientific_parts(double v, FloatPrecision precision) {
  FloatText t = shortest_scientific(v, precision);
  const std::string_view view = t.view();
  const std::size_t point = view.find('.'), e = view.find('e');
  if (point != std::string_view::npos && e - point - 1 > kMaxFractionDigits)
    t = scientific_with_digits(v, kMaxFractionDigits);
  return split_float(t);
}

}  // namespace

void FloatColumn::observe(double v) {
  if (!std::isfinite(v)) {
    special_width_ = std::max<std::size_t>(special_width_, std::isnan(v) || v > 0 ? 3 : 4);
    return;
  }
  const double magnitude = std::fabs(v);
  if (magnitude != 0) {
    max_ = std::max(max_, magnitude);
    min_ = any_nonzero_ ? std::min(min_, magnitude) : magnitude;
    any_nonzero_ = true;
  }
  // Both notations are measured: which one is used is known only after the last value.
  const FloatParts f = positional(v, precision_), s = scientific_parts(v, precision_);
  fixed_left_ = std::max(fixed_left_, f.left());
  fixed_fraction_ = std::max(fixed_fraction_, f.fraction());
  sci_left_ = std::max(sci_left_, s.left());
  sci_fraction_ = std::max(sci_fraction_, s.fraction());
  sci_exponent_ = std::max(sci_exponent_, s.exponent_size());
}

void FloatColumn::finish() {
  scientific_ = any_nonzero_ && (max_ >= 1e8 || min_ < 1e-4 || max_ / min_ > 1e3);
  const std::size_t numbers =
      scientific_ ? sci_left_ + 1 + sci_fraction_ + sci_exponent_ : fixed_left_ + 1 + fixed_fraction_;
  extra_left_ = special_width_ > numbers ? special_width_ - numbers : 0;
  width_ = std::max(numbers, special_width_);
}

void FloatColumn::write(std::string& out, double v, std::string_view suffix) const {
  if (!std::isfinite(v)) {
    const std::string_view text = std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
    out.append(width_ - text.size(), ' ');
    out += text;
    out += suffix;
    return;
  }
  const FloatParts p = scientific_ ? scientific_parts(v, precision_) : positional(v, precision_);
  const std::size_t left = scientific_ ? sci_left_ : fixed_left_;
  const std::size_t fraction = scientific_ ? sci_fraction_ : fixed_fraction_;
  out.append(extra_left_ + left - p.left(), ' ');
  out.append(p.text.data, p.exponent);
  if (scientific_) {  // zeros keep the mantissas aligned; the exponent follows
    out.append(fraction - p.fraction(), '0');
    out.append(p.text.data + p.exponent, p.exponent_size());
    out += suffix;
    out.append(sci_exponent_ - p.exponent_size(), ' ');
  } else {
    out += suffix;
    out.append(fraction - p.fraction(), ' ');
  }
}

}  // namespace zanj::format
