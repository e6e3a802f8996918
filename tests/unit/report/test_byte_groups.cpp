#include <doctest/doctest.h>

#include "report/byte_groups.hpp"

using namespace zanj::report;

namespace {
std::vector<std::string> labels(const std::vector<zanj::report::Bar>& bars) {
  std::vector<std::string> out;
  for (const zanj::report::Bar& b : bars) out.push_back((b.child ? "  " : "") + b.label);
  return out;
}
}  // namespace

TEST_SUITE("byte_groups") {
  TEST_CASE("a parent of many children: one bar, its largest children under it, the rest summed") {
    std::vector<std::string> paths;  // ArrayBytes views its path
    for (int i = 0; i < 24; ++i) paths.push_back("layers/l" + std::to_string(i));
    std::vector<zanj::report::ArrayBytes> arrays;
    for (int i = 0; i < 24; ++i) arrays.push_back({paths[std::size_t(i)], std::uint64_t(100 + i), 10, true});
    arrays.push_back({"head", 50, 5, true});
    const std::vector<zanj::report::Bar> bars = zanj::report::byte_group_bars(arrays, {10, 3});
    CHECK(labels(bars) ==
          std::vector<std::string>{"layers", "  l23", "  l22", "  l21", "  and 21 more in layers", "head"});
    CHECK(bars[0].total == 24 * 100 + 23 * 24 / 2);
    CHECK(bars[4].total == 21 * 100 + 20 * 21 / 2);
    CHECK(bars[0].value_text == "2.6 KiB / 240 B packed");
  }
  TEST_CASE("a chain of single containers is skipped; many parents end in one \"and K more\"") {
    std::vector<std::string> paths;
    for (int i = 0; i < 30; ++i) paths.push_back("model/state_dict/w" + std::to_string(i));
    std::vector<zanj::report::ArrayBytes> arrays;
    for (const std::string& path : paths) arrays.push_back({path, 8, 0, false});
    const std::vector<zanj::report::Bar> bars = zanj::report::byte_group_bars(arrays, {5, 3});
    REQUIRE(bars.size() == 6);
    CHECK(bars[0].label == "model/state_dict/w0");
    CHECK(bars[5].label == "and 25 more");
    CHECK(bars[5].total == 25 * 8);
    CHECK(bars[0].value_text == "8 B inline");  // inline arrays have no packed size
  }
  TEST_CASE("one more than the limit is drawn, not summed; a lone child is not repeated") {
    const std::vector<zanj::report::Bar> bars =
        zanj::report::byte_group_bars({{"a/x", 3, 1, true}, {"b", 2, 1, true}, {"c", 1, 1, true}}, {2, 2});
    CHECK(labels(bars) == std::vector<std::string>{"a", "b", "c"});
    CHECK(zanj::report::byte_group_bars({}).empty());
    CHECK(labels(zanj::report::byte_group_bars({{"", 4, 0, false}})) == std::vector<std::string>{"/"});
  }
  TEST_CASE("value text: external, inline, both") {
    CHECK(zanj::report::bytes_value_text(2048, 1024, 0) == "2.0 KiB / 1.0 KiB packed");
    CHECK(zanj::report::bytes_value_text(0, 0, 192) == "192 B inline");
    CHECK(zanj::report::bytes_value_text(2048, 1024, 192) == "2.0 KiB / 1.0 KiB packed, 192 B inline");
    CHECK(zanj::report::bytes_value_text(0, 0, 0) == "0 B / 0 B packed");
  }
}
