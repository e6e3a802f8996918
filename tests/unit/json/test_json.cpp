#include <doctest/doctest.h>

#include <cmath>

#include "zanj/error.hpp"
#include "zanj/json.hpp"
#include "json/json_parse.hpp"
#include "json/json_writer.hpp"
#include "test_support.hpp"
#include "zanj/format.hpp"

using namespace zanj;
using namespace zanj::json;

TEST_SUITE("json") {
  TEST_CASE("plain JSON parses into the model in file order") {
    const Json j = parse_json(R"({"b": 1, "a": [true, null, -2, 18446744073709551615, 0.5, "x"]})", "t");
    REQUIRE(j.is_object());
    CHECK(j.as_object()[0].first == "b");
    CHECK(j.as_object()[1].first == "a");
    const auto& a = j.find("a")->as_array();
    CHECK(a[0].as_bool());
    CHECK(a[1].is_null());
    CHECK(a[2].as_int64() == -2);
    CHECK(a[3].as_uint64() == 18446744073709551615ull);
    CHECK(a[4].as_real() == 0.5);
    CHECK(a[5].as_string() == "x");
  }

  TEST_CASE("Python's NaN and Infinity tokens become floats, never inside strings") {
    const Json j = parse_json(R"({"lr": NaN, "best": Infinity, "worst": -Infinity,
                                  "name": "NaN is not a string here", "l": [1.0, NaN, "Infinity"]})",
                              "t");
    CHECK(std::isnan(j.find("lr")->as_real()));
    CHECK(j.find("best")->as_real() == INFINITY);
    CHECK(j.find("worst")->as_real() == -INFINITY);
    CHECK(j.find("name")->as_string() == "NaN is not a string here");
    const auto& l = j.find("l")->as_array();
    CHECK(std::isnan(l[1].as_real()));
    CHECK(l[2].as_string() == "Infinity");
  }

  TEST_CASE("escaped quotes inside strings do not confuse the token pass") {
    const Json j = parse_json(R"(["a \" NaN \\", NaN, "\\"])", "t");
    CHECK(j.as_array()[0].as_string() == "a \" NaN \\");
    CHECK(std::isnan(j.as_array()[1].as_real()));
    CHECK(j.as_array()[2].as_string() == "\\");
  }

  TEST_CASE("a user string that imitates a placeholder stays a string") {
    const Json j = parse_json("[\"\\u0001zanj:15-0:0\", NaN]", "t");
    CHECK(j.as_array()[0].is_string());
    CHECK(std::isnan(j.as_array()[1].as_real()));
  }

  TEST_CASE("integers beyond 64 bits are kept as text") {
    const Json j = parse_json("[123456789012345678901234567890, -99999999999999999999, 5]", "t");
    CHECK(j.as_array()[0].as_big_integer().digits == "123456789012345678901234567890");
    CHECK(j.as_array()[1].as_big_integer().digits == "-99999999999999999999");
    CHECK(to_json(j) == "[123456789012345678901234567890, -99999999999999999999, 5]");
  }

  TEST_CASE("invalid JSON is an Error naming the member") {
    CHECK_THROWS_AS(parse_json("{\"a\": }", "__zanj__.json"), Error);
    CHECK_THROWS_WITH(parse_json("[1,", "__zanj__.json"), doctest::Contains("__zanj__.json: invalid JSON"));
    CHECK_THROWS_AS(parse_json("{NaN: 1}", "t"), Error);
    CHECK_THROWS_AS(parse_json("", "t"), Error);
    CHECK_THROWS_AS(parse_json("nan", "t"), Error);
  }

  TEST_CASE("nesting is bounded") {
    const std::string deep = std::string(100, '[') + std::string(100, ']');
    CHECK_NOTHROW(parse_json(deep, "t"));
    CHECK_THROWS_AS(parse_json(deep, "t", JsonLimits{50}), Error);
  }

  TEST_CASE("writer prints what Python's json prints") {
    CHECK(to_json(Json(1.0)) == "1.0");
    CHECK(to_json(Json(0.1)) == "0.1");
    CHECK(to_json(Json(1e16)) == "1e+16");
    CHECK(to_json(Json(-0.0)) == "-0.0");
    CHECK(to_json(Json(std::nan(""))) == "NaN");
    CHECK(to_json(Json(-INFINITY)) == "-Infinity");
    std::string f;
    write_json_float(f, 0.1f);
    CHECK(f == "0.1");
    CHECK(to_json(Json("a\"b\\c\n\x01")) == R"("a\"b\\c\n\u0001")");
    CHECK(to_json(Json(JsonObject{{"k", Json(JsonArray{Json(1), Json(nullptr)})}})) == R"({"k": [1, null]})");
    CHECK(to_json(Json(JsonObject{{"k", Json(JsonArray{Json(1)})}}), JsonStyle{2}) == "{\n  \"k\": [\n    1\n  ]\n}");
  }

  TEST_CASE("writer output is valid UTF-8 JSON whatever the string bytes") {
    CHECK(to_json(Json("\x1b\x07\x7f")) == R"("\u001b\u0007\u007f")");
    CHECK(to_json(Json("\xc2\x9b")) == R"("\u009b")");  // C1 CSI
    CHECK(to_json(Json("a\xff"
                       "b")) == R"("a\udcffb")");           // surrogateescape
    CHECK(to_json(Json("\xed\xa0\x80")) == R"("\ud800")");  // a lone surrogate kept as WTF-8
    CHECK(to_json(Json("\xed\xbf\xbf")) == R"("\udfff")");
    CHECK(to_json(Json("caf\xc3\xa9")) == "\"caf\xc3\xa9\"");
    CHECK(to_json(Json(JsonObject{{"\xfe", 1}})) == R"({"\udcfe": 1})");
    CHECK(to_json(Json(BigInt{"-123456789012345678901234567890"})) == "-123456789012345678901234567890");
    CHECK_THROWS_AS(to_json(Json(BigInt{"99999999999999999999-1"})), Error);
    CHECK_THROWS_AS(to_json(Json(BigInt{"0123"})), Error);
  }

  TEST_CASE("round trip through writer and parser") {
    const std::string text = R"({"a": [1, 2.5, NaN, Infinity, "s", {"x": null}], "b": false})";
    const Json j = parse_json(text, "t");
    CHECK(to_json(j) == text.substr(0, text.size()));
    const Json again = parse_json(to_json(j), "t");
    CHECK(to_json(again) == to_json(j));
  }

  TEST_CASE("accessors") {
    const Json j = parse_json(R"({"n": 3, "s": "x", "neg": -1})", "t");
    std::uint64_t v = 0;
    CHECK(j.find("n")->get_uint64(v));
    CHECK(v == 3);
    CHECK_FALSE(j.find("neg")->get_uint64(v));
    CHECK(j.string_at("s") == "x");
    CHECK(j.string_at("n").empty());
    CHECK(j.find("missing") == nullptr);
    CHECK(j.find("n")->type_name() == "number");
    CHECK(j.find("n")->to_double() == 3.0);
  }
}

