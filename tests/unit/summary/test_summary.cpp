#include <doctest/doctest.h>

#include <cmath>

#include "test_support.hpp"
#include "zanj/error.hpp"
#include "zanj/summary.hpp"
#include "object/zanj_file_access.hpp"
#include "zanj/array.hpp"

using namespace zanj;
using test::corpus;

TEST_SUITE("summary") {
  TEST_CASE("basic.zanj") {
    ZanjFile z(corpus("basic.zanj"));
    CHECK(z.problems().empty());
    const Summary s = summarize(z, 2);
    CHECK(s.members == 5);
    CHECK(s.arrays == 3);
    CHECK(s.external_arrays == 2);
    CHECK(s.inline_arrays == 1);
    CHECK(s.external_lists == 1);
    CHECK(s.externals == 3);
    CHECK(s.array_bytes == 24 + 2048 + 3200);
    REQUIRE(s.largest_arrays.size() == 2);
    CHECK(s.largest_arrays[0].path == "nested/deeper/matrix");
    CHECK(s.root_type == "dict");
    CHECK(s.python == "3.11.2");
    CHECK(s.torch == "1.13.0a0");
    REQUIRE(s.zanj_cfg);
    CHECK(to_json(*s.zanj_cfg).find("isinstance") == std::string::npos);
    CHECK_FALSE(s.handlers.empty());
    CHECK(s.saved_at.size() == 20);
  }

  TEST_CASE("a missing meta is a problem, not a failure; a missing main member is") {
    ZanjFile z(corpus("malformed/no_meta.zanj"));
    CHECK_FALSE(z.meta());
    CHECK(z.problems().size() == 1);
    const Summary s = summarize(z);
    CHECK(s.python.empty());
    CHECK_FALSE(s.saved_at.empty());  // from the member's date
    CHECK_THROWS_AS(ZanjFile(corpus("malformed/no_main.zanj")), Error);
  }

  TEST_CASE("helpers") {
    CHECK(iso8601_utc(0) == "1970-01-01T00:00:00Z");
    CHECK(iso8601_utc(1795217122.9) == "2026-11-20T23:25:22Z");
    CHECK(iso8601_utc(-62135596800.0) == "0001-01-01T00:00:00Z");
    CHECK(iso8601_utc(253402300799.0) == "9999-12-31T23:59:59Z");
    CHECK_FALSE(iso8601_utc(253402300800.0));  // year 10000: Python's datetime has none
    CHECK_FALSE(iso8601_utc(1e300));
    CHECK_FALSE(iso8601_utc(-1e300));
    CHECK_FALSE(iso8601_utc(std::nan("")));
    CHECK_FALSE(iso8601_utc(HUGE_VAL));
    CHECK(*array_value_bytes("float32", {32, 16}) == 2048);
    CHECK(*array_value_bytes("torch.int64", {}) == 8);
    CHECK_FALSE(array_value_bytes("torch.bfloat16", {2}));
    CHECK_FALSE(array_value_bytes("float64", {1ull << 62, 4}));
  }
}
