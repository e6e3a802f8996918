#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "zanj/format.hpp"

using namespace zanj;

TEST_SUITE("output_buffer") {
  TEST_CASE("buffers until full, passes large blocks straight through") {
    std::vector<std::string> writes;
    OutputBuffer out([&](std::string_view s) { writes.emplace_back(s); }, 8);
    out.text() += "abc";
    out.flush_if_full();
    CHECK(writes.empty());
    out.text() += "defgh";
    out.flush_if_full();
    REQUIRE(writes.size() == 1);
    CHECK(writes[0] == "abcdefgh");
    CHECK(out.text().empty());
    out.write("xy");
    out.write("0123456789");  // too big for the buffer: "xy" first, then the block itself
    REQUIRE(writes.size() == 3);
    CHECK(writes[1] == "xy");
    CHECK(writes[2] == "0123456789");
    out.write("z");
    out.flush();
    out.flush();  // nothing left: no empty write
    REQUIRE(writes.size() == 4);
    CHECK(writes[3] == "z");
  }
}
