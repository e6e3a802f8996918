#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "zanj/error.hpp"
#include "array/float16.hpp"
#include "array/inline_array.hpp"
#include "zanj/json.hpp"
#include "json/json_parse.hpp"
#include "object/tree_json.hpp"

using namespace zanj;
using namespace zanj::array;
using namespace std::string_literals;

namespace {
/// Decode an inline node given as the JSON text of its other keys.
DecodedArray decode(const std::string& format, const std::string& fields) {
  const Json json = json::parse_json("{\"__muutils_format__\": \"numpy.ndarray:" + format + "\", " + fields + "}", "t");
  return decode_inline_array(*object::classify(json).array);
}
template <typename T>
T at(const DecodedArray& a, std::size_t i) {
  T v;
  std::memcpy(&v, a.values.data() + i * sizeof(T), sizeof v);
  return v;
}
}  // namespace

TEST_SUITE("inline_array") {
  TEST_CASE("nested lists of integers") {
    const auto a = decode("array_list_meta",
                          R"("data": [[0, 1, 2], [3, 4, -5]], "shape": [2, 3], "dtype": "int32", "n_elements": 6)");
    CHECK(a.shape == std::vector<std::uint64_t>{2, 3});
    CHECK(a.values.size() == 24);
    CHECK(at<std::int32_t>(a, 5) == -5);
    const auto u = decode("array_list_meta", R"("data": [18446744073709551615, 0], "shape": [2], "dtype": "uint64")");
    CHECK(at<std::uint64_t>(u, 0) == std::numeric_limits<std::uint64_t>::max());
    const auto b = decode("array_list_meta", R"("data": [true, false], "shape": [2], "dtype": "bool")");
    CHECK(b.values == "\x01\x00"s);
  }

  TEST_CASE("floats of every width, with NaN and infinities") {
    const auto h =
        decode("array_list_meta", R"("data": [0.1, NaN, -Infinity, 1e10], "shape": [4], "dtype": "float16")");
    CHECK(at<std::uint16_t>(h, 0) == double_to_half(0.1));
    CHECK(std::isnan(half_to_float(at<std::uint16_t>(h, 1))));
    CHECK(at<std::uint16_t>(h, 2) == 0xfc00);
    CHECK(at<std::uint16_t>(h, 3) == 0x7c00);  // too large for a half: infinity, as numpy
    const auto f = decode("array_list_meta", R"("data": [0.1, 1e300, 3], "shape": [3], "dtype": "torch.float32")");
    CHECK(at<float>(f, 0) == 0.1f);
    CHECK(std::isinf(at<float>(f, 1)));
    CHECK(at<float>(f, 2) == 3.0f);
    const auto d = decode("array_list_meta", R"("data": [Infinity], "shape": [1], "dtype": "float64")");
    CHECK(std::isinf(at<double>(d, 0)));
  }

  TEST_CASE("complex as [re, im], strings") {
    const auto c = decode("array_list_meta", R"("data": [[1.5, -2], 3], "shape": [2], "dtype": "complex64")");
    CHECK(at<float>(c, 0) == 1.5f);
    CHECK(at<float>(c, 1) == -2.0f);
    CHECK(at<float>(c, 2) == 3.0f);
    CHECK(at<float>(c, 3) == 0.0f);
    const auto u = decode("array_list_meta", R"("data": ["ab", "\u00e9"], "shape": [2], "dtype": "<U2")");
    CHECK(u.values == "a\0\0\0b\0\0\0\xe9\0\0\0\0\0\0\0"s);
    const auto s = decode("array_list_meta", R"("data": ["ab", ""], "shape": [2], "dtype": "|S3")");
    CHECK(s.values == "ab\0\0\0\0"s);
    CHECK_THROWS_WITH_AS(decode("array_list_meta", R"("data": ["abc"], "shape": [1], "dtype": "<U2")"),
                         doctest::Contains("at most 2 characters"), Error);
  }

  TEST_CASE("hex and base64 agree with the list") {
    const auto hex = decode("array_hex_meta", R"("data": "0100020003000400", "shape": [2, 2], "dtype": "int16")");
    const auto b64 = decode("array_b64_meta", R"("data": "AQACAAMABAA=", "shape": [2, 2], "dtype": "int16")");
    const auto list = decode("array_list_meta", R"("data": [[1, 2], [3, 4]], "shape": [2, 2], "dtype": "int16")");
    CHECK(hex.values == list.values);
    CHECK(b64.values == list.values);
    // Bytes of a big-endian dtype are in that order and come out little-endian.
    const auto big = decode("array_hex_meta", R"("data": "00010002", "shape": [2], "dtype": ">i2")");
    CHECK(big.values == "\x01\x00\x02\x00"s);
    CHECK(big.dtype.order == ByteOrder::big);
  }

  TEST_CASE("zero_dim and empty arrays") {
    const auto z = decode("zero_dim", R"("data": 7, "shape": [], "dtype": "int8", "n_elements": 1)");
    CHECK(z.shape.empty());
    CHECK(z.values == "\x07");
    const auto e = decode("array_list_meta", R"("data": [], "shape": [0, 5], "dtype": "float64", "n_elements": 0)");
    CHECK(e.values.empty());
    const auto e2 = decode("array_list_meta", R"("data": [[], []], "shape": [2, 0], "dtype": "float64")");
    CHECK(e2.values.empty());
  }

  TEST_CASE("inconsistencies are errors that say where") {
    CHECK_THROWS_WITH_AS(decode("array_list_meta", R"("data": [[1, 2], [3]], "shape": [2, 2], "dtype": "int8")"),
                         doctest::Contains("data[1] should be a list of 2 elements"), Error);
    CHECK_THROWS_WITH_AS(decode("array_list_meta", R"("data": [1, 2], "shape": [2, 1], "dtype": "int8")"),
                         doctest::Contains("data[0]"), Error);
    CHECK_THROWS_WITH_AS(decode("array_list_meta", R"("data": [128], "shape": [1], "dtype": "int8")"),
                         doctest::Contains("data[0] is 128, not an integer in [-128, 127]"), Error);
    CHECK_THROWS_WITH_AS(decode("array_list_meta", R"("data": [-1], "shape": [1], "dtype": "uint16")"),
                         doctest::Contains("[0, 65535]"), Error);
    CHECK_THROWS_AS(decode("array_list_meta", R"("data": [1.5], "shape": [1], "dtype": "int64")"), Error);
    CHECK_THROWS_AS(decode("array_list_meta", R"("data": [1], "shape": [1], "dtype": "bool")"), Error);
    CHECK_THROWS_WITH_AS(decode("array_list_meta", R"("data": [1, 2], "shape": [2], "dtype": "int8", "n_elements": 3)"),
                         doctest::Contains("\"n_elements\" is 3"), Error);
    CHECK_THROWS_WITH_AS(decode("array_hex_meta", R"("data": "0100", "shape": [2], "dtype": "int16")"),
                         doctest::Contains("needs 4"), Error);
    CHECK_THROWS_WITH_AS(decode("array_b64_meta", R"("data": "AQACAAMA", "shape": [2], "dtype": "int16")"),
                         doctest::Contains("needs 4"), Error);
    CHECK_THROWS_WITH_AS(decode("array_list_meta", R"("data": [1], "shape": [1], "dtype": "object")"),
                         doctest::Contains("unsupported dtype"), Error);
    CHECK_THROWS_WITH_AS(decode("array_list_meta", R"("data": [1], "dtype": "int8")"), doctest::Contains("shape"),
                         Error);
    CHECK_THROWS_WITH_AS(decode("zero_dim", R"("data": 1, "shape": [1], "dtype": "int8")"),
                         doctest::Contains("zero_dim"), Error);
    CHECK_THROWS_AS(decode("array_list_meta", R"("data": [], "shape": [0, 5], "dtype": "int8", "n_elements": 1)"),
                    Error);
    CHECK_THROWS_AS(decode("array_list_meta", R"("shape": [1], "dtype": "int8")"), Error);
    // A huge shape is refused before anything is allocated.
    CHECK_THROWS_AS(decode("array_hex_meta", R"("data": "00", "shape": [4294967296, 4294967296], "dtype": "int8")"),
                    Error);
  }

  TEST_CASE("double_to_float saturates like numpy") {
    CHECK(double_to_float(0.1) == 0.1f);
    CHECK(double_to_float(3.4028235e38) == std::numeric_limits<float>::max());
    CHECK(std::isinf(double_to_float(3.5e38)));
    CHECK(double_to_float(-1e300) == -std::numeric_limits<float>::infinity());
    CHECK(std::isnan(double_to_float(NAN)));
  }

  TEST_CASE("read_inline_array: the values, or what decode_inline_array throws") {
    const Json good = json::parse_json(
        R"({"__muutils_format__": "numpy.ndarray:array_list_meta", "data": [1, 2], "shape": [2], "dtype": "int8"})",
        "t");
    const base::Result<DecodedArray> decoded = read_inline_array(*object::classify(good).array);
    REQUIRE(decoded.ok());
    CHECK(decoded->values == "\x01\x02"s);
    const Json bad = json::parse_json(
        R"({"__muutils_format__": "numpy.ndarray:array_list_meta", "data": [128], "shape": [1], "dtype": "int8"})",
        "t");
    const base::Result<DecodedArray> refused = read_inline_array(*object::classify(bad).array);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.why() == "data[0] is 128, not an integer in [-128, 127] (dtype int8)");
  }
}
