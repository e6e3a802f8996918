#include <doctest/doctest.h>

#include <string>

#include "zanj/error.hpp"
#include "zanj/json.hpp"
#include "json/json_parse.hpp"

using namespace zanj;
using namespace zanj::json;

// Python 3.11's json.loads(bytes) is the oracle: a dict keeps the first position of a key and
// its last value.

TEST_SUITE("json members") {
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

  TEST_CASE("duplicates in objects of every size, keys shared or not, each found once") {
    // Sizes around the small objects' pairwise check (16) and the table's index widths; keys
    // of one length that differ in one byte; the documents over 16 KiB share their keys.
    for (const int n : {2, 16, 17, 31, 32, 33, 1000, 70000}) {
      for (const bool padded : {false, true}) {
        std::string text = "{";
        for (int i = 0; i < n; ++i) text += "\"key" + std::to_string(100000 + i) + "\": " + std::to_string(i) + ", ";
        // Duplicates of the first, the middle and the last key, the last one twice.
        for (const int d : {0, n / 2, n - 1, n - 1})
          text += "\"key" + std::to_string(100000 + d) + "\": \"again " + std::to_string(d) + "\", ";
        text += "\"end\": 0}";
        if (padded) text = "[" + text + ", \"" + std::string(20000, 'x') + "\"]";
        JsonParseNotes notes;
        const Json j = parse_json(text, "t", {}, &notes);
        const auto& o = (padded ? j.as_array()[0] : j).as_object();
        INFO("n = ", n, padded ? ", shared keys" : "");
        REQUIRE(o.size() == static_cast<std::size_t>(n) + 1);
        CHECK(notes.duplicate_keys == 4);
        for (const int d : {0, n / 2, n - 1})
          CHECK(o[static_cast<std::size_t>(d)].second.as_string() == "again " + std::to_string(d));
        CHECK(o[1 % static_cast<std::size_t>(n)].second.is_number() == (n > 2));
        CHECK(o.back().first == "end");
      }
    }
  }

  TEST_CASE("a document that owns its text keeps one copy of each repeated key, and frees the text") {
    std::string text = "[";
    for (int i = 0; i < 1000; ++i)
      text += std::string(i ? "," : "") + "{\"a_rather_long_key\": " + std::to_string(i) + "}";
    text += "]";
    const JsonDocument doc = parse_document(std::move(text), "t");
    CHECK(doc.root().size() == 1000);
    CHECK(doc.root()[999].find("a_rather_long_key").as_int64() == 999);
    // 3,001 nodes of 16 bytes (the root, 1,000 dicts, keys and values) and 3,000 child entries
    // of 4: what is left is the key, once, and not the 26 kB of text.
    CHECK(doc.bytes() <= 3001 * 16 + 3000 * 4 + 64);
  }
}
