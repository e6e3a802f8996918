#include <doctest/doctest.h>

#include <cmath>

#include "zanj/error.hpp"
#include "zanj/json.hpp"
#include "json/json_parse.hpp"

using namespace zanj;

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
    CHECK(to_json(Json("\xc2\x9b")) == R"("\u009b")");         // C1 CSI
    CHECK(to_json(Json("a\xff" "b")) == R"("a\udcffb")");      // surrogateescape
    CHECK(to_json(Json("\xed\xa0\x80")) == R"("\ud800")");      // a lone surrogate kept as WTF-8
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
  bool parses(std::string_view text) {
    try {
      (void)parse_json(text, "t");
      return true;
    } catch (const Error&) {
      return false;
    }
  }

  TEST_CASE("duplicate keys: the first position, the last value, and a note") {
    JsonParseNotes notes;
    const Json j = parse_json(R"({"w": [1, 2, 3], "x": 0, "w": [7, 8, 9], "o": {"k": 1, "k": 2}})", "t", {}, &notes);
    const auto& o = j.as_object();
    REQUIRE(o.size() == 3);
    CHECK(o[0].first == "w");
    CHECK(to_json(o[0].second) == "[7, 8, 9]");
    CHECK(o[1].first == "x");
    CHECK(to_json(o[2].second) == R"({"k": 2})");
    CHECK(notes.duplicate_keys == 2);
    CHECK(notes.first_duplicate == std::vector<std::string>{"o", "k"});  // the inner object closes first
    // A large object (hashed) behaves the same.
    std::string big = "{";
    for (int i = 0; i < 100; ++i) big += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
    big += "\"k5\": \"last\", \"k99\": 0}";
    JsonParseNotes big_notes;
    const Json b = parse_json(big, "t", {}, &big_notes);
    CHECK(b.as_object().size() == 100);
    CHECK(b.as_object()[5].second.as_string() == "last");
    CHECK(b.as_object()[99].second.as_int64() == 0);
    CHECK(big_notes.duplicate_keys == 2);
    CHECK(big_notes.first_duplicate == std::vector<std::string>{"k5"});
    // Inside an array, the path names the index.
    JsonParseNotes in_list;
    (void)parse_json(R"([0, {"a": 1, "a": 2}])", "t", {}, &in_list);
    CHECK(in_list.first_duplicate == std::vector<std::string>{"1", "a"});
  }

  TEST_CASE("NaN and Infinity are values, never keys; only Python's spelling") {
    CHECK(std::isnan(parse_json(R"({"a": NaN})", "t").find("a")->as_real()));
    CHECK_FALSE(parses("{NaN: 1}"));
    CHECK_FALSE(parses("{Infinity: 1}"));
    CHECK_FALSE(parses("[nan]"));
    CHECK_FALSE(parses("[inf]"));
    CHECK_FALSE(parses("[-NaN]"));
    CHECK_FALSE(parses("[+Infinity]"));
    CHECK(parse_json("-Infinity", "t").as_real() == -INFINITY);
  }

  TEST_CASE("strings that look like the old sentinels are just strings") {
    for (const char* text : {"[\"\\u0001zanj:15-0:0\", NaN]", "[\"\\u0001zanj:23-0:0\"]", "[\"\\u0001zanj:\"]"}) {
      const Json j = parse_json(text, "t");
      CHECK(j.as_array()[0].is_string());
    }
    CHECK(parse_json("{\"\\u0001zanj:9-0:0\": 1}", "t").as_object()[0].first == "\x01zanj:9-0:0");
  }

  TEST_CASE("numbers: Python's grammar, float() rounding, int digit limit") {
    CHECK(parse_json("1e400", "t").as_real() == INFINITY);
    CHECK(parse_json("-1e400", "t").as_real() == -INFINITY);
    CHECK(parse_json("1e-400", "t").as_real() == 0.0);
    const Json zero = parse_json("-0", "t");
    CHECK(zero.type() == Json::Type::integer);
    CHECK(zero.as_int64() == 0);
    CHECK(std::signbit(parse_json("-0.0", "t").as_real()));
    CHECK(parse_json("-9223372036854775808", "t").as_int64() == INT64_MIN);
    CHECK(parse_json("-9223372036854775809", "t").as_big_integer().digits == "-9223372036854775809");
    CHECK(parse_json("18446744073709551616", "t").as_big_integer().digits == "18446744073709551616");
    CHECK(parse_json("1E+2", "t").as_real() == 100.0);
    for (const char* bad : {"99999999999999999999-1", "01", "-01", "00", "+1", ".5", "1.", "1.e5", "0x10", "1e", "1e+",
                            "-", "--1", "1_000", "[1 2]"})
      CHECK_MESSAGE(!parses(bad), bad);
    const std::string max_digits(4300, '7');
    CHECK(parse_json(max_digits, "t").as_big_integer().digits == max_digits);
    CHECK(parse_json("-" + max_digits, "t").is_integer());
    CHECK_THROWS_WITH(parse_json(max_digits + "7", "t"), doctest::Contains("4301 digits"));
    CHECK(parses(max_digits + "7.0"));  // floats have no digit limit
  }

  TEST_CASE("a leading BOM is skipped (and noted); elsewhere it is not JSON") {
    JsonParseNotes notes;
    CHECK(parse_json("\xEF\xBB\xBF{\"a\": 1}", "t", {}, &notes).find("a")->as_int64() == 1);
    CHECK(notes.bom);
    CHECK(notes.encoding == "utf-8-sig");
    CHECK_FALSE(parses("\xEF\xBB\xBF\xEF\xBB\xBF{}"));
    CHECK_FALSE(parses(" \xEF\xBB\xBF{}"));
    JsonParseNotes plain;
    (void)parse_json("{}", "t", {}, &plain);
    CHECK_FALSE(plain.bom);
  }

  TEST_CASE("UTF-16 and UTF-32, as json.detect_encoding finds them") {
    using namespace std::string_literals;
    JsonParseNotes notes;
    CHECK(parse_json("\xFF\xFE[\x00" "1\x00]\x00"s, "t", {}, &notes).as_array()[0].as_int64() == 1);
    CHECK(notes.encoding == "utf-16");
    CHECK(parse_json("\x00[\x00\"\xD8\x3D\xDE\x00\x00\"\x00]"s, "t").as_array()[0].as_string() == "\xF0\x9F\x98\x80");
    CHECK(parse_json("1\x00\x00\x00"s, "t").as_int64() == 1);  // utf-32-le
    CHECK(parse_json("7\x00"s, "t").as_int64() == 7);            // two bytes: utf-16-le
    CHECK_FALSE(parses("\xFF\xFE[\x00" "1"s));                   // odd length
  }

  TEST_CASE("strings: surrogates round-trip, control characters are refused") {
    const Json lone = parse_json(R"(["\ud800", "\udc00x", "\ud83d\ude00", "\ud800\u0041", "\uD800\uDC00"])", "t");
    const auto& a = lone.as_array();
    CHECK(a[0].as_string() == "\xED\xA0\x80");
    CHECK(a[2].as_string() == "\xF0\x9F\x98\x80");
    CHECK(a[3].as_string() == "\xED\xA0\x80" "A");
    CHECK(a[4].as_string() == "\xF0\x90\x80\x80");
    CHECK(to_json(lone) == R"(["\ud800", "\udc00x", "😀", "\ud800A", "𐀀"])");
    CHECK(parse_json(to_json(lone), "t") == lone);
    // Encoded surrogates in the bytes are accepted ('surrogatepass') and kept.
    CHECK(parse_json("\"\xED\xA0\x80\"", "t").as_string() == "\xED\xA0\x80");
    CHECK_FALSE(parses("\"\xC0\x80\""));       // overlong
    CHECK_FALSE(parses("\"\xF4\x90\x80\x80\""));  // past U+10FFFF
    CHECK_FALSE(parses("\"\xE2\x82\""));       // truncated
    CHECK_FALSE(parses("\"a\tb\""));
    CHECK_FALSE(parses("\"a\nb\""));
    CHECK(parses("\"a\x7f" "b\""));
    CHECK_FALSE(parses(R"("\x")"));
    CHECK_FALSE(parses(R"("\u12")"));
    CHECK_FALSE(parses(R"("\ud800\u12G4")"));
    CHECK(parse_json(R"("\/\b\f\n\r\t\"\\")", "t").as_string() == "/\b\f\n\r\t\"\\");
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
}
