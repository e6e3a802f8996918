#include <doctest/doctest.h>

#include "array/npy_header.hpp"
#include "export/npy_stream.hpp"
#include "zanj_fixture.hpp"

using namespace zanj;
using namespace zanj::exporter;

TEST_SUITE("npy_stream") {
  TEST_CASE("external arrays verbatim, inline ones with a header, values little-endian") {
    const ZanjFile z(Archive::from_memory(zanj::test::fixture_zip(), "t.zanj"));
    const ExportPlan plan = plan_export(z, "", ".npy");
    REQUIRE(plan.arrays.size() == 2);
    const ExportedArray arr(z.archive(), plan.arrays[0]);
    CHECK(arr.npy_size() == zanj::test::fixture_npy().size());
    std::string got;
    arr.stream_npy([&](std::string_view c) {
      got += c;
      return true;
    });
    CHECK(got == zanj::test::fixture_npy());
    CHECK(arr.value_bytes() == 48);

    const ExportedArray small(z.archive(), plan.arrays[1]);
    const std::string header = array::make_npy_header(array::parse_descr("<i2"), false, {2});
    CHECK(small.npy_size() == header.size() + 4);
    std::string values;
    small.stream_values([&](std::string_view c) {
      values += c;
      return true;
    });
    CHECK(values == std::string("\x01\x00\x02\x00", 4));
  }
}
