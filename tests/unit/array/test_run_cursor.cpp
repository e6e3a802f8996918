#include <doctest/doctest.h>

#include "array/run_cursor.hpp"

using namespace zanj;
using namespace zanj::array;

namespace {
using Indices = std::vector<std::uint64_t>;

/// Every element offset a cursor visits, run by run.
Indices offsets(const Selection& s, const std::vector<std::uint64_t>& strides) {
  Indices out;
  RunCursor cursor(s, strides);
  Run run;
  while (cursor.next(run))
    for (std::uint64_t i = 0; i < run.count; ++i) out.push_back(run.offset + i);
  return out;
}

std::size_t run_count(const Selection& s, const std::vector<std::uint64_t>& strides) {
  RunCursor cursor(s, strides);
  Run run;
  std::size_t n = 0;
  while (cursor.next(run)) ++n;
  return n;
}
}  // namespace

TEST_SUITE("run_cursor") {
  TEST_CASE("runs in C order") {
    const std::vector<std::uint64_t> shape{3, 4, 5};
    const auto c = c_order_strides(shape);
    CHECK(c == Indices{20, 5, 1});
    CHECK(run_count(select_all(shape), c) == 1);  // everything is one run
    CHECK(run_count(select(parse_slice("[1:3]"), shape), c) == 1);
    CHECK(offsets(select(parse_slice("[1:3]"), shape), c).front() == 20);
    CHECK(run_count(select(parse_slice("[:, 1:3]"), shape), c) == 3);  // one per outer index
    CHECK(offsets(select(parse_slice("[0, 1, 1:3]"), shape), c) == Indices{6, 7});
    CHECK(offsets(select(parse_slice("[::2, 0, ::-2]"), shape), c) == Indices{4, 2, 0, 44, 42, 40});
    CHECK(offsets(summarize(select_all({10}), 2), c_order_strides({10})) == Indices{0, 1, 8, 9});
    CHECK(offsets(select(parse_slice("[1, 2, 3]"), shape), c) == Indices{33});
    CHECK(offsets(select_all({}), {}) == Indices{0});
    CHECK(offsets(select(parse_slice("[2:2]"), shape), c).empty());
  }

  TEST_CASE("runs in Fortran order visit elements in C order") {
    const std::vector<std::uint64_t> shape{2, 3};
    const auto f = fortran_order_strides(shape);
    CHECK(f == Indices{1, 2});
    // Element (i, j) of a Fortran array sits at i + 2 j.
    CHECK(offsets(select_all(shape), f) == Indices{0, 2, 4, 1, 3, 5});
    CHECK(offsets(select(parse_slice("[:, ::-1]"), shape), f) == Indices{4, 2, 0, 5, 3, 1});
    CHECK(offsets(select(parse_slice("[1]"), shape), f) == Indices{1, 3, 5});
  }
}
