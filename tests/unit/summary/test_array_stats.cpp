#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "test_support.hpp"
#include "summary/stats_accumulator.hpp"
#include "zanj/error.hpp"
#include "object/tree_json.hpp"
#include "object/zanj_file_access.hpp"

using namespace zanj;
using namespace zanj::summary;

namespace {
ArrayStats corpus_stats(const char* archive, const char* path) {
  const ZanjFile z(test::corpus(archive));
  const JsonView node = follow_path(z.root(), split_path(path));
  REQUIRE(node);
  const Node n = classify(node);
  REQUIRE(n.array);
  return array_stats(z.archive(), *n.array, path);
}
}  // namespace

TEST_SUITE("array_stats") {
  TEST_CASE("values near the largest double give a finite std, not NaN (issue 26)") {
    // [1e308, -1e308, 1e308, 5e-324]: in double, v - mean overflowed and the std was NaN. The
    // exact population std (fractions) is 8.2915619758885e+307.
    StatsAccumulator acc;
    for (double v : {1e308, -1e308, 1e308, 5e-324}) acc.add_real(v);
    const ArrayStats s = acc.result(true);
    REQUIRE(s.std);
    CHECK(std::isfinite(*s.std));
    CHECK(*s.std == doctest::Approx(8.2915619758885e+307).epsilon(1e-14));
    CHECK(*s.mean == doctest::Approx(2.5e307).epsilon(1e-14));
    StatsAccumulator max;
    const double m = std::numeric_limits<double>::max();
    for (double v : {m, -m, m, -m}) max.add_real(v);
    CHECK(*max.result(true).std == m);  // exactly: half the range, which is a double
    StatsAccumulator tiny;              // subnormals are exact in the wide accumulator
    for (double v : {5e-324, 1e-323, 1.5e-323}) tiny.add_real(v);
    CHECK(*tiny.result(true).mean == 1e-323);
    CHECK(*tiny.result(true).std == 5e-324);  // sqrt(2/3) * 4.9e-324 rounds to the smallest subnormal
  }

  TEST_CASE("values merged by blocks give the two-pass mean and std (issue 30)") {
    // Reference: the exact-as-possible two-pass result in long double over all values.
    const auto reference = [](const std::vector<double>& values) {
      long double sum = 0;
      for (double v : values) sum += v;
      const long double mean = sum / static_cast<long double>(values.size());
      long double m2 = 0;
      for (double v : values) m2 += (v - mean) * (v - mean);
      return std::pair<double, double>{static_cast<double>(mean),
                                       static_cast<double>(std::sqrt(m2 / static_cast<long double>(values.size())))};
    };
    // A large offset and a small spread (cancellation), sizes around the block's, a first
    // value far from the rest (an outlier leading a block), and a block of huge values that
    // takes the long double path between ordinary ones.
    std::uint64_t state = 12345;
    const auto noise = [&] {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
    };
    for (std::size_t n : {1, 3, 255, 256, 257, 1000, 5000}) {
      std::vector<double> values;
      for (std::size_t i = 0; i < n; ++i) values.push_back(1e6 + 1e-3 * noise());
      values[0] = 1e9;
      if (n > 600) values[300] = 1e120;  // one block through Welford in long double
      StatsAccumulator acc;
      for (double v : values) acc.add_real(v);
      const ArrayStats s = acc.result(true);
      const auto [mean, std] = reference(values);
      CAPTURE(n);
      CHECK(*s.mean == doctest::Approx(mean).epsilon(1e-13));
      CHECK(*s.std == doctest::Approx(std).epsilon(1e-12));
    }
    // Without the outliers: a tiny spread on a large offset is still resolved.
    std::vector<double> plain;
    for (int i = 0; i < 3000; ++i) plain.push_back(1e6 + 1e-3 * noise());
    StatsAccumulator acc;
    for (double v : plain) acc.add_real(v);
    CHECK(*acc.result(true).std == doctest::Approx(reference(plain).second).epsilon(1e-9));
    // result() in the middle of a block leaves the accumulator usable.
    StatsAccumulator part;
    for (int i = 0; i < 300; ++i) part.add_real(i);
    CHECK(*part.result(true).mean == 149.5);
    for (int i = 300; i < 600; ++i) part.add_real(i);
    const ArrayStats whole = part.result(true);
    CHECK(*whole.mean == 299.5);
    CHECK(*whole.std == doctest::Approx(std::sqrt((600.0 * 600.0 - 1) / 12)).epsilon(1e-15));
    CHECK(*whole.sum == 179700.0);
  }

  TEST_CASE("mean and population std over finite values; NaN and infinities counted apart") {
    StatsAccumulator acc;
    for (double v : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) acc.add_real(v);
    acc.add_real(std::numeric_limits<double>::quiet_NaN());
    acc.add_real(std::numeric_limits<double>::infinity());
    acc.add_real(-std::numeric_limits<double>::infinity());
    acc.add_real(-std::numeric_limits<double>::infinity());
    const ArrayStats s = acc.result(true);
    CHECK(s.count == 12);
    CHECK(s.finite == 8);
    CHECK((s.nan == 1 && s.pos_inf == 1 && s.neg_inf == 2));
    CHECK(s.min->re == 2.0);
    CHECK(s.max->re == 9.0);
    CHECK(*s.sum == 40.0);
    CHECK(*s.mean == 5.0);
    CHECK(*s.std == 2.0);
  }

  TEST_CASE("integers keep exact extremes beyond 2^53") {
    StatsAccumulator acc;
    const Int128 big = (Int128{1} << 62) + 1;
    acc.add_integer(big);
    acc.add_integer(-3);
    acc.add_integer(big - 1);
    const ArrayStats s = acc.result(true);
    CHECK(s.min->integer == -3);
    CHECK(s.max->integer == big);
    CHECK(s.max->kind == Number::Kind::integer);
  }

  TEST_CASE("the sum is compensated, and overflows to infinity as numpy's does") {
    StatsAccumulator acc;
    acc.add_real(1e16);
    for (int i = 0; i < 10; ++i) acc.add_real(1.0);
    acc.add_real(-1e16);
    CHECK(*acc.result(true).sum == 10.0);
    StatsAccumulator big;
    big.add_real(1e308);
    big.add_real(1e308);
    const ArrayStats s = big.result(true);
    CHECK(std::isinf(*s.sum));
    CHECK(*s.mean == doctest::Approx(1e308));  // Welford's mean does not overflow
    CHECK(*s.std == 0.0);
  }

  TEST_CASE("no finite values, complex and strings: counts only") {
    StatsAccumulator nans;
    nans.add_real(std::nan(""));
    const ArrayStats n = nans.result(true);
    CHECK((n.count == 1 && n.nan == 1 && !n.min && !n.mean && !n.std));
    StatsAccumulator c;
    c.add_complex(1, 2);
    c.add_complex(std::nan(""), 0);
    c.add_complex(0, -std::numeric_limits<double>::infinity());
    const ArrayStats cs = c.result(false);
    CHECK((cs.count == 3 && cs.finite == 1 && cs.nan == 1 && cs.neg_inf == 1 && !cs.mean));
    StatsAccumulator s;
    s.add_other();
    s.add_other();
    CHECK(s.result(false).count == 2);
    CHECK_FALSE(s.result(false).numeric);
    CHECK(StatsAccumulator().result(true).count == 0);
  }

  TEST_CASE("streamed from real arrays: external, Fortran order, float16, inline") {
    // expected values: the corpus facts, computed by numpy
    ArrayStats s = corpus_stats("basic.zanj", "big_array");
    CHECK(s.count == 512);
    CHECK(s.min->re == -3.396475076675415);
    CHECK(s.max->re == 2.6333842277526855);
    CHECK(*s.sum == doctest::Approx(-15.545081663818564).epsilon(1e-12));
    s = corpus_stats("dtypes.zanj", "f4_fortran");
    CHECK((s.min->re == -2.260680675506592 && s.max->re == 3.0439300537109375));
    CHECK(*s.sum == doctest::Approx(30.613031079992652).epsilon(1e-12));
    s = corpus_stats("dtypes.zanj", "f2");
    CHECK((s.min->re == -2.853515625 && s.max->re == 2.873046875));
    s = corpus_stats("dtypes.zanj", "c8");
    CHECK((s.count == 300 && !s.numeric && !s.mean));
    s = corpus_stats("basic.zanj", "small_array");
    CHECK((s.min->integer == 0 && s.max->integer == 5 && *s.mean == 2.5));
  }

  TEST_CASE("a corrupt member is an Error") {
    CHECK_THROWS_AS(corpus_stats("malformed/bad_crc.zanj", "big_array"), Error);
    CHECK_THROWS_AS(corpus_stats("malformed/npy_shape_mismatch.zanj", "big_array"), Error);
  }
}
