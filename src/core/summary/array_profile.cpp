// profile_array: array_stats plus what a picture of the values needs (a histogram, a heatmap
// thumbnail, a count of zeros), from the same single pass.
#include "summary/array_profile.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "array/array_reader.hpp"

namespace zanj {

summary::ProfileBuilder::ProfileBuilder(const array::Dtype& dtype, const std::vector<std::uint64_t>& shape,
                                        const ProfileOptions& options)
    : real_(array::is_numeric(dtype) && dtype.kind != array::DtypeKind::complex),
      kind_(dtype.kind),
      decode_(array::number_decoder(dtype)),
      size_(dtype.itemsize),
      heatmap_(shape, real_ ? options.heatmap_side : 0) {
  if (options.bins > 0) histogram_.emplace(options.bins);
}

template <class Real>
void summary::ProfileBuilder::add_reals(const char* data, std::size_t bytes) {
  std::size_t count = bytes / sizeof(Real);
  for (; count >= kRun; count -= kRun, data += kRun * sizeof(Real)) add_run<Real>(data);
  add_values<Real>(data, count);
}

template <class Real>
void summary::ProfileBuilder::add_run(const char* data) {
  // Converted to double in one loop and, when all are finite (the usual case), handed to each
  // accumulator whole: every loop over them is a plain one, of a constant count that -O2 packs
  // where the work allows, instead of one value passed through every accumulator in turn.
  using Bits = std::conditional_t<sizeof(Real) == 4, std::uint32_t, std::uint64_t>;
  static_assert(sizeof(Bits) == sizeof(Real) && std::numeric_limits<Real>::is_iec559);
  constexpr Bits kExponent = static_cast<Bits>(sizeof(Real) == 4 ? 0x7f800000u : 0x7ff0000000000000u);
  constexpr Bits kTop = Bits{1} << (8 * sizeof(Bits) - 1), kLowestExponentBit = kExponent & (~kExponent + 1);
  // Read in place, a value at a time through memcpy (unaligned loads, no copy of the run).
  const auto bits = [data](std::size_t i) {
    Bits b;
    std::memcpy(&b, data + i * sizeof b, sizeof b);
    return b;
  };
  // An exponent of all ones (NaN, infinity) carries into the top bit when its lowest bit is added.
  Bits nonfinite = 0;
  for (std::size_t i = 0; i < kRun; ++i) nonfinite |= (bits(i) & kExponent) + kLowestExponentBit;
  if ((nonfinite & kTop) != 0) return add_values<Real>(data, kRun);
  double values[kRun];
  for (std::size_t i = 0; i < kRun; ++i) {
    Real value;
    std::memcpy(&value, data + i * sizeof value, sizeof value);
    values[i] = value;
  }
  Bits zeros = 0;  // 0 and -0: no bit set but the sign
  for (std::size_t i = 0; i < kRun; ++i) zeros += static_cast<Bits>((bits(i) & ~kTop) == 0);
  zeros_ += zeros;
  // A float32 is never wide: its finite magnitudes lie in [1.4e-45, 3.5e38].
  bool wide = false;
  if constexpr (sizeof(Real) > 4)
    for (std::size_t i = 0; i < kRun; ++i) wide |= StatsAccumulator::is_wide(values[i]);
  const Extremes e = extremes_of(values);
  stats_.add_finite_reals(values, kRun, e, wide);
  heatmap_.add_finite(values, kRun);
  if (histogram_) histogram_->add_finite(values, e.min, e.max);
}

template <class Real>
void summary::ProfileBuilder::add_values(const char* data, std::size_t count) {
  for (const char* end = data + count * sizeof(Real); data < end; data += sizeof(Real)) {
    Real value;
    std::memcpy(&value, data, sizeof value);
    const double v = value;
    stats_.add_real(v);
    heatmap_.add(v);
    if (!std::isfinite(v)) continue;
    if (histogram_) histogram_->add(v);
    if (v == 0) ++zeros_;
  }
}

void summary::ProfileBuilder::add(const char* data, std::size_t bytes) {
  // float32 and float64, most of any checkpoint: the same steps without a Number per value.
  if (kind_ == array::DtypeKind::floating && size_ == 4) return add_reals<float>(data, bytes);
  if (kind_ == array::DtypeKind::floating && size_ == 8) return add_reals<double>(data, bytes);
  const char* end = data + bytes;
  for (const char* p = data; p + size_ <= end; p += size_) {
    if (!decode_) {
      stats_.add_other();
      continue;
    }
    const Number n = decode_(p);
    stats_.add(n);
    if (n.kind == Number::Kind::complex) continue;
    heatmap_.add(n.re);
    if (!std::isfinite(n.re)) continue;
    if (histogram_) histogram_->add(n.re);
    if (n.re == 0) ++zeros_;
  }
}

ArrayProfile summary::ProfileBuilder::result() const {
  ArrayProfile profile;
  profile.stats = stats_.result(real_);
  if (histogram_) profile.histogram = histogram_->result();
  profile.heatmap = heatmap_.result();
  profile.zeros = zeros_;
  return profile;
}

ArrayProfile profile_array(const Archive& archive, const ArrayNode& node, std::string_view path,
                           const ProfileOptions& options) {
  const ArrayValues values(archive, node, path);
  summary::ProfileBuilder builder(array::reader_of(values).dtype(), values.shape(), options);
  if (builder.item_size() == 0) {  // zero-width strings: nothing to read, only to count
    for (std::uint64_t i = 0, n = select_all(values.shape()).count(); i < n; ++i) builder.add_empty();
    return builder.result();
  }
  values.stream(select_all(values.shape()), [&](std::string_view chunk) {
    builder.add(chunk.data(), chunk.size());
    return true;
  });
  return builder.result();
}

}  // namespace zanj
