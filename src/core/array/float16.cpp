#include "array/float16.hpp"

#include <bit>
#include <cmath>

namespace zanj::array {

float half_to_float(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu;
  const std::uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in a float
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));  // inf, NaN
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

std::uint16_t double_to_half(double value) {
  const auto sign = static_cast<std::uint16_t>(std::signbit(value) ? 0x8000u : 0u);
  if (std::isnan(value)) return static_cast<std::uint16_t>(sign | 0x7e00u);
  const double magnitude = std::fabs(value);
  // 65520 lies halfway between the largest half (65504) and 2^16; ties to even round it up.
  if (magnitude >= 65520.0) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (magnitude < std::ldexp(1.0, -14)) {
    // Subnormal: the value in units of 2^-24, rounded once (scaling by 2^24 is exact).
    // A result of 1024 is the smallest normal, whose bit pattern is the same number.
    const double units = std::nearbyint(std::ldexp(magnitude, 24));
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(units));
  }
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // magnitude = m * 2^exponent, m in [0.5, 1)
  // 11 significant bits: scale into [1024, 2048) and round once, ties to even.
  double significand = std::nearbyint(std::ldexp(magnitude, 11 - exponent));
  if (significand == 2048.0) {  // rounded up into the next binade
    significand = 1024.0;
    ++exponent;
  }
  const int biased = exponent - 1 + 15;
  if (biased >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
  return static_cast<std::uint16_t>(sign | (biased << 10) | (static_cast<int>(significand) - 1024));
}

}  // namespace zanj::array
