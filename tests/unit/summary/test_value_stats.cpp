#include <doctest/doctest.h>

#include "npy_archive.hpp"
#include "zanj/summary.hpp"

using namespace zanj;
using namespace zanj::test;

namespace {
/// A table of three columns in a member, an inline list of numbers, one of strings.
ZanjFile values_archive() {
  const std::string main = R"({"t": {"__muutils_format__": "pandas.DataFrame:external", "$ref": "t.jsonl",
    "columns": ["n", "s", "b"]}, "nums": [1, 2.5, NaN, true], "words": ["a", "b"]})";
  const std::string rows =
      "{\"n\": 1, \"s\": \"x\", \"b\": true}\n{\"n\": 3, \"s\": \"y\", \"b\": false}\n"
      "{\"n\": null, \"s\": \"z\", \"b\": true}\n";
  return ZanjFile(memory_archive({{"__zanj__.json", main}, {"t.jsonl", rows}}));
}

std::vector<ValueStats> at(const ZanjFile& z, const char* path) {
  return value_stats(z, classify(z.root().find(path)), path);
}
}  // namespace

TEST_SUITE("value_stats") {
  TEST_CASE("a table's numeric columns, one pass over its rows") {
    const ZanjFile z = values_archive();
    const std::vector<ValueStats> t = at(z, "t");
    REQUIRE(t.size() == 2);  // "s" holds no number
    CHECK(t[0].path == "t/n");
    CHECK(t[0].kind == "column");
    CHECK(t[0].stats.count == 3);  // null is counted, not summed
    CHECK(t[0].stats.finite == 2);
    CHECK(*t[0].stats.mean == doctest::Approx(2.0));
    CHECK(t[1].path == "t/b");
    CHECK(*t[1].stats.mean == doctest::Approx(2.0 / 3));  // bools as 0 and 1
  }

  TEST_CASE("a list of numbers, NaN counted apart; a list of strings gives nothing") {
    const ZanjFile z = values_archive();
    const std::vector<ValueStats> n = at(z, "nums");
    REQUIRE(n.size() == 1);
    CHECK(n[0].kind == "list");
    CHECK(n[0].stats.count == 4);
    CHECK(n[0].stats.nan == 1);
    CHECK(*n[0].stats.mean == doctest::Approx((1 + 2.5 + 1) / 3));
    CHECK(at(z, "words").empty());
  }
}
