#include <doctest/doctest.h>

#include "summary/histogram.hpp"

using namespace zanj;
using namespace zanj::summary;

TEST_SUITE("histogram") {
  TEST_CASE("few values: every one counted, range around them") {
    HistogramAccumulator acc(16);
    for (double v : {1.0, 2.0, 2.0, 3.0}) acc.add(v);
    const Histogram h = acc.result();
    CHECK(h.counts.size() == 16);
    CHECK(h.total() == 4);
    CHECK(h.lo <= 1.0);
    CHECK(h.hi > 3.0);
  }

  TEST_CASE("values beyond the seed range widen it by merging, counts kept") {
    HistogramAccumulator acc(8);
    for (std::size_t i = 0; i < HistogramAccumulator::kSeedValues; ++i) acc.add(static_cast<double>(i % 10));
    acc.add(1000.0);
    acc.add(-500.0);
    const Histogram h = acc.result();
    CHECK(h.counts.size() == 8);
    CHECK(h.total() == HistogramAccumulator::kSeedValues + 2);
    CHECK(h.lo <= -500.0);
    CHECK(h.hi > 1000.0);
    CHECK(rebin(h, 8).lo <= -500.0);  // the outliers' bins are the occupied ends
    CHECK(rebin(h, 8).hi > 1000.0);
  }

  TEST_CASE("equal values, then a different one") {
    HistogramAccumulator acc(256);
    for (std::size_t i = 0; i < 2000; ++i) acc.add(7.0);
    acc.add(7e300);
    const Histogram h = acc.result();
    CHECK(h.total() == 2001);
    CHECK(h.hi > 7e300);
  }

  TEST_CASE("the same values in any order give the same bins once the seed is the same") {
    HistogramAccumulator a(32), b(32);
    for (int i = 0; i < 5000; ++i) a.add(i % 100);
    for (int i = 0; i < 5000; ++i) b.add(i % 100);
    CHECK(a.result().counts == b.result().counts);
  }

  TEST_CASE("rebin drops empty ends and sums neighbours") {
    Histogram h;
    h.lo = 0;
    h.hi = 8;
    h.counts = {0, 1, 2, 3, 4, 0, 0, 0};
    const Histogram r = rebin(h, 2);
    CHECK(r.lo == 1.0);
    CHECK(r.hi == 5.0);
    CHECK(r.counts == std::vector<std::uint64_t>{3, 7});
    CHECK(rebin(h, 100).counts.size() == 4);
    CHECK(rebin(Histogram{}, 10).counts.empty());
  }

  TEST_CASE("nothing added: no bins") { CHECK(HistogramAccumulator().result().counts.empty()); }
}
