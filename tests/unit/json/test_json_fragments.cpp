// A large document is parsed in fragments (json_fragments.cpp): cut anywhere it may be cut,
// it must be accepted exactly when the whole is, with the same values.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "json/json_document.hpp"
#include "json/json_parse.hpp"
#include "zanj/error.hpp"
#include "zanj/json.hpp"

using namespace zanj;
using namespace zanj::json;

namespace {

/// The document parsed in fragments of `bytes` (0: whole) on `threads` threads, packing arrays
/// of `packed` bare scalars; what it prints and what the parse noted (values, duplicate keys
/// and the path to the first), or why it was refused.
std::string read(const std::string& text, std::size_t bytes, std::uint32_t packed = 0, unsigned threads = 1,
                 JsonLimits limits = {}, std::uint64_t* parts_joined = nullptr) {
  limits.fragment_bytes = bytes;
  limits.packed_min_elements = packed;
  limits.threads = threads;
  JsonParseNotes notes;
  struct Count {
    const JsonParseNotes& notes;
    std::uint64_t* to;
    ~Count() {
      if (to) *to += notes.parts_joined;
    }
  } const count{notes, parts_joined};
  try {
    std::string out = to_json(parse_document(text, "t", limits, &notes).root());
    out += " values " + std::to_string(notes.values) + " duplicates " + std::to_string(notes.duplicate_keys);
    for (const std::string& segment : notes.first_duplicate) out += " /" + segment;
    return out;
  } catch (const Error& e) {
    return std::string("refused: ") + e.what();
  }
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
         }) {
      CAPTURE(text);
      REQUIRE(read(text, 0).starts_with("refused"));
      check_every_cut(text);
    }
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

TEST_SUITE("json_fragment_walk") {
  /// A list of 3,000 records, `middle` in place of record 1,500's value of "s".
  std::string records(const std::string& middle = "\"x,]}\"") {
    std::string text = "{\"head\":1,\"rows\":[";
    for (int i = 0; i < 3000; ++i) {
      if (i) text += ',';
      text += "{\"id\":" + std::to_string(i) + ",\"w\":[1.5,-2,3],\"s\":" + (i == 1500 ? middle : "\"x,]}\"") + "}";
    }
    return text + "],\"tail\":{\"t\":[1,2]}}";
  }

  TEST_CASE("parts walked on other threads build the document the serial walk builds") {
    const std::string text = records();
    const std::string serial = read(text, 2048, 2);
    REQUIRE(serial.starts_with("{\"head\": 1"));
    for (const unsigned threads : {2u, 4u}) {
      std::uint64_t joined = 0;
      CHECK(read(text, 2048, 2, threads, {}, &joined) == serial);
      CHECK(joined > 20);  // about 50 fragments: nearly all but the first and last are parts
    }
    // A value longer than two fragments is cut inside (past twice the target): the part before
    // leaves its containers open, the object's key among them, for the builder to close.
    std::string strings = "{\"m\":[";
    for (int i = 0; i < 2000; ++i) strings += i ? ",\"xy\"" : "\"xy\"";
    const std::string long_value = records(strings + "],\"n\":0}");
    const std::string long_serial = read(long_value, 2048, 2);
    REQUIRE(long_serial.find("\"n\": 0") != std::string::npos);
    CHECK(read(long_value, 2048, 2, 3) == long_serial);
    // Kept as text (no copy of the strings into the arena) it is the same document too.
    JsonLimits limits;
    limits.fragment_bytes = 2048;
    limits.threads = 3;
    const Json kept = parse_json(text, "t", limits);
    CHECK(to_json(kept) == to_json(parse_document(text, "t").root()));
  }

  TEST_CASE("what a part meets is said as the serial walk says it") {
    JsonLimits shallow;
    shallow.max_depth = 6;
    JsonLimits few;
    few.max_values = 9000;  // reached about a third of the way through the records
    for (const auto& [middle, limits] : std::vector<std::pair<std::string, JsonLimits>>{
             {"[1,,2]", {}},                             // invalid in a part
             {"\"a\":1", {}},                            // a string where a key's value ends
             {"{\"k\":1,\"k\":2,\"m\":{\"k\":3}}", {}},  // a duplicate key: its note names the path
             {"[[[[[1]]]]]", shallow},                   // too deep
             {"\"x\"", few},                             // over the value limit
         }) {
      CAPTURE(middle);
      const std::string text = records(middle);
      const std::string serial = read(text, 2048, 2, 1, limits);
      for (const unsigned threads : {2u, 4u}) {
        CAPTURE(threads);
        CHECK(read(text, 2048, 2, threads, limits) == serial);
      }
    }
  }
}
