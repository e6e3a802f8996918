#include <doctest/doctest.h>

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "diff/element_pairs.hpp"
#include "array/npy_header.hpp"
#include "zanj/tree.hpp"
#include "zanj_builder.hpp"

using namespace zanj;
using namespace zanj::diff;
using zanj::test::make_zanj;

namespace {
/// float64 values 0, 1, ..., count - 1 as an .npy member.
std::string npy_f8(std::uint64_t count) {
  std::vector<double> values(count);
  std::iota(values.begin(), values.end(), 0.0);
  std::string data(count * sizeof(double), '\0');
  if (count) std::memcpy(data.data(), values.data(), data.size());
  return array::make_npy_header(array::parse_descr("<f8"), false, {count}) + data;
}

std::string external(const char* member, std::uint64_t count) {
  return std::string(R"({"__muutils_format__": "numpy.ndarray:external", "$ref": ")") + member +
         R"(", "dtype": "float64", "shape": [)" + std::to_string(count) + "]}";
}

ArrayValues values_at(const ZanjFile& file, const char* key) {
  return ArrayValues(file.archive(), *classify(file.root().find(key)).array, key);
}

double at(const char* p) {
  double d;
  std::memcpy(&d, p, sizeof d);
  return d;
}
}  // namespace

TEST_SUITE("element_pairs") {
  TEST_CASE("an inline and an external array, side by side, element for element") {
    const ZanjFile z = make_zanj(R"({"i": {"__muutils_format__": "numpy.ndarray:array_list_meta", "dtype": "float64",)"
                                 R"( "shape": [4], "data": [0, 1, 2, 3]}, "e": )" +
                                     external("e.npy", 4) + "}",
                                 {{"e.npy", npy_f8(4)}});
    std::vector<std::pair<double, double>> seen;
    const bool together =
        detail::stream_element_pairs(values_at(z, "i"), values_at(z, "e"), 1 << 20,
                                     [&](const char* a, const char* b, std::uint64_t n, std::uint64_t index) {
                                       CHECK(index == seen.size());
                                       for (std::uint64_t k = 0; k < n; ++k)
                                         seen.emplace_back(at(a + 8 * k), at(b + 8 * k));
                                       return true;
                                     });
    CHECK(together);
    CHECK(seen == std::vector<std::pair<double, double>>{{0, 0}, {1, 1}, {2, 2}, {3, 3}});
  }

  TEST_CASE("large external arrays come in runs, positions continuing, as far as both have elements") {
    constexpr std::uint64_t kCount = 200000;  // 1.6 MB each: many chunks through a small read-ahead
    const ZanjFile z =
        make_zanj(R"({"a": )" + external("a.npy", kCount) + R"(, "b": )" + external("b.npy", kCount) + "}",
                  {{"a.npy", npy_f8(kCount)}, {"b.npy", npy_f8(kCount)}});
    std::uint64_t next = 0, runs = 0;
    bool aligned = true;
    CHECK(detail::stream_element_pairs(values_at(z, "a"), values_at(z, "b"), 4096,
                                       [&](const char* a, const char* b, std::uint64_t n, std::uint64_t index) {
                                         aligned = aligned && n >= 1 && index == next && at(a) == double(index) &&
                                                   at(b + 8 * (n - 1)) == double(index + n - 1);
                                         next += n;
                                         ++runs;
                                         return true;
                                       }));
    CHECK(aligned);
    CHECK(next == kCount);
    CHECK(runs > 1);

    SUBCASE("the receiver stops the stream") {
      std::uint64_t calls = 0;
      CHECK(detail::stream_element_pairs(
          values_at(z, "a"), values_at(z, "b"), 4096,
          [&](const char*, const char*, std::uint64_t, std::uint64_t) { return ++calls < 2; }));
      CHECK(calls == 2);
    }
  }

  TEST_CASE("arrays of different lengths: false once the shorter one ends") {
    const ZanjFile z = make_zanj(R"({"a": )" + external("a.npy", 5) + R"(, "b": )" + external("b.npy", 3) + "}",
                                 {{"a.npy", npy_f8(5)}, {"b.npy", npy_f8(3)}});
    std::uint64_t streamed = 0;
    CHECK_FALSE(detail::stream_element_pairs(values_at(z, "a"), values_at(z, "b"), 1 << 20,
                                             [&](const char*, const char*, std::uint64_t n, std::uint64_t) {
                                               streamed += n;
                                               return true;
                                             }));
    CHECK(streamed == 3);
  }
}
