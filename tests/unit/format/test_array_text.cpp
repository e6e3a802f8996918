#include <doctest/doctest.h>

#include "array_fixture.hpp"
#include "test_support.hpp"
#include "format/array_text.hpp"

using namespace zanj;
using namespace zanj::format;
using namespace zanj::test;

namespace {
std::string text(const InlineArray& a, ArrayPrintOptions options = {}, const std::string& slice = "") {
  const Selection s = a.selection(slice);
  return printed([&](OutputBuffer& out) { print_array_text(*a.values, s, options, out); });
}
std::string text(const std::string& data, const std::string& dtype, const std::string& shape) {
  return text(InlineArray(data, dtype, shape));
}
}  // namespace

TEST_SUITE("array_text") {
  TEST_CASE("integers and booleans, aligned") {
    CHECK(text("[[0, 1, 2], [3, 4, 5]]", "int32", "[2, 3]") == "[[0 1 2]\n [3 4 5]]\n");
    CHECK(text("[[0, 10], [-3, 4]]", "int64", "[2, 2]") == "[[ 0 10]\n [-3  4]]\n");
    CHECK(text("[true, false, true]", "bool", "[3]") == "[ True False  True]\n");
    CHECK(text("[18446744073709551615, 1]", "uint64", "[2]") == "[18446744073709551615                    1]\n");
  }

  TEST_CASE("floats: points aligned, numpy's notation") {
    CHECK(text("[0.1, 0.25, 1.5]", "float64", "[3]") == "[0.1  0.25 1.5 ]\n");
    CHECK(text("[1, 2, -3]", "float32", "[3]") == "[ 1.  2. -3.]\n");
    CHECK(text("[0.1]", "float32", "[1]") == "[0.1]\n");  // the float32 0.1, at its own precision
    CHECK(text("[0.3333333333333333]", "float64", "[1]") == "[0.33333333]\n");
    CHECK(text("[1e-05, 15000000000.0]", "float64", "[2]") == "[1.0e-05 1.5e+10]\n");
    CHECK(text("[1.0, NaN, -Infinity]", "float64", "[3]") == "[  1.  nan -inf]\n");
    CHECK(text("[NaN]", "float16", "[1]") == "[nan]\n");
    CHECK(text("[0.1, 2]", "float16", "[2]") == "[0.1 2. ]\n");
  }

  TEST_CASE("complex numbers and strings") {
    CHECK(text("[[1, 2], [3, -4]]", "complex128", "[2]") == "[1.+2.j 3.-4.j]\n");
    CHECK(text("[[1, 1], [1, 0.5]]", "complex64", "[2]") == "[1.+1.j  1.+0.5j]\n");
    CHECK(text(R"(["a", "bcd", "it's"])", "<U4", "[3]") == "['a' 'bcd' 'it\\'s']\n");
    CHECK(text(R"(["a", "\u00ff"])", "|S1", "[2]") == "[b'a' b'\\xff']\n");
  }

  TEST_CASE("higher dimensions, scalars, empty arrays") {
    CHECK(text("[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]", "int8", "[2, 2, 2]") ==
          "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]\n");
    CHECK(text(InlineArray("2.5", "float64", "[]", "zero_dim")) == "2.5\n");
    CHECK(text("[]", "float64", "[0, 5]") == "[]\n");
    CHECK(text(InlineArray("[[1, 2], [3, 4]]", "int8", "[2, 2]"), {}, "[1, 0]") == "3\n");
    CHECK(text(InlineArray("[false, true]", "bool", "[2]"), {}, "[1]") == "True\n");  // no column padding
  }

  TEST_CASE("long rows wrap at 75 characters") {
    const std::string out = text(range_json(30), "int64", "[30]");
    CHECK(out ==
          "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n"
          " 24 25 26 27 28 29]\n");
  }

  TEST_CASE("large arrays are summarized unless full") {
    const InlineArray a(range_json(2000), "int64", "[2000]");
    CHECK(text(a) == "[   0    1    2 ... 1997 1998 1999]\n");
    ArrayPrintOptions full;
    full.full = true;
    const std::string all = text(a, full);
    CHECK(all.find("...") == std::string::npos);
    CHECK(all.find(" 1000 ") != std::string::npos);
    std::string rows = "[";
    for (int r = 0; r < 100; ++r) rows += std::string(r ? ", " : "") + range_json(20);
    const InlineArray grid(rows + "]", "int16", "[100, 20]");
    CHECK(text(grid) ==
          "[[ 0  1  2 ... 17 18 19]\n"
          " [ 0  1  2 ... 17 18 19]\n"
          " [ 0  1  2 ... 17 18 19]\n"
          " ...\n"
          " [ 0  1  2 ... 17 18 19]\n"
          " [ 0  1  2 ... 17 18 19]\n"
          " [ 0  1  2 ... 17 18 19]]\n");
    CHECK(text(grid, {}, "[:3, 5:9]") == "[[5 6 7 8]\n [5 6 7 8]\n [5 6 7 8]]\n");
  }
}
