// Locks: `zanj hash --json` output read back, one object, an array, or one object per line.
#include <doctest/doctest.h>

#include <fstream>

#include "hash/hash_lock.hpp"
#include "json/json_parse.hpp"
#include "json/json_view_access.hpp"
#include "temp_dir.hpp"
#include "zanj/hash.hpp"
#include "zanj/error.hpp"

using namespace zanj;
using namespace zanj::hash;

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

  TEST_CASE("read_lock_entry: the digest, or why the object is not one") {
    ContentDigest d{"m.zanj", "sha256", "ab", {"w*"}, {}, {{"w", "dict", "cd"}}};
    const Json good = content_digest_json(d);
    const base::Result<ContentDigest> entry = read_lock_entry(json::view_of(good), "m.lock");
    REQUIRE(entry.ok());
    CHECK(entry->file == "m.zanj");
    CHECK(entry->includes == std::vector<std::string>{"w*"});
    REQUIRE(entry->nodes.size() == 1);
    CHECK(entry->nodes[0].kind == "dict");
    const Json partial = json::parse_json(R"({"file": "a", "algorithm": "sha256"})", "t");
    const base::Result<ContentDigest> no_digest = read_lock_entry(json::view_of(partial), "m.lock line 2");
    REQUIRE_FALSE(no_digest.ok());
    CHECK(no_digest.why() == "m.lock line 2: no \"digest\" string");
    const Json list = json::parse_json("[1]", "t");
    const base::Result<ContentDigest> not_object = read_lock_entry(json::view_of(list), "m.lock");
    REQUIRE_FALSE(not_object.ok());
    CHECK(not_object.why() == "m.lock: not a zanj hash --json object");
    const Json bad_node =
        json::parse_json(R"({"file": "a", "algorithm": "s", "digest": "d", "nodes": [{"path": ""}]})", "t");
    const base::Result<ContentDigest> no_kind = read_lock_entry(json::view_of(bad_node), "m.lock");
    REQUIRE_FALSE(no_kind.ok());
    CHECK(no_kind.why() == "m.lock: no \"kind\" string");
  }
}
