#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "summary/heatmap.hpp"

using namespace zanj;
using namespace zanj::summary;

TEST_SUITE("heatmap") {
  TEST_CASE("small 2-D arrays keep every value") {
    HeatmapAccumulator acc({2, 3}, 128);
    for (double v : {1, 2, 3, 4, 5, 6}) acc.add(v);
    const Heatmap h = acc.result();
    CHECK((h.rows == 2 && h.cols == 3));
    CHECK(h.cells == std::vector<double>{1, 2, 3, 4, 5, 6});
  }

  TEST_CASE("large arrays are averaged into blocks; higher-D folds into rows") {
    HeatmapAccumulator acc({2, 2, 4}, 2);  // 4 rows of 4 -> 2 x 2 cells of 2 x 2
    for (int i = 0; i < 16; ++i) acc.add(i);
    const Heatmap h = acc.result();
    CHECK((h.rows == 2 && h.cols == 2 && h.source_rows == 4 && h.source_cols == 4));
    CHECK(h.cells == std::vector<double>{2.5, 4.5, 10.5, 12.5});
  }

  TEST_CASE("uneven blocks and non-finite values") {
    HeatmapAccumulator acc({1, 5}, 2);
    for (double v : {1.0, std::numeric_limits<double>::quiet_NaN(), 3.0, 10.0, 20.0}) acc.add(v);
    const Heatmap h = acc.result();
    REQUIRE(h.cells.size() == 2);
    CHECK(h.cells[0] == 2.0);   // 1, NaN, 3
    CHECK(h.cells[1] == 15.0);  // 10, 20
    HeatmapAccumulator nans({1, 1}, 4);
    nans.add(std::numeric_limits<double>::infinity());
    CHECK(std::isnan(nans.result().cells[0]));
  }

  TEST_CASE("no thumbnail below two dimensions or for empty arrays") {
    CHECK(HeatmapAccumulator({10}, 128).result().cells.empty());
    CHECK(HeatmapAccumulator({0, 3}, 128).result().cells.empty());
    CHECK(HeatmapAccumulator({3, 3}, 0).result().cells.empty());
  }
}
