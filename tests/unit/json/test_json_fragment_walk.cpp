// A large document's fragments walked on several threads (json_fragment_walk.cpp): the parts
// walked apart and joined make the document the serial walk makes, and whatever a part meets
// is said as the serial walk says it.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "json_fragment_fixture.hpp"
#include "json/json_parse.hpp"
#include "zanj/json.hpp"

using namespace zanj;
using namespace zanj::json;
using zanj::test::read_in_fragments;

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
    const std::string serial = read_in_fragments(text, 2048, 2);
    REQUIRE(serial.starts_with("{\"head\": 1"));
    for (const unsigned threads : {2u, 4u}) {
      std::uint64_t joined = 0;
      CHECK(read_in_fragments(text, 2048, 2, threads, {}, &joined) == serial);
      CHECK(joined > 20);  // about 50 fragments: nearly all but the first and last are parts
    }
    // A value longer than two fragments is cut inside (past twice the target): the part before
    // leaves its containers open, the object's key among them, for the builder to close.
    std::string strings = "{\"m\":[";
    for (int i = 0; i < 2000; ++i) strings += i ? ",\"xy\"" : "\"xy\"";
    const std::string long_value = records(strings + "],\"n\":0}");
    const std::string long_serial = read_in_fragments(long_value, 2048, 2);
    REQUIRE(long_serial.find("\"n\": 0") != std::string::npos);
    CHECK(read_in_fragments(long_value, 2048, 2, 3) == long_serial);
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
      const std::string serial = read_in_fragments(text, 2048, 2, 1, limits);
      for (const unsigned threads : {2u, 4u}) {
        CAPTURE(threads);
        CHECK(read_in_fragments(text, 2048, 2, threads, limits) == serial);
      }
    }
  }
}
