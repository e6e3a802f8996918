#pragma once
// The safetensors format (huggingface/safetensors, "Format"): an 8-byte little-endian length N,
// N bytes of JSON header {name: {"dtype", "shape", "data_offsets": [begin, end]}, ...,
// "__metadata__": {string: string}} padded with spaces to a multiple of 8, then the tensors'
// bytes, C order, little-endian, back to back in the order of their offsets.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "array/dtype.hpp"

namespace zanj {
class OutputBuffer;
}  // namespace zanj

namespace zanj::exporter {

struct SafetensorsTensor {
  std::string_view name;  ///< viewing the caller's (an export plan's) name
  std::string dtype;      ///< "F32", "I64", "BOOL", ...
  std::vector<std::uint64_t> shape;
  std::uint64_t bytes = 0;
};

/// The safetensors dtype of values delivered as `dtype` (little-endian numbers), or throws
/// Error (invalid) about the array `at` of `archive`, naming the dtype, for one safetensors
/// lacks (strings; complex unless `cast`, which appends an axis of 2 to `shape` and names the
/// part's float type).
std::string safetensors_dtype(const array::Dtype& dtype, bool cast, std::vector<std::uint64_t>& shape,
                              const InArchive& archive, const AtPath& at);

/// The "__metadata__" of a header: each key with what writes its string's text (not yet a
/// JSON string: the writer escapes it as it streams).
using SafetensorsMetadata = std::vector<std::pair<std::string, std::function<void(OutputBuffer&)>>>;

/// Write the length prefix and the padded JSON header for these tensors, laid out in order,
/// through `write`, a piece at a time: the header is produced twice (once to learn its length)
/// and never held whole, as the metadata of an archive of many arrays is megabytes of text.
/// Returns the bytes written.
std::uint64_t write_safetensors_header(const std::vector<SafetensorsTensor>& tensors,
                                       const SafetensorsMetadata& metadata,
                                       const std::function<void(std::string_view)>& write);

}  // namespace zanj::exporter
