#include "summary/histogram.hpp"

#include <algorithm>
#include <cmath>

namespace zanj {

summary::HistogramAccumulator::HistogramAccumulator(std::size_t bins)
    : counts_(std::max<std::size_t>(2, bins + bins % 2)) {}

void summary::HistogramAccumulator::hold(double v) {
  seed_.push_back(v);
  if (seed_.size() == kSeedValues) start();
}

void summary::HistogramAccumulator::start() {
  const auto [lo, hi] = std::minmax_element(seed_.begin(), seed_.end());
  const long double span = static_cast<long double>(*hi) - *lo;
  const long double n = static_cast<long double>(counts_.size());
  // Equal seeds get a tiny range around them; a later different value widens it.
  width_ = span > 0 ? span / (n - 1) : std::max<long double>(std::fabs(*lo) * 1e-9L, 1e-300L) / n;
  lo_ = span > 0 ? *lo - width_ / 2 : *lo - width_ * (n / 2);
  started_ = true;
  cache();
  std::vector<double> seed;
  seed.swap(seed_);
  for (double v : seed) place(v);
}

void summary::HistogramAccumulator::cache() {
  fast_lo_ = static_cast<double>(lo_);
  fast_hi_ = static_cast<double>(lo_ + width_ * static_cast<long double>(counts_.size()));
  fast_scale_ = static_cast<double>(1 / width_);
  fast_n_ = static_cast<double>(counts_.size());
}

void summary::HistogramAccumulator::widen_to(double v) {
  const std::size_t n = counts_.size(), half = n / 2;
  while (v < lo_ || v >= lo_ + width_ * static_cast<long double>(n)) {
    const bool down = v < lo_;
    std::vector<std::uint64_t> merged(n, 0);
    for (std::size_t i = 0; i < n; ++i) merged[(down ? half : 0) + i / 2] += counts_[i];
    counts_.swap(merged);
    if (down) lo_ -= width_ * static_cast<long double>(n);
    width_ *= 2;
  }
  cache();
}

Histogram summary::HistogramAccumulator::result() const {
  if (!started_) {  // fewer than kSeedValues values: place them on a copy
    if (seed_.empty()) return {};
    summary::HistogramAccumulator copy(counts_.size());
    copy.seed_ = seed_;
    copy.min_ = min_;
    copy.max_ = max_;
    copy.start();
    return copy.result();
  }
  Histogram h;
  h.lo = static_cast<double>(lo_);
  h.hi = static_cast<double>(lo_ + width_ * static_cast<long double>(counts_.size()));
  h.counts = counts_;
  h.min = min_;
  h.max = max_;
  return h;
}

std::uint64_t Histogram::total() const {
  std::uint64_t t = 0;
  for (auto c : counts) t += c;
  return t;
}

Histogram rebin(const Histogram& h, std::size_t bins) {
  std::size_t first = 0, last = h.counts.size();
  while (first < last && h.counts[first] == 0) ++first;
  while (last > first && h.counts[last - 1] == 0) --last;
  if (first == last || bins == 0) return {};
  const double width = (h.hi - h.lo) / static_cast<double>(h.counts.size());
  const std::size_t occupied = last - first;
  Histogram out;
  out.lo = h.lo + width * static_cast<double>(first);
  out.hi = h.lo + width * static_cast<double>(last);
  out.min = h.min;
  out.max = h.max;
  out.counts.assign(std::min(bins, occupied), 0);
  // Each fine bin goes whole to the display bin holding its centre.
  for (std::size_t i = first; i < last; ++i) out.counts[(i - first) * out.counts.size() / occupied] += h.counts[i];
  return out;
}

}  // namespace zanj
