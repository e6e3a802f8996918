#include "array/value_compare.hpp"

#include "json/json_view_access.hpp"

#include <cmath>
#include <limits>

namespace zanj {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// Decimal digits (with an optional '-') into an Int128, or false when they do not fit.
bool parse_int128(std::string_view digits, Int128& out) {
  const bool negative = !digits.empty() && digits.front() == '-';
  if (negative) digits.remove_prefix(1);
  if (digits.empty() || digits.size() > 38) return false;  // 38 digits always fit 127 bits
  Int128 v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = negative ? -v : v;
  return true;
}

std::string int128_text(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string digits;
  while (v != 0) {
    const int d = static_cast<int>(v % 10);
    digits.push_back(static_cast<char>('0' + (d < 0 ? -d : d)));
    v /= 10;
  }
  if (negative) digits.push_back('-');
  return {digits.rbegin(), digits.rend()};
}

bool within(double abs_diff, double b_magnitude, const Tolerance& t) {
  return abs_diff <= t.atol + t.rtol * b_magnitude;
}

double relative(double abs_diff, double b_magnitude) {
  if (abs_diff == 0) return 0;
  if (b_magnitude == 0 || std::isinf(b_magnitude)) return kInfinity;
  return abs_diff / b_magnitude;
}

array::PairResult compare_integers(Int128 a, Int128 b, const Tolerance& t) {
  if (a == b) return {false, 0.0, 0.0, Int128{0}};
  const Int128 d = a - b;  // both within +-2^64: no overflow
  const Int128 exact = d < 0 ? -d : d;
  const double abs_diff = static_cast<double>(exact);
  const double b_magnitude = static_cast<double>(b < 0 ? -b : b);
  return {!within(abs_diff, b_magnitude, t), abs_diff, relative(abs_diff, b_magnitude), exact};
}

array::PairResult compare_complex(std::complex<double> a, std::complex<double> b, const Tolerance& t, bool nan_equal) {
  const bool nan_a = std::isnan(a.real()) || std::isnan(a.imag());
  const bool nan_b = std::isnan(b.real()) || std::isnan(b.imag());
  if (nan_a || nan_b) return {!(nan_a && nan_b && nan_equal), std::nullopt, std::nullopt, std::nullopt};
  const bool inf_a = std::isinf(a.real()) || std::isinf(a.imag());
  const bool inf_b = std::isinf(b.real()) || std::isinf(b.imag());
  if (inf_a || inf_b) {  // close only to the very same infinity
    if (a == b) return {false, 0.0, 0.0, std::nullopt};
    return {true, kInfinity, kInfinity, std::nullopt};
  }
  const double abs_diff = std::abs(a - b);
  const double b_magnitude = std::abs(b);
  return {!within(abs_diff, b_magnitude, t), abs_diff, relative(abs_diff, b_magnitude), std::nullopt};
}

array::PairResult compare_reals(double a, double b, const Tolerance& t, bool nan_equal) {
  if (std::isnan(a) || std::isnan(b))
    return {!(std::isnan(a) && std::isnan(b) && nan_equal), std::nullopt, std::nullopt, std::nullopt};
  if (std::isinf(a) || std::isinf(b)) {
    if (a == b) return {false, 0.0, 0.0, std::nullopt};
    return {true, kInfinity, kInfinity, std::nullopt};
  }
  const double abs_diff = std::fabs(a - b);
  const double b_magnitude = std::fabs(b);
  return {!within(abs_diff, b_magnitude, t), abs_diff, relative(abs_diff, b_magnitude), std::nullopt};
}

}  // namespace

std::optional<Number> array::json_number(const Json& value) { return array::json_number(json::view_of(value)); }

std::optional<Number> array::json_number(JsonView value) {
  switch (value.type()) {
    case Json::Type::integer:
      return Number::from_integer(value.as_int64());
    case Json::Type::unsigned_integer:
      return Number::from_integer(value.as_uint64());
    case Json::Type::big_integer: {
      Int128 v = 0;
      if (parse_int128(value.big_integer_digits(), v)) return Number::from_integer(v);
      return Number::from_real(value.to_double());
    }
    case Json::Type::real:
      return Number::from_real(value.as_real());
    default:
      return std::nullopt;
  }
}

std::string number_text(const Number& n) {
  std::string out;
  switch (n.kind) {
    case Number::Kind::integer:
      return int128_text(n.integer);
    case Number::Kind::real:
      write_json_double(out, n.re);
      return out;
    case Number::Kind::complex:
      out = "(";
      write_json_double(out, n.re);
      if (!(n.im < 0)) out += '+';
      write_json_double(out, n.im);
      return out + "j)";
  }
  return out;
}

array::PairResult array::compare_numbers(const Number& a, const Number& b, const Tolerance& tolerance, bool nan_equal) {
  using K = Number::Kind;
  if (a.kind == K::complex || b.kind == K::complex)
    return compare_complex({a.re, a.im}, {b.re, b.im}, tolerance, nan_equal);
  if (a.kind == K::integer && b.kind == K::integer) return compare_integers(a.integer, b.integer, tolerance);
  return compare_reals(a.re, b.re, tolerance, nan_equal);
}

bool array::json_close(const Json& a, const Json& b, const Tolerance& tolerance, bool nan_equal) {
  const auto na = array::json_number(a), nb = array::json_number(b);
  if (na || nb) return na && nb && !array::compare_numbers(*na, *nb, tolerance, nan_equal).differ;
  if (a.type() != b.type()) return false;
  if (a.is_array()) {
    const auto &x = a.as_array(), &y = b.as_array();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!array::json_close(x[i], y[i], tolerance, nan_equal)) return false;
    return true;
  }
  if (a.is_object()) {
    const auto &x = a.as_object(), &y = b.as_object();
    if (x.size() != y.size()) return false;
    for (const auto& [key, value] : x) {
      const Json* other = b.find(key);
      if (!other || !array::json_close(value, *other, tolerance, nan_equal)) return false;
    }
    return true;
  }
  return a == b;  // strings, bools, null
}

void array::DeltaTracker::count(bool differ, array::Position at) {
  ++compared_;
  if (!differ) return;
  ++differing_;
  if (!first_) first_ = at;
}

bool array::DeltaTracker::numbers(const Number& a, const Number& b, array::Position at, const Tolerance& tolerance) {
  const array::PairResult r = array::compare_numbers(a, b, tolerance, nan_equal_);
  if (r.abs_diff && (!max_abs_ || *r.abs_diff > *max_abs_)) {
    max_abs_ = r.abs_diff;
    max_abs_at_ = at;
    max_abs_differs_ = r.differ;
    max_abs_exact_ = r.exact_abs_diff;
  }
  if (r.rel_diff && (!max_rel_ || *r.rel_diff > *max_rel_)) {
    max_rel_ = r.rel_diff;
    max_rel_at_ = at;
    max_rel_differs_ = r.differ;
  }
  count(r.differ, at);
  return r.differ;
}

void array::DeltaTracker::equal_run(std::uint64_t n, array::Position first, bool numbers) {
  if (n == 0) return;
  compared_ += n;
  if (!numbers) return;
  if (!max_abs_) {
    max_abs_ = 0.0;
    max_abs_at_ = first;
    max_abs_exact_.reset();  // equal bytes say nothing about whether these are integers
  }
  if (!max_rel_) {
    max_rel_ = 0.0;
    max_rel_at_ = first;
  }
}

bool array::DeltaTracker::other(bool equal, array::Position at) {
  count(!equal, at);
  return !equal;
}

}  // namespace zanj