// Python 3.11's json.loads(bytes) is the oracle for every case below (docs/format.md).
TEST_SUITE("json python semantics") {
  const auto parses = zanj::test::parses_as_json;

  TEST_CASE("strings that look like the old sentinels are just strings") {
    for (const char* text : {"[\"\\u0001zanj:15-0:0\", NaN]", "[\"\\u0001zanj:23-0:0\"]", "[\"\\u0001zanj:\"]"}) {
      const Json j = parse_json(text, "t");
      CHECK(j.as_array()[0].is_string());
    }
    CHECK(parse_json("{\"\\u0001zanj:9-0:0\": 1}", "t").as_object()[0].first == "\x01zanj:9-0:0");
  }

  TEST_CASE("deep nesting is bounded without recursion") {
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    CHECK_THROWS_WITH(parse_json(deep, "t"), doctest::Contains("deeper than 1024"));
    CHECK(parses(std::string(1000, '[') + std::string(1000, ']')));
    CHECK(parses(std::string(500, '[') + "{\"a\": " + std::string(500, '[') + std::string(500, ']') + "}" +
                 std::string(500, ']')));
  }

  TEST_CASE("the value limit is checked before the tree is built") {
    JsonLimits limits;
    limits.max_values = 4;
    CHECK(parses("[1, 2, 3]"));
    CHECK_NOTHROW(parse_json("[1, 2, 3]", "t", limits));
    CHECK_THROWS_WITH(parse_json("[1, 2, 3, 4]", "m", limits), doctest::Contains("m: the number of JSON values"));
    CHECK_THROWS_WITH(parse_json("{\"a\": [1, 2], \"b\": 3}", "m", limits), doctest::Contains("--max-json-values"));
    CHECK_THROWS_WITH(parse_json("[0, 0, 0, 0, 0", "m", limits), doctest::Contains("limit of 4"));  // never closed
    JsonParseNotes notes;
    (void)parse_json("{\"a\": [1, 2], \"b\": \"3\"}", "t", {}, &notes);
    CHECK(notes.values == 5);
  }
}

