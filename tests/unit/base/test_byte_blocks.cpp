// The 64-byte masks against a byte-at-a-time loop: the SSE2 block where the build has it and
// the word block everywhere, on random bytes and on every byte value at every position.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>

#include "base/byte_blocks.hpp"

using namespace zanj::base;

namespace {
std::uint64_t mask_by_loop(const char* bytes, std::string_view wanted) {
  std::uint64_t m = 0;
  for (unsigned k = 0; k < 64; ++k)
    if (wanted.find(bytes[k]) != std::string_view::npos) m |= std::uint64_t{1} << k;
  return m;
}

template <class B>
void check_block(const char* bytes) {
  const B block(bytes);
  CHECK(block.any_of('"') == mask_by_loop(bytes, "\""));
  CHECK(block.any_of('\\') == mask_by_loop(bytes, "\\"));
  CHECK(block.any_of(' ', '\t', '\n', '\r') == mask_by_loop(bytes, " \t\n\r"));
  CHECK(block.any_of('[', ']', '{', '}') == mask_by_loop(bytes, "[]{}"));
  CHECK(block.any_of('\xFF') == mask_by_loop(bytes, "\xFF"));
}
}  // namespace

TEST_CASE("byte blocks: each mask marks exactly the bytes a loop marks") {
  std::mt19937 random(20261202);
  // Bytes drawn mostly from those the masks look for, beside their neighbours in value.
  const char kAlphabet[] = "\"\\ \t\n\r[]{}!#ZZ\x7F\x80\xFF\x01\x00";
  const std::string alphabet(kAlphabet, sizeof kAlphabet - 1);  // the NUL written last included
  char bytes[64];
  for (int round = 0; round < 2000; ++round) {
    for (char& b : bytes) b = round % 3 == 0 ? static_cast<char>(random()) : alphabet[random() % alphabet.size()];
    check_block<blocks::Block>(bytes);
    check_block<blocks::WordBlock>(bytes);
  }
  for (unsigned pos = 0; pos < 64; ++pos) {
    for (unsigned v = 0; v < 256; ++v) {
      for (char& b : bytes) b = 'a';
      bytes[pos] = static_cast<char>(v);
      const std::uint64_t expected = v == '"' ? std::uint64_t{1} << pos : 0;
      CHECK(blocks::Block(bytes).any_of('"') == expected);
      CHECK(blocks::WordBlock(bytes).any_of('"') == expected);
    }
  }
}

TEST_CASE("byte blocks: prefix_xor marks the bytes from each odd mark to the next") {
  std::mt19937_64 random(7);
  for (int round = 0; round < 1000; ++round) {
    const std::uint64_t x = random() & random();  // sparse, as quotes are
    std::uint64_t expected = 0;
    bool odd = false;
    for (unsigned k = 0; k < 64; ++k) {
      odd ^= ((x >> k) & 1) != 0;
      if (odd) expected |= std::uint64_t{1} << k;
    }
    CHECK(blocks::prefix_xor(x) == expected);
  }
  // Quotes at 0, 3 and 5 (`"ab"c"d...`): the first string with its opening quote (0-2), not
  // the closing quote, and the string left open from 5 on.
  CHECK(blocks::prefix_xor(0b101001) == ((~std::uint64_t{0} << 5) | 0b111));
}

TEST_CASE("byte blocks: a block past the text's end reads zeros there") {
  const std::string text = "[\"a\", \"b\"]";
  const blocks::Block tail = blocks::block_at(text.data(), 1, text.size());
  // `"a", "b"]`: nine bytes, then zeros.
  CHECK(tail.any_of('"') == 0b10100101);
  CHECK(tail.any_of(']') == std::uint64_t{1} << 8);
  CHECK(tail.any_of('\0') == ~std::uint64_t{0} << 9);
  const std::string long_text(100, '"');
  CHECK(blocks::block_at(long_text.data(), 36, long_text.size()).any_of('"') == ~std::uint64_t{0});
  CHECK(blocks::block_at(long_text.data(), 37, long_text.size()).any_of('"') == (~std::uint64_t{0} >> 1));
}
