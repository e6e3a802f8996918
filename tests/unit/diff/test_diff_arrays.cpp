#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "zanj/diff.hpp"
#include "zanj/error.hpp"
#include "array/npy_header.hpp"
#include "zanj_builder.hpp"

using namespace zanj;
using zanj::test::make_zanj;

namespace {
template <typename T>
std::string bytes_of(const std::vector<T>& values) {
  std::string out(values.size() * sizeof(T), '\0');
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

template <typename T>
std::string npy(const char* descr, std::vector<std::uint64_t> shape, const std::vector<T>& values,
                bool fortran = false) {
  return array::make_npy_header(array::parse_descr(descr), fortran, shape) + bytes_of(values);
}

std::string external(const char* dtype, const char* shape) {
  return std::string(R"({"w": {"__muutils_format__": "numpy.ndarray:external", "$ref": "w.npy", "dtype": ")") + dtype +
         R"(", "shape": )" + shape + "}}";
}

/// A 2 x 3 float64 array, external, with values 0..5 except where `changes` says.
ZanjFile external_f8(std::vector<double> values = {0, 1, 2, 3, 4, 5}) {
  return make_zanj(external("float64", "[2, 3]"), {{"w.npy", npy("<f8", {2, 3}, values)}});
}

DiffReport diff(const ZanjFile& a, const ZanjFile& b, DiffOptions o = {}) { return diff_archives(a, b, o); }
}  // namespace

