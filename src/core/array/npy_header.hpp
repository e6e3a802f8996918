#pragma once
// Reading and writing the header of a `.npy` member (numpy's format 1.0,
// 2.0 and 3.0). Only the header: the data after it is raw elements, and the
// callers decide how to stream them. The parser treats its input as hostile
// (archives come from anywhere; it is fuzzed), so it never evaluates the
// Python literal, only recognises the small subset numpy writes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "array/dtype.hpp"
#include "base/result.hpp"

#include "zanj/array.hpp"

namespace zanj::array {

// NpyLimits is public (zanj/array.hpp).

struct NpyHeader {
  int major = 1, minor = 0;
  Dtype dtype;
  bool fortran_order = false;
  std::vector<std::uint64_t> shape;
  std::uint64_t data_offset = 0;  ///< bytes from the start of the member to the first data byte

  /// Product of shape (1 for a 0-d array), or why not: it overflows.
  base::Result<std::uint64_t> checked_element_count() const;
  /// element_count() * itemsize, or why not: it overflows.
  base::Result<std::uint64_t> checked_data_bytes() const;
  /// The same, throwing the failure as an Error.
  std::uint64_t element_count() const;
  std::uint64_t data_bytes() const;
};

/// Bytes needed to hold the whole header (prefix + dict), from the first
/// 12 bytes (magic, version, length; 10 suffice for version 1.0). Fails on
/// too few bytes, bad magic or version, or a header longer than
/// limits.max_header_bytes.
base::Result<std::uint64_t> read_npy_header_size(std::string_view first_bytes, const NpyLimits& limits = {});
/// The same, throwing the failure as an Error.
std::uint64_t npy_header_size(std::string_view first_bytes, const NpyLimits& limits = {});

/// Parse a complete header; `bytes` holds at least npy_header_size(...)
/// bytes (more is fine, nothing past the header is read). Fails on
/// anything malformed, and on shapes whose size overflows 64 bits.
base::Result<NpyHeader> read_npy_header(std::string_view bytes, const NpyLimits& limits = {});
/// The same, throwing the failure as an Error.
NpyHeader parse_npy_header(std::string_view bytes, const NpyLimits& limits = {});

/// Serialize a header exactly as numpy.save does: version 1.0 (2.0 when the
/// dict does not fit a 2-byte length), keys sorted, spare spaces for the
/// growth axis, padded with spaces and '\n' so data starts at a multiple
/// of 64.
std::string make_npy_header(const Dtype& dtype, bool fortran_order, const std::vector<std::uint64_t>& shape);

}  // namespace zanj::array
