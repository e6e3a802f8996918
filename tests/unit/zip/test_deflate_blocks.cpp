#include <doctest/doctest.h>
#include <libdeflate.h>
#include <zlib.h>

#include <array>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "zanj/error.hpp"
#include "zip/deflate_blocks.hpp"

using namespace zanj;
using namespace zanj::zip;

namespace {

/// zlib's answer, the way unfinish_deflate_stream found it before the walker: inflate with
/// Z_BLOCK stops at each block's end. The last block's header bit and the bits left unused in
/// the last byte; nothing when zlib does not find exactly one complete stream.
std::optional<std::pair<std::uint64_t, unsigned>> zlib_block_ends(const std::string& stream) {
  z_stream zs{};
  REQUIRE(inflateInit2(&zs, -15) == Z_OK);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(stream.data()));
  zs.avail_in = static_cast<uInt>(stream.size());
  std::string discard(1 << 16, '\0');
  std::uint64_t last_header_bit = 0;
  unsigned unused_bits = 0;
  bool whole = false;
  for (;;) {
    zs.next_out = reinterpret_cast<Bytef*>(discard.data());
    zs.avail_out = static_cast<uInt>(discard.size());
    if (inflate(&zs, Z_BLOCK) != Z_OK) break;
    if (!(zs.data_type & 128)) continue;
    if (zs.data_type & 64) {
      unused_bits = static_cast<unsigned>(zs.data_type & 7);
      whole = zs.avail_in == 0;
      break;
    }
    last_header_bit = zs.total_in * 8 - (zs.data_type & 7);
  }
  inflateEnd(&zs);
  if (!whole) return std::nullopt;
  return std::make_pair(last_header_bit, unused_bits);
}

std::optional<std::pair<std::uint64_t, unsigned>> walker_block_ends(const std::string& stream) {
  try {
    const DeflateBlockEnds ends = find_deflate_block_ends(stream);
    CHECK(ends.last_header_bit < ends.end_bit);
    return std::make_pair(ends.last_header_bit, static_cast<unsigned>((8 - ends.end_bit % 8) % 8));
  } catch (const Error&) {  // context: the test compares refusals too
    return std::nullopt;
  }
}

/// The 2-bit type of the block whose header starts at `bit`.
unsigned block_type_at(const std::string& stream, std::uint64_t bit) {
  unsigned v = static_cast<unsigned char>(stream[bit / 8]);
  if (bit / 8 + 1 < stream.size()) v |= static_cast<unsigned>(static_cast<unsigned char>(stream[bit / 8 + 1])) << 8;
  return (v >> (bit % 8 + 1)) & 3;
}

std::string libdeflate_compress(const std::string& data, int level) {
  libdeflate_compressor* c = libdeflate_alloc_compressor(level);
  REQUIRE(c != nullptr);
  std::string out(libdeflate_deflate_compress_bound(c, data.size()), '\0');
  out.resize(libdeflate_deflate_compress(c, data.data(), data.size(), out.data(), out.size()));
  libdeflate_free_compressor(c);
  REQUIRE(!out.empty());
  return out;
}

/// zlib at `level` with `strategy`, a small memLevel (more, smaller blocks) and, with
/// `flush_every`, a full flush (an empty stored block) every so many bytes.
std::string zlib_compress(const std::string& data, int level, int strategy, int mem_level, std::size_t flush_every) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, level, Z_DEFLATED, -15, mem_level, strategy) == Z_OK);
  std::string out;
  std::size_t at = 0;
  int r = Z_OK;
  while (r != Z_STREAM_END) {
    const std::size_t take = flush_every ? std::min(flush_every, data.size() - at) : data.size() - at;
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + at));
    zs.avail_in = static_cast<uInt>(take);
    at += take;
    const int flush = at == data.size() ? Z_FINISH : Z_FULL_FLUSH;
    do {
      char buf[16384];
      zs.next_out = reinterpret_cast<Bytef*>(buf);
      zs.avail_out = sizeof buf;
      r = deflate(&zs, flush);
      REQUIRE(r != Z_STREAM_ERROR);
      out.append(buf, sizeof buf - zs.avail_out);
    } while (zs.avail_out == 0 || (flush == Z_FINISH && r != Z_STREAM_END));
  }
  deflateEnd(&zs);
  return out;
}

/// Data of one of several kinds: empty-ish, incompressible, highly repetitive, text-like,
/// float arrays, and mixtures of them (which makes compressors start new blocks).
std::string mixed_data(std::mt19937& rng, std::size_t max_size = 60000) {
  static const char* words[] = {"alpha", "beta", "{\"step\": ", "0.125", ", ", "\n", "[1, 2]", "gamma"};
  const std::size_t sizes[] = {0, 1, 2, 7, 100, 1000, 5000, 20000, 70000};
  std::string s;
  const int parts = 1 + static_cast<int>(rng() % 3);
  for (int part = 0; part < parts; ++part) {
    const std::size_t n = sizes[rng() % std::size(sizes)] + rng() % 97;
    switch (rng() % 6) {
      case 0:  // incompressible
        for (std::size_t i = 0; i < n; ++i) s += static_cast<char>(rng());
        break;
      case 1:  // one byte repeated
        s.append(n, static_cast<char>(rng()));
        break;
      case 2: {  // a short pattern repeated
        std::string pattern;
        for (std::size_t i = 0, k = 1 + rng() % 9; i < k; ++i) pattern += static_cast<char>(rng());
        while (s.size() < n) s += pattern;
        break;
      }
      case 3:  // text from a small vocabulary
        for (std::size_t i = 0; i < n;) {
          const std::string w = words[rng() % std::size(words)];
          s += w;
          i += w.size();
        }
        break;
      case 4:  // float32s with few significant bits, like bench/gen_npy.cpp's
        for (std::size_t i = 0; i < n / 4; ++i) {
          const float f = static_cast<float>(static_cast<int>(rng() % 65536) - 32768) / 8192.0f;
          s.append(reinterpret_cast<const char*>(&f), 4);
        }
        break;
      default:  // a few symbols with skewed frequencies: short and long codes
        for (std::size_t i = 0; i < n; ++i) {
          const auto r = static_cast<unsigned>(rng());
          s += static_cast<char>(r % 2 ? 'a' : r % 4 ? 'b' : static_cast<char>(r >> 8));
        }
        break;
    }
  }
  if (s.size() > max_size) s.resize(max_size);
  return s;
}

}  // namespace

