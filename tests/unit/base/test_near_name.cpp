#include <doctest/doctest.h>

#include "zanj/error.hpp"

using zanj::nearest_name;

TEST_SUITE("near_name") {
  TEST_CASE("a typo gets the nearest name; anything far gets none") {
    const std::vector<std::string> commands{"info", "ls", "cat", "verify", "extract", "pack", "diff", "stats"};
    CHECK(nearest_name("lss", commands) == "ls");
    CHECK(nearest_name("verfiy", commands) == "verify");  // a swap is one edit
    CHECK(nearest_name("stat", commands) == "stats");
    CHECK(nearest_name("xyz", commands) == "");
    CHECK(nearest_name("ls", commands) == "");  // the name itself is no suggestion
    CHECK(nearest_name("--jsn", {"--json", "--glob"}) == "--json");
    CHECK(nearest_name("", commands) == "");
  }
}
