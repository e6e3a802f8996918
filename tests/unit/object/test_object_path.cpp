#include <doctest/doctest.h>

#include <thread>
#include <vector>

#include "zanj/error.hpp"
#include "object/tree_json.hpp"
#include "json/json_parse.hpp"

using namespace zanj;
using namespace zanj::object;

TEST_SUITE("object_path") {
  TEST_CASE("escaping follows JSON Pointer") {
    CHECK(escape_path_segment("a/b~c") == "a~1b~0c");
    CHECK(join_path({"state_dict", "net.0.weight"}) == "state_dict/net.0.weight");
    CHECK(join_path({"a/b", "~"}) == "a~1b/~0");
    CHECK(join_path({}).empty());
    CHECK(child_path("", "x") == "x");
    CHECK(child_path("p", "x/y") == "p/x~1y");
  }

  TEST_CASE("empty keys, controls and bytes that are not UTF-8 have one terminal-safe form") {
    CHECK(escape_path_segment("") == "~e");
    CHECK(join_path({""}) == "~e");
    CHECK(join_path({"", "x", ""}) == "~e/x/~e");
    CHECK(escape_path_segment("a\x1b[2J\x07") == "a~x1B[2J~x07");
    CHECK(escape_path_segment("\xc2\x9b\xff\xc3\xa9") == "~xC2~x9B~xFF\xc3\xa9");
    for (const PathSegments& p : {PathSegments{""}, PathSegments{"", ""}, PathSegments{"a", "", "b"},
                                  PathSegments{"~e", "~x41", "/"}, PathSegments{"\x1b\xff\xed\xa0\x80", "~"}})
      CHECK(split_path(join_path(p)) == p);
    CHECK(split_path("~e") == PathSegments{""});
    CHECK(split_path("a/~e/~x41~x4a") == PathSegments{"a", "", "AJ"});
    CHECK_THROWS_AS(split_path("~ex"), Error);
    CHECK_THROWS_AS(split_path("x~e"), Error);
    CHECK_THROWS_AS(split_path("~x4"), Error);
    CHECK_THROWS_AS(split_path("~xZZ"), Error);
  }

  TEST_CASE("splitting undoes escaping") {
    CHECK(split_path("").empty());
    CHECK(split_path("/").empty());
    CHECK(split_path("a~1b/~0") == PathSegments{"a/b", "~"});
    CHECK(split_path("/x/0") == PathSegments{"x", "0"});
    CHECK(split_path("a//b") == PathSegments{"a", "", "b"});
    CHECK(split_path("~01") == PathSegments{"~1"});
    CHECK_THROWS_AS(split_path("a~2"), Error);
    CHECK_THROWS_AS(split_path("a~"), Error);
  }

  TEST_CASE("follow_path walks keys and indices") {
    const Json root = json::parse_json(R"({"a": {"b/c": [10, {"d": 1}]}})", "t");
    CHECK(follow_path(root, {}) == &root);
    CHECK(follow_path(root, split_path("a/b~1c/0"))->as_int64() == 10);
    CHECK(follow_path(root, split_path("a/b~1c/1/d"))->as_int64() == 1);
    std::size_t found = 0;
    CHECK(follow_path(root, split_path("a/b~1c/2"), &found) == nullptr);
    CHECK(found == 2);
    CHECK(follow_path(root, split_path("a/b~1c/01")) == nullptr);  // no leading zeros
    CHECK(follow_path(root, split_path("a/x/y"), &found) == nullptr);
    CHECK(found == 1);
  }

  TEST_CASE("paths given as JSON lists") {
    PathSegments s;
    CHECK(path_from_json(json::parse_json(R"(["a", 3, "b"])", "t"), s));
    CHECK(s == PathSegments{"a", "3", "b"});
    CHECK_FALSE(path_from_json(json::parse_json(R"(["a", -1])", "t"), s));
    CHECK_FALSE(path_from_json(json::parse_json(R"("a")", "t"), s));
  }

  TEST_CASE("a KeyIndex gives what Json::find gives, in small and large objects") {
    JsonObject big;
    for (int i = 0; i < 1000; ++i) big.emplace_back("k" + std::to_string(i), Json(JsonObject{{"v", Json(i)}}));
    big.emplace_back("k7", Json(-1));  // a repeated key: the first one counts, as in Json::find
    const Json root(JsonObject{{"big", Json(std::move(big))}, {"small", Json(JsonObject{{"x", Json(1)}})}});
    KeyIndex index;
    for (const char* path : {"big/k0/v", "big/k999/v", "big/k7/v", "small/x", "big/k1000", "big/k5/w", "small/y"}) {
      CAPTURE(path);
      std::size_t with = 0, without = 0;
      CHECK(follow_path(root, split_path(path), &with, &index) == follow_path(root, split_path(path), &without));
      CHECK(with == without);
    }
    CHECK(follow_path(root, split_path("big/k7/v"), nullptr, &index)->as_int64() == 7);
    // After k6 the guess is the next key; the first k7, also after the last key (k999).
    CHECK(index.find(*root.find("big"), "k6") == root.find("big")->find("k6"));
    CHECK(index.find(*root.find("big"), "k7")->find("v")->as_int64() == 7);
    CHECK(index.find(*root.find("big"), "k999") == root.find("big")->find("k999"));
    CHECK(index.find(*root.find("big"), "k7")->find("v")->as_int64() == 7);
    CHECK(index.find(*root.find("big"), "k999") == root.find("big")->find("k999"));
    CHECK(index.find(*root.find("big"), "nope") == nullptr);
    CHECK(index.find(Json(3), "k0") == nullptr);  // not an object
  }

  TEST_CASE("a KeyIndex shared by threads gives each what Json::find gives") {
    // Several large objects, each indexed by whichever thread looks into it first.
    JsonObject root_members;
    for (int o = 0; o < 4; ++o) {
      JsonObject big;
      for (int i = 0; i < 500; ++i) big.emplace_back("k" + std::to_string(i), Json(o * 1000 + i));
      root_members.emplace_back("o" + std::to_string(o), Json(std::move(big)));
    }
    const Json root(std::move(root_members));
    KeyIndex index;
    // In order (each find guessing the next key), and across two objects in turn.
    bool in_order = true;
    for (int i = 0; i < 500; ++i) {
      const std::string key = "k" + std::to_string(i);
      in_order = in_order && index.find(*root.find("o0"), key)->as_int64() == i;
      in_order = in_order && index.find(*root.find("o1"), key)->as_int64() == 1000 + i;
    }
    CHECK(in_order);
    std::vector<int> wrong(4, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        for (int n = 0; n < 2000; ++n) {
          const Json& object = *root.find("o" + std::to_string((n + t) % 4));
          const std::string key = "k" + std::to_string((n * 7 + t) % 520);  // some past the last key
          if (index.find(object, key) != object.find(key)) ++wrong[static_cast<std::size_t>(t)];
        }
      });
    for (std::thread& t : threads) t.join();
    CHECK(wrong == std::vector<int>(4, 0));
  }
}
