#include <doctest/doctest.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <random>

#include "array/float16.hpp"
#include "format/float_text.hpp"

using namespace zanj;
using namespace zanj::format;

namespace {
std::string json_of(double v, FloatPrecision p) {
  std::string out;
  write_json_real(out, v, p);
  return out;
}
double parse(const std::string& text) {
  double v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}
double half(double v) { return array::half_to_float(array::double_to_half(v)); }
}  // namespace

TEST_SUITE("float_text") {
  TEST_CASE("JSON text at each precision") {
    CHECK(json_of(half(0.1), FloatPrecision::half) == "0.1");
    CHECK(json_of(static_cast<float>(0.1), FloatPrecision::single) == "0.1");
    CHECK(json_of(0.1, FloatPrecision::double_) == "0.1");
    CHECK(json_of(static_cast<float>(0.1), FloatPrecision::double_) == "0.10000000149011612");
    CHECK(json_of(half(65504), FloatPrecision::half) == "6.55e+04");
    CHECK(json_of(half(2048), FloatPrecision::half) == "2048.0");
    CHECK(json_of(half(1), FloatPrecision::half) == "1.0");
    CHECK(json_of(half(-0.0), FloatPrecision::half) == "-0.0");
    CHECK(json_of(half(std::ldexp(1.0, -24)), FloatPrecision::half) == "6e-08");
    CHECK(json_of(NAN, FloatPrecision::half) == "NaN");
    CHECK(json_of(INFINITY, FloatPrecision::single) == "Infinity");
    CHECK(json_of(-INFINITY, FloatPrecision::half) == "-Infinity");
  }

  TEST_CASE("every finite half reads back from its JSON text") {
    for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
      const float v = array::half_to_float(static_cast<std::uint16_t>(bits));
      if (!std::isfinite(v)) continue;
      const std::string text = json_of(v, FloatPrecision::half);
      REQUIRE_MESSAGE(array::double_to_half(parse(text)) == bits, text);
      REQUIRE(text.find_first_of(".e") != std::string::npos);  // Python reads it as a float
    }
  }

  TEST_CASE("float32 text reads back at single precision") {
    std::mt19937 rng(7);
    std::uniform_int_distribution<std::uint32_t> any;
    for (int i = 0; i < 20000; ++i) {
      std::uint32_t bits = any(rng);
      float f;
      std::memcpy(&f, &bits, sizeof f);
      if (!std::isfinite(f)) continue;
      const std::string text = json_of(f, FloatPrecision::single);
      REQUIRE_MESSAGE(static_cast<float>(parse(text)) == f, text);
    }
  }

  TEST_CASE("fixed and scientific forms") {
    CHECK(shortest_fixed(0.1, FloatPrecision::double_).view() == "0.1");
    CHECK(shortest_fixed(static_cast<float>(1.0 / 3), FloatPrecision::single).view() == "0.33333334");
    CHECK(shortest_fixed(half(1.0 / 3), FloatPrecision::half).view() == "0.3333");
    CHECK(shortest_fixed(half(std::ldexp(1.0, -24)), FloatPrecision::half).view() == "0.00000006");
    CHECK(shortest_fixed(100.0, FloatPrecision::double_).view() == "100");
    CHECK(shortest_scientific(1e-5, FloatPrecision::double_).view() == "1e-05");
    CHECK(shortest_scientific(half(65504), FloatPrecision::half).view() == "6.55e+04");
    CHECK(fixed_with_digits(1.0 / 3, 8).view() == "0.33333333");
    CHECK(scientific_with_digits(1.0 / 3, 2).view() == "3.33e-01");
    CHECK(shortest_fixed(-1e300, FloatPrecision::double_).size == 302);  // fits the buffer
  }
}
