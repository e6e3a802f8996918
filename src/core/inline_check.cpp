#include "zanj/inline_check.hpp"

#include "zanj/error.hpp"
#include "zanj/inline_array.hpp"

namespace zanj {

std::optional<std::string> check_inline_array(const ArrayNode& array) {
  if (array.external()) return std::nullopt;  // the .npy checks cover external arrays
  try {
    // One decoder judges inline arrays for every command: what `cat` can print is exactly
    // what `verify` accepts.
    decode_inline_array(array);
    return std::nullopt;
  } catch (const Error& e) {
    return std::string(e.what());
  }
}

}  // namespace zanj
