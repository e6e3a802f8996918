#include <doctest/doctest.h>

#include <limits>

#include "difference_fixture.hpp"
#include "zanj/diff.hpp"

using namespace zanj;

using zanj::test::values_difference;

TEST_SUITE("diff_report") {
  TEST_CASE("one line per difference, like h5diff -v") {
    CHECK(difference_text(values_difference(DiffKind::array_values, "elements")) ==
          "w: 12 of 512 elements differ (max abs diff 0.25 at [3, 7], max rel diff 0.01 at [0, 2])");
    CHECK(difference_text(values_difference(DiffKind::table_rows, "rows")) ==
          "w: 12 of 512 rows differ (first at [0, 1]: 1.0 -> 1.5; max abs diff 0.25 at [3, 7], max rel diff 0.01 at "
          "[0, 2])");
    CHECK(difference_text({DiffScope::object, "a/b", DiffKind::value_changed, 1.5, 2.0, {}}) ==
          "a/b: value changed: 1.5 -> 2.0 (abs diff 0.5, rel diff 0.25)");
    CHECK(difference_text({DiffScope::object, "s", DiffKind::value_changed, "x", "y", {}}) ==
          "s: value changed: \"x\" -> \"y\"");
    CHECK(difference_text({DiffScope::object, "", DiffKind::kind_changed, "dict (2 keys)", "list (3 items)", {}}) ==
          "/: kind changed: dict (2 keys) -> list (3 items)");
    CHECK(difference_text({DiffScope::object, "k", DiffKind::added, nullptr, "number 3", {}}) == "k: added (number 3)");
    CHECK(difference_text({DiffScope::object, "k", DiffKind::removed, "null", nullptr, {}}) == "k: removed (null)");
    CHECK(difference_text({DiffScope::object, "w", DiffKind::dtype_changed, "float32", "float64", {}}) ==
          "w: dtype changed: float32 -> float64");
    CHECK(difference_text(
              {DiffScope::object, "w", DiffKind::shape_changed, JsonArray{Json(3)}, JsonArray{Json(4)}, {}}) ==
          "w: shape changed: [3] -> [4]");
    CHECK(difference_text({DiffScope::meta, "timestamp", DiffKind::value_changed, 1.0, 2.0, {}})
              .rfind("meta:timestamp: value changed: 1.0 -> 2.0", 0) == 0);
    CHECK(difference_text({DiffScope::archive, "w.npy", DiffKind::storage_changed, "deflate", "store", {}}) ==
          "archive:w.npy: storage changed: deflate -> store");
  }

  TEST_CASE("a value difference without numbers says only how many differ") {
    Difference d = values_difference(DiffKind::list_items, "items");
    d.values->max_abs.reset();
    d.values->max_rel.reset();
    d.values->first_at = JsonArray{Json(4)};
    d.values->first = "\"a\" -> \"b\"";
    CHECK(difference_text(d) == "w: 12 of 512 items differ (first at [4]: \"a\" -> \"b\")");
  }

  TEST_CASE("kind and scope names") {
    for (DiffKind k : {DiffKind::added, DiffKind::length_changed, DiffKind::columns_changed, DiffKind::storage_changed})
      CHECK_FALSE(diff_kind_name(k).empty());
    CHECK(diff_scope_name(DiffScope::meta) == "meta");
  }
}
