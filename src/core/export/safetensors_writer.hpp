#pragma once
// The safetensors format (huggingface/safetensors, "Format"): an 8-byte little-endian length N,
// N bytes of JSON header {name: {"dtype", "shape", "data_offsets": [begin, end]}, ...,
// "__metadata__": {string: string}} padded with spaces to a multiple of 8, then the tensors'
// bytes, C order, little-endian, back to back in the order of their offsets.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "array/dtype.hpp"

namespace zanj::exporter {

struct SafetensorsTensor {
  std::string name;
  std::string dtype;  ///< "F32", "I64", "BOOL", ...
  std::vector<std::uint64_t> shape;
  std::uint64_t bytes = 0;
};

/// The safetensors dtype of values delivered as `dtype` (little-endian numbers), or throws
/// Error (invalid) about the array `at` of `archive`, naming the dtype, for one safetensors
/// lacks (strings; complex unless `cast`, which appends an axis of 2 to `shape` and names the
/// part's float type).
std::string safetensors_dtype(const array::Dtype& dtype, bool cast, std::vector<std::uint64_t>& shape,
                              const InArchive& archive, const AtPath& at);

/// Length prefix plus the padded JSON header for these tensors, laid out in order.
std::string safetensors_header(const std::vector<SafetensorsTensor>& tensors,
                               const std::vector<std::pair<std::string, std::string>>& metadata);

}  // namespace zanj::exporter
