#include <doctest/doctest.h>

#include <cstring>

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
}
