// --check's comparison: the deepest changes only, missing and added nodes.
#include <doctest/doctest.h>

#include "zanj/hash.hpp"

using namespace zanj;

TEST_SUITE("hash compare") {
  const std::vector<NodeDigest> pinned{
      {"", "dict", "r"}, {"m", "dict", "m"}, {"m/w", "array", "w"}, {"m/b", "array", "b"}, {"cfg", "dict", "c"}};

  TEST_CASE("nothing changed") { CHECK(compare_digests(pinned, pinned).empty()); }

  TEST_CASE("a changed leaf is listed, not its ancestors") {
    auto now = pinned;
    now[0].digest = "r2";
    now[1].digest = "m2";
    now[2].digest = "w2";
    const auto c = compare_digests(pinned, now);
    REQUIRE(c.size() == 1);
    CHECK(c[0].path == "m/w");
    CHECK(hash_change_name(c[0].kind) == "changed");
  }

  TEST_CASE("missing and added nodes; a container changed by itself is listed") {
    std::vector<NodeDigest> now{
        {"", "dict", "r2"}, {"m", "dict", "m2"}, {"m/w", "array", "w"}, {"m/new", "array", "n"}, {"cfg", "dict", "c2"}};
    const auto c = compare_digests(pinned, now);
    REQUIRE(c.size() == 3);
    CHECK(c[0].path == "m/b");
    CHECK(c[0].kind == HashChange::Kind::missing);
    CHECK(c[1].path == "cfg");
    CHECK(c[1].kind == HashChange::Kind::changed);
    CHECK(c[2].path == "m/new");
    CHECK(c[2].kind == HashChange::Kind::added);
  }

  TEST_CASE("a kind change with the same digest text still counts") {
    auto now = pinned;
    now[4].kind = "list";
    CHECK(compare_digests(pinned, now).size() == 1);
  }
}
