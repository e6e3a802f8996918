#include "export/npy_stream.hpp"

#include <algorithm>

#include "array/array_reader.hpp"
#include "array/npy_header.hpp"
#include "zanj/error.hpp"

namespace zanj::exporter {

ExportedArray::ExportedArray(const Archive& archive, const ExportArray& array)
    : ExportedArray(archive, array, *classify(array.json).array) {}

ExportedArray::ExportedArray(const Archive& archive, const ExportArray& array, const ArrayNode& node)
    : archive_(archive), values_(archive, node, array.path) {
  const auto& reader = array::reader_of(values_);
  if (reader.external()) {
    entry_ = archive.find(node.member);
    if (!entry_)
      throw Error(InArchive{archive.name()}, AtPath{array.path}, "no member '" + node.member + "'", Exit::invalid)
          .in_member(InMember{node.member, true});
  } else {
    header_ = array::make_npy_header(reader.stored_dtype(), false, reader.shape());
  }
}

const array::Dtype& ExportedArray::dtype() const { return array::reader_of(values_).dtype(); }
const std::vector<std::uint64_t>& ExportedArray::shape() const { return values_.shape(); }

std::uint64_t ExportedArray::value_bytes() const { return select_all(shape()).count() * values_.item_size(); }

std::uint64_t ExportedArray::npy_size() const {
  return entry_ ? entry_->uncompressed_size : header_.size() + value_bytes();
}

void ExportedArray::stream_values(const ValueSink& sink) const { values_.stream(select_all(shape()), sink); }

void ExportedArray::stream_npy(const ChunkSink& sink) const {
  if (entry_) {
    archive_.read(*entry_, sink);
    return;
  }
  if (!sink(header_)) return;
  const array::Dtype& stored = array::reader_of(values_).stored_dtype();
  if (!stored.needs_byteswap()) {
    stream_values(sink);
    return;
  }
  // An inline array declared big-endian (">f8"): written back in that order, as numpy.save
  // would write the array the library loads.
  const std::uint32_t unit = stored.swap_unit();
  std::string swapped;
  stream_values([&](std::string_view chunk) {
    swapped.assign(chunk);
    for (std::size_t i = 0; i + unit <= swapped.size(); i += unit)
      std::reverse(swapped.begin() + static_cast<std::ptrdiff_t>(i),
                   swapped.begin() + static_cast<std::ptrdiff_t>(i + unit));
    return sink(swapped);
  });
}

}  // namespace zanj::exporter
