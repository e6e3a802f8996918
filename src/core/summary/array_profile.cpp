// profile_array: array_stats plus what a picture of the values needs (a histogram, a heatmap
// thumbnail, a count of zeros), from the same single pass.
#include <cmath>

#include "array/array_reader.hpp"
#include "array/element_numbers.hpp"
#include "summary/heatmap.hpp"
#include "summary/histogram.hpp"
#include "summary/stats_accumulator.hpp"

namespace zanj {

ArrayProfile profile_array(const Archive& archive, const ArrayNode& node, std::string_view path,
                           const ProfileOptions& options) {
  const ArrayValues values(archive, node, path);
  const Dtype& dtype = reader_of(values).dtype();
  const bool real = is_numeric(dtype) && dtype.kind != DtypeKind::complex;
  const NumberDecoder decode = number_decoder(dtype);
  StatsAccumulator stats;
  HistogramAccumulator histogram(options.bins);
  HeatmapAccumulator heatmap(values.shape(), real ? options.heatmap_side : 0);
  ArrayProfile profile;
  const std::size_t size = dtype.itemsize;
  if (size == 0) {  // zero-width strings: nothing to read, only to count
    for (std::uint64_t i = 0, n = select_all(values.shape()).count(); i < n; ++i) stats.add_other();
    profile.stats = stats.result(real);
    return profile;
  }
  values.stream(select_all(values.shape()), [&](std::string_view chunk) {
    const char* end = chunk.data() + chunk.size();
    for (const char* p = chunk.data(); p + size <= end; p += size) {
      if (!decode) {
        stats.add_other();
        continue;
      }
      const Number n = decode(p);
      stats.add(n);
      if (n.kind == Number::Kind::complex) continue;
      heatmap.add(n.re);
      if (!std::isfinite(n.re)) continue;
      histogram.add(n.re);
      if (n.re == 0) ++profile.zeros;
    }
    return true;
  });
  profile.stats = stats.result(real);
  profile.histogram = histogram.result();
  profile.heatmap = heatmap.result();
  return profile;
}

}  // namespace zanj
