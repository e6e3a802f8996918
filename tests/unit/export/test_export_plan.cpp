#include <doctest/doctest.h>

#include "export/export_plan.hpp"
#include "json/json_parse.hpp"
#include "zanj/error.hpp"
#include "zanj_fixture.hpp"

using namespace zanj;
using namespace zanj::exporter;

namespace {

ZanjFile open_main(const std::string& main) {
  zanj::test::FixtureParts parts;
  parts.main = main;
  return ZanjFile(Archive::from_memory(zanj::test::fixture_zip(parts), "t.zanj"));
}

}  // namespace

TEST_SUITE("export_plan") {
  TEST_CASE("every array is named by its keys and replaced by a reference") {
    const ZanjFile z(Archive::from_memory(zanj::test::fixture_zip(), "t.zanj"));
    const ExportPlan plan = plan_export(z, "", ".npy");
    REQUIRE(plan.arrays.size() == 2);
    CHECK(plan.arrays[0].name == "arr");
    CHECK(plan.arrays[1].name == "small");
    CHECK(plan.members == std::vector<std::string>{"lst.jsonl", "tab.jsonl"});
    const Json object = json::parse_json(object_text(plan), "object");
    const Json* small = object.find("small");
    REQUIRE(small);
    CHECK(small->string_at("$ref") == "small.npy");
    CHECK(small->string_at("__muutils_format__") == "numpy.ndarray:external");
    CHECK(small->string_at("dtype") == "int16");
    CHECK(object.find("name")->as_string() == "x");
  }

  TEST_CASE("a subtree's names start below it; an array alone keeps its key") {
    const ZanjFile z = open_main(R"j({"a": {"b": [1, {"__muutils_format__": "numpy.ndarray:array_hex_meta",
        "data": "0100", "shape": [1], "dtype": "int16", "n_elements": 1}]}})j");
    const ExportPlan whole = plan_export(z, "", "");
    REQUIRE(whole.arrays.size() == 1);
    CHECK(whole.arrays[0].name == "a/b/1");
    const ExportPlan below = plan_export(z, "a", "");
    CHECK(below.arrays[0].name == "b/1");
    const ExportPlan alone = plan_export(z, "a/b/1", "");
    CHECK(alone.arrays[0].name == "1");
    CHECK(json::parse_json(object_text(alone), "object").find("1"));
  }

  TEST_CASE("two arrays under one name, a slice and a missing path are refused") {
    const std::string arr = R"j({"__muutils_format__": "numpy.ndarray:array_hex_meta", "data": "0100",
        "shape": [1], "dtype": "int16", "n_elements": 1})j";
    const ZanjFile z = open_main("{\"a/b\": " + arr + ", \"a\": {\"b\": " + arr + "}}");
    CHECK_THROWS_WITH_AS(plan_export(z, "", ""), doctest::Contains("two arrays would both be named 'a/b'"), Error);
    CHECK_THROWS_AS(plan_export(z, "a/b[0]", ""), Error);
    CHECK_THROWS_AS(plan_export(z, "nope", ""), Error);
  }

  TEST_CASE("file names: unsafe ones and a file that is another's directory are refused") {
    CHECK_NOTHROW(check_file_names({"a.npy", "b/c.npy"}));
    CHECK_THROWS_WITH_AS(check_file_names({"a.npy", "a.npy/b.npy"}), doctest::Contains("both a file and the directory"),
                         Error);
    CHECK_THROWS_AS(check_file_names({"../x.npy"}), Error);
    CHECK_THROWS_AS(check_file_names({"/abs.npy"}), Error);
  }
}
