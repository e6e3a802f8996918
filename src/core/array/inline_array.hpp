#pragma once
// Arrays stored inside __zanj__.json: nested JSON lists (array_list_meta), hex or base64 text
// of the raw bytes (array_hex_meta, array_b64_meta), or one scalar (zero_dim). Decoding checks
// that the node is consistent (dtype known, element count, nesting and byte length matching
// the shape) so that `cat` prints only what the node really holds and `verify` can report it.
#include <cstdint>
#include <string>
#include <vector>

#include "array/dtype.hpp"
#include "base/result.hpp"
#include "zanj/tree.hpp"

namespace zanj::array {

struct DecodedArray {
  Dtype dtype;  ///< as declared by the node (its byte order may be big)
  std::vector<std::uint64_t> shape;
  std::string values;  ///< prod(shape) * itemsize bytes, C order, little-endian
};

/// Decode an inline array node of any mode to its values. Throws Error (invalid) saying what
/// is wrong: unknown dtype, missing shape, n_elements disagreeing with the shape, data nested
/// differently from the shape, a value the dtype cannot hold, hex/base64 of the wrong length.
/// hex/b64 bytes are in the dtype's byte order (numpy's tobytes()) and are swapped if big.
DecodedArray decode_inline_array(const ArrayNode& node);
/// The same, or what is wrong (what decode_inline_array throws): for callers to whom an inline
/// array that does not decode is an answer (verify).
base::Result<DecodedArray> read_inline_array(const ArrayNode& node);

/// The float32 nearest to `value`, as numpy casts (values beyond the float range become
/// infinities instead of undefined behaviour).
float double_to_float(double value);

}  // namespace zanj::array
