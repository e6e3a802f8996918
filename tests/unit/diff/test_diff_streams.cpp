#include <doctest/doctest.h>

#include "zanj/diff.hpp"
#include "zanj/error.hpp"
#include "zanj_builder.hpp"

using namespace zanj;
using zanj::test::jsonl;
using zanj::test::make_zanj;

namespace {
const char* kExternalList = R"({"l": {"__muutils_format__": "list:external", "$ref": "l.jsonl"}})";
const char* kTable = R"j({"t": {"__muutils_format__": "pandas.DataFrame:external", "$ref": "t.jsonl",
                               "columns": ["x", "name"], "len(data)": 3}})j";

DiffReport diff_lists(const std::vector<std::string>& a, const std::vector<std::string>& b, const DiffOptions& o = {}) {
  const ZanjFile x = make_zanj(kExternalList, {{"l.jsonl", jsonl(a)}});
  const ZanjFile y = make_zanj(kExternalList, {{"l.jsonl", jsonl(b)}});
  return diff_archives(x, y, o);
}

DiffReport diff_tables(const std::vector<std::string>& a, const std::vector<std::string>& b,
                       const DiffOptions& o = {}) {
  const ZanjFile x = make_zanj(kTable, {{"t.jsonl", jsonl(a)}});
  const ZanjFile y = make_zanj(kTable, {{"t.jsonl", jsonl(b)}});
  return diff_archives(x, y, o);
}
}  // namespace

