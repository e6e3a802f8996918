#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "array/float16.hpp"
#include "format/float_column.hpp"

using namespace zanj;
using namespace zanj::format;

namespace {
/// Each value as the column writes it, after observing them all.
std::vector<std::string> column(const std::vector<double>& values, FloatPrecision p = FloatPrecision::double_,
                                std::string_view suffix = {}) {
  FloatColumn c(p);
  for (double v : values) c.observe(v);
  c.finish();
  std::vector<std::string> out;
  for (double v : values) {
    out.emplace_back();
    c.write(out.back(), v, suffix);
    CHECK(out.back().size() == c.width() + suffix.size());
  }
  return out;
}
using Texts = std::vector<std::string>;
}  // namespace

TEST_SUITE("float_column") {
  TEST_CASE("positional: points aligned, integers with a bare point") {
    CHECK(column({0.1, 0.25, 1.5}) == Texts{"0.1 ", "0.25", "1.5 "});
    CHECK(column({1, -20, 300}) == Texts{"  1.", "-20.", "300."});
    CHECK(column({1.0 / 3}) == Texts{"0.33333333"});  // at most 8 digits after the point
    CHECK(column({0.1}, FloatPrecision::single) == Texts{"0.1"});
    CHECK(column({array::half_to_float(array::double_to_half(0.1))}, FloatPrecision::half) == Texts{"0.1"});
    CHECK(column({0.0, -0.0}) == Texts{" 0.", "-0."});
  }

  TEST_CASE("numpy's switch to scientific notation") {
    CHECK_FALSE([] {
      FloatColumn c(FloatPrecision::double_);
      c.observe(1e7);
      c.observe(1e5);
      c.finish();
      return c.scientific();
    }());
    CHECK(column({1e8, 1}) == Texts{"1.e+08", "1.e+00"});
    CHECK(column({1e-5, 1.5e10}) == Texts{"1.0e-05", "1.5e+10"});
    CHECK(column({1, 1001}) == Texts{"1.000e+00", "1.001e+03"});  // a span over 1000
    CHECK(column({1, 999}) == Texts{"  1.", "999."});
    CHECK(column({0.0, 0.0}) == Texts{"0.", "0."});  // zeros alone stay positional
    CHECK(column({1.0 / 3, 1e-9}) == Texts{"3.33333333e-01", "1.00000000e-09"});
  }

  TEST_CASE("nan and infinities, and suffixes") {
    CHECK(column({1.0, NAN, -INFINITY}) == Texts{"  1.", " nan", "-inf"});
    CHECK(column({NAN}) == Texts{"nan"});
    CHECK(column({0.5, 1.0}, FloatPrecision::double_, "j") == Texts{"0.5j", "1.j "});
    CHECK(column({INFINITY, 2.5}, FloatPrecision::double_, "j") == Texts{"infj", "2.5j"});
  }
}
