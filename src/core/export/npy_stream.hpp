#pragma once
// One array of an export, opened: its bytes as an .npy file (an external member verbatim, so
// byte order, memory order and header stay exactly as stored; an inline array as numpy.save
// would write it, in its own byte order) or its values alone, C order, little-endian.
#include <cstdint>
#include <string>
#include <vector>

#include "array/dtype.hpp"
#include "export/export_plan.hpp"
#include "zanj/array.hpp"

namespace zanj::exporter {

class ExportedArray {
 public:
  /// Opens the array (ArrayValues: an external member's header is checked against its node).
  /// An inline array's values are decoded and held: open one at a time.
  ExportedArray(const Archive& archive, const ExportArray& array);

  /// An external array's member, whose bytes are its .npy file; null for an inline array.
  const ZipEntry* member() const { return entry_; }

  std::uint64_t npy_size() const;
  void stream_npy(const ChunkSink& sink) const;

  /// The delivered values' dtype (little-endian) and shape.
  const array::Dtype& dtype() const;
  const std::vector<std::uint64_t>& shape() const;
  std::uint64_t value_bytes() const;
  void stream_values(const ValueSink& sink) const;

 private:
  ExportedArray(const Archive& archive, const ExportArray& array, const ArrayNode& node);

  const Archive& archive_;
  ArrayValues values_;
  const ZipEntry* entry_ = nullptr;  ///< external arrays
  std::string header_;               ///< inline arrays: the .npy header written for them
};

}  // namespace zanj::exporter
