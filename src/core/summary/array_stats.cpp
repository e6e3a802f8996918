#include "summary/stats_accumulator.hpp"

#include <cmath>

#include "array/array_reader.hpp"
#include "array/element_numbers.hpp"

namespace zanj {

void StatsAccumulator::add_finite(double v) {
  ++finite_;
  const long double x = v;
  const long double delta = x - mean_;
  mean_ += delta / static_cast<long double>(finite_);
  m2_ += delta * (x - mean_);
  // Neumaier's compensated sum; once the sum overflows it stays infinite, as numpy's does.
  const double t = sum_ + v;
  if (std::isfinite(t)) compensation_ += std::fabs(sum_) >= std::fabs(v) ? (sum_ - t) + v : (v - t) + sum_;
  sum_ = t;
}

void StatsAccumulator::add_real(double v) {
  ++count_;
  if (std::isnan(v)) {
    ++nan_;
    return;
  }
  if (std::isinf(v)) {
    ++(v > 0 ? pos_inf_ : neg_inf_);
    return;
  }
  if (!min_ || v < min_->re) min_ = Number::from_real(v);
  if (!max_ || v > max_->re) max_ = Number::from_real(v);
  add_finite(v);
}

void StatsAccumulator::add_integer(Int128 v) {
  ++count_;
  if (!min_ || v < min_->integer) min_ = Number::from_integer(v);
  if (!max_ || v > max_->integer) max_ = Number::from_integer(v);
  add_finite(static_cast<double>(v));
}

void StatsAccumulator::add_complex(double re, double im) {
  ++count_;
  if (std::isnan(re) || std::isnan(im)) {
    ++nan_;
  } else if (std::isinf(re) || std::isinf(im)) {
    ++((std::isinf(re) ? re : im) > 0 ? pos_inf_ : neg_inf_);
  } else {
    ++finite_;
  }
}

void StatsAccumulator::add(const Number& n) {
  switch (n.kind) {
    case Number::Kind::integer:
      add_integer(n.integer);
      return;
    case Number::Kind::real:
      add_real(n.re);
      return;
    case Number::Kind::complex:
      add_complex(n.re, n.im);
      return;
  }
}

ArrayStats StatsAccumulator::result(bool numeric) const {
  ArrayStats s;
  s.count = count_;
  s.numeric = numeric;
  s.nan = nan_;
  s.pos_inf = pos_inf_;
  s.neg_inf = neg_inf_;
  s.finite = finite_;
  if (!numeric || finite_ == 0) return s;
  s.min = min_;
  s.max = max_;
  s.sum = std::isfinite(sum_) ? sum_ + compensation_ : sum_;
  // The compensated sum gives the more accurate mean; Welford's running mean stands in when
  // the sum overflowed (values near the largest double).
  s.mean = std::isfinite(*s.sum) ? *s.sum / static_cast<double>(finite_) : static_cast<double>(mean_);
  // Rounded to double once, at the end: infinite only when the true value is beyond a double.
  s.std = static_cast<double>(std::sqrt(m2_ / static_cast<long double>(finite_)));
  return s;
}

ArrayStats array_stats(const Archive& archive, const ArrayNode& node, std::string_view path) {
  const ArrayValues values(archive, node, path);
  const Dtype& dtype = reader_of(values).dtype();
  const bool real = is_numeric(dtype) && dtype.kind != DtypeKind::complex;
  StatsAccumulator acc;
  const NumberDecoder decode = number_decoder(dtype);
  const std::size_t size = dtype.itemsize;
  if (size == 0) {  // zero-width strings: nothing to read, only to count
    for (std::uint64_t i = 0, n = select_all(values.shape()).count(); i < n; ++i) acc.add_other();
    return acc.result(real);
  }
  values.stream(select_all(values.shape()), [&](std::string_view chunk) {
    const char* end = chunk.data() + chunk.size();
    if (decode) {
      for (const char* p = chunk.data(); p + size <= end; p += size) acc.add(decode(p));
    } else {
      for (const char* p = chunk.data(); p + size <= end; p += size) acc.add_other();
    }
    return true;
  });
  return acc.result(real);
}

}  // namespace zanj
