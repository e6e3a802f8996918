#include <doctest/doctest.h>

#include "array_fixture.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "object/zanj_file_access.hpp"
#include "object/tree_json.hpp"

using namespace zanj;
using namespace zanj::test;

namespace {
std::string rows(const ZanjFile& z, const std::string& key, const std::string& slice, RowFormat format,
                 std::optional<std::uint64_t> head = {}, std::optional<std::uint64_t> tail = {}) {
  const Node node = classify(z.root().find(key));
  RowRequest request{slice.empty() ? SliceSpec{} : parse_slice(slice), head, tail};
  return printed([&](OutputBuffer& out) { print_rows(z.archive(), node, key, request, format, out); });
}

/// A table with awkward cells, and a list, in an archive built here.
ZanjFile awkward() {
  const std::string main = R"({"t": {"__muutils_format__": "pandas.DataFrame:external", "$ref": "t.jsonl",
    "columns": ["name", "x", "nested"]},
    "l": {"__muutils_format__": "list:external", "$ref": "l.jsonl"},
    "gone": {"__muutils_format__": "list:external", "$ref": "gone.jsonl"}})";
  const std::string table = R"({"name": "a,b", "x": 1.5, "nested": [1, 2]})"
                            "\n"
                            R"({"name": "say \"hi\"", "x": null})"
                            "\n"
                            R"({"name": "", "x": NaN, "nested": {"k": 1}})"
                            "\n";
  return ZanjFile(
      memory_archive({{"__zanj__.json", main}, {"t.jsonl", table}, {"l.jsonl", "1\n[2]\n\"three\"\nbad json\n"}}));
}
}  // namespace

TEST_SUITE("row_values") {
  TEST_CASE("tables as JSON lines, JSON and CSV") {
    const ZanjFile z(corpus("dataframe.zanj"));
    const std::string first = R"({"id": 0, "score": 0.26016605124208336, "name": "row0", "ok": false})";
    CHECK(rows(z, "table", "[0]", RowFormat::jsonl) == first + "\n");
    CHECK(rows(z, "table", "[0]", RowFormat::json) == first + "\n");
    CHECK(rows(z, "table", "[:1]", RowFormat::json) == "[" + first + "]\n");
    CHECK(rows(z, "table", "[0]", RowFormat::csv) == "id,score,name,ok\n0,0.26016605124208336,row0,false\n");
    CHECK(rows(z, "tiny_table", "", RowFormat::csv) == "a,b\n1,x\n2,y\n");
  }

  TEST_CASE("selecting rows: ranges, steps, negative indices, head and tail") {
    const ZanjFile z(corpus("basic.zanj"));  // long_list: 0 .. 299
    CHECK(rows(z, "long_list", "[3:12:4]", RowFormat::json) == "[3, 7, 11]\n");
    CHECK(rows(z, "long_list", "[-2:]", RowFormat::jsonl) == "298\n299\n");
    CHECK(rows(z, "long_list", "[-1]", RowFormat::json) == "299\n");
    CHECK(rows(z, "long_list", "[5:1:-2]", RowFormat::json) == "[5, 3]\n");
    CHECK(rows(z, "long_list", "[::-100]", RowFormat::json) == "[299, 199, 99]\n");
    CHECK(rows(z, "long_list", "", RowFormat::json, 2) == "[0, 1]\n");
    CHECK(rows(z, "long_list", "", RowFormat::json, {}, 2) == "[298, 299]\n");
    CHECK(rows(z, "long_list", "[10:20]", RowFormat::json, 3, 2) == "[11, 12]\n");
    CHECK(rows(z, "long_list", "[400:]", RowFormat::json) == "[]\n");
    CHECK_THROWS_WITH_AS(rows(z, "long_list", "[300]", RowFormat::json),
                         doctest::Contains("row 300 is out of range (it has 300 rows)"), Error);
    CHECK_THROWS_WITH_AS(rows(z, "long_list", "[-301]", RowFormat::json), doctest::Contains("list 'long_list'"), Error);
    CHECK_THROWS_WITH_AS(rows(z, "long_list", "[1, 2]", RowFormat::json), doctest::Contains("one dimension"), Error);
    CHECK_THROWS_WITH_AS(rows(z, "long_list", "", RowFormat::csv), doctest::Contains("csv"), Error);
    CHECK_THROWS_AS(rows(z, "long_list", "[0]", RowFormat::json, 1), Error);  // --head of one row
  }

  TEST_CASE("CSV quoting and cells that are not plain values") {
    const ZanjFile z = awkward();
    CHECK(rows(z, "t", "", RowFormat::csv) ==
          "name,x,nested\n"
          "\"a,b\",1.5,\"[1, 2]\"\n"
          "\"say \"\"hi\"\"\",,\n"
          "\"\",,\"{\"\"k\"\": 1}\"\n");
  }

  TEST_CASE("broken members are errors naming the line") {
    const ZanjFile z = awkward();
    CHECK(rows(z, "l", "[:3]", RowFormat::jsonl) == "1\n[2]\n\"three\"\n");  // stops before the bad line
    CHECK_THROWS_WITH_AS(rows(z, "l", "", RowFormat::jsonl), doctest::Contains("l.jsonl line 4"), Error);
    CHECK_THROWS_WITH_AS(rows(z, "gone", "", RowFormat::jsonl), doctest::Contains("not in the archive"), Error);
    CHECK_THROWS_WITH_AS(rows(z, "l", "", RowFormat::csv), doctest::Contains("tables"), Error);
  }

  TEST_CASE("all rows as one JSON array") {
    const ZanjFile z(corpus("nan_values.zanj"));
    const Node node = classify(z.root().find("table"));
    CHECK(printed([&](OutputBuffer& out) { write_rows_json(z.archive(), node, "table", out); }) ==
          R"([{"x": 1.0, "y": "a"}, {"x": NaN, "y": null}, {"x": 3.0, "y": "c"}])");
  }
}
