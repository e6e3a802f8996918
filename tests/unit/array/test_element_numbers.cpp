#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstring>

#include "array/element_numbers.hpp"
#include "array/float16.hpp"

using namespace zanj;
using namespace zanj::array;

namespace {
template <typename T>
Number read(const char* descr, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  const NumberDecoder decode = number_decoder(parse_descr(descr));
  REQUIRE(static_cast<bool>(decode));
  return decode(bytes);
}
}  // namespace

TEST_SUITE("element_numbers") {
  TEST_CASE("integers stay exact, bools are 0 and 1") {
    CHECK(read("<i8", std::int64_t{-9007199254740993}).integer == Int128{-9007199254740993});
    CHECK(read("<u8", std::uint64_t{18446744073709551615u}).integer == Int128{18446744073709551615u});
    CHECK(read("|i1", std::int8_t{-128}).integer == -128);
    CHECK(read("<u2", std::uint16_t{65535}).integer == 65535);
    CHECK(read("|b1", std::uint8_t{1}).integer == 1);
    CHECK(read("|b1", std::uint8_t{0}).kind == Number::Kind::integer);
  }

  TEST_CASE("floats of every width, complex as pairs") {
    CHECK(read("<f8", 0.1).re == 0.1);
    CHECK(read("<f4", 0.1f).re == static_cast<double>(0.1f));
    CHECK(read("<f2", double_to_half(1.5)).re == 1.5);
    CHECK(std::isnan(read("<f4", std::nanf("")).re));
    const Number c = read("<c16", std::complex<double>(1, -2));
    CHECK((c.kind == Number::Kind::complex && c.re == 1 && c.im == -2));
    CHECK(read("<c8", std::complex<float>(0.5f, 3)).im == 3);
  }

  TEST_CASE("strings are not numbers") {
    CHECK_FALSE(static_cast<bool>(number_decoder(parse_descr("<U4"))));
    CHECK_FALSE(static_cast<bool>(number_decoder(parse_descr("|S4"))));
    CHECK_FALSE(is_numeric(parse_descr("|S4")));
    CHECK(is_numeric(parse_descr("|b1")));
    CHECK(is_numeric(parse_descr("<c8")));
  }
}
