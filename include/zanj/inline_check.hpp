#pragma once
// Structural checks of an inline array node (array_list_meta, array_hex_meta, array_b64_meta,
// zero_dim): does its data have the shape and byte length its dtype and shape say? verify uses
// it; it is the same decoder `cat` prints with, so the two commands never disagree.
#include <optional>
#include <string>

#include "zanj/tree.hpp"

namespace zanj {

/// Why an inline array node is inconsistent, or nullopt when it is fine (and for external
/// nodes, which the .npy checks cover). The verdict is decode_inline_array's (inline_array.hpp):
/// dtype known, shape valid, n_elements matching, nesting, leaf values and hex/base64 lengths.
std::optional<std::string> check_inline_array(const ArrayNode& array);

}  // namespace zanj
