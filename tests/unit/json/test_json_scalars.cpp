#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "zanj/error.hpp"
#include "zanj/json.hpp"
#include "json/json_parse.hpp"
#include "test_support.hpp"

using namespace zanj;
using namespace zanj::json;

// Python 3.11's json.loads(bytes) is the oracle for every case below (docs/format.md).
using zanj::test::parses_as_json;

TEST_SUITE("json scalars") {
  TEST_CASE("NaN and Infinity are values, never keys; only Python's spelling") {
    CHECK(std::isnan(parse_json(R"({"a": NaN})", "t").find("a")->as_real()));
    CHECK_FALSE(parses_as_json("{NaN: 1}"));
    CHECK_FALSE(parses_as_json("{Infinity: 1}"));
    CHECK_FALSE(parses_as_json("[nan]"));
    CHECK_FALSE(parses_as_json("[inf]"));
    CHECK_FALSE(parses_as_json("[-NaN]"));
    CHECK_FALSE(parses_as_json("[+Infinity]"));
    CHECK(parse_json("-Infinity", "t").as_real() == -INFINITY);
  }

  TEST_CASE("numbers: Python's grammar, float() rounding, int digit limit") {
    CHECK(parse_json("1e400", "t").as_real() == INFINITY);
    CHECK(parse_json("-1e400", "t").as_real() == -INFINITY);
    CHECK(parse_json("1e-400", "t").as_real() == 0.0);
    const Json zero = parse_json("-0", "t");
    CHECK(zero.type() == Json::Type::integer);
    CHECK(zero.as_int64() == 0);
    CHECK(std::signbit(parse_json("-0.0", "t").as_real()));
    CHECK(parse_json("-9223372036854775808", "t").as_int64() == INT64_MIN);
    CHECK(parse_json("-9223372036854775809", "t").as_big_integer().digits == "-9223372036854775809");
    CHECK(parse_json("18446744073709551616", "t").as_big_integer().digits == "18446744073709551616");
    CHECK(parse_json("1E+2", "t").as_real() == 100.0);
    for (const char* bad : {"99999999999999999999-1", "01", "-01", "00", "+1", ".5", "1.", "1.e5", "0x10", "1e", "1e+",
                            "-", "--1", "1_000", "[1 2]"})
      CHECK_MESSAGE(!parses_as_json(bad), bad);
    const std::string max_digits(4300, '7');
    CHECK(parse_json(max_digits, "t").as_big_integer().digits == max_digits);
    CHECK(parse_json("-" + max_digits, "t").is_integer());
    CHECK_THROWS_WITH(parse_json(max_digits + "7", "t"), doctest::Contains("4301 digits"));
    CHECK(parses_as_json(max_digits + "7.0"));  // floats have no digit limit
  }

  TEST_CASE("strings: surrogates round-trip, control characters are refused") {
    const Json lone = parse_json(R"(["\ud800", "\udc00x", "\ud83d\ude00", "\ud800\u0041", "\uD800\uDC00"])", "t");
    const auto& a = lone.as_array();
    CHECK(a[0].as_string() == "\xED\xA0\x80");
    CHECK(a[2].as_string() == "\xF0\x9F\x98\x80");
    CHECK(a[3].as_string() ==
          "\xED\xA0\x80"
          "A");
    CHECK(a[4].as_string() == "\xF0\x90\x80\x80");
    CHECK(to_json(lone) == R"(["\ud800", "\udc00x", "😀", "\ud800A", "𐀀"])");
    CHECK(parse_json(to_json(lone), "t") == lone);
    // Encoded surrogates in the bytes are accepted ('surrogatepass') and kept.
    CHECK(parse_json("\"\xED\xA0\x80\"", "t").as_string() == "\xED\xA0\x80");
    CHECK_FALSE(parses_as_json("\"\xC0\x80\""));          // overlong
    CHECK_FALSE(parses_as_json("\"\xF4\x90\x80\x80\""));  // past U+10FFFF
    CHECK_FALSE(parses_as_json("\"\xE2\x82\""));          // truncated
    CHECK_FALSE(parses_as_json("\"a\tb\""));
    CHECK_FALSE(parses_as_json("\"a\nb\""));
    CHECK(
        parses_as_json("\"a\x7f"
                       "b\""));
    CHECK_FALSE(parses_as_json(R"("\x")"));
    CHECK_FALSE(parses_as_json(R"("\u12")"));
    CHECK_FALSE(parses_as_json(R"("\ud800\u12G4")"));
    CHECK(parse_json(R"("\/\b\f\n\r\t\"\\")", "t").as_string() == "/\b\f\n\r\t\"\\");
  }

  TEST_CASE("a token must be one scalar: what follows it is refused, as Python refuses extra data") {
    for (const char* bad : {"[truex]", "[nullnull]", "[1true]", "[\"a\"1]", "[\"a\" \"b\"]", "{\"a\":1 2}", "[NaNa]",
                            "[Infinityy]", "[-Infinity1]", "tru", "[t]"})
      CHECK_MESSAGE(!parses_as_json(bad), bad);
    CHECK(parse_json("[true,false,null]", "t") == Json(JsonArray{true, false, nullptr}));
    CHECK(std::isinf(parse_json("[ Infinity ]", "t").as_array()[0].as_real()));
  }

  TEST_CASE("encoded surrogates stay two code points, never joined into a pair") {
    // json.loads(b'["\xed\xa0\x80\xed\xb0\x80"]') == ['\ud800\udc00']: two lone surrogates.
    const Json j = parse_json("[\"\xED\xA0\x80\xED\xB0\x80\", {\"\xED\xB0\x80k\": 1}]", "t");
    CHECK(j.as_array()[0].as_string() == "\xED\xA0\x80\xED\xB0\x80");
    CHECK(j.as_array()[1].as_object()[0].first == "\xED\xB0\x80k");
    CHECK(to_json(j.as_array()[0]) == R"("\ud800\udc00")");
    CHECK_FALSE(parses_as_json("[\xED\xA0\x80]"));                             // outside a string it is no token
    CHECK(parse_json("\"\xEE\xA0\x80\"", "t").as_string() == "\xEE\xA0\x80");  // the mask's own byte is kept
  }
}
