#pragma once
// A histogram built in one pass over values whose range is not known in advance (the values
// of an .npy member stream past once). The choice, for `stats --hist` and `zanj report`:
//   - the first kSeedValues finite values are held back and give the first range [lo, hi);
//   - from then on every value lands in one of a fixed number of equal bins, and a value
//     outside the range widens it by doubling: adjacent bins are merged in pairs and the range
//     grows on the side of the value (bin edges stay aligned, so merging is exact: no value
//     ever moves to a bin that does not contain it);
//   - for display, rebin() keeps only the occupied bins and groups them into fewer columns.
// After widening the range is at most twice the values' span, so at least half the bins (128
// of 256) stay useful; memory is constant, and the work per value is a multiply and an add.
// Sketches with exponent-based bins (DDSketch) would keep relative accuracy across magnitudes,
// but weights are looked at on a linear axis, where equal-width bins are what people expect.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "zanj/summary.hpp"

namespace zanj::summary {

class HistogramAccumulator {
 public:
  static constexpr std::size_t kSeedValues = 1024;
  static constexpr std::size_t kMostPackedBins = 1u << 30;  // add_finite's bins fit an int32
  /// `bins` equal bins (at least 2, even).
  explicit HistogramAccumulator(std::size_t bins = 256);
  /// A finite value (callers count NaN and infinities themselves). Inline, and without long
  /// double work: it runs once per value of every array a report draws.
  void add(double v) {
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
    if (!started_) return hold(v);
    place(v);
  }
  /// N finite values in order, with their extremes (stats_accumulator.hpp): the same bins as
  /// add() on each in turn. Once the range is fixed and holds the run's extremes (every run,
  /// once the range fits the values), no value can widen it: the bins are worked out in one
  /// packed loop, each clamped with selects as place() clamps it with branches, then counted.
  template <std::size_t N>
  void add_finite(const double (&v)[N], double lowest, double highest) {
    if (!started_ || lowest < fast_lo_ || highest >= fast_hi_ || counts_.size() > kMostPackedBins) {
      for (const double x : v) add(x);
      return;
    }
    min_ = std::min(min_, lowest);
    max_ = std::max(max_, highest);
    const double lo = fast_lo_, scale = fast_scale_, top = fast_n_ - 1;
    std::int32_t bins[N];
    for (std::size_t i = 0; i < N; ++i) {
      double at = (v[i] - lo) * scale;
      at = at > 0 ? at : 0;  // at most 0 is bin 0, at or past the last bin is the last
      at = at < top ? at : top;
      bins[i] = static_cast<std::int32_t>(at);
    }
    std::uint64_t* counts = counts_.data();
    for (const std::int32_t bin : bins) ++counts[bin];
  }
  /// The bins so far: counts.size() bins over [lo, hi]; no bins when nothing was added.
  Histogram result() const;

 private:
  void hold(double v);      // a seed value
  void start();             // fix the first range from the seed values
  void widen_to(double v);  // double the range until v fits
  void place(double v) {    // count a value inside the range
    // Bounds compared as doubles, exactly as cached; a value on a rounded edge is clamped into
    // the nearest bin, never lost.
    if (v < fast_lo_ || v >= fast_hi_) widen_to(v);
    const double at = (v - fast_lo_) * fast_scale_;
    counts_[at > 0 ? (at < fast_n_ ? static_cast<std::size_t>(at) : counts_.size() - 1) : 0]++;
  }

  std::vector<double> seed_;
  std::vector<std::uint64_t> counts_;
  long double lo_ = 0, width_ = 0;  // bin width; long double: doubling never overflows
  // The range and 1 / width as doubles, for the per-value work (x87 division is slow).
  double fast_lo_ = 0, fast_hi_ = 0, fast_scale_ = 0, fast_n_ = 0;
  void cache();
  bool started_ = false;  // the range is fixed (width_ > 0)
  // Of the values added (the starting values give way to the first one).
  double min_ = std::numeric_limits<double>::infinity(), max_ = -std::numeric_limits<double>::infinity();
};

}  // namespace zanj::summary