TEST_SUITE("diff_arrays") {
  TEST_CASE("the same values in any storage are equal") {
    const ZanjFile ext = external_f8();
    const ZanjFile list = make_zanj(R"({"w": {"__muutils_format__": "numpy.ndarray:array_list_meta", "dtype": "float64",
                                               "shape": [2, 3], "data": [[0, 1, 2], [3, 4, 5]]}})");
    const ZanjFile big =
        make_zanj(external(">f8", "[2, 3]"),
                  {{"w.npy", [] {
                      std::string data = npy("<f8", {2, 3}, std::vector<double>{0, 1, 2, 3, 4, 5});
                      std::string h = array::make_npy_header(array::parse_descr(">f8"), false, {2, 3});
                      std::string body = data.substr(data.size() - 48);
                      for (std::size_t i = 0; i < 48; i += 8)
                        std::reverse(body.begin() + static_cast<long>(i), body.begin() + static_cast<long>(i) + 8);
                      return h + body;
                    }()}});
    const ZanjFile fortran = make_zanj(external("float64", "[2, 3]"),
                                       {{"w.npy", npy("<f8", {2, 3}, std::vector<double>{0, 3, 1, 4, 2, 5}, true)}});
    for (const ZanjFile* other : {&list, &big, &fortran}) {
      const DiffReport r = diff(ext, *other);
      CHECK(r.equal());
      CHECK(r.elements_compared == 6);
      CHECK(diff(*other, ext).equal());
    }
    DiffOptions strict;
    strict.strict = true;
    std::vector<std::string> lines;
    for (const auto& d : diff(ext, fortran, strict).differences) lines.push_back(difference_text(d));
    CHECK(std::find(lines.begin(), lines.end(), "w: storage changed: C order -> Fortran order") != lines.end());
  }

  TEST_CASE("differing elements: count, largest differences and where") {
    const DiffReport r = diff(external_f8(), external_f8({0, 1, 2.5, 3, 4, 9}));
    REQUIRE(r.differences.size() == 1);
    const Difference& d = r.differences[0];
    CHECK(d.kind == DiffKind::array_values);
    CHECK(difference_text(d) ==
          "w: 2 of 6 elements differ (max abs diff 4.0 at [1, 2], max rel diff 0.4444444444444444 at [1, 2])");
    CHECK(to_json(d.values->first_at) == "[0, 2]");
    CHECK(d.values->first == "2.0 -> 2.5");
    DiffOptions o;
    o.tolerance.atol = 4;
    CHECK(diff(external_f8(), external_f8({0, 1, 2.5, 3, 4, 9}), o).equal());
    o.tolerance = {0.5, 0};  // |4 - 9| <= 0.5 * 9, |2 - 2.5| <= 0.5 * 2.5
    CHECK(diff(external_f8(), external_f8({0, 1, 2.5, 3, 4, 9}), o).equal());
    o.tolerance = {};
    o.rules = {parse_tolerance_rule("w=0,4")};
    CHECK(diff(external_f8(), external_f8({0, 1, 2.5, 3, 4, 9}), o).equal());
  }

  TEST_CASE("NaN against NaN, and a NaN against a number") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const ZanjFile a = external_f8({0, nan, 2, 3, 4, 5});
    CHECK(diff(a, external_f8({0, nan, 2, 3, 4, 5})).equal());
    DiffOptions o;
    o.nan_equal = false;
    CHECK(diff(a, external_f8({0, nan, 2, 3, 4, 5}), o).differences.at(0).values->differing == 1);
    const DiffReport r = diff(a, external_f8());
    REQUIRE(r.differences.size() == 1);
    CHECK(r.differences[0].values->differing == 1);
    CHECK(*r.differences[0].values->max_abs == 0.0);  // NaN has no distance; the rest are equal
  }

  TEST_CASE("dtype and shape changes") {
    const ZanjFile f4 = make_zanj(external("float32", "[2, 3]"),
                                  {{"w.npy", npy("<f4", {2, 3}, std::vector<float>{0, 1, 2, 3, 4, 5.1f})}});
    const DiffReport r = diff(external_f8(), f4);
    REQUIRE(r.differences.size() == 2);
    CHECK(difference_text(r.differences[0]) == "w: dtype changed: float64 -> float32");
    CHECK(r.differences[1].values->differing == 1);  // 5 against 5.1f, compared as numbers
    const ZanjFile i8 = make_zanj(external("int64", "[2, 3]"),
                                  {{"w.npy", npy("<i8", {2, 3}, std::vector<std::int64_t>{0, 1, 2, 3, 4, 5})}});
    CHECK(diff(external_f8(), i8).differences.size() == 1);  // the dtype only: the values agree
    const ZanjFile shaped = make_zanj(external("float64", "[3, 2]"),
                                      {{"w.npy", npy("<f8", {3, 2}, std::vector<double>{0, 1, 2, 3, 4, 5})}});
    const DiffReport s = diff(external_f8(), shaped);
    REQUIRE(s.differences.size() == 1);
    CHECK(difference_text(s.differences[0]) == "w: shape changed: [2, 3] -> [3, 2]");
  }

  TEST_CASE("64-bit integers compare exactly") {
    const std::int64_t big = (std::int64_t{1} << 62) + 1;
    auto make = [&](std::int64_t last) {
      return make_zanj(external("int64", "[2]"), {{"w.npy", npy("<i8", {2}, std::vector<std::int64_t>{1, last})}});
    };
    CHECK(diff(make(big), make(big)).equal());
    CHECK(diff(make(big), make(big - 1)).differences.size() == 1);
  }

  TEST_CASE("strings compare without their padding") {
    std::string u5(40, '\0'), u7(56, '\0');
    u5[0] = 'a', u5[4] = 'b', u5[20] = 'c';
    u7[0] = 'a', u7[4] = 'b', u7[28] = 'c';
    const ZanjFile a = make_zanj(external("<U5", "[2]"),
                                 {{"w.npy", array::make_npy_header(array::parse_descr("<U5"), false, {2}) + u5}});
    const ZanjFile b = make_zanj(external("<U7", "[2]"),
                                 {{"w.npy", array::make_npy_header(array::parse_descr("<U7"), false, {2}) + u7}});
    const DiffReport r = diff(a, b);
    REQUIRE(r.differences.size() == 1);
    CHECK(r.differences[0].kind == DiffKind::dtype_changed);
    u7[28] = 'd';
    const ZanjFile c = make_zanj(external("<U7", "[2]"),
                                 {{"w.npy", array::make_npy_header(array::parse_descr("<U7"), false, {2}) + u7}});
    CHECK(diff(a, c).differences.at(1).values->differing == 1);
  }

  TEST_CASE("a large array streams in chunks, and -q stops at the first difference") {
    std::vector<double> values(300000);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) * 0.5;
    auto make = [](const std::vector<double>& v) {
      return make_zanj(external("float64", "[300000]"), {{"w.npy", npy("<f8", {300000}, v)}});
    };
    const ZanjFile a = make(values);
    DiffOptions small_queue;
    small_queue.queue_bytes = 4096;
    CHECK(diff(a, make(values), small_queue).elements_compared == 300000);
    values[123456] += 1;
    values[299999] -= 0.25;
    const DiffReport r = diff(a, make(values), small_queue);
    REQUIRE(r.differences.size() == 1);
    CHECK(r.differences[0].values->differing == 2);
    CHECK(to_json(r.differences[0].values->max_abs_at) == "[123456]");
    DiffOptions q;
    q.stop_at_first = true;
    const DiffReport brief = diff(a, make(values), q);
    CHECK(brief.differences.size() == 1);
    CHECK(brief.elements_compared < 300000);
  }

  TEST_CASE("an unreadable array is an error, not a difference") {
    const ZanjFile missing = make_zanj(external("float64", "[2, 3]"));
    CHECK_THROWS_AS(diff(external_f8(), missing), Error);
    const ZanjFile short_data =
        make_zanj(external("float64", "[2, 3]"),
                  {{"w.npy", npy("<f8", {2, 3}, std::vector<double>{0, 1, 2, 3, 4, 5}).substr(0, 100)}});
    CHECK_THROWS_AS(diff(external_f8(), short_data), Error);
  }

  TEST_CASE("NaN against NaN with --nan-unequal: the first difference, never a maximum where none is") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    DiffOptions o;
    o.nan_equal = false;
    const DiffReport r = diff(external_f8({0, 1, 2, 3, nan, 5}), external_f8({0, 1, 2, 3, nan, 5}), o);
    REQUIRE(r.differences.size() == 1);
    CHECK(difference_text(r.differences[0]) == "w: 1 of 6 elements differ (first at [1, 1]: NaN -> NaN)");
    // with a tolerance the largest distance may be between close values: not shown either
    o.tolerance.atol = 1;
    const DiffReport t = diff(external_f8({0, 1, 2, 3, nan, 5}), external_f8({0.5, 1, 2, 3, nan, 5}), o);
    REQUIRE(t.differences.size() == 1);
    CHECK(difference_text(t.differences[0]) == "w: 1 of 6 elements differ (first at [1, 1]: NaN -> NaN)");
  }

  TEST_CASE("integer differences are exact integers") {
    const std::int64_t big = (std::int64_t{1} << 62) - 10;
    const ZanjFile a = make_zanj(external("int64", "[2]"), {{"w.npy", npy<std::int64_t>("<i8", {2}, {0, 1})}});
    const ZanjFile b = make_zanj(external("int64", "[2]"), {{"w.npy", npy<std::int64_t>("<i8", {2}, {big, 1})}});
    const DiffReport r = diff(a, b);
    REQUIRE(r.differences.size() == 1);
    CHECK(difference_text(r.differences[0]).find("max abs diff 4611686018427387894 at [0]") != std::string::npos);
    REQUIRE(r.differences[0].values);
    CHECK(r.differences[0].values->max_abs_integer == Int128{4611686018427387894});
    CHECK(r.differences[0].values->max_abs_exact() == std::uint64_t{4611686018427387894});
    ValueDifferences wide;  // past 64 bits, or a float array: no exact value to write
    wide.max_abs_integer = Int128{UINT64_MAX} + 1;
    CHECK_FALSE(wide.max_abs_exact());
    CHECK_FALSE(ValueDifferences{}.max_abs_exact());
  }

  TEST_CASE("--structure: dtypes and shapes count, values do not") {
    DiffOptions o;
    o.structure_only = true;
    CHECK(diff(external_f8(), external_f8({9, 9, 9, 9, 9, 9}), o).equal());
    const ZanjFile f4 =
        make_zanj(external("float32", "[2, 3]"), {{"w.npy", npy<float>("<f4", {2, 3}, {0, 1, 2, 3, 4, 5})}});
    const ZanjFile shape =
        make_zanj(external("float64", "[3, 2]"), {{"w.npy", npy("<f8", {3, 2}, std::vector<double>(6))}});
    CHECK(diff(external_f8(), f4, o).differences.at(0).kind == DiffKind::dtype_changed);
    CHECK(diff(external_f8(), shape, o).differences.at(0).kind == DiffKind::shape_changed);
    CHECK(diff(make_zanj(R"({"a": 1, "l": [1, 2], "s": "x"})"), make_zanj(R"({"a": 2.5, "l": [3, 4], "s": "y"})"), o)
              .equal());
    const DiffReport r =
        diff(make_zanj(R"({"a": 1, "l": [1, 2], "k": {}})"), make_zanj(R"({"a": "1", "l": [1], "n": 0})"), o);
    std::vector<std::string> kinds;
    for (const auto& d : r.differences) kinds.emplace_back(diff_kind_name(d.kind));
    CHECK(kinds == std::vector<std::string>{"kind_changed", "length_changed", "removed", "added"});
  }
}
