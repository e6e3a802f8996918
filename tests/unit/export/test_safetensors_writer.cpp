#include <doctest/doctest.h>

#include "export/safetensors_writer.hpp"
#include "json/json_parse.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"

using namespace zanj;
using namespace zanj::exporter;

TEST_SUITE("safetensors_writer") {
  /// The dtype of `descr` as array 'x' of a.zanj would be stored.
  std::string dtype_of(const char* descr, bool cast, std::vector<std::uint64_t>& shape) {
    return safetensors_dtype(array::parse_descr(descr), cast, shape, InArchive{"a.zanj"}, AtPath{"x"});
  }

  TEST_CASE("dtype names") {
    std::vector<std::uint64_t> shape{3};
    CHECK(dtype_of("|b1", false, shape) == "BOOL");
    CHECK(dtype_of("|i1", false, shape) == "I8");
    CHECK(dtype_of("<u2", false, shape) == "U16");
    CHECK(dtype_of("<i8", false, shape) == "I64");
    CHECK(dtype_of("<f2", false, shape) == "F16");
    CHECK(dtype_of("<f8", false, shape) == "F64");
    CHECK(shape == std::vector<std::uint64_t>{3});
  }

  TEST_CASE("complex only with cast, strings never") {
    std::vector<std::uint64_t> shape{3};
    try {
      dtype_of("<c8", false, shape);
      FAIL("complex64 without --cast was taken");
    } catch (const Error& e) {  // the array and archive are fields, composed into the message once
      CHECK(std::string(e.what()) ==
            "a.zanj: array 'x': safetensors has no dtype for complex64 "
            "(--cast stores complex values as float pairs on a last axis of 2)");
      CHECK(e.archive() == "a.zanj");
      CHECK(e.object_path() == "x");
    }
    CHECK(dtype_of("<c16", true, shape) == "F64");
    CHECK(shape == std::vector<std::uint64_t>{3, 2});
    CHECK_THROWS_WITH_AS(dtype_of("<U4", true, shape), doctest::Contains("<U4"), Error);
  }

  TEST_CASE("header: length prefix, 8-byte alignment, contiguous offsets, metadata") {
    std::string h;
    const SafetensorsMetadata metadata{{"format", [](OutputBuffer& out) { out.write("zanj"); }}};
    const std::uint64_t written = write_safetensors_header({{"a", "F32", {2}, 8}, {"b/c", "I8", {}, 1}}, metadata,
                                                           [&](std::string_view piece) { h.append(piece); });
    CHECK(written == h.size());
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(h[static_cast<std::size_t>(i)]);
    CHECK(n == h.size() - 8);
    CHECK(h.size() % 8 == 0);
    const Json j = json::parse_json(h.substr(8), "header");
    CHECK(j.find("__metadata__")->string_at("format") == "zanj");
    const JsonArray& a = j.find("a")->find("data_offsets")->as_array();
    CHECK(a[0].to_double() == 0);
    CHECK(a[1].to_double() == 8);
    const JsonArray& c = j.find("b/c")->find("data_offsets")->as_array();
    CHECK(c[1].to_double() == 9);
    CHECK(j.find("b/c")->find("shape")->as_array().empty());
  }
}
