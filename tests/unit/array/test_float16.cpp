#include <doctest/doctest.h>

#include <cmath>

#include "array/float16.hpp"

using namespace zanj;
using namespace zanj::array;

TEST_SUITE("float16") {
  TEST_CASE("bit patterns to values") {
    CHECK(half_to_float(0x3c00) == 1.0f);
    CHECK(half_to_float(0xc000) == -2.0f);
    CHECK(half_to_float(0x7bff) == 65504.0f);
    CHECK(half_to_float(0x0400) == std::ldexp(1.0f, -14));     // smallest normal
    CHECK(half_to_float(0x0001) == std::ldexp(1.0f, -24));     // smallest subnormal
    CHECK(half_to_float(0x03ff) == std::ldexp(1023.0f, -24));  // largest subnormal
    CHECK(half_to_float(0x3555) == doctest::Approx(0.33325195).epsilon(1e-7));
    CHECK(std::isinf(half_to_float(0x7c00)));
    CHECK(half_to_float(0xfc00) < 0);
    CHECK(std::isnan(half_to_float(0x7e00)));
    CHECK(std::isnan(half_to_float(0x7c01)));  // signalling NaN stays NaN
    CHECK(std::signbit(half_to_float(0x8000)));
    CHECK(half_to_float(0x8000) == 0.0f);
  }

  TEST_CASE("every half converts back to itself") {
    for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
      const auto h = static_cast<std::uint16_t>(bits);
      const float f = half_to_float(h);
      if (std::isnan(f)) continue;
      REQUIRE_MESSAGE(double_to_half(f) == h, "bits " << bits);
    }
  }

  TEST_CASE("rounding to nearest, ties to even") {
    CHECK(double_to_half(0.1) == 0x2e66);
    CHECK(double_to_half(2049.0) == double_to_half(2048.0));  // tie: down to the even 2048
    CHECK(double_to_half(2051.0) == double_to_half(2052.0));  // tie: up to the even 2052
    CHECK(double_to_half(2049.5) == double_to_half(2050.0));  // not a tie
    CHECK(double_to_half(65519.99) == 0x7bff);
    CHECK(double_to_half(65520.0) == 0x7c00);  // halfway to 2^16 rounds to infinity
    CHECK(double_to_half(-1e10) == 0xfc00);
    CHECK(double_to_half(INFINITY) == 0x7c00);
  }

  TEST_CASE("subnormals, zeros and NaN") {
    CHECK(double_to_half(std::ldexp(1.0, -25)) == 0x0000);     // half the smallest: tie to even zero
    CHECK(double_to_half(std::ldexp(3.0, -26)) == 0x0001);     // 0.75 units: up
    CHECK(double_to_half(std::ldexp(3.0, -25)) == 0x0002);     // 1.5 units: tie to even 2
    CHECK(double_to_half(std::ldexp(1023.5, -24)) == 0x0400);  // rounds up into the normals
    CHECK(double_to_half(1e-9) == 0x0000);
    CHECK(double_to_half(-1e-9) == 0x8000);
    CHECK(double_to_half(-0.0) == 0x8000);
    CHECK(double_to_half(NAN) == 0x7e00);
  }
}
