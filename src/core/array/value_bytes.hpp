#pragma once
// Array values as bytes: everything past the readers is little-endian C order, so the
// formatters, `raw` output and later consumers (diff, stats) see one layout. This is where
// stored big-endian values are turned around.
#include <bit>
#include <cstddef>
#include <string>

#include "array/dtype.hpp"

namespace zanj::array {

static_assert(std::endian::native == std::endian::little,
              "zanj reads array values in place as little-endian; big-endian hosts are not supported");

/// The same dtype with little-endian byte order (what the values are delivered as).
Dtype little_endian(const Dtype& dtype);

/// Swap each element of `dtype` in place (by Dtype::swap_unit()) when the dtype is big-endian;
/// does nothing otherwise. `size` must be a multiple of the itemsize.
void swap_to_little_endian(char* data, std::size_t size, const Dtype& dtype);
inline void swap_to_little_endian(std::string& data, const Dtype& dtype) {
  swap_to_little_endian(data.data(), data.size(), dtype);
}

}  // namespace zanj::array
