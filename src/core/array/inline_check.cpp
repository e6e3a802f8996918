#include "array/inline_check.hpp"

#include <limits>

#include "zanj/error.hpp"
#include "array/inline_array.hpp"

namespace zanj::array {

std::optional<std::string> check_inline_array(const ArrayNode& array) {
  if (array.external()) return std::nullopt;  // the .npy checks cover external arrays
  // One decoder judges inline arrays for every command: what `cat` can print is exactly
  // what `verify` accepts.
  const base::Result<DecodedArray> decoded = read_inline_array(array);
  if (!decoded) return decoded.why();
  return numpy_refusal(decoded->dtype, array.shape);
}

std::optional<std::string> numpy_refusal(const Dtype& dtype, const std::vector<std::uint64_t>& shape) {
  if (auto why = numpy_dtype_refusal(dtype)) return why;
  return numpy_shape_refusal(shape, dtype.itemsize);
}

std::optional<std::string> numpy_dtype_refusal(const Dtype& dtype) {
  if (dtype.itemsize != 0) return std::nullopt;
  return "dtype '" + dtype.descr() + "' has a zero itemsize, which numpy refuses";
}

std::optional<std::string> numpy_shape_refusal(const std::vector<std::uint64_t>& shape, std::uint32_t itemsize) {
  constexpr std::uint64_t kMaxIntp = std::numeric_limits<std::int64_t>::max();
  std::uint64_t bytes = itemsize == 0 ? 1 : itemsize;
  for (const std::uint64_t dim : shape) {
    if (dim > kMaxIntp) return "shape dimension " + std::to_string(dim) + " does not fit numpy's intp";
    if (dim == 0) continue;
    if (__builtin_mul_overflow(bytes, dim, &bytes) || bytes > kMaxIntp)
      return "shape is too big for numpy (its non-zero dimensions times the itemsize overflow intp)";
  }
  return std::nullopt;
}

}  // namespace zanj::array
