#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "array/value_compare.hpp"
#include "json/json_parse.hpp"

using namespace zanj;
using namespace zanj::array;

namespace {
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

bool differ(double a, double b, Tolerance t = {}, bool nan_equal = true) {
  return compare_numbers(Number::from_real(a), Number::from_real(b), t, nan_equal).differ;
}
}  // namespace

TEST_SUITE("value_compare") {
  TEST_CASE("allclose semantics: |a - b| <= atol + rtol * |b|") {
    CHECK_FALSE(differ(1.0, 1.0));
    CHECK(differ(1.0, 1.0 + 1e-15));  // exact by default
    CHECK_FALSE(differ(0.0, -0.0));
    CHECK_FALSE(differ(1.1, 1.0, {0, 0.1 + 1e-12}));
    CHECK(differ(1.1, 1.0, {0, 0.09}));
    CHECK_FALSE(differ(110, 100, {0.1, 0}));
    CHECK(differ(100, 110, {0.05, 0}));        // relative to b: 10 > 5.5
    CHECK_FALSE(differ(100, 110, {0.05, 5}));  // 10 <= 5 + 5.5
    // asymmetric, as in numpy: b is the reference
    CHECK_FALSE(differ(2.0, 1.0, {1.0, 0}));
    CHECK(differ(1.0, 2.0, {0.4, 0}));
  }

  TEST_CASE("NaN and infinities") {
    CHECK_FALSE(differ(kNan, kNan));
    CHECK(differ(kNan, kNan, {}, false));
    CHECK(differ(kNan, 1.0));
    CHECK(differ(1.0, kNan, {1e9, 1e9}));
    CHECK_FALSE(differ(kInf, kInf));
    CHECK(differ(kInf, -kInf, {1e9, 1e9}));
    CHECK(differ(kInf, 1e308, {1, 1}));
    const PairResult r = compare_numbers(Number::from_real(kNan), Number::from_real(2), {}, true);
    CHECK_FALSE(r.abs_diff.has_value());
    CHECK(std::isinf(*compare_numbers(Number::from_real(kInf), Number::from_real(2), {}, true).abs_diff));
  }

  TEST_CASE("integers compare exactly, even beyond 2^53") {
    const Int128 big = (Int128{1} << 62) + 1;
    auto r = compare_numbers(Number::from_integer(big), Number::from_integer(big - 1), {}, true);
    CHECK(r.differ);
    CHECK(*r.abs_diff == 1.0);
    // as doubles both round to 2^62; as integers they differ by 1, within atol 1
    CHECK_FALSE(compare_numbers(Number::from_integer(big), Number::from_integer(big - 1), {0, 1}, true).differ);
    CHECK(compare_numbers(Number::from_integer(big), Number::from_integer(big - 2), {0, 1}, true).differ);
    // uint64 max against int64 min: the difference does not overflow
    r = compare_numbers(Number::from_integer(std::numeric_limits<std::uint64_t>::max()),
                        Number::from_integer(std::numeric_limits<std::int64_t>::min()), {}, true);
    CHECK(r.differ);
    CHECK(*r.abs_diff == doctest::Approx(3 * std::ldexp(1.0, 63)));
    // an integer against a real compares as doubles
    CHECK_FALSE(compare_numbers(Number::from_integer(3), Number::from_real(3.0), {}, true).differ);
  }

  TEST_CASE("relative difference is against |b|, infinite when b is 0") {
    auto r = compare_numbers(Number::from_real(1.5), Number::from_real(1.0), {}, true);
    CHECK(*r.abs_diff == 0.5);
    CHECK(*r.rel_diff == 0.5);
    r = compare_numbers(Number::from_real(1.0), Number::from_real(0.0), {}, true);
    CHECK(std::isinf(*r.rel_diff));
    r = compare_numbers(Number::from_integer(0), Number::from_integer(0), {}, true);
    CHECK(*r.rel_diff == 0.0);
  }

  TEST_CASE("complex numbers compare by the magnitude of the difference") {
    const Number a = Number::from_complex({1, 1}), b = Number::from_complex({1, 1.5});
    auto r = compare_numbers(a, b, {}, true);
    CHECK(r.differ);
    CHECK(*r.abs_diff == 0.5);
    CHECK_FALSE(compare_numbers(a, b, {0, 0.5}, true).differ);
    CHECK_FALSE(compare_numbers(Number::from_complex({kNan, 0}), Number::from_complex({0, kNan}), {}, true).differ);
    CHECK(compare_numbers(Number::from_complex({kNan, 0}), Number::from_complex({0, kNan}), {}, false).differ);
    CHECK(compare_numbers(Number::from_complex({1, 0}), Number::from_real(1.5), {}, true).differ);
  }

  TEST_CASE("JSON numbers of every width") {
    CHECK(json_number(Json(std::int64_t{-5}))->kind == Number::Kind::integer);
    CHECK(json_number(Json(std::uint64_t{18446744073709551615u}))->integer == Int128{18446744073709551615u});
    const auto big = json_number(Json(BigInt{"-100000000000000000000"}));
    REQUIRE(big);
    CHECK(big->kind == Number::Kind::integer);
    CHECK(number_text(*big) == "-100000000000000000000");
    const auto huge = json_number(Json(BigInt{std::string(50, '9')}));
    CHECK(huge->kind == Number::Kind::real);
    CHECK_FALSE(json_number(Json(true)));
    CHECK_FALSE(json_number(Json("1")));
    CHECK(number_text(Number::from_real(0.1)) == "0.1");
    CHECK(number_text(Number::from_real(kNan)) == "NaN");
    CHECK(number_text(Number::from_complex({1, -2})) == "(1.0-2.0j)");
  }

  TEST_CASE("deep JSON closeness") {
    const Json a = json::parse_json(R"({"x": [1, 2.0, "s", null], "y": {"z": NaN}})", "a");
    const Json b = json::parse_json(R"({"y": {"z": NaN}, "x": [1.0, 2.05, "s", null]})", "b");
    CHECK_FALSE(json_close(a, b, {}, true));
    CHECK(json_close(a, b, {0, 0.1}, true));
    CHECK_FALSE(json_close(a, b, {0, 0.1}, false));
    CHECK_FALSE(json_close(Json(true), Json(1), {1, 1}, true));
    CHECK_FALSE(json_close(json::parse_json("[1]", "x"), json::parse_json("[1, 2]", "y"), {}, true));
    CHECK_FALSE(json_close(json::parse_json(R"({"a": 1})", "x"), json::parse_json(R"({"b": 1})", "y"), {}, true));
  }

  TEST_CASE("the tracker counts differences and remembers where the largest are") {
    DeltaTracker t({0, 0.5}, true);
    CHECK_FALSE(t.numbers(Number::from_real(1), Number::from_real(1.25), {0}));
    CHECK(t.numbers(Number::from_real(4), Number::from_real(2), {1}));
    CHECK(t.numbers(Number::from_real(0.75), Number::from_real(0), {2}));
    CHECK(t.numbers(Number::from_real(kNan), Number::from_real(0), {3}));
    CHECK(t.other(false, {4, 2}));
    CHECK_FALSE(t.other(true, {5}));
    CHECK(t.compared() == 6);
    CHECK(t.differing() == 4);
    CHECK(t.first_difference()->index == 1);
    CHECK(*t.max_abs() == 2.0);
    CHECK(t.max_abs_at().index == 1);
    CHECK(std::isinf(*t.max_rel()));
    CHECK(t.max_rel_at().index == 2);
  }

  TEST_CASE("runs of equal pairs count without moving the maxima already found") {
    DeltaTracker t({}, true);
    t.equal_run(100, {0}, true);
    CHECK(t.compared() == 100);
    CHECK(*t.max_abs() == 0.0);
    CHECK(t.max_abs_at().index == 0);
    CHECK(t.numbers(Number::from_real(1), Number::from_real(3), {100}));
    t.equal_run(50, {101}, true);
    CHECK(*t.max_abs() == 2.0);
    CHECK(t.max_abs_at().index == 100);
    CHECK(t.compared() == 151);
    CHECK(t.differing() == 1);
    DeltaTracker strings({}, true);
    strings.equal_run(3, {0}, false);
    CHECK(strings.compared() == 3);
    CHECK_FALSE(strings.max_abs().has_value());
  }
}
