#pragma once
// Structural checks of an inline array node (array_list_meta, array_hex_meta, array_b64_meta,
// zero_dim): does its data have the shape and byte length its dtype and shape say? verify uses
// it; it decodes nothing, so it costs one walk over the data.
#include <optional>
#include <string>

#include "zanj/tree.hpp"

namespace zanj {

/// Why an inline array node is inconsistent, or nullopt when it is fine (and for external
/// nodes, which the .npy checks cover). Checked: the dtype is known; the shape is a list of
/// non-negative integers; n_elements, when present, is the product of the shape; nested list
/// data has one level per dimension with the right lengths and scalar leaves (a complex
/// element may be a [re, im] pair, a bytes element a list of byte values); hex data is 2 * elements * itemsize hex digits; base64
/// data is valid standard base64 decoding to elements * itemsize bytes; zero_dim data is a
/// scalar with shape [].
std::optional<std::string> check_inline_array(const ArrayNode& array);

}  // namespace zanj
