#pragma once
// IEEE 754 half precision (numpy's float16, torch.float16), converted by hand: C++20 has no
// half type, and the conversions must round exactly as numpy does so a value printed from a
// float16 array and read back lands on the same half.
#include <cstdint>

namespace zanj::array {

/// The value of a half given by its bit pattern; exact (every half is a float).
float half_to_float(std::uint16_t bits);

/// The half nearest to `value`, ties to even, as numpy's float64 -> float16 cast: values at or
/// past 65520 in magnitude become infinities, tiny ones subnormals or signed zero, NaN a
/// quiet NaN (0x7e00 with the value's sign).
std::uint16_t double_to_half(double value);

}  // namespace zanj::array