TEST_SUITE("diff_streams") {
  TEST_CASE("an external list equals a JSON list of the same items, unless --strict") {
    const ZanjFile ext = make_zanj(kExternalList, {{"l.jsonl", jsonl({"1", "\"a\"", "[1, 2]", "NaN"})}});
    const ZanjFile in = make_zanj(R"({"l": [1, "a", [1, 2], NaN]})");
    const DiffReport r = diff_archives(ext, in, {});
    CHECK(r.equal());
    CHECK(r.elements_compared == 4 + 2);  // the four items, and the two inside [1, 2]
    DiffOptions strict;
    strict.strict = true;
    const DiffReport s = diff_archives(ext, in, strict);
    REQUIRE_FALSE(s.differences.empty());
    CHECK(difference_text(s.differences[0]) == "l: storage changed: external (l.jsonl) -> inline");
  }

  TEST_CASE("differing items are counted, the first and the largest located") {
    const DiffReport r = diff_lists({"1.0", "2.0", "3.0", "\"s\""}, {"1.0", "2.5", "2.0", "\"t\""});
    REQUIRE(r.differences.size() == 1);
    const Difference& d = r.differences[0];
    CHECK(d.kind == DiffKind::list_items);
    CHECK(d.values->differing == 3);
    CHECK(d.values->compared == 4);
    CHECK(to_json(d.values->first_at) == "[1]");
    CHECK(d.values->first == "2.0 -> 2.5");
    CHECK(*d.values->max_abs == 1.0);
    CHECK(to_json(d.values->max_abs_at) == "[2]");
    DiffOptions o;
    o.tolerance.atol = 1.0;
    CHECK(diff_lists({"1.0", "2.0", "3.0"}, {"1.0", "2.5", "2.0"}, o).equal());
  }

  TEST_CASE("nested items report their first inner difference") {
    const DiffReport r = diff_lists({R"({"a": [1, {"b": 2}]})"}, {R"({"a": [1, {"b": 3}]})"});
    REQUIRE(r.differences.size() == 1);
    CHECK(r.differences[0].values->first.rfind("l/0/a/1/b: value changed: 2 -> 3", 0) == 0);
  }

  TEST_CASE("lists of different lengths") {
    const DiffReport r = diff_lists({"1", "2", "3"}, {"1", "2"});
    REQUIRE(r.differences.size() == 1);
    CHECK(difference_text(r.differences[0]) == "l: length changed: 3 -> 2");
    CHECK(diff_lists({}, {"1"}).differences.size() == 1);
  }

  TEST_CASE("plain lists of scalars are one difference with counts") {
    const ZanjFile a = make_zanj(R"({"v": [1, 2, 3, 4]})"), b = make_zanj(R"({"v": [1, 2, 30, 40, 5]})");
    const DiffReport r = diff_archives(a, b, {});
    REQUIRE(r.differences.size() == 2);
    CHECK(difference_text(r.differences[0]) ==
          "v: 2 of 4 items differ (first at [2]: 3 -> 30; max abs diff 36.0 at [3], max rel diff 0.9 at [2])");
    CHECK(difference_text(r.differences[1]) == "v: length changed: 4 -> 5");
  }

  TEST_CASE("tables row by row, located by row and column") {
    const std::vector<std::string> rows{R"({"x": 1.0, "name": "a"})", R"({"x": 2.0, "name": "b"})",
                                        R"({"x": NaN, "name": "c"})"};
    CHECK(diff_tables(rows, rows).equal());
    const DiffReport r =
        diff_tables(rows, {R"({"x": 1.0, "name": "a"})", R"({"x": 2.5, "name": "B"})", R"({"x": NaN, "name": "c"})"});
    REQUIRE(r.differences.size() == 1);
    const Difference& d = r.differences[0];
    CHECK(d.kind == DiffKind::table_rows);
    CHECK(d.values->differing == 1);
    CHECK(d.values->compared == 3);
    CHECK(to_json(d.values->first_at) == "[1, \"x\"]");
    CHECK(to_json(d.values->max_abs_at) == "[1, \"x\"]");
    CHECK(*d.values->max_abs == 0.5);
  }

  TEST_CASE("table columns: tolerances, exclusions, renames, missing cells, row counts") {
    const std::vector<std::string> a{R"({"x": 1.0, "name": "a"})", R"({"x": 2.0, "name": "b"})"};
    const std::vector<std::string> b{R"({"x": 1.1, "name": "a"})", R"({"x": 2.0, "name": "z"})"};
    DiffOptions o;
    o.rules = {parse_tolerance_rule("t/x=0.1")};
    o.excludes = {"t/name"};
    CHECK(diff_tables(a, b, o).equal());
    o.excludes.clear();
    CHECK(diff_tables(a, b, o).differences[0].values->differing == 1);
    const DiffReport missing = diff_tables(a, {R"({"x": 1.0})", R"({"x": 2.0, "name": "b", "y": 1})", "{}"});
    // The loaded frame of b has a column y (from its second row): that is a difference too.
    REQUIRE(missing.differences.size() == 3);
    CHECK(
        difference_text(missing.differences[0]) ==
        R"(t: columns changed: [["x", "float64"], ["name", "object"]] -> [["x", "float64"], ["name", "object"], ["y", "float64"]])");
    CHECK(missing.differences[1].values->differing == 2);
    CHECK(missing.differences[1].values->first == "\"a\" -> (missing)");
    CHECK(difference_text(missing.differences[2]) == "t: length changed: 2 -> 3");
    const ZanjFile x = make_zanj(kTable, {{"t.jsonl", jsonl(a)}});
    std::string renamed = kTable;
    renamed.replace(renamed.find("\"name\""), 6, "\"label\"");
    const ZanjFile y = make_zanj(renamed, {{"t.jsonl", jsonl(a)}});
    const DiffReport cols = diff_archives(x, y, {});
    // The loader builds the frame from the rows and ignores the `columns` field (docs/hash.md):
    // the same rows under another `columns` field are the same table.
    CHECK(cols.equal());
  }

  TEST_CASE("unreadable members are errors, not differences") {
    const ZanjFile good = make_zanj(kExternalList, {{"l.jsonl", jsonl({"1"})}});
    const ZanjFile missing = make_zanj(kExternalList);
    CHECK_THROWS_WITH_AS(diff_archives(good, missing, {}), doctest::Contains("member 'l.jsonl'"), Error);
    const ZanjFile broken = make_zanj(kExternalList, {{"l.jsonl", "1\n{oops\n"}});
    CHECK_THROWS_WITH_AS(diff_archives(good, broken, {}), doctest::Contains("l.jsonl line 2"), Error);
  }

  TEST_CASE("stop_at_first stops inside a long list") {
    std::vector<std::string> a, b;
    for (int i = 0; i < 1000; ++i) {
      a.push_back(std::to_string(i));
      b.push_back(std::to_string(i + 1));
    }
    DiffOptions o;
    o.stop_at_first = true;
    const DiffReport r = diff_lists(a, b, o);
    REQUIRE(r.differences.size() == 1);
    CHECK(r.differences[0].values->differing == 1);
    CHECK(r.elements_compared == 1);
  }
}
