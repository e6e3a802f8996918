// The word-at-a-time byte tests against a byte-at-a-time loop: every byte value, at every
// position, beside neighbours that could carry into it.
#include <doctest/doctest.h>

#include <initializer_list>

#include "base/byte_words.hpp"

using namespace zanj;
using namespace zanj::base;

namespace {
std::uint64_t marks_of(const char* bytes, bool (*test)(unsigned char)) {
  std::uint64_t m = 0;
  for (unsigned k = 0; k < 8; ++k)
    if (test(static_cast<unsigned char>(bytes[k]))) m |= 0x80ull << (8 * k);
  return m;
}
}  // namespace

TEST_CASE("byte words: equal, below and zero mark exactly the bytes a loop marks") {
  for (unsigned pos = 0; pos < 8; ++pos) {
    for (unsigned v = 0; v < 256; ++v) {
      for (const unsigned fill : {0x00, 0x01, 0x1F, 0x20, 0x22, 0x5C, 0x7F, 0x80, 0xFF}) {
        char bytes[8];
        for (char& b : bytes) b = static_cast<char>(fill);
        bytes[pos] = static_cast<char>(v);
        const std::uint64_t w = words::load(bytes);
        CHECK(words::bytes_equal(w, '"') == marks_of(bytes, [](unsigned char c) { return c == '"'; }));
        CHECK(words::bytes_equal(w, 0xFF) == marks_of(bytes, [](unsigned char c) { return c == 0xFF; }));
        CHECK(words::bytes_below(w, 0x20) == marks_of(bytes, [](unsigned char c) { return c < 0x20; }));
        CHECK(words::bytes_below(w, 0x80) == marks_of(bytes, [](unsigned char c) { return c < 0x80; }));
        CHECK(words::zero_bytes(w) == marks_of(bytes, [](unsigned char c) { return c == 0; }));
      }
    }
  }
}

TEST_CASE("byte words: the first marked byte and the count of marked bytes") {
  const char text[] = "ab\"cd\\e\"";
  const std::uint64_t w = words::load(text);
  const std::uint64_t quotes = words::bytes_equal(w, '"');
  CHECK(words::first_marked(quotes) == 2);
  CHECK(words::count_marked(quotes) == 2);
  CHECK(words::first_marked(words::bytes_equal(w, '\\')) == 5);
  CHECK(words::count_marked(words::kHighs) == 8);
  CHECK(words::count_marked(0) == 0);
}
