#include <doctest/doctest.h>

#include "zanj/error.hpp"
#include "zanj/tree.hpp"
#include "json/json_parse.hpp"
#include "json/json_view_access.hpp"

using namespace zanj;

namespace {
JsonView root() {
  static const Json j = json::parse_json(R"({"w": {"__muutils_format__": "numpy.ndarray:external", "$ref": "w.npy",
    "shape": [3], "dtype": "int8"}, "a[0]": 1, "a/b": {"c": 2}, "list": [1, 2, 3], "empty": {},
    "rows": {"__muutils_format__": "list:external", "$ref": "r.jsonl"},
    "many": {"k0": 0, "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8, "k9": 9, "k10": 10, "k11": 11}})",
                                         "t");
  return json::view_of(j);
}
std::string error_of(const std::string& text) {
  try {
    find_node(root(), parse_node_target(root(), text), "f.zanj");
  } catch (const Error& e) {
    CHECK(e.exit() == Exit::invalid);
    return e.what();
  }
  return "";
}
}  // namespace

TEST_SUITE("node_lookup") {
  TEST_CASE("paths and slices") {
    NodeTarget t = parse_node_target(root(), "w[0:2]");
    CHECK(t.path == "w");
    CHECK(t.segments == PathSegments{"w"});
    CHECK(t.slice == "[0:2]");
    t = parse_node_target(root(), "a[0]");  // a key with brackets is not a slice
    CHECK(t.path == "a[0]");
    CHECK(t.slice.empty());
    t = parse_node_target(root(), "a~1b/c");
    CHECK(t.segments == PathSegments{"a/b", "c"});
    t = parse_node_target(root(), "");
    CHECK(t.segments.empty());
    CHECK(json::view_identity(find_node(root(), t, "f")) == json::view_identity(root()));
    t = parse_node_target(root(), "/list/1");
    CHECK(find_node(root(), t, "f").as_int64() == 2);
    t = parse_node_target(root(), "nope[1]");  // no such node: the bracket is taken as a slice
    CHECK(t.path == "nope");
    CHECK(t.slice == "[1]");
    CHECK_THROWS_AS(parse_node_target(root(), "x~2"), Error);
  }

  TEST_CASE("a missing node names its nearest parent and what is under it") {
    CHECK(error_of("nope") ==
          "f.zanj: no object at path 'nope': the root has no 'nope'; its keys: w, a[0], a~1b, list, "
          "empty, rows, many");
    CHECK(error_of("a~1b/d/e") ==
          "f.zanj: no object at path 'a~1b/d/e': 'a~1b' has no 'd' (did you mean 'c'?); its keys: c");
    CHECK(error_of("list/3").find("it is a list with indices 0 to 2") != std::string::npos);
    CHECK(error_of("empty/x").find("it has no keys") != std::string::npos);
    CHECK(error_of("a[0]/x").find("it is a number") != std::string::npos);
    CHECK(error_of("rows/5").find("external list: select rows with a slice") != std::string::npos);
    CHECK(error_of("w/0").find("it is an array") != std::string::npos);
    CHECK(error_of("many/x").find("k9 (and 2 more)") != std::string::npos);
  }
}
