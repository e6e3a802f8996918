#include <doctest/doctest.h>

#include "array/byte_codec.hpp"
#include "zanj/error.hpp"

using namespace zanj;
using namespace zanj::array;
using namespace std::string_literals;

TEST_SUITE("byte_codec") {
  TEST_CASE("hex") {
    CHECK(decode_hex("") == "");
    CHECK(decode_hex("00ff7fA0") == "\x00\xff\x7f\xa0"s);
    CHECK_THROWS_WITH_AS(decode_hex("abc"), doctest::Contains("odd number"), Error);
    CHECK_THROWS_WITH_AS(decode_hex("0g"), doctest::Contains("offset 1"), Error);
  }

  TEST_CASE("base64") {
    CHECK(decode_base64("") == "");
    CHECK(decode_base64("Zg==") == "f");
    CHECK(decode_base64("Zm8=") == "fo");
    CHECK(decode_base64("Zm9v") == "foo");
    CHECK(decode_base64("Zm9vYmFy") == "foobar");
    CHECK(decode_base64("AQAB") == "\x01\x00\x01"s);
    CHECK(decode_base64("+/+/") == "\xfb\xff\xbf"s);
    CHECK_THROWS_WITH_AS(decode_base64("Zm9"), doctest::Contains("multiple of 4"), Error);
    CHECK_THROWS_WITH_AS(decode_base64("Zm9*"), doctest::Contains("offset 3"), Error);
    CHECK_THROWS_AS(decode_base64("Zg==Zm9v"), Error);  // padding only at the end
    CHECK_THROWS_AS(decode_base64("Z=g="), Error);
    CHECK_THROWS_AS(decode_base64("Zm 9"), Error);
  }

  TEST_CASE("UTF-32 both ways") {
    std::string units;
    append_utf32le(units, "a\xc3\xa9\xf0\x9f\x98\x80");  // a, é, 😀
    CHECK(units == "a\0\0\0\xe9\0\0\0\x00\xf6\x01\0"s);
    std::string back;
    append_utf8_from_utf32le(back, units + std::string(8, '\0'));  // NUL padding is dropped
    CHECK(back == "a\xc3\xa9\xf0\x9f\x98\x80");
    back.clear();
    append_utf8_from_utf32le(back, "a\0\0\0\0\0\0\0b\0\0\0\0\0\0\0"s);  // an inner NUL stays
    CHECK(back == "a\0b"s);
    back.clear();
    append_utf8_from_utf32le(back, "\x00\xd8\0\0"s);  // a lone surrogate is not UTF-8
    CHECK(back == "\xef\xbf\xbd");
    CHECK_THROWS_AS(append_utf32le(units, "\xff"), Error);
  }

  TEST_CASE("Latin-1 bytes") {
    std::string out;
    append_utf8_from_latin1(out, "ab\xe9\0\0"s);
    CHECK(out == "ab\xc3\xa9");
  }
}
