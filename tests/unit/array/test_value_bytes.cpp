#include <doctest/doctest.h>

#include "array/value_bytes.hpp"

using namespace zanj;
using namespace zanj::array;
using namespace std::string_literals;

TEST_SUITE("value_bytes") {
  TEST_CASE("little_endian keeps everything but the order") {
    const Dtype big = parse_descr(">f8");
    const Dtype little = little_endian(big);
    CHECK(little.order == ByteOrder::little);
    CHECK(little.kind == big.kind);
    CHECK(little.itemsize == 8);
    CHECK(little_endian(parse_descr("|S3")).order == ByteOrder::none);
  }

  TEST_CASE("swapping by unit") {
    std::string ints = "\x00\x00\x01\x02\x00\x00\x00\x03"s;
    swap_to_little_endian(ints, parse_descr(">i4"));
    CHECK(ints == "\x02\x01\x00\x00\x03\x00\x00\x00"s);
    std::string complex = "\x3f\x80\x00\x00\x40\x00\x00\x00"s;  // >c8: 1 + 2j, parts swap separately
    swap_to_little_endian(complex, parse_descr(">c8"));
    CHECK(complex == "\x00\x00\x80\x3f\x00\x00\x00\x40"s);
    std::string text = "\x00\x00\x00\x61\x00\x00\x00\x62"s;  // >U2 "ab"
    swap_to_little_endian(text, parse_descr(">U2"));
    CHECK(text == "a\0\0\0b\0\0\0"s);
    std::string halves = "\x3c\x00"s;
    swap_to_little_endian(halves, parse_descr(">f2"));
    CHECK(halves == "\x00\x3c"s);
    std::string same = "\x01\x02"s;
    swap_to_little_endian(same, parse_descr("<i2"));
    swap_to_little_endian(same, parse_descr("|S2"));
    CHECK(same == "\x01\x02"s);
  }
}
