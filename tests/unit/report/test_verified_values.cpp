#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>

#include "array/npy_header.hpp"
#include "report/verified_values.hpp"

using namespace zanj;
using namespace zanj::report;

namespace {
ArrayNode node_of(std::vector<std::uint64_t> shape) {
  ArrayNode node;
  node.dtype = "float64";
  node.shape = std::move(shape);
  node.has_shape = true;
  return node;
}

std::string npy(const std::vector<double>& values, std::vector<std::uint64_t> shape, bool fortran = false) {
  array::Dtype dtype;
  std::string bytes = array::make_npy_header(dtype, fortran, shape);
  bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
  return bytes;
}
template <class T>
std::string npy_of(const char* dtype, const std::vector<T>& values, const std::vector<std::uint64_t>& shape) {
  std::string bytes = array::make_npy_header(array::parse_dtype_name(dtype), false, shape);
  bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  return bytes;
}

void check_same(const std::optional<Number>& line, const std::optional<Number>& whole) {
  REQUIRE(line.has_value() == whole.has_value());
  if (!whole) return;
  CHECK(line->kind == whole->kind);
  CHECK(line->integer == whole->integer);
  CHECK(line->re == whole->re);
}
}  // namespace

TEST_SUITE("verified_values") {
  TEST_CASE("a member fed in pieces of any size gives the profile of its values") {
    report::VerifiedValues verified;
    verified.expect("w.npy", node_of({2, 3}), ProfileOptions{});
    const std::string bytes = npy({1, 2, 3, 4, 5, 0}, {2, 3});
    for (const std::size_t piece : {1, 5, 7, 64, 1000}) {
      const auto sink = verified.sink("w.npy");  // a retried read starts again
      REQUIRE(sink);
      for (std::size_t at = 0; at < bytes.size(); at += piece) sink(std::string_view(bytes).substr(at, piece));
    }
    const auto profile = verified.take("w.npy", false);
    REQUIRE(profile);
    CHECK(profile->stats.count == 6);
    CHECK(*profile->stats.mean == 2.5);
    CHECK(profile->zeros == 1);
    CHECK(profile->histogram.total() == 6);
    CHECK(profile->heatmap.cells.size() == 6);
    CHECK_FALSE(verified.sink("other.npy"));
  }

  TEST_CASE("left to the tree: broken, short, Fortran-order or another shape") {
    report::VerifiedValues verified;
    for (const char* name : {"broken.npy", "short.npy", "fortran.npy", "shape.npy"})
      verified.expect(name, node_of({2, 2}), ProfileOptions{});
    const auto feed = [&](const char* name, const std::string& bytes) { verified.sink(name)(bytes); };
    feed("broken.npy", npy({1, 2, 3, 4}, {2, 2}));
    feed("short.npy", npy({1, 2, 3, 4}, {2, 2}).substr(0, 140));
    feed("fortran.npy", npy({1, 2, 3, 4}, {2, 2}, true));
    feed("shape.npy", npy({1, 2, 3, 4}, {4}));
    verified.expect("dims.npy", node_of({2, 2}), ProfileOptions{0, 0});
    feed("dims.npy", npy({1, 2, 3, 4}, {1, 4}));  // the same rank, other dimensions
    CHECK_FALSE(verified.take("dims.npy", false));
    verified.expect("long.npy", node_of({2, 2}), ProfileOptions{});
    feed("long.npy", npy({1, 2, 3, 4, 5}, {2, 2}));  // a value past the end the header gives
    CHECK_FALSE(verified.take("long.npy", false));
    CHECK_FALSE(verified.take("broken.npy", true));
    CHECK_FALSE(verified.take("short.npy", false));
    CHECK_FALSE(verified.take("fortran.npy", false));
    CHECK_FALSE(verified.take("shape.npy", false));
  }

  TEST_CASE("a member two arrays share is left to each; five dimensions; statistics only; taken once") {
    report::VerifiedValues verified;
    verified.expect("b.npy", node_of({1, 1, 1, 2, 2}), ProfileOptions{});
    verified.expect("a.npy", node_of({2, 2}), ProfileOptions{});
    verified.expect("c.npy", node_of({2, 2}), ProfileOptions{0, 0});
    verified.expect("a.npy", node_of({2, 2}), ProfileOptions{});
    CHECK_FALSE(verified.sink("a.npy"));
    verified.sink("b.npy")(npy({1, 2, 3, 4}, {1, 1, 1, 2, 2}));
    verified.sink("c.npy")(npy({1, 2, 3, -4}, {2, 2}));
    CHECK_FALSE(verified.take("a.npy", false));
    const auto five = verified.take("b.npy", false);
    REQUIRE(five);
    CHECK(five->stats.count == 4);
    CHECK(five->histogram.total() == 4);
    CHECK_FALSE(verified.take("b.npy", false));  // taken: the tree holds it now
    const auto stats = verified.take("c.npy", false);
    REQUIRE(stats);
    CHECK(stats->stats.count == 4);
    CHECK(*stats->stats.mean == 0.5);
    CHECK(stats->histogram.total() == 0);
  }

  TEST_CASE("statistics only: what the tree's line shows, as the whole profile has it") {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    struct Case {
      const char* name;
      std::string bytes;
      std::vector<std::uint64_t> shape;
    };
    const std::vector<Case> cases = {
        {"i8.npy",
         npy_of<std::int64_t>(
             "int64", {std::numeric_limits<std::int64_t>::min(), 3, std::numeric_limits<std::int64_t>::max()}, {3}),
         {3}},
        {"u8.npy", npy_of<std::uint64_t>("uint64", {7, std::numeric_limits<std::uint64_t>::max(), 9}, {3}), {3}},
        {"f8.npy", npy_of<double>("float64", {nan, -inf, inf, 0.5, -2, nan}, {2, 3}), {2, 3}},
        {"zero.npy", npy_of<float>("float32", {0, 0}, {2}), {2}},
        {"nan.npy", npy_of<double>("float64", {nan}, {1}), {1}},  // no finite value: no minimum, no mean
        {"c16.npy", npy_of<std::complex<double>>("complex128", {{1, 2}, {0, 0}}, {2}), {2}},
        {"scalar.npy", npy_of<std::int8_t>("int8", {-5}, {}), {}},
    };
    report::VerifiedValues line, whole;
    for (const Case& c : cases) {
      line.expect(c.name, node_of(c.shape), ProfileOptions{0, 0});
      whole.expect(c.name, node_of(c.shape), ProfileOptions{});
    }
    for (const Case& c : cases) {
      line.sink(c.name)(c.bytes);
      whole.sink(c.name)(c.bytes);
    }
    for (const Case& c : cases) {
      CAPTURE(c.name);
      const auto l = line.take(c.name, false);
      const auto w = whole.take(c.name, false);
      REQUIRE(l);
      REQUIRE(w);
      CHECK(l->stats.count == w->stats.count);
      CHECK(l->stats.nan == w->stats.nan);
      CHECK(l->stats.pos_inf + l->stats.neg_inf == w->stats.pos_inf + w->stats.neg_inf);
      check_same(l->stats.min, w->stats.min);
      check_same(l->stats.max, w->stats.max);
      CHECK(l->stats.mean == w->stats.mean);
      CHECK(l->stats.std == w->stats.std);
      CHECK(l->all_zero() == w->all_zero());
      const std::string_view name = c.name;
      if (name == "i8.npy") CHECK(l->stats.min->integer == std::numeric_limits<std::int64_t>::min());
      if (name == "u8.npy") CHECK(l->stats.max->integer == Int128{std::numeric_limits<std::uint64_t>::max()});
      if (name == "f8.npy") CHECK((l->stats.nan == 2 && l->stats.pos_inf == 2 && l->stats.min->re == -2.0));
      if (name == "zero.npy") CHECK(l->all_zero());
      if (name == "nan.npy" || name == "c16.npy") CHECK_FALSE(l->stats.min);
    }
    const auto u8 = whole.take("u8.npy", false);
    CHECK_FALSE(u8);  // taken already
  }
}
