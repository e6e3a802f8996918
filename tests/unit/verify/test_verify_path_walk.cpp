#include <doctest/doctest.h>

#include "doctest_printers.hpp"
#include "verify/verify_checks.hpp"
#include "json/json_parse.hpp"
#include "json/json_view_access.hpp"

using namespace zanj;
using namespace zanj::verify;

namespace {

std::optional<std::vector<Json>> items(const std::string& path_json) {
  return python_path_items(json::parse_json(path_json, "path"));
}

/// Walk `path_json` (a JSON list) from `doc`; the node's text, or "fails: <why>".
std::string walk(const Json& doc, const std::string& path_json, const PopulatedNodes& populated = {}) {
  const auto keys = items(path_json);
  REQUIRE(keys);
  const PathWalk w = walk_python_path(doc, *keys, populated);
  if (!w.through.empty()) return "through " + w.through + " at " + join_path(w.segments);
  if (!w.target) return "fails: " + w.failure;
  return to_json(w.target);
}

}  // namespace

TEST_SUITE("verify_path_walk") {
  TEST_CASE("the path's keys are Python's tuple(path)") {
    CHECK(items(R"(["a", 1, true, -2])")->size() == 4);
    CHECK(items(R"("ab")") == std::vector<Json>{Json("a"), Json("b")});  // a string's characters
    CHECK(items(R"("é")")->size() == 1);
    CHECK(items(R"({"k": 1})") == std::vector<Json>{Json("k")});  // a dict's keys
    CHECK_FALSE(items("[]"));                                     // the loader asserts len(path) > 0
    CHECK_FALSE(items("[1.0]"));                                  // and str or int keys
    CHECK_FALSE(items("[null]"));
    CHECK_FALSE(items("[[0]]"));
    CHECK_FALSE(items("5"));                           // len(5) raises
    CHECK(items("[123456789012345678901234567890]"));  // an int, if a useless one
    // The length alone, found without copying the items, says the same.
    for (const char* path : {R"(["a", 1, true, -2])", R"("ab")", R"("é")", R"({"k": 1, "j": 2})", "[]", "[1.0]",
                             "[null]", "[[0]]", "5", "\"\"", "{}", "[123456789012345678901234567890]"}) {
      CAPTURE(path);
      const Json parsed = json::parse_json(path, "path");
      const auto whole = python_path_items(parsed);
      const auto length = python_path_length(json::view_of(parsed));
      REQUIRE(whole.has_value() == length.has_value());
      if (length) CHECK(*length == whole->size());
    }
  }

  TEST_CASE("subscripts: a list takes an int (bool included, negative from the end), a dict a str") {
    const Json doc = json::parse_json(R"({"l": [10, 11, 12], "7": "seven", "d": {"x": 1}})", "doc");
    CHECK(walk(doc, R"(["l", 1])") == "11");
    CHECK(walk(doc, R"(["l", true])") == "11");
    CHECK(walk(doc, R"(["l", false])") == "10");
    CHECK(walk(doc, R"(["l", -1])") == "12");
    CHECK(walk(doc, R"(["l", -3])") == "10");
    CHECK(walk(doc, R"(["l", -4])").starts_with("fails"));
    CHECK(walk(doc, R"(["l", 3])").starts_with("fails"));
    CHECK(walk(doc, R"(["l", "1"])").starts_with("fails"));  // TypeError
    CHECK(walk(doc, R"(["l", 99999999999999999999])").starts_with("fails"));
    CHECK(walk(doc, R"(["7"])") == "\"seven\"");
    CHECK(walk(doc, R"([7])").starts_with("fails"));  // KeyError: JSON keys are str
    CHECK(walk(doc, R"([true])").starts_with("fails"));
    CHECK(walk(doc, R"(["7", 0])").starts_with("fails"));  // into a str
    CHECK(walk(doc, R"(["d", "x", "y"])").starts_with("fails"));
    const PathWalk w = walk_python_path(doc, *items(R"(["l", -1])"), {});
    CHECK(w.segments == PathSegments{"l", "2"});  // the position really used
  }

  TEST_CASE("an external node on the way is entered through its data") {
    const Json doc = json::parse_json(R"({"lst": {"__muutils_format__": "list:external", "$ref": "lst.jsonl"},
                                    "arr": {"__muutils_format__": "numpy.ndarray:external", "$ref": "a.npy"},
                                    "odd": {"__muutils_format__": "list:external", "data": [5, 6]},
                                    "bad": {"__muutils_format__": 3, "x": 1}})",
                                      "doc");
    CHECK(walk(doc, R"(["lst", 1])").starts_with("fails"));  // nothing loaded it: no data
    PopulatedNodes populated;
    populated.emplace(json::view_identity(json::view_of(doc.find("lst"))), PopulatedNode{"lst.jsonl", true});
    populated.emplace(json::view_identity(json::view_of(doc.find("arr"))), PopulatedNode{"a.npy", false});
    CHECK(walk(doc, R"(["lst", 1, "x"])", populated) == "through lst.jsonl at lst");
    CHECK(walk(doc, R"(["arr", 0])", populated).starts_with("fails"));  // an ndarray has no keys
    CHECK(walk(doc, R"(["odd", -1])") == "6");                          // data on disk
    CHECK(walk(doc, R"(["bad", "x"])").starts_with("fails"));           // .endswith on an int raises
    CHECK(walk(doc, R"(["lst"])", populated).starts_with("{"));         // the last node is not entered
  }
}
