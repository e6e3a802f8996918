// A large document is parsed in fragments (json_fragments.cpp): cut anywhere it may be cut,
// it must be accepted exactly when the whole is, with the same values.
#include <doctest/doctest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "json_fragment_fixture.hpp"
#include "json/json_builder.hpp"
#include "json/json_document.hpp"
#include "json/json_parse.hpp"
#include "zanj/error.hpp"
#include "zanj/json.hpp"

using namespace zanj;
using namespace zanj::json;

namespace {

/// The document read in fragments (json_fragment_fixture.hpp).
std::string read(const std::string& text, std::size_t bytes, std::uint32_t packed = 0, unsigned threads = 1,
                 JsonLimits limits = {}, std::uint64_t* parts_joined = nullptr) {
  return test::read_in_fragments(text, bytes, packed, threads, limits, parts_joined);
}

/// Every cut of `text` reads as the whole does, on one thread or several; returns how many
/// fragments the other threads walked.
std::uint64_t check_every_cut(const std::string& text) {
  CAPTURE(text);
  std::uint64_t parts_joined = 0;
  for (std::size_t bytes = 1; bytes <= text.size() + 1; ++bytes)
    for (const std::uint32_t packed : {0u, 1u, 3u}) {
      CAPTURE(bytes);
      CAPTURE(packed);
      // (A packed array's elements are no values of their own: the count is packing's.)
      const std::string whole = read(text, 0, packed);
      const std::string serial = read(text, bytes, packed);
      // A refusal may be met elsewhere in a cut text (where the fragment that holds it starts).
      if (whole.starts_with("refused"))
        CHECK(serial.starts_with("refused"));
      else
        CHECK(serial == whole);
      // Parts walked apart on other threads change nothing, the refusal's words included.
      for (const unsigned threads : {2u, 3u}) {
        CAPTURE(threads);
        CHECK(read(text, bytes, packed, threads, {}, &parts_joined) == serial);
      }
      // Nor does a plan made as the text streamed in, a few bytes at a time.
      for (const std::size_t step : {std::size_t{1}, std::size_t{3}, std::size_t{8}}) {
        CAPTURE(step);
        CHECK(test::read_streamed(text, step, bytes, packed) == serial);
        CHECK(test::read_streamed(text, step, bytes, packed, 2) == serial);
      }
    }
  return parts_joined;
}

}  // namespace