TEST_SUITE("deflate_blocks") {
  TEST_CASE("finds what zlib finds, for libdeflate's and zlib's streams of all kinds of data") {
    std::mt19937 rng(2024);
    int compared = 0, ends_on_byte = 0, stored_last = 0;
    for (int round = 0; round < 1500; ++round) {
      const std::string data = mixed_data(rng);
      std::vector<std::string> streams;
      const int level = round % 10;
      streams.push_back(libdeflate_compress(data, level));  // what DeflateStream writes, levels 0-9
      if (round % 10 == 0) streams.push_back(libdeflate_compress(data, 10 + round / 10 % 3));  // slow levels
      static const int strategies[] = {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED};
      const std::size_t flush_every = rng() % 4 == 0 ? 1 + rng() % 20000 : 0;
      streams.push_back(
          zlib_compress(data, level, strategies[rng() % 5], 1 + static_cast<int>(rng() % 9), flush_every));
      for (const std::string& stream : streams) {
        const auto expected = zlib_block_ends(stream);
        REQUIRE(expected.has_value());
        const auto got = walker_block_ends(stream);
        REQUIRE(got.has_value());
        CHECK(got->first == expected->first);
        CHECK(got->second == expected->second);
        ++compared;
        if (got->second == 0) ++ends_on_byte;
        if (block_type_at(stream, got->first) == 0) ++stored_last;
      }
    }
    CHECK(compared == 3150);
    // The edges were met: final blocks ending on a byte boundary, and stored final blocks.
    CHECK(ends_on_byte > 100);
    CHECK(stored_last > 100);
  }

  TEST_CASE("Huffman-coded final blocks end at every bit position within their byte") {
    std::mt19937 rng(5);
    std::array<int, 8> unused{};
    for (int round = 0; round < 400; ++round) {
      std::string data;
      for (std::size_t i = 0, n = 1 + rng() % 3000; i < n; ++i) data += static_cast<char>('a' + rng() % 5);
      for (const std::string& stream : {libdeflate_compress(data, 6), zlib_compress(data, 6, Z_FIXED, 8, 0)}) {
        const auto expected = zlib_block_ends(stream);
        REQUIRE(expected.has_value());
        const auto got = walker_block_ends(stream);
        REQUIRE(got.has_value());
        CHECK(*got == *expected);
        ++unused[got->second];
      }
    }
    for (int n : unused) CHECK(n > 0);
  }

  TEST_CASE("refuses cut streams and bytes after the final block, as zlib does") {
    std::mt19937 rng(11);
    for (int round = 0; round < 60; ++round) {
      const std::string stream = libdeflate_compress(mixed_data(rng), round % 10);
      for (std::size_t n = 0; n < stream.size(); n += 1 + n / 16) {
        CHECK_FALSE(zlib_block_ends(stream.substr(0, n)).has_value());
        CHECK_FALSE(walker_block_ends(stream.substr(0, n)).has_value());
      }
      CHECK_FALSE(walker_block_ends(stream + '\0').has_value());
      CHECK_FALSE(walker_block_ends(stream + "junk").has_value());
    }
    CHECK_THROWS_AS(find_deflate_block_ends(""), Error);
    CHECK_THROWS_AS(find_deflate_block_ends("\x07"), Error);  // block type 3
  }

  TEST_CASE("damaged streams: never past the input, and zlib's answer whenever zlib accepts one") {
    // The walker decodes no data, so it cannot see a match reaching before the start: it may
    // accept what zlib refuses, never the other way round.
    std::mt19937 rng(3);
    int accepted = 0;
    for (int round = 0; round < 3000; ++round) {
      std::string stream = libdeflate_compress(mixed_data(rng, 4000), 1 + round % 9);
      for (int flips = 1 + static_cast<int>(rng() % 3); flips > 0; --flips)
        stream[rng() % stream.size()] ^= static_cast<char>(1u << (rng() % 8));
      const auto expected = zlib_block_ends(stream);
      const auto got = walker_block_ends(stream);
      if (expected) {
        ++accepted;
        REQUIRE(got.has_value());
        CHECK(*got == *expected);
      }
    }
    for (int round = 0; round < 2000; ++round) {  // noise
      std::string noise(rng() % 300, '\0');
      for (char& c : noise) c = static_cast<char>(rng());
      const auto expected = zlib_block_ends(noise);
      const auto got = walker_block_ends(noise);
      if (expected) {
        REQUIRE(got.has_value());
        CHECK(*got == *expected);
      }
    }
    CHECK(accepted > 0);
  }
}
