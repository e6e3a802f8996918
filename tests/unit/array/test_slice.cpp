#include <doctest/doctest.h>

#include "zanj/error.hpp"
#include "zanj/array.hpp"

using namespace zanj;

namespace {
using Indices = std::vector<std::uint64_t>;

/// The indices one axis selects, in order.
Indices indices(const AxisSelection& a) {
  Indices out;
  for (const auto& s : a.segments)
    for (std::uint64_t i = 0; i < s.count; ++i) out.push_back(s.at(i));
  return out;
}

/// Indices of a 1-D slice of range(n), as Python's list(range(n))[text] gives them.
Indices slice1(const std::string& text, std::uint64_t n) { return indices(select(parse_slice(text), {n}).axes[0]); }

}  // namespace

TEST_SUITE("slice") {
  TEST_CASE("parsing") {
    const SliceSpec s = parse_slice("[1:-1:3, ..., 4, :]");
    REQUIRE(s.items.size() == 4);
    CHECK(s.items[0].kind == SliceItem::Kind::range);
    CHECK(*s.items[0].start == 1);
    CHECK(*s.items[0].stop == -1);
    CHECK(*s.items[0].step == 3);
    CHECK(s.items[1].kind == SliceItem::Kind::ellipsis);
    CHECK(s.items[2].kind == SliceItem::Kind::index);
    CHECK(s.items[2].index == 4);
    CHECK_FALSE(s.items[3].start);
    CHECK_FALSE(s.items[3].step);
    CHECK(s.needs_length());
    CHECK_FALSE(parse_slice("[2:5, +3]").needs_length());
    CHECK(parse_slice("[::-1]").needs_length());
    CHECK(parse_slice("[-1]").needs_length());
  }

  TEST_CASE("malformed slices are usage errors") {
    for (const char* bad : {"0:3", "[", "[]", "[ ]", "[1,,2]", "[a]", "[1:2:3:4]", "[::0]", "[..., ...]", "[1.5]",
                            "[99999999999999999999]", "[:-9223372036854775808:-9223372036854775808]"}) {
      try {
        parse_slice(bad);
        FAIL("accepted " << bad);
      } catch (const Error& e) {
        CHECK(e.exit() == Exit::usage);
        CHECK(std::string(e.what()).find("bad slice") != std::string::npos);
      }
    }
  }

  TEST_CASE("numpy's rules for one axis") {
    CHECK(slice1("[2:8:3]", 10) == Indices{2, 5});
    CHECK(slice1("[::-3]", 10) == Indices{9, 6, 3, 0});
    CHECK(slice1("[-3:]", 10) == Indices{7, 8, 9});
    CHECK(slice1("[8:2:-2]", 10) == Indices{8, 6, 4});
    CHECK(slice1("[10:]", 5).empty());
    CHECK(slice1("[-10:2]", 5) == Indices{0, 1});
    CHECK(slice1("[:100]", 3) == Indices{0, 1, 2});
    CHECK(slice1("[3:1]", 5).empty());
    CHECK(slice1("[-1::-1]", 4) == Indices{3, 2, 1, 0});
    CHECK(slice1("[:-10:-1]", 4) == Indices{3, 2, 1, 0});
    CHECK(slice1("[1:-1:3]", 10) == Indices{1, 4, 7});
    CHECK(slice1("[::-1]", 0).empty());
    CHECK(slice1("[-1]", 4) == Indices{3});
  }

  TEST_CASE("indices drop axes, ellipsis and missing axes take everything") {
    const std::vector<std::uint64_t> shape{4, 5, 6};
    Selection s = select(parse_slice("[1, ..., ::2]"), shape);
    CHECK_FALSE(s.axes[0].kept);
    CHECK(indices(s.axes[1]) == Indices{0, 1, 2, 3, 4});
    CHECK(indices(s.axes[2]) == Indices{0, 2, 4});
    CHECK(s.shape() == Indices{5, 3});
    CHECK(s.count() == 15);
    s = select(parse_slice("[:, 3]"), shape);
    CHECK(s.shape() == Indices{4, 6});
    CHECK(select(parse_slice("[-1, -1, -1]"), shape).shape().empty());
    CHECK(select(parse_slice("[...]"), shape).everything());
    CHECK(select_all(shape).everything());
    CHECK_FALSE(select(parse_slice("[0]"), shape).everything());
    CHECK(select_all({}).count() == 1);  // 0-d: one element
  }

  TEST_CASE("range and rank errors") {
    const std::vector<std::uint64_t> shape{4, 5};
    CHECK_THROWS_WITH_AS(select(parse_slice("[4]"), shape),
                         doctest::Contains("index 4 is out of range for axis 0 with size 4"), Error);
    CHECK_THROWS_WITH_AS(select(parse_slice("[:, -6]"), shape), doctest::Contains("axis 1"), Error);
    CHECK_THROWS_WITH_AS(select(parse_slice("[1, 2, 3]"), shape), doctest::Contains("3 indices but the array has 2"),
                         Error);
    CHECK_THROWS_WITH_AS(select(parse_slice("[0]"), {}), doctest::Contains("0 dimensions"), Error);
    try {
      select(parse_slice("[9]"), shape);
    } catch (const Error& e) {
      CHECK(e.exit() == Exit::usage);
    }
  }

  TEST_CASE("shapes in messages") {
    CHECK(shape_text({32, 16}) == "[32, 16]");
    CHECK(shape_text({7}) == "[7]");
    CHECK(shape_text({}) == "[]");
  }

  TEST_CASE("summaries, head and tail") {
    const Selection s = summarize(select_all({10, 4}), 3);
    CHECK(indices(s.axes[0]) == Indices{0, 1, 2, 7, 8, 9});
    CHECK(indices(s.axes[1]) == Indices{0, 1, 2, 3});  // short axes stay whole
    const Selection stepped = summarize(select(parse_slice("[::-2]"), {20}), 2);
    CHECK(indices(stepped.axes[0]) == Indices{19, 17, 3, 1});
    CHECK(indices(take_head(select_all({10}), 3).axes[0]) == Indices{0, 1, 2});
    CHECK(indices(take_tail(select_all({10}), 3).axes[0]) == Indices{7, 8, 9});
    CHECK(indices(take_tail(select(parse_slice("[::-2]"), {10}), 2).axes[0]) == Indices{3, 1});
    CHECK(indices(take_head(select_all({2}), 5).axes[0]) == Indices{0, 1});
    CHECK(indices(take_tail(select(parse_slice("[0, :]"), {3, 4}), 1).axes[1]) == Indices{3});
    CHECK_THROWS_AS(take_head(select(parse_slice("[0]"), {3}), 1), Error);
    CHECK(summarize(select_all({10}), 3).ascending());
    CHECK_FALSE(select(parse_slice("[::-1]"), {10}).ascending());
  }
}