TEST_SUITE("json_fragments") {
  TEST_CASE("valid documents read the same, cut anywhere") {
    std::uint64_t parts_joined = 0;
    for (const char* text : {
             R"({"a": 1, "b": [1, 2, {"c": "d", "e": [[], {}, [3, [4, 5]]]}], "f": {"g": {"h": "i,j]"}}, "k": null})",
             R"([[1, 2], [3, 4], {"x": [5, 6, 7], "y": {"z": [8]}}, "s\"]", 9, true, [[[["deep", 1], 2], 3], 4]])",
             R"({"dup": 1, "x": [1, 2, 3], "dup": {"a": [4, 5]}, "": {"": [6, 7]}, "y": 8})",
             R"({"a": "\ud800", "b": ["\u00e9", 1e400, NaN, -Infinity, 123456789012345678901234567890]})",
         })
      parts_joined += check_every_cut(text);
    CHECK(parts_joined > 100);  // parts were walked apart and joined, not all by the builder
  }

  TEST_CASE("invalid documents are refused, cut anywhere (an added bracket must not make them valid)") {
    for (const char* text : {
             "[,1,2,3]",
             "[1,2,3,]",
             "[1,,2,3]",
             "{\"a\":1,}",
             "{,\"a\":1}",
             "{\"a\" ,\"b\":1}",
             "{\"a\":1,\"b\"}",
             "[1,2]3",
             "[1,2][3]",
             "[1,2]]",
             "[[1,2]",
             "{\"a\":[1,2}",
             "[1,2}",
             "{\"a\":1]",
             "[1:2,3]",
             "{\"a\":\"b\":\"c\",\"d\":[1,2],\"e\":3},\"f\":1}",
             "[{\"a\":1},,{\"b\":2}]",
             "[\"a,]\",]",
             "{\"a\":{\"b\":1},\"c\":{\"d\":2,}}",
             "[1,2,3",
             "{\"a\":[1,2,3],\"b\":[4,5,6]}}",
             "[1 2,3]",  // a space kept between two scalars, taken back or not as the next byte comes
             "[1,2 ,3 4]",
             "{\"a\":1 2,\"b\":[3, 4 ]}",
         }) {
      CAPTURE(text);
      REQUIRE(read(text, 0).starts_with("refused"));
      check_every_cut(text);
    }
  }

  TEST_CASE("a plan made as the text grows is the plan of the whole") {
    using Builder = JsonDocumentBuilder;
    const auto same_plan = [](const Builder::TextPlan& a, const Builder::TextPlan& b, const JsonDocument& da,
                              const JsonDocument& db) {
      REQUIRE(a.packed.size() == b.packed.size());
      for (std::size_t k = 0; k < a.packed.size(); ++k) {
        CHECK(a.packed[k].at == b.packed[k].at);
        CHECK(a.packed[k].elements == b.packed[k].elements);
      }
      REQUIRE(a.fragments.size() == b.fragments.size());
      for (std::size_t k = 0; k < a.fragments.size(); ++k) {
        const Builder::Fragment &x = a.fragments[k], &y = b.fragments[k];
        CHECK(x.first == y.first);
        CHECK(x.last == y.last);
        CHECK(x.opening == y.opening);
        CHECK(x.closing == y.closing);
        CHECK(x.continued == y.continued);
        CHECK(x.closes == y.closes);
        CHECK(x.lowest == y.lowest);
      }
      CHECK(da.bytes() == db.bytes());  // the packed arrays' spans and checkpoints too
    };
    std::size_t cut_plans = 0, packed_plans = 0;
    for (const char* written : {
             R"({"a":1,"b":[1,2,{"c":"d","e":[[],{},[3,[4,5]]]}],"f":{"g":{"h":"i,j]"}},"k":null})",
             R"([[1,2],[3,4],{"x":[5,6,7],"y":{"z":[8]}},"s\"]",9,true,[[[["deep",1],2],3],4]])",
             R"(["a\\",[1,2,3,4],"\\\"]",{"k\\":[5,6,7,8]},"[{,",[9,10,11,12]])",
             R"({"a":[1,2,3],"b":[4,5,6]}})",
             R"([1,2]3)",
             R"([1,2][3])",
             R"([1,2,3)",
             R"({"a":[1,2}))",
             R"("just a string")",
             R"([[1,2,3,4,5,6],[7,8,9,10,11,12],[13,14,15,16,17,18]])",
         }) {
      const std::string text(written);
      CAPTURE(text);
      for (std::size_t bytes = 1; bytes <= text.size() + 1; bytes += 2)
        for (const std::uint32_t packed : {0u, 3u})
          for (const unsigned threads : {1u, 2u}) {
            CAPTURE(bytes);
            CAPTURE(packed);
            CAPTURE(threads);
            JsonLimits limits;
            limits.fragment_bytes = bytes;
            limits.packed_min_elements = packed;
            limits.threads = threads;
            std::string whole = text;
            JsonDocument whole_doc;
            const Builder::TextPlan expected = TextPlanner(limits, packed != 0).finish(whole, 0, whole_doc);
            cut_plans += !expected.fragments.empty();
            packed_plans += !expected.packed.empty();
            for (const std::size_t step : {std::size_t{1}, std::size_t{2}, std::size_t{5}}) {
              CAPTURE(step);
              TextPlanner grown(limits, packed != 0);
              REQUIRE(grown.made_for(limits, packed != 0));
              for (std::size_t size = 0; size < text.size(); size += step) grown.scan(text.data(), size);
              std::string again = text;
              JsonDocument doc;
              const Builder::TextPlan plan = grown.finish(again, 0, doc);
              same_plan(plan, expected, doc, whole_doc);
              CHECK(again == whole);  // packed the same way
            }
          }
    }
    CHECK(cut_plans > 100);  // cuts and packed arrays were planned, not only refusals
    CHECK(packed_plans > 100);
    JsonLimits other;
    other.threads = 2;
    CHECK_FALSE(TextPlanner(JsonLimits{}, true).made_for(other, true));
    CHECK_FALSE(TextPlanner(JsonLimits{}, true).made_for(JsonLimits{}, false));
  }

  TEST_CASE("random documents over several 64-byte blocks read the same, cut and planned as they stream") {
    // The scan reads its stops 64 bytes at a time (base/byte_blocks.hpp): strings that cross
    // blocks, escaped quotes and backslashes at every place in a block, and brackets and commas
    // inside strings must all be where a byte-at-a-time reading puts them. Without packing and
    // cuts the whole is read with no plan at all: the reading every plan is held against.
    std::mt19937 random(20261202);
    const auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
    const char* const string_pieces[] = {"a", "\\\"", "\\\\", "[", "]",       "{",
                                         "}", ",",    ":",    " ", "\\u00e9", "xxxxxxxxxxxxxxxxxxxx"};
    const auto string = [&] {
      std::string s = "\"";
      for (std::size_t k = pick(30); k > 0; --k) s += string_pieces[pick(std::size(string_pieces))];
      return s + "\"";
    };
    std::function<std::string(int)> value = [&](int depth) -> std::string {
      const std::size_t kind = depth > 3 ? pick(2) : pick(5);
      if (kind == 0) return std::to_string(pick(100000));
      if (kind == 1) return string();
      const bool object = kind == 2;
      std::string v = object ? "{" : "[";
      for (std::size_t k = pick(8); k > 0; --k) {
        if (v.size() > 1) v += pick(3) == 0 ? ", " : ",";
        if (object) v += string() + ":";
        v += value(depth + 1);
      }
      return v + (object ? "}" : "]");
    };
    std::size_t long_texts = 0;
    for (int round = 0; round < 40; ++round) {
      const std::string text = "[" + value(1) + "," + value(1) + "," + string() + "]";
      CAPTURE(text);
      long_texts += text.size() > 256;
      const std::string whole = read(text, 0);
      REQUIRE_FALSE(whole.starts_with("refused"));
      for (const std::size_t bytes : {std::size_t{1}, std::size_t{9}, std::size_t{64}, std::size_t{65}, 1 + pick(300)})
        for (const std::uint32_t packed : {0u, 3u}) {
          CAPTURE(bytes);
          CAPTURE(packed);
          const std::string expected = packed == 0 ? whole : read(text, 0, packed);
          CHECK(read(text, bytes, packed) == expected);
          CHECK(read(text, bytes, packed, 2) == expected);
          for (const std::size_t step : {std::size_t{1}, std::size_t{7}, std::size_t{64}, 1 + pick(200)}) {
            CAPTURE(step);
            CHECK(test::read_streamed(text, step, bytes, packed) == expected);
          }
        }
    }
    CHECK(long_texts > 10);
  }

  TEST_CASE("a long string streamed in small pieces is read once, not again from its quote for each piece") {
    // 4 MiB of base64-like text in one string (an inline array's data), fed 64 bytes at a
    // time: read from its quote at every piece, the planner would pass over 130 GB of it.
    std::string text = R"({"w": {"__muutils_format__": "numpy.ndarray:array_b64_meta", "data": ")";
    const std::size_t start = text.size();
    text.resize(start + (std::size_t{4} << 20), 'A');
    for (std::size_t k = start + 100; k + 1 < text.size(); k += 1000) text[k] = '\\', text[k + 1] = '"';
    text += R"(", "k": [1, 2]}, "n": 1})";
    const std::string streamed = test::read_streamed(text, 64, 1024, 0);
    REQUIRE_FALSE(streamed.starts_with("refused"));
    CHECK(streamed == read(text, 1024));
  }

  TEST_CASE("a large document is cut: fragments of a megabyte read the same as the whole") {
    std::string text = "{";
    for (int i = 0; i < 60000; ++i) {
      if (i) text += ',';
      text += "\"r" + std::to_string(i) + "\":{\"id\":" + std::to_string(i) + ",\"w\":[[1.5,-2],[3,4]],\"s\":\"x,]}\"}";
    }
    text += '}';
    REQUIRE(text.size() > (std::size_t{2} << 20));
    JsonLimits whole;
    whole.fragment_bytes = 0;
    const JsonDocument a = parse_document(text, "t", whole);
    const JsonDocument b = parse_document(text, "t");
    CHECK(a.root() == b.root());
    CHECK(b.root().size() == 60000);
    CHECK(b.root().find("r59999").find("s").as_string() == "x,]}");
  }

  TEST_CASE("a repeated key is one node in a large document, and reads the same") {
    std::string text = "[";
    for (int i = 0; i < 4000; ++i) text += std::string(i ? "," : "") + R"({"key_a":1,"key_b":2})";
    text += "]";
    REQUIRE(text.size() > (std::size_t{16} << 10));
    const JsonDocument doc = parse_document(text, "t");
    CHECK(doc.root().size() == 4000);
    CHECK(doc.root()[3999].key(1) == "key_b");
    CHECK(doc.root()[3999].find("key_a").as_int64() == 1);
    // A record: its object, two values and four child entries (68 bytes); a node per key
    // would make it 100.
    CHECK(doc.bytes() < 4000 * 80);
  }
}
