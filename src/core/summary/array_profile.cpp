// profile_array: array_stats plus what a picture of the values needs (a histogram, a heatmap
// thumbnail, a count of zeros), from the same single pass.
#include "summary/array_profile.hpp"

#include <cmath>
#include <cstring>

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
  for (const char *p = data, *end = data + bytes; p + sizeof(Real) <= end; p += sizeof(Real)) {
    Real value;
    std::memcpy(&value, p, sizeof value);
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
