#include <doctest/doctest.h>

#include "array/inline_check.hpp"
#include "json/json_parse.hpp"
#include "object/tree_json.hpp"

using namespace zanj;
using namespace zanj::array;

namespace {

/// Classify an inline array node written as JSON and check it.
std::optional<std::string> check(const std::string& json) {
  const Json doc = json::parse_json(json, "test");
  const Node node = object::classify(doc);
  REQUIRE(node.array);
  return check_inline_array(*node.array);
}

std::string node(const char* mode, const std::string& data, const std::string& shape, const char* dtype) {
  return std::string(R"({"__muutils_format__": "numpy.ndarray:)") + mode + R"(", "data": )" + data + R"(, "shape": )" +
         shape + R"(, "dtype": ")" + dtype + "\"}";
}

}  // namespace

TEST_SUITE("inline_check") {
  TEST_CASE("nested lists follow the shape") {
    CHECK_FALSE(check(node("array_list_meta", "[[1, 2, 3], [4, 5, 6]]", "[2, 3]", "int32")));
    CHECK_FALSE(check(node("array_list_meta", "[1.0, NaN, Infinity]", "[3]", "float64")));
    CHECK_FALSE(check(node("array_list_meta", "[true, false]", "[2]", "bool")));
    CHECK_FALSE(check(node("array_list_meta", "[]", "[0, 5]", "float32")));                // empty multi-dimensional
    CHECK_FALSE(check(node("array_list_meta", "[[1, 2], [3, 4]]", "[2]", "complex128")));  // [re, im] pairs
    CHECK_FALSE(check(node("array_list_meta", R"(["ab", "c"])", "[2]", "<U2")));
    CHECK(check(node("array_list_meta", "[[97, 98], [99]]", "[2]", "|S2"))->find("not a string") != std::string::npos);
    CHECK(check(node("array_list_meta", "[[1, 2, 3]]", "[1]", "complex64")));  // not a [re, im] pair
    CHECK(check(node("array_list_meta", "[[1, 2], [3]]", "[2, 2]", "int8"))
              ->find("data[1] should be a list of 2 elements") == 0);
    CHECK(check(node("array_list_meta", "[1, 2]", "[2, 1]", "int8"))->find("data[0] should be a list of 1 elements") ==
          0);
    CHECK(check(node("array_list_meta", "[[1], [2]]", "[2]", "int8"))->find("data[0] is [1], not an integer") == 0);
    CHECK(check(node("array_list_meta", R"(["a", 2])", "[2]", "int8")));
    CHECK(check(node("array_list_meta", "[{}]", "[1]", "float32")));
  }

  TEST_CASE("hex and base64 lengths follow shape and itemsize") {
    CHECK_FALSE(check(node("array_hex_meta", R"("0100020003000400")", "[2, 2]", "int16")));
    CHECK_FALSE(check(node("array_hex_meta", R"("0A0b")", "[2]", "uint8")));
    CHECK(check(node("array_hex_meta", R"("01000200030004")", "[2, 2]", "int16"))->find("needs 8") !=
          std::string::npos);
    CHECK(check(node("array_hex_meta", R"("zz00")", "[2]", "uint8")));
    CHECK(check(node("array_hex_meta", "[1]", "[1]", "uint8")));
    CHECK_FALSE(check(node("array_b64_meta", R"("AQAB")", "[3]", "bool")));
    CHECK_FALSE(check(node("array_b64_meta", R"("AAAAAAAA8D8=")", "[1]", "float64")));
    CHECK_FALSE(check(node("array_b64_meta", R"("")", "[0]", "float64")));
    CHECK(check(node("array_b64_meta", R"("AQABAQ==")", "[3]", "bool"))->find("needs 3") != std::string::npos);
    CHECK(check(node("array_b64_meta", R"("AQA")", "[2]", "bool")));
    CHECK(check(node("array_b64_meta", R"("A*AB")", "[3]", "bool")));
    CHECK(check(node("array_b64_meta", R"("A=AB")", "[3]", "bool")));
  }

  TEST_CASE("zero_dim, dtype, shape and n_elements") {
    CHECK_FALSE(check(node("zero_dim", "2.5", "[]", "float64")));
    CHECK(check(node("zero_dim", "2.5", "[1]", "float64")));
    CHECK(check(node("zero_dim", "[2.5]", "[]", "float64")));
    CHECK(check(node("array_list_meta", "[1]", "[1]", "object"))->find("object") != std::string::npos);
    CHECK(check(node("array_list_meta", "[1]", "[-1]", "int8"))->find("no valid \"shape\"") != std::string::npos);
    CHECK(check(node("array_list_meta", "[1]", "[4294967296, 4294967296, 4294967296]", "int8"))->find("too large") !=
          std::string::npos);
    CHECK(check(R"({"__muutils_format__": "numpy.ndarray:array_list_meta", "data": [1, 2], "shape": [2],
                    "dtype": "int8", "n_elements": 3})")
              ->find("\"n_elements\" is 3") == 0);
    CHECK(check(R"({"__muutils_format__": "numpy.ndarray:array_list_meta", "shape": [2], "dtype": "int8"})") ==
          "the inline array has no \"data\"");
    CHECK_FALSE(check(R"({"__muutils_format__": "numpy.ndarray:external", "$ref": "x.npy"})"));
  }
  TEST_CASE("what numpy refuses: zero itemsize dtypes and shapes over intp") {
    CHECK(check(node("array_list_meta", R"(["", ""])", "[2]", "|S0"))->find("zero itemsize") != std::string::npos);
    CHECK(check(node("array_list_meta", R"(["", ""])", "[2]", "<U0")));
    CHECK(numpy_dtype_refusal(parse_descr("<U0")));
    CHECK_FALSE(numpy_dtype_refusal(parse_descr("<U1")));
    constexpr std::uint64_t k2p62 = std::uint64_t{1} << 62, k2p63 = std::uint64_t{1} << 63;
    CHECK_FALSE(numpy_shape_refusal({}, 8));
    CHECK_FALSE(numpy_shape_refusal({1000000000000000000, 0}, 8));  // 8e18 bytes fit, and it is empty
    CHECK_FALSE(numpy_shape_refusal({k2p62, 0}, 1));
    CHECK(numpy_shape_refusal({k2p62, 0, 4}, 1));  // zero dims are skipped: 2**62 * 4 overflows
    CHECK(numpy_shape_refusal({k2p62}, 2));        // 2**63 bytes
    CHECK_FALSE(numpy_shape_refusal({k2p62 - 1}, 2));
    CHECK(numpy_shape_refusal({k2p63, 0}, 1));  // not an int64
    CHECK(numpy_shape_refusal({0, k2p63}, 1));
  }
}
