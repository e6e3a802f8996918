#pragma once
// Array elements as Numbers (value_compare.hpp), for the code that looks at values rather than
// printing them: `diff` compares elements of any two numeric dtypes with each other, `stats`
// accumulates them. Chosen once per array, called per element.
#include "array/dtype.hpp"
#include "array/value_compare.hpp"

namespace zanj::array {

/// Reads one little-endian element (as ArrayValues delivers them) as a Number.
using NumberDecoder = Number (*)(const char* element);

/// The decoder for a numeric dtype: bool (0 and 1), signed and unsigned integers (exact),
/// float16/32/64 (as doubles), complex64/128; nullptr for byte and unicode strings.
NumberDecoder number_decoder(const Dtype& dtype);

/// True for the dtypes number_decoder() can read.
bool is_numeric(const Dtype& dtype);

}  // namespace zanj::array
