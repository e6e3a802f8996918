#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "json/json_parse.hpp"
#include "json/json_view_access.hpp"
#include "zanj/json.hpp"

using namespace zanj;
using namespace zanj::json;

TEST_SUITE("json_view") {
  TEST_CASE("strings_may_hold: false only when no key or string of the document holds the text") {
    const std::string text = R"({"model": {"optimizer_state_dict": 1}, "v": ["a\u0073b", 7, [1, 2, 3]],
                                 "keys": {"x": "y"}, "n": 123456789012345678901234567890})";
    const JsonDocument doc = parse_document(text, "t");
    const JsonView root = doc.root();
    CHECK(strings_may_hold(root, "state_dict"));  // in a key, below the root
    CHECK(strings_may_hold(root.find("model"), "state_dict"));
    CHECK(strings_may_hold(root, "asb"));  // a value, as decoded (written with an escape)
    CHECK(strings_may_hold(root, "keys"));
    CHECK_FALSE(strings_may_hold(root, "a\\u0073b"));  // the escape as written is no string's text
    CHECK_FALSE(strings_may_hold(root, "dict_state"));
    CHECK(strings_may_hold(root, "123456"));    // a big integer's digits share the arena: a harmless yes
    CHECK_FALSE(strings_may_hold(root, "7,"));  // a number's text is no string
    CHECK_FALSE(strings_may_hold(root, "1, 2"));
    // A view of a Json, and a document still holding its text, answer true.
    const Json built = parse_json(text, "t");
    CHECK(strings_may_hold(view_of(built), "dict_state"));
    CHECK(strings_may_hold(JsonView(), "anything"));
  }

  TEST_CASE("a view reads a parsed document without copying it") {
    const Json doc =
        parse_json(R"({"s": "text", "n": -3, "u": 18446744073709551615, "big": 123456789012345678901234567890,
                                   "f": 1.5, "b": true, "z": null, "list": [1, [2], {"k": "v"}], "dup": 1, "dup": 2})",
                   "t");
    const JsonView v = view_of(doc);
    CHECK(v.is_object());
    CHECK(v.size() == 9);  // duplicate keys: one member, the last value (Python's dict)
    CHECK(v.find("s").as_string() == "text");
    CHECK(v.find("s").as_string().data() == doc.find("s")->as_string().data());  // no copy
    CHECK(v.find("n").as_int64() == -3);
    std::uint64_t u = 0;
    CHECK(v.find("u").get_uint64(u));
    CHECK(u == 18446744073709551615u);
    CHECK(v.find("big").is_integer());
    CHECK(v.find("big").big_integer_digits() == "123456789012345678901234567890");
    CHECK(v.find("f").to_double() == 1.5);
    CHECK(v.find("b").as_bool());
    CHECK(v.find("z").is_null());
    CHECK(v.find("dup").as_int64() == 2);
    CHECK(v.string_at("s") == "text");
    CHECK(v.string_at("n").empty());
    CHECK(v.find("list").type_name() == "array");

    std::vector<std::string> types;
    for (const JsonView element : v.find("list")) types.emplace_back(element.type_name());
    CHECK(types == std::vector<std::string>{"number", "array", "object"});
    CHECK(v.find("list")[2].find("k").as_string() == "v");
    std::vector<std::string> keys;
    for (const auto [key, value] : v.members()) keys.emplace_back(key);
    CHECK(keys.front() == "s");
    CHECK(keys.back() == "dup");
    CHECK(v.key(1) == "n");
    CHECK(v[1].as_int64() == -3);  // member values by position too
  }

  TEST_CASE("an absent value is an invalid view that reads as null") {
    const Json doc = parse_json(R"({"a": [1, 2]})", "t");
    const JsonView missing = view_of(doc).find("nope");
    CHECK_FALSE(missing);
    CHECK(missing.is_null());
    CHECK(missing.size() == 0);
    CHECK_FALSE(missing.find("x"));
    CHECK(missing.begin() == missing.end());
    CHECK(missing.copy() == Json(nullptr));
    CHECK(to_json(missing) == "null");
    CHECK_FALSE(view_of(doc).find("a").find("x"));  // find on an array: nothing
    CHECK(JsonView() == missing);
    CHECK_FALSE(missing == view_of(doc));
  }

  TEST_CASE("copy, equality and writing match the Json they view") {
    const Json doc = parse_json(R"({"x": [1.5, Infinity, "\udc80"], "y": {"z": null}})", "t");
    const Json other = parse_json(R"({"x": [1.5, Infinity, "\udc80"], "y": {"z": null}})", "t");
    const JsonView v = view_of(doc);
    CHECK(v.copy() == doc);
    CHECK(to_json(v) == to_json(doc));
    CHECK(to_json(v.find("y"), JsonStyle{2}) == to_json(*doc.find("y"), JsonStyle{2}));
    std::string out;
    write_json(out, v.find("x"));
    CHECK(out == "[1.5, Infinity, \"\\udc80\"]");
    CHECK(v.find("y") == view_of(other).find("y"));
    CHECK_FALSE(v.find("x") == v.find("y"));
  }
}
