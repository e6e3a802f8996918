#include "summary/stats_accumulator.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "array/array_reader.hpp"
#include "array/element_numbers.hpp"

namespace zanj {

void summary::StatsAccumulator::flush() {
  const std::size_t n = held_;
  held_ = 0;
  if (n == 0) return;
  // Neumaier's compensated sum, value by value in arrival order; once the sum overflows it
  // stays infinite, as numpy's does. A finite value added to an infinite sum leaves it
  // infinite, so a sum still finite after the block was finite at every step: the block is
  // summed without the per-value check (and with selects, not a branch, for the larger of the
  // two terms), and summed again with it only when the sum overflowed in it.
  // One loop for both: `checked` (a constant, so the fast loop has no test) leaves a step whose
  // sum overflowed uncompensated.
  const auto sum_block = [this, n](auto checked, double& sum, double& compensation) {
    for (std::size_t i = 0; i < n; ++i) {
      const double v = block_[i], t = sum + v;
      const bool sum_larger = std::fabs(sum) >= std::fabs(v);
      const double larger = sum_larger ? sum : v, smaller = sum_larger ? v : sum;
      if (!checked || std::isfinite(t)) compensation += (larger - t) + smaller;
      sum = t;
    }
  };
  double sum = sum_, compensation = compensation_;  // in registers: block_ could alias the members
  if (std::isfinite(sum)) sum_block(std::false_type{}, sum, compensation);
  if (!std::isfinite(sum)) {
    sum = sum_;
    compensation = compensation_;
    sum_block(std::true_type{}, sum, compensation);
  }
  sum_ = sum;
  compensation_ = compensation;
  if (wide_) {  // Welford, in long double
    wide_ = false;
    for (std::size_t i = 0; i < n; ++i) {
      const long double x = block_[i], delta = x - mean_;
      mean_ += delta / static_cast<long double>(++merged_);
      m2_ += delta * (x - mean_);
    }
    return;
  }
  // The block's mean and M2 in double, four partial sums to keep the adds independent: every
  // value lies in [kSmallest, kLargest] or is 0, so nothing overflows, and the corrected
  // two-pass form (M2 = sum d^2 - (sum d)^2 / n, d about the first-pass mean) loses almost
  // nothing to cancellation.
  // (Partial sums in named locals: as arrays they were kept in memory.)
  const double* x = block_;
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += x[i];
    s1 += x[i + 1];
    s2 += x[i + 2];
    s3 += x[i + 3];
  }
  for (; i < n; ++i) s0 += x[i];
  const double count = static_cast<double>(n), first = ((s0 + s1) + (s2 + s3)) / count;
  double d0 = 0, d1 = 0, d2 = 0, d3 = 0, q0 = 0, q1 = 0, q2 = 0, q3 = 0;
  for (i = 0; i + 4 <= n; i += 4) {
    const double e0 = x[i] - first, e1 = x[i + 1] - first, e2 = x[i + 2] - first, e3 = x[i + 3] - first;
    d0 += e0;
    d1 += e1;
    d2 += e2;
    d3 += e3;
    q0 += e0 * e0;
    q1 += e1 * e1;
    q2 += e2 * e2;
    q3 += e3 * e3;
  }
  for (; i < n; ++i) {
    const double e = x[i] - first;
    d0 += e;
    q0 += e * e;
  }
  const double dsum = (d0 + d1) + (d2 + d3), qsum = (q0 + q1) + (q2 + q3);
  const long double block_mean = static_cast<long double>(first) + static_cast<long double>(dsum) / count;
  const long double block_m2 =
      std::max(0.0L, static_cast<long double>(qsum) - static_cast<long double>(dsum) * dsum / count);
  // Chan et al.: two groups' mean and M2 combined.
  const long double a = static_cast<long double>(merged_), b = count, total = a + b;
  const long double delta = block_mean - mean_;
  mean_ += delta * (b / total);
  m2_ += block_m2 + delta * delta * (a * b / total);
  merged_ += n;
}

void summary::StatsAccumulator::add_nonfinite(double v) {
  if (std::isnan(v))
    ++nan_;
  else
    ++(v > 0 ? pos_inf_ : neg_inf_);
}

void summary::StatsAccumulator::add_integer(Int128 v) {
  ++count_;
  if (!min_ || v < min_->integer) min_ = Number::from_integer(v);
  if (!max_ || v > max_->integer) max_ = Number::from_integer(v);
  add_finite(static_cast<double>(v));
}

void summary::StatsAccumulator::add_complex(double re, double im) {
  ++count_;
  if (std::isnan(re) || std::isnan(im)) {
    ++nan_;
  } else if (std::isinf(re) || std::isinf(im)) {
    ++((std::isinf(re) ? re : im) > 0 ? pos_inf_ : neg_inf_);
  } else {
    ++finite_;
  }
}

void summary::StatsAccumulator::add(const Number& n) {
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

ArrayStats summary::StatsAccumulator::result(bool numeric) const {
  if (held_ > 0) {  // the values not merged yet: on a copy, so that more can still be added
    summary::StatsAccumulator merged = *this;
    merged.flush();
    return merged.result(numeric);
  }
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
  if (any_real_) {  // the reals' extremes, kept as doubles while adding
    if (!s.min || real_min_ < s.min->re) s.min = Number::from_real(real_min_);
    if (!s.max || real_max_ > s.max->re) s.max = Number::from_real(real_max_);
  }
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
  const array::Dtype& dtype = array::reader_of(values).dtype();
  const bool real = array::is_numeric(dtype) && dtype.kind != array::DtypeKind::complex;
  summary::StatsAccumulator acc;
  const array::NumberDecoder decode = array::number_decoder(dtype);
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
