#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "test_support.hpp"
#include "array/dtype.hpp"
#include "summary/array_profile.hpp"
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

namespace {
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool same_number(const std::optional<Number>& a, const std::optional<Number>& b) {
  if (!a || !b) return !a && !b;
  return a->kind == b->kind && same_bits(a->re, b->re) && a->integer == b->integer;
}

bool same_optional(const std::optional<double>& a, const std::optional<double>& b) {
  return a && b ? same_bits(*a, *b) : !a && !b;
}

/// The profile of `values` (as dtype `descr`, of `shape`) taken in one chunk, so whole runs of
/// 256 go through ProfileBuilder's run path, and one element per chunk, so every value goes
/// through the value-by-value path: every figure must be the same to the bit.
template <class Real>
void check_runs_match_values(const char* descr, const std::vector<std::uint64_t>& shape,
                             const std::vector<Real>& values) {
  const ProfileOptions options;
  const array::Dtype dtype = array::parse_descr(descr);
  const char* data = reinterpret_cast<const char*>(values.data());
  summary::ProfileBuilder whole(dtype, shape, options), one(dtype, shape, options);
  whole.add(data, values.size() * sizeof(Real));
  for (std::size_t i = 0; i < values.size(); ++i) one.add(data + i * sizeof(Real), sizeof(Real));
  const ArrayProfile a = whole.result(), b = one.result();
  CHECK((a.stats.count == b.stats.count && a.stats.finite == b.stats.finite && a.stats.nan == b.stats.nan &&
         a.stats.pos_inf == b.stats.pos_inf && a.stats.neg_inf == b.stats.neg_inf));
  CHECK(same_number(a.stats.min, b.stats.min));
  CHECK(same_number(a.stats.max, b.stats.max));
  CHECK(same_optional(a.stats.sum, b.stats.sum));
  CHECK(same_optional(a.stats.mean, b.stats.mean));
  CHECK(same_optional(a.stats.std, b.stats.std));
  CHECK(a.zeros == b.zeros);
  CHECK(a.histogram.counts == b.histogram.counts);
  CHECK((same_bits(a.histogram.lo, b.histogram.lo) && same_bits(a.histogram.hi, b.histogram.hi)));
  CHECK((same_bits(a.histogram.min, b.histogram.min) && same_bits(a.histogram.max, b.histogram.max)));
  REQUIRE(a.heatmap.cells.size() == b.heatmap.cells.size());
  for (std::size_t i = 0; i < a.heatmap.cells.size(); ++i)
    CHECK((same_bits(a.heatmap.cells[i], b.heatmap.cells[i]) ||
           (std::isnan(a.heatmap.cells[i]) && std::isnan(b.heatmap.cells[i]))));
}
}  // namespace

TEST_SUITE("array_profile") {
  TEST_CASE("runs of values give, to the bit, what the values one at a time give") {
    std::uint64_t state = 99;
    const auto noise = [&] {  // in [-0.5, 0.5)
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
    };
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::vector<float> gauss(300 * 257);  // uneven heatmap cells, a tail shorter than a run
    for (float& v : gauss) v = static_cast<float>(noise() + noise() + noise());
    check_runs_match_values("<f4", {300, 257}, gauss);
    std::vector<float> holes = gauss;  // NaN and infinities in some runs, not in others
    for (std::size_t i = 0; i < holes.size(); i += 977) holes[i] = i % 3 == 0 ? nan : (i % 3 == 1 ? inf : -inf);
    check_runs_match_values("<f4", {300, 257}, holes);
    // -0 and 0 as the extremes: the first of them in order is kept, as one value at a time.
    std::vector<float> zeros(4096);
    for (std::size_t i = 0; i < zeros.size(); ++i)
      zeros[i] = i % 37 == 5 ? -0.0f : (i % 41 == 3 ? 0.0f : static_cast<float>(std::fabs(noise())));
    check_runs_match_values("<f4", {64, 64}, zeros);
    for (float& v : zeros) v = -v;
    check_runs_match_values("<f4", {4096}, zeros);
    std::vector<float> lanes(512);  // the first zero in a later lane than another zero
    for (std::size_t i = 0; i < lanes.size(); ++i) lanes[i] = static_cast<float>(i + 1);
    lanes[1] = -0.0f;
    lanes[4] = 0.0f;
    check_runs_match_values("<f4", {2, 256}, lanes);
    for (float& v : lanes) v = -v;
    check_runs_match_values("<f4", {2, 256}, lanes);
    std::vector<float> signed_zeros(1000);
    for (std::size_t i = 0; i < signed_zeros.size(); ++i) signed_zeros[i] = i % 3 ? 0.0f : -0.0f;
    check_runs_match_values("<f4", {10, 100}, signed_zeros);
    std::vector<float> widening(20000);  // the histogram's range doubles again and again
    for (std::size_t i = 0; i < widening.size(); ++i)
      widening[i] = static_cast<float>(noise() * std::pow(1.001, static_cast<double>(i)) * (i % 2 ? 1 : -1));
    check_runs_match_values("<f4", {20000}, widening);
    // float64 with runs of values that take the long double update, and a sum that overflows.
    std::vector<double> wide(10000);
    for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = i % 500 == 7 ? 1e150 : noise();
    check_runs_match_values("<f8", {100, 100}, wide);
    for (std::size_t i = 0; i < wide.size(); i += 301) wide[i] = 1e308;
    check_runs_match_values("<f8", {100, 100}, wide);
  }
}
