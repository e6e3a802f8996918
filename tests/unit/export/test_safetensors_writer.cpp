#include <doctest/doctest.h>

#include "export/safetensors_writer.hpp"
#include "json/json_parse.hpp"
#include "zanj/error.hpp"

using namespace zanj;

TEST_SUITE("safetensors_writer") {
  TEST_CASE("dtype names") {
    std::vector<std::uint64_t> shape{3};
    CHECK(safetensors_dtype(parse_descr("|b1"), false, shape, "x") == "BOOL");
    CHECK(safetensors_dtype(parse_descr("|i1"), false, shape, "x") == "I8");
    CHECK(safetensors_dtype(parse_descr("<u2"), false, shape, "x") == "U16");
    CHECK(safetensors_dtype(parse_descr("<i8"), false, shape, "x") == "I64");
    CHECK(safetensors_dtype(parse_descr("<f2"), false, shape, "x") == "F16");
    CHECK(safetensors_dtype(parse_descr("<f8"), false, shape, "x") == "F64");
    CHECK(shape == std::vector<std::uint64_t>{3});
  }

  TEST_CASE("complex only with cast, strings never") {
    std::vector<std::uint64_t> shape{3};
    CHECK_THROWS_WITH_AS(safetensors_dtype(parse_descr("<c8"), false, shape, "x"), doctest::Contains("complex64"),
                         Error);
    CHECK(safetensors_dtype(parse_descr("<c16"), true, shape, "x") == "F64");
    CHECK(shape == std::vector<std::uint64_t>{3, 2});
    CHECK_THROWS_WITH_AS(safetensors_dtype(parse_descr("<U4"), true, shape, "x"), doctest::Contains("<U4"), Error);
  }

  TEST_CASE("header: length prefix, 8-byte alignment, contiguous offsets, metadata") {
    const std::string h = safetensors_header({{"a", "F32", {2}, 8}, {"b/c", "I8", {}, 1}}, {{"format", "zanj"}});
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(h[static_cast<std::size_t>(i)]);
    CHECK(n == h.size() - 8);
    CHECK(h.size() % 8 == 0);
    const Json j = parse_json(h.substr(8), "header");
    CHECK(j.find("__metadata__")->string_at("format") == "zanj");
    const JsonArray& a = j.find("a")->find("data_offsets")->as_array();
    CHECK(a[0].to_double() == 0);
    CHECK(a[1].to_double() == 8);
    const JsonArray& c = j.find("b/c")->find("data_offsets")->as_array();
    CHECK(c[1].to_double() == 9);
    CHECK(j.find("b/c")->find("shape")->as_array().empty());
  }
}
