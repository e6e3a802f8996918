#include <doctest/doctest.h>

#include "zanj/diff.hpp"
#include "zanj_builder.hpp"
#include "zip/archive_access.hpp"

using namespace zanj;
using zanj::test::make_zanj;

namespace {
DiffReport diff_text(const std::string& a, const std::string& b, const DiffOptions& o = {}) {
  const ZanjFile x = make_zanj(a), y = make_zanj(b);
  return diff_archives(x, y, o);
}

std::vector<std::string> lines(const DiffReport& r) {
  std::vector<std::string> out;
  for (const auto& d : r.differences) out.push_back(difference_text(d));
  return out;
}
}  // namespace

TEST_SUITE("diff") {
  TEST_CASE("identical trees are equal; key order is not a difference") {
    const DiffReport r =
        diff_text(R"({"a": 1, "b": {"c": [1, 2, "x"], "d": null}})", R"({"b": {"d": null, "c": [1, 2, "x"]}, "a": 1})");
    CHECK(r.equal());
    CHECK(r.nodes_compared >= 4);
  }

  TEST_CASE("added, removed and changed keys, by object path") {
    const DiffReport r =
        diff_text(R"({"a": 1, "gone": true, "s": "x", "k/~": 2})", R"({"a": 2, "s": "y", "new": [1], "k/~": 2})");
    CHECK(lines(r) == std::vector<std::string>{"a: value changed: 1 -> 2 (abs diff 1.0, rel diff 0.5)",
                                               "gone: removed (bool true)", "s: value changed: \"x\" -> \"y\"",
                                               "new: added (list (1 items))"});
    CHECK(r.differences[1].kind == DiffKind::removed);
    CHECK(r.differences[3].kind == DiffKind::added);
  }

  TEST_CASE("paths escape '/' and '~' in keys") {
    const DiffReport r = diff_text(R"({"k/~": 1})", R"({"k/~": 2})");
    REQUIRE(r.differences.size() == 1);
    CHECK(r.differences[0].path == "k~1~0");
  }

  TEST_CASE("kinds that differ are one difference, not a descent") {
    const DiffReport r = diff_text(R"({"x": {"a": 1}, "y": 1, "z": "1"})", R"({"x": [1], "y": "1", "z": null})");
    REQUIRE(r.differences.size() == 3);
    for (const auto& d : r.differences) CHECK(d.kind == DiffKind::kind_changed);
    CHECK(difference_text(r.differences[0]) == "x: kind changed: dict (1 keys) -> list (1 items)");
    CHECK(difference_text(r.differences[2]) == "z: kind changed: string \"1\" -> null");
  }

  TEST_CASE("numbers: exact by default, allclose with tolerances, integers equal to reals") {
    CHECK(diff_text(R"({"x": 1})", R"({"x": 1.0})").equal());
    CHECK_FALSE(diff_text(R"({"x": 1.0})", R"({"x": 1.001})").equal());
    DiffOptions o;
    o.tolerance.atol = 0.01;
    CHECK(diff_text(R"({"x": 1.0})", R"({"x": 1.001})", o).equal());
    CHECK_FALSE(diff_text(R"({"x": 1.0})", R"({"x": 1.1})", o).equal());
    o.tolerance = {};
    o.rules = {parse_tolerance_rule("cfg=0.2")};
    CHECK(diff_text(R"({"cfg": {"lr": 1.0}, "y": 1})", R"({"cfg": {"lr": 1.1}, "y": 1})", o).equal());
    CHECK(diff_text(R"({"cfg": {"lr": 1.0}, "y": 1})", R"({"cfg": {"lr": 1.1}, "y": 1.1})", o).differences.size() == 1);
    // bools are not numbers
    CHECK(diff_text(R"({"x": true})", R"({"x": 1})").differences[0].kind == DiffKind::kind_changed);
    // integers beyond 2^53 compare exactly
    CHECK_FALSE(diff_text(R"({"x": 9007199254740993})", R"({"x": 9007199254740992})").equal());
    CHECK_FALSE(diff_text(R"({"x": 100000000000000000001})", R"({"x": 100000000000000000000})").equal());
  }

  TEST_CASE("NaN equals NaN unless asked otherwise; infinities only themselves") {
    CHECK(diff_text(R"({"x": NaN, "y": Infinity})", R"({"x": NaN, "y": Infinity})").equal());
    DiffOptions o;
    o.nan_equal = false;
    CHECK(diff_text(R"({"x": NaN})", R"({"x": NaN})", o).differences.size() == 1);
    CHECK(diff_text(R"({"y": Infinity})", R"({"y": -Infinity})").differences.size() == 1);
  }

  TEST_CASE("--exclude skips a path, everything below it, and its additions") {
    DiffOptions o;
    o.excludes = {"meta*", "run/log"};
    const DiffReport r = diff_text(R"({"metadata": {"t": 1}, "run": {"log": [1], "n": 1}, "x": 1})",
                                   R"({"metadata": {"t": 2}, "run": {"log": [2, 3], "n": 1}, "x": 1, "meta2": 0})", o);
    CHECK(r.equal());
    o.excludes = {"run/log"};
    CHECK(diff_text(R"({"run": {"log": 1, "n": 1}})", R"({"run": {"log": 2, "n": 2}})", o).differences.size() == 1);
  }

  TEST_CASE("lists of structures are compared item by item, extra items added or removed") {
    const DiffReport r = diff_text(R"({"l": [{"a": 1}, {"a": 2}, {"a": 3}]})", R"({"l": [{"a": 1}, {"a": 5}]})");
    CHECK(lines(r) == std::vector<std::string>{"l/1/a: value changed: 2 -> 5 (abs diff 3.0, rel diff 0.6)",
                                               "l/2: removed (dict (1 keys))"});
  }

  TEST_CASE("dataclasses: another class is a kind change, and the fields are compared still") {
    const std::string a = R"j({"c": {"__muutils_format__": "Cfg(SerializableDataclass)", "lr": 0.1}})j";
    CHECK(diff_text(a, a).equal());
    const DiffReport fields =
        diff_text(a, R"j({"c": {"__muutils_format__": "Cfg(SerializableDataclass)", "lr": 0.2}})j");
    REQUIRE(fields.differences.size() == 1);
    CHECK(fields.differences[0].path == "c/lr");
    const DiffReport cls =
        diff_text(a, R"j({"c": {"__muutils_format__": "Other(SerializableDataclass)", "lr": 0.2}})j");
    REQUIRE(cls.differences.size() == 2);
    CHECK(difference_text(cls.differences[0]) ==
          "c: kind changed: Cfg(SerializableDataclass) -> Other(SerializableDataclass)");
    CHECK(cls.differences[1].path == "c/lr");  // key by key below the class change
    const DiffReport same_fields =
        diff_text(a, R"j({"c": {"__muutils_format__": "Other(SerializableDataclass)", "lr": 0.1}})j");
    CHECK(same_fields.differences.size() == 1);  // only the class
  }

  TEST_CASE("stop_at_first stops at one difference") {
    DiffOptions o;
    o.stop_at_first = true;
    CHECK(diff_text(R"({"a": 1, "b": 2, "c": 3})", R"({"a": 0, "b": 0, "c": 0})", o).differences.size() == 1);
  }

  TEST_CASE("the metadata and the container count only with --strict") {
    const ZanjFile a =
        make_zanj(R"({"x": 1})", {{"extra.bin", "1"}}, R"({"timestamp": 1.0, "zanj_cfg": {"compress": 8}})");
    const ZanjFile b = make_zanj(R"({"x": 1})", {}, R"({"timestamp": 2.0, "zanj_cfg": {"compress": 8}})");
    CHECK(diff_archives(a, b, {}).equal());
    DiffOptions strict;
    strict.strict = true;
    const DiffReport r = diff_archives(a, b, strict);
    CHECK(lines(r) == std::vector<std::string>{"meta:timestamp: value changed: 1.0 -> 2.0 (abs diff 1.0, rel diff 0.5)",
                                               "archive:extra.bin: removed (member (1 bytes))"});
    CHECK(r.differences[0].scope == DiffScope::meta);
    // Stopping at the first difference holds across the walks: the container's is not added.
    strict.stop_at_first = true;
    const DiffReport first = diff_archives(a, b, strict);
    CHECK(lines(first) ==
          std::vector<std::string>{"meta:timestamp: value changed: 1.0 -> 2.0 (abs diff 1.0, rel diff 0.5)"});
  }

  TEST_CASE("--strict notices members stored in another order") {
    using zanj::test::TestMember;
    auto build = [](std::vector<TestMember> members) {
      return ZanjFile(
          zip::open_archive(std::make_unique<io::MemorySource>(zanj::test::build_zip(members).bytes), "t.zanj"));
    };
    const ZanjFile a = build({{"__zanj_meta__.json", "{}"}, {"__zanj__.json", "{}"}});
    const ZanjFile b = build({{"__zanj__.json", "{}"}, {"__zanj_meta__.json", "{}"}});
    CHECK(diff_archives(a, b, {}).equal());
    DiffOptions strict;
    strict.strict = true;
    const DiffReport r = diff_archives(a, b, strict);
    REQUIRE(r.differences.size() == 1);
    CHECK(r.differences[0].kind == DiffKind::storage_changed);
    CHECK(r.differences[0].scope == DiffScope::archive);
  }
}
