#include <doctest/doctest.h>

#include <cmath>

#include "array_fixture.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "json/json_parse.hpp"
#include "object/zanj_file_access.hpp"
#include "object/tree_json.hpp"

using namespace zanj;
using namespace zanj::test;

namespace {
std::string resolved(const ZanjFile& z, const PathSegments& at = {}, int indent = 0, bool plain = false,
                     bool columns = false) {
  ResolveOptions options;
  options.indent = indent;
  options.plain = plain;
  options.table_columns = columns;
  return printed([&](OutputBuffer& out) { write_resolved(z, follow_path(z.root(), at), at, options, out); });
}
}  // namespace

TEST_SUITE("resolve") {
  TEST_CASE("references get their data as the last key; everything else is unchanged") {
    const ZanjFile z(corpus("basic.zanj"));
    const Json doc = json::parse_json(resolved(z), "resolved");
    const Json* list = doc.find("long_list");
    REQUIRE(list);
    CHECK(list->as_object().back().first == "data");
    CHECK(list->find("data")->as_array().size() == 300);
    const Json* big = doc.find("big_array");
    CHECK(big->as_object().back().first == "data");
    CHECK(big->find("data")->as_array().size() == 32);
    CHECK(big->find("data")->as_array()[0].as_array().size() == 16);
    CHECK(big->find("$ref")->as_string() == "big_array.npy");
    CHECK(*doc.find("small_array") == z.root().find("small_array").copy());  // inline arrays stay as they are
    CHECK(*doc.find("tags") == z.root().find("tags").copy());
    const Json* matrix = object::follow_path(doc, {"nested", "deeper", "matrix"});
    CHECK(matrix->find("data")->as_array()[0].as_array()[0].to_double() == 1.0);  // identity matrix
  }

  TEST_CASE("a subtree, tables, NaN, and indentation") {
    const ZanjFile z(corpus("nan_values.zanj"));
    const std::string table = resolved(z, {"table"});
    CHECK(table.find(R"("data": [{"x": 1.0, "y": "a"}, {"x": NaN, "y": null}, {"x": 3.0, "y": "c"}]})") !=
          std::string::npos);
    CHECK(resolved(z, {"cfg"}) ==
          R"({"lr": NaN, "best": Infinity, "worst": -Infinity, "name": "NaN is not a string here"})");
    const std::string pretty = resolved(z, {}, 2);
    CHECK(pretty.find("\n  \"table\": {\n    \"__muutils_format__\"") != std::string::npos);
    CHECK(pretty.find("\n    \"data\": [{\"x\": 1.0") != std::string::npos);
    CHECK(to_json(json::parse_json(pretty, "pretty")) == resolved(z));  // the same document
    CHECK(std::isnan(json::parse_json(pretty, "p").find("cfg")->find("lr")->as_real()));
  }

  TEST_CASE("a missing member stops with an Error") {
    const ZanjFile z(corpus("malformed/missing_external.zanj"));
    CHECK_THROWS_WITH_AS(resolved(z), doctest::Contains("big_array.npy"), Error);
  }

  TEST_CASE("plain: arrays as nested lists, tables as rows or columns, no wrappers") {
    const ZanjFile nan(corpus("nan_values.zanj"));
    CHECK(resolved(nan, {"small"}, 0, true) == "[1.0, NaN, Infinity, -Infinity]");  // inline too
    CHECK(resolved(nan, {"table"}, 0, true) ==
          R"([{"x": 1.0, "y": "a"}, {"x": NaN, "y": null}, {"x": 3.0, "y": "c"}])");
    CHECK(resolved(nan, {"table"}, 0, true, true) == R"({"x": [1.0, NaN, 3.0], "y": ["a", null, "c"]})");
    const std::string whole = resolved(nan, {}, 0, true);
    CHECK(whole.find("__muutils_format__") == std::string::npos);
    CHECK(whole.find(R"("small": [1.0, NaN)") != std::string::npos);
    const ZanjFile dc(corpus("dataclass.zanj"));
    const Json doc = json::parse_json(resolved(dc, {}, 2, true), "plain");
    CHECK_FALSE(doc.find("__muutils_format__"));
    CHECK(doc.find("name")->as_string() == "exp-1");
    CHECK(doc.find("weights")->as_array().size() == 16);  // an external array's values
    const ZanjFile basic(corpus("basic.zanj"));
    CHECK(json::parse_json(resolved(basic, {"long_list"}, 0, true), "list").as_array().size() == 300);
  }
}
