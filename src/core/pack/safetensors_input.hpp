#pragma once
// Reading a .safetensors file (huggingface/safetensors, "Format") as an input of `pack`: an
// 8-byte little-endian header length N, N bytes of JSON {name: {"dtype", "shape",
// "data_offsets": [begin, end]}, ..., "__metadata__": {string: string}}, then the tensors'
// bytes, C order, little-endian. The file is hostile until checked: the header is bounded
// before it is read, parsed by the core's JSON parser, and every tensor's offsets must tile the
// data exactly (in bounds, contiguous, no overlap, no gap) and match its shape times its
// dtype's size, so no byte is read twice or left unaccounted for.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "array/dtype.hpp"
#include "base/result.hpp"
#include "io/byte_source.hpp"

namespace zanj::pack {

struct SafetensorsLimits {
  /// Most bytes the JSON header may have (the safetensors library's own bound is 100 MB).
  std::uint64_t max_header_bytes = std::uint64_t{100} << 20;
  std::size_t max_json_depth = 64;
};

struct SafetensorsEntry {
  std::string name;
  std::string dtype_name;  ///< as the header names it: "F32", "BOOL", ...
  array::Dtype dtype;      ///< numpy's little-endian dtype for it
  std::vector<std::uint64_t> shape;
  std::uint64_t offset = 0;  ///< of its first byte, from the start of the file
  std::uint64_t bytes = 0;
};

struct SafetensorsContents {
  std::vector<SafetensorsEntry> tensors;                      ///< in the order of their data
  std::vector<std::pair<std::string, std::string>> metadata;  ///< "__metadata__", in its order
};

/// numpy's dtype for a safetensors dtype name, or why there is none: BF16 and the 8-bit floats
/// have no numpy dtype (named in the reason), anything else is not a safetensors dtype.
base::Result<array::Dtype> safetensors_numpy_dtype(std::string_view name);

/// The header of `source`, checked against the whole file; the failure says what is wrong
/// (without the file's name: the caller adds it).
base::Result<SafetensorsContents> read_safetensors(const io::ByteSource& source, const SafetensorsLimits& limits = {});

/// True when the first 9 bytes look like a safetensors file: a length, then '{'.
bool looks_like_safetensors(const io::ByteSource& source);

}  // namespace zanj::pack
