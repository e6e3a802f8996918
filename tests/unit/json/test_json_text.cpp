#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>

#include "zanj/error.hpp"
#include "zanj/json.hpp"
#include "json/json_parse.hpp"
#include "test_support.hpp"
#include "json/json_text.hpp"

using namespace zanj;
using namespace zanj::json;

// Python 3.11's json.loads(bytes) is the oracle for every case below (docs/format.md).
using zanj::test::parses_as_json;

TEST_SUITE("json text") {
  TEST_CASE("a leading BOM is skipped (and noted); elsewhere it is not JSON") {
    JsonParseNotes notes;
    CHECK(parse_json("\xEF\xBB\xBF{\"a\": 1}", "t", {}, &notes).find("a")->as_int64() == 1);
    CHECK(notes.bom);
    CHECK(notes.encoding == "utf-8-sig");
    CHECK_FALSE(parses_as_json("\xEF\xBB\xBF\xEF\xBB\xBF{}"));
    CHECK_FALSE(parses_as_json(" \xEF\xBB\xBF{}"));
    JsonParseNotes plain;
    (void)parse_json("{}", "t", {}, &plain);
    CHECK_FALSE(plain.bom);
  }

  TEST_CASE("UTF-16 and UTF-32, as json.detect_encoding finds them") {
    using namespace std::string_literals;
    JsonParseNotes notes;
    CHECK(parse_json("\xFF\xFE[\x00"
                     "1\x00]\x00"s,
                     "t", {}, &notes)
              .as_array()[0]
              .as_int64() == 1);
    CHECK(notes.encoding == "utf-16");
    CHECK(parse_json("\x00[\x00\"\xD8\x3D\xDE\x00\x00\"\x00]"s, "t").as_array()[0].as_string() == "\xF0\x9F\x98\x80");
    CHECK(parse_json("1\x00\x00\x00"s, "t").as_int64() == 1);  // utf-32-le
    CHECK(parse_json("7\x00"s, "t").as_int64() == 7);          // two bytes: utf-16-le
    CHECK_FALSE(
        parses_as_json("\xFF\xFE[\x00"
                       "1"s));  // odd length
  }

  std::string minified(std::string text) {
    text.resize(minify_json(text.data(), text.size()));
    return text;
  }

  /// The same text minified as it streams in, `step` bytes at a time.
  std::string streamed(std::string_view text, std::size_t step) {
    std::string out;
    JsonMinifier minifier;
    for (std::size_t i = 0; i < text.size(); i += step) minifier.append(out, text.substr(i, step));
    minifier.finish(out);
    return out;
  }

  TEST_CASE("minify drops whitespace outside strings only, and never joins two tokens") {
    CHECK(minified("{\n\t\"a b\": [1, 2],\r\n \"c\": \" \\\" x \"\n}\n") == "{\"a b\":[1,2],\"c\":\" \\\" x \"}");
    CHECK(minified("[1 2]") == "[1 2]");
    CHECK(minified("[true   false]") == "[true false]");
    CHECK(minified("[1 , 2 ]  ") == "[1,2]");
    CHECK(minified(" 12 \n") == "12");
    CHECK(minified("[\"a\\\\\"  ,  1]") == "[\"a\\\\\",1]");  // an escaped backslash ends in a real quote
    CHECK(minified("\"open  ") == "\"open  ");                // an unterminated string is kept whole
    CHECK(minified(" \f1") == "\f1");                         // only JSON's four spaces go
    const std::string once = minified("{ \"k\" : [ 1 2 , \"x y\" ] }");
    CHECK(minified(once) == once);
  }

  TEST_CASE("minify as the text streams in, split anywhere, gives the same text") {
    const std::string text = "{\n  \"a\\\"b\": [1 2, \"x  y\", true ],\n  \"c\": {\"d\": -1.5e3 }\n}\n  ";
    for (std::size_t step = 1; step <= text.size(); ++step) CHECK_MESSAGE(streamed(text, step) == minified(text), step);
    using namespace std::string_literals;
    const std::string wide = "\xFF\xFE{\x00 \x00}\x00"s;  // UTF-16 passes as it is, for the parser
    CHECK(streamed(wide, 3) == wide);
  }

  /// The minifier's rule, one byte at a time: whitespace outside strings goes, but a run
  /// between two scalar bytes leaves one space.
  std::string minified_by_rule(std::string_view text) {
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    const auto scalar = [](char c) {
      return static_cast<unsigned char>(c) > ' ' && std::string_view("[]{},:\"").find(c) == std::string_view::npos;
    };
    std::string out;
    bool in_string = false, escaped = false;
    for (std::size_t i = 0; i < text.size();) {
      const char c = text[i];
      if (in_string) {
        out += c;
        in_string = escaped || c != '"';
        escaped = !escaped && c == '\\';
        ++i;
      } else if (space(c)) {
        std::size_t j = i;
        while (j < text.size() && space(text[j])) ++j;
        if (!out.empty() && scalar(out.back()) && j < text.size() && scalar(text[j])) out += ' ';
        i = j;
      } else {
        in_string = c == '"';
        out += c;
        ++i;
      }
    }
    return out;
  }

  TEST_CASE("minify agrees with its rule on random texts, whole and streamed") {
    // Long runs of each kind (whitespace, string bytes, tokens) cross the 64-byte blocks the
    // minifier reads at once by their masks, and the chunks it is given. Every other text has
    // no backslash, so that its blocks take the masks' way (a block with one goes a byte at a
    // time), with pieces long enough to fill several blocks.
    std::mt19937 random(20261127);
    const auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
    const std::string_view pieces[] = {" ", "\t\t\t", "\n",     "\r\n", "\"", "[",        "]",  "{",  "}",   ",",
                                       ":", "1",      "-2.5e3", "true", "x",  "\xC3\xA9", "\f", "\\", "\\\""};
    const std::size_t without_backslash = std::size(pieces) - 2;
    for (int round = 0; round < 800; ++round) {
      std::string text = "{";  // never a first byte that reads as UTF-16 or UTF-32
      const std::size_t kinds = round % 2 == 0 ? without_backslash : std::size(pieces);
      const std::size_t parts = pick(round % 4 < 2 ? 60 : 300);
      for (std::size_t k = 0; k < parts; ++k) {
        const std::string_view piece = pieces[pick(kinds)];
        const std::size_t repeat = pick(4) == 0 ? 1 + pick(40) : 1;
        for (std::size_t r = 0; r < repeat; ++r) text += piece;
      }
      const std::string expected = minified_by_rule(text);
      CHECK_MESSAGE(minified(text) == expected, text);
      for (std::size_t step : {std::size_t{1}, std::size_t{5}, std::size_t{16}, std::size_t{17}, std::size_t{64},
                               std::size_t{65}, 1 + pick(64), 1 + pick(400)})
        CHECK_MESSAGE(streamed(text, step) == expected, text, " in steps of ", step);
    }
  }

  /// What parse_json says of the text as written, and what the parse of the streamed-minified
  /// text says: "" for a refusal, else the value printed.
  std::pair<std::string, std::string> both_ways(std::string_view text, std::size_t step) {
    std::string whole, streamed_value;
    try {
      whole = to_json(parse_json(text, "t"));
    } catch (const Error&) {
    }
    JsonMinifier minifier;
    minifier.plan_for(JsonLimits{});  // planned as it streams, as a member reader does
    std::string out;
    for (std::size_t i = 0; i < text.size(); i += step) minifier.append(out, text.substr(i, step));
    minifier.finish(out);
    try {
      streamed_value =
          to_json(parse_document(JsonText{std::move(out), minifier.minified(), minifier.bom(), minifier.plan()}, "t")
                      .root()
                      .copy());
    } catch (const Error&) {
    }
    return {whole, streamed_value};
  }

  TEST_CASE("streamed and minified, a text is still detected by its first bytes as written") {
    using namespace std::string_literals;
    // Python: json.loads(b"\n7\0\0\0\t") decodes UTF-8 (no NUL in the first two bytes) and
    // refuses the NULs; minified first, "7\0\0\0" would read as UTF-32 and give 7 (found by
    // fuzz_json, fuzz/regressions/json/minified-text-detected-as-utf32).
    for (const std::string& text : {"\n7\0\0\0\t"s, " 7\0"s, "\xEF\xBB\xBF 1"s, "\xEF\xBB\xBF\n{\"a\": [1, 2]}\n"s,
                                    "\xEF\xBB\xBF"
                                    "1 2"s,
                                    "\t\xEF\xBB\xBFInfinity"s,
                                    "\xFF\xFE[\x00 \x00"
                                    "1\x00]\x00"s,
                                    "  [\"x\"]"s, "12"s}) {
      for (std::size_t step : {1, 2, 3, 5, 64}) {
        const auto [whole, streamed_value] = both_ways(text, step);
        CHECK_MESSAGE(whole == streamed_value, text, " in steps of ", step);
      }
    }
    CHECK(both_ways("\n7\0\0\0\t"s, 64).first.empty());
    CHECK(both_ways("\xEF\xBB\xBF 1"s, 1).second == "1");
  }

  TEST_CASE("commas outside strings: an exact lower bound on the values, counted before parsing") {
    CHECK(has_commas_outside_strings("[1,2,3]", 2));
    CHECK_FALSE(has_commas_outside_strings("[1,2,3]", 3));
    CHECK_FALSE(has_commas_outside_strings("[\",,,,\",\"\\\",,\"]", 2));  // commas in strings, an escaped quote
    CHECK(has_commas_outside_strings("[\",,,,\",\"\\\",,\"]", 1));
    CHECK(has_commas_outside_strings(",,,", 3));  // as many as the text has bytes
    CHECK_FALSE(has_commas_outside_strings(",,,", 4));
    // The eight-bytes-at-a-time count: commas at every position of a word, and bytes next to ','.
    std::string mixed;
    for (int i = 0; i < 100; ++i)
      mixed += std::string(static_cast<std::size_t>(i % 9), static_cast<char>('0' + i % 10)) +
               (i % 3 ? "," : ",\xAC\x2D\x2B");
    const auto commas = static_cast<std::uint64_t>(std::count(mixed.begin(), mixed.end(), ','));
    CHECK(has_commas_outside_strings(mixed, commas));
    CHECK_FALSE(has_commas_outside_strings(mixed, commas + 1));
    JsonLimits limits;
    limits.max_values = 3;
    CHECK_THROWS_WITH(parse_json("[0,0,0]", "m", limits), doctest::Contains("limit of 3"));
    CHECK_NOTHROW(parse_json("[\"a,b,c,d\"]", "m", limits));
  }

  TEST_CASE("encoded surrogates are masked for simdjson and put back") {
    std::string text = "[\"\xED\xA0\x80\xED\x9F\xBF\xED\xBF\xBF\"]";
    const std::string original = text;
    const auto where = mask_encoded_surrogates(text.data(), text.size());
    CHECK(where == std::vector<std::uint32_t>{2, 8});  // ED 9F BF is U+D7FF, no surrogate
    CHECK(text[2] == '\xEE');
    unmask_encoded_surrogates(text.data(), where);
    CHECK(text == original);
  }

  TEST_CASE("minified text parses to what the indented text parses to") {
    const char* indented = "{\n  \"k\": [\n    1.5,\n    \"s t\",\n    null\n  ]\n}";
    CHECK(parse_json(indented, "t") == parse_json(minified(indented), "t"));
  }
}