TEST_SUITE("json shapes") {
  TEST_CASE("shape_json: a list of integers, empty for 0-d") {
    CHECK(to_json(shape_json({32, 16})) == "[32, 16]");
    CHECK(to_json(shape_json({})) == "[]");
    CHECK(to_json(shape_json({0, 18446744073709551615ull})) == "[0, 18446744073709551615]");
    CHECK(shape_json({7}).as_array().front().is_integer());
  }
  TEST_CASE("shape_text: as Python prints the list") {
    CHECK(shape_text({32, 16}) == "[32, 16]");
    CHECK(shape_text({5}) == "[5]");
    CHECK(shape_text({}) == "[]");
  }

  TEST_CASE("read_json and read_json_document: the value, or the reason, and whether a limit was passed") {
    const base::Result<Json> value = read_json(R"({"a": [1, 2]})", "doc");
    REQUIRE(value.ok());
    CHECK(value->is_object());
    const base::Result<Json> invalid = read_json("{", "doc");
    REQUIRE_FALSE(invalid.ok());
    CHECK_THROWS_WITH_AS(parse_json("{", "doc"), invalid.why().c_str(), Error);  // the same words

    const base::Result<JsonDocument, JsonFailure> document = read_json_document(std::string("[1, [2]]"), "doc");
    REQUIRE(document.ok());
    CHECK(document->root().is_array());
    const base::Result<JsonDocument, JsonFailure> broken = read_json_document(std::string("[1,"), "doc");
    REQUIRE_FALSE(broken.ok());
    CHECK_FALSE(broken.failure().over);
    CHECK(broken.why().rfind("doc: ", 0) == 0);
    const base::Result<JsonDocument, JsonFailure> deep = read_json_document(std::string("[[[1]]]"), "", JsonLimits{2});
    REQUIRE_FALSE(deep.ok());
    CHECK(deep.failure().over == JsonLimitError::Limit::depth);
    CHECK(deep.why() == "JSON nesting deeper than 2");
    const base::Result<JsonDocument, JsonFailure> many = read_json_document(
        JsonText{"[1, 2, 3]", false, false, nullptr}, "", JsonLimits{ResourceLimits{}.max_json_depth, 2});
    REQUIRE_FALSE(many.ok());
    CHECK(many.failure().over == JsonLimitError::Limit::values);
  }
}

TEST_SUITE("json rewritten") {
  /// write_json_rewritten of a parsed document, as text.
  std::string rewritten(const JsonDocument& doc, const JsonStyle& style, const JsonRewriter& rewrite) {
    std::string text;
    OutputBuffer out([&](std::string_view piece) { text.append(piece); }, 8);  // flushed between items
    write_json_rewritten(out, doc.root(), style, rewrite);
    out.flush();
    return text;
  }

  TEST_CASE("the text write_json gives the changed copy, in both styles") {
    const std::string text = R"({"a": [1, {"b": "x\u00e9", "c": [2.5, null]}], "c": {"d": 1}, "e": []})";
    const JsonDocument doc = parse_document(text, "t");
    std::vector<std::string> asked;
    const JsonRewriter rewrite = [&](JsonView value, std::optional<std::string_view> key) {
      asked.push_back(key ? std::string(*key) : "-");
      if (key == "c" && value.is_array()) return JsonRewrite{JsonRewrite::Action::replace, Json("gone")};
      if (key == "c") return JsonRewrite{JsonRewrite::Action::keep, {}};
      return JsonRewrite{};
    };
    const Json copy = parse_json(R"({"a": [1, {"b": "x\u00e9", "c": "gone"}], "c": {"d": 1}, "e": []})", "t");
    for (const JsonStyle style : {JsonStyle{}, JsonStyle{1, '\t'}}) {
      asked.clear();
      CHECK(rewritten(doc, style, rewrite) == to_json(copy, style));
      // The root, then items in document order; nothing inside a kept or replaced value.
      CHECK(asked == std::vector<std::string>{"-", "a", "-", "-", "b", "c", "c", "e"});
    }
    const JsonRewriter none = [](JsonView, std::optional<std::string_view>) { return JsonRewrite{}; };
    CHECK(rewritten(doc, JsonStyle{}, none) == to_json(doc.root()));
  }
}
