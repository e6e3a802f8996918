// Locks: `zanj hash --json` output read back, one object, an array, or one object per line.
#include <doctest/doctest.h>

#include <fstream>

#include "temp_dir.hpp"
#include "zanj/hash.hpp"
#include "zanj/error.hpp"

using namespace zanj;

TEST_SUITE("hash lock") {
  TEST_CASE("what --json writes reads back") {
    test::TempDir dir;
    ContentDigest d{"m.zanj", "sha256", "ab", {"w*"}, {"w/b"}, {{"", "dict", "ab"}, {"w", "dict", "cd"}}};
    const std::string one = to_json(content_digest_json(d));
    const std::string path = dir.path() + "/m.lock";
    for (const std::string& text : {one + "\n", one + "\n" + one + "\n", "[" + one + ", " + one + "]"}) {
      std::ofstream(path) << text;
      const auto lock = read_hash_lock(path);
      REQUIRE(!lock.empty());
      CHECK(lock[0].file == "m.zanj");
      CHECK(lock[0].includes == std::vector<std::string>{"w*"});
      CHECK(lock[0].excludes == std::vector<std::string>{"w/b"});
      REQUIRE(lock[0].nodes.size() == 2);
      CHECK(lock[0].nodes[1].path == "w");
      CHECK(lock[0].nodes[1].digest == "cd");
    }
  }

  TEST_CASE("anything else is a usage error") {
    test::TempDir dir;
    const std::string path = dir.path() + "/bad.lock";
    for (const char* text : {"", "{}", "not json", R"({"file": "a", "algorithm": "sha256"})"}) {
      std::ofstream(path) << text;
      CHECK_THROWS_AS(read_hash_lock(path), Error);
    }
    CHECK_THROWS_AS(read_hash_lock(dir.path() + "/missing.lock"), Error);
  }
}
