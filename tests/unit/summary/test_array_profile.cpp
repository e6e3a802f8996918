#include <doctest/doctest.h>

#include "test_support.hpp"
#include "object/tree_json.hpp"
#include "object/zanj_file_access.hpp"
#include "zanj/summary.hpp"

using namespace zanj;

TEST_SUITE("array_profile") {
  TEST_CASE("statistics as array_stats gives them, plus a histogram of every finite value") {
    for (const char* name : {"nan_values.zanj"}) {
      const ZanjFile z(test::corpus(name));
      walk_tree(z.root(), {}, [&](const TreeVisit& v) {
        if (!v.node.array) return true;
        const ArrayStats s = array_stats(z.archive(), *v.node.array, v.path());
        const ArrayProfile p = profile_array(z.archive(), *v.node.array, v.path());
        CHECK(p.stats.count == s.count);
        CHECK(p.stats.nan == s.nan);
        CHECK(p.stats.finite == s.finite);
        if (s.numeric) CHECK(p.histogram.total() == s.finite);
        return false;
      });
    }
  }
}
