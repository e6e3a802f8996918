#pragma once
// The accumulators behind profile_array (zanj/summary.hpp), fed with whole elements as they
// arrive: by profile_array from ArrayValues, or by zanj report from the bytes verify inflates.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "array/element_numbers.hpp"
#include "summary/heatmap.hpp"
#include "summary/histogram.hpp"
#include "summary/stats_accumulator.hpp"
#include "zanj/summary.hpp"

namespace zanj::summary {

class ProfileBuilder {
 public:
  /// Elements of `dtype` (little-endian, C order) of an array of `shape`. options.bins == 0:
  /// no histogram; options.heatmap_side == 0: no thumbnail.
  ProfileBuilder(const array::Dtype& dtype, const std::vector<std::uint64_t>& shape, const ProfileOptions& options);
  /// Whole elements: `bytes` is a multiple of the item size.
  void add(const char* data, std::size_t bytes);
  /// One element of a dtype of no bytes (zero-width strings).
  void add_empty() { stats_.add_other(); }
  ArrayProfile result() const;
  std::size_t item_size() const { return size_; }

 private:
  template <class Real>
  void add_reals(const char* data, std::size_t bytes);
  static constexpr std::size_t kRun = 256;  // values add_run takes at once
  template <class Real>
  void add_run(const char* data);  // kRun of them
  template <class Real>
  void add_values(const char* data, std::size_t count);  // one at a time

  bool real_;
  array::DtypeKind kind_;
  array::NumberDecoder decode_;
  std::size_t size_;
  StatsAccumulator stats_;
  std::optional<HistogramAccumulator> histogram_;
  HeatmapAccumulator heatmap_;
  std::uint64_t zeros_ = 0;
};

}  // namespace zanj::summary
