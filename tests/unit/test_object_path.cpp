#include <doctest/doctest.h>

#include "zanj/error.hpp"
#include "zanj/object_path.hpp"

using namespace zanj;

TEST_SUITE("object_path") {
  TEST_CASE("escaping follows JSON Pointer") {
    CHECK(escape_path_segment("a/b~c") == "a~1b~0c");
    CHECK(join_path({"state_dict", "net.0.weight"}) == "state_dict/net.0.weight");
    CHECK(join_path({"a/b", "~"}) == "a~1b/~0");
    CHECK(join_path({}).empty());
    CHECK(child_path("", "x") == "x");
    CHECK(child_path("p", "x/y") == "p/x~1y");
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
    const Json root = parse_json(R"({"a": {"b/c": [10, {"d": 1}]}})", "t");
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
    CHECK(path_from_json(parse_json(R"(["a", 3, "b"])", "t"), s));
    CHECK(s == PathSegments{"a", "3", "b"});
    CHECK_FALSE(path_from_json(parse_json(R"(["a", -1])", "t"), s));
    CHECK_FALSE(path_from_json(parse_json(R"("a")", "t"), s));
  }
}
