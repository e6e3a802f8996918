#include <doctest/doctest.h>

#include "npy_archive.hpp"
#include "zanj/error.hpp"
#include "zanj/summary.hpp"

using namespace zanj;
using namespace zanj::test;

namespace {
/// An external list whose rows each hold an external array of their own, as the library
/// writes a list of dataclasses with large arrays.
ZanjFile rows_archive() {
  const std::string main = R"({"lst": {"__muutils_format__": "list:external", "$ref": "lst.jsonl"}, "x": 1})";
  const std::string lines =
      R"({"name": "r0", "arr": {"__muutils_format__": "numpy.ndarray:external", "$ref": "lst/0/arr.npy"}})"
      "\n"
      R"({"name": "r1", "arr": {"__muutils_format__": "numpy.ndarray:external", "$ref": "lst/1/arr.npy"}})"
      "\n";
  return ZanjFile(memory_archive({{"__zanj__.json", main}, {"lst.jsonl", lines}}));
}

FoundNode find(const ZanjFile& z, const std::string& path) {
  return find_node_in_rows(z, NodeTarget{path, split_path(path), ""});
}
}  // namespace

TEST_SUITE("row_nodes") {
  TEST_CASE("a path goes on into a row") {
    const ZanjFile z = rows_archive();
    const FoundNode name = find(z, "lst/1/name");
    REQUIRE(name.json.is_string());
    CHECK(name.json.as_string() == "r1");
    CHECK(name.rows.size() == 1);
    const Node arr = classify(find(z, "lst/0/arr").json);
    REQUIRE(arr.array);
    CHECK(arr.array->member == "lst/0/arr.npy");
    CHECK(find(z, "x").json.is_number());  // paths outside rows read no member
    CHECK(find(z, "x").rows.empty());
  }

  TEST_CASE("missing rows and keys are errors naming the row") {
    const ZanjFile z = rows_archive();
    CHECK_THROWS_WITH(find(z, "lst/2/name"), doctest::Contains("has no row 2"));
    CHECK_THROWS_WITH(find(z, "lst/0/nothing"), doctest::Contains("inside a row"));
    CHECK_THROWS_WITH(find(z, "lst/-1/name"), doctest::Contains("no object at path"));
    CHECK_THROWS_WITH(find(z, "nope"), doctest::Contains("no object at path 'nope'"));
  }
}
