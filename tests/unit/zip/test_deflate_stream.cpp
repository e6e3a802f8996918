#include <doctest/doctest.h>
#include <zlib.h>

#include <random>

#include "zip/deflate_stream.hpp"
#include "zanj/error.hpp"

using namespace zanj;
using namespace zanj::zip;

namespace {

/// Inflate a raw deflate stream; checks that it is complete and that nothing follows it.
std::string inflate_raw(const std::string& compressed) {
  z_stream zs{};
  REQUIRE(inflateInit2(&zs, -15) == Z_OK);
  std::string out;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  zs.avail_in = static_cast<uInt>(compressed.size());
  int r = Z_OK;
  while (r == Z_OK) {
    char buf[65536];
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    r = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
  }
  CHECK(r == Z_STREAM_END);
  CHECK(zs.avail_in == 0);
  inflateEnd(&zs);
  return out;
}

/// A raw stream from zlib, whose last block may end at any bit position.
std::string zlib_deflate(const std::string& data, int level, int strategy = Z_DEFAULT_STRATEGY) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, level, Z_DEFLATED, -15, 8, strategy) == Z_OK);
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(out.size() - zs.avail_out);
  deflateEnd(&zs);
  return out;
}

/// Compressible but not trivial: words from a small vocabulary, with random numbers.
std::string sample(std::size_t n, unsigned seed = 7) {
  std::mt19937 rng(seed);
  static const char* words[] = {"alpha ", "beta ", "gamma ", "delta ", "0.125 ", "[1, 2] "};
  std::string s;
  while (s.size() < n) {
    s += words[rng() % 6];
    if (rng() % 4 == 0) s += std::to_string(rng() % 100000);
  }
  s.resize(n);
  return s;
}

std::string compress(const std::string& data, int level, base::ThreadPool* pool, std::size_t piece = 70000) {
  std::string out;
  DeflateStream ds(level, pool, [&](std::string_view c) { out.append(c); });
  for (std::size_t at = 0; at < data.size(); at += piece) ds.write(std::string_view(data).substr(at, piece));
  ds.finish();
  return out;
}

}  // namespace

TEST_SUITE("deflate_stream") {
  TEST_CASE("unfinish_deflate_stream makes streams that can be continued, whatever their last bit") {
    // Many lengths, so the last block ends at every bit position; a final stream follows.
    for (std::size_t n = 0; n < 40; ++n) {
      for (int strategy : {Z_DEFAULT_STRATEGY, Z_HUFFMAN_ONLY, Z_FIXED}) {
        const std::string a = sample(n * 37 + 1, static_cast<unsigned>(n)), b = sample(500, 99);
        std::string first = zlib_deflate(a, 6, strategy);
        unfinish_deflate_stream(first);
        CHECK(inflate_raw(first + zlib_deflate(b, 6)) == a + b);
      }
    }
    std::string stored = zlib_deflate("stored block", 0);
    unfinish_deflate_stream(stored);
    CHECK(inflate_raw(stored + zlib_deflate("", 6)) == "stored block");
  }

  TEST_CASE("unfinish_deflate_stream refuses what is not one complete stream") {
    std::string cut = zlib_deflate(sample(5000), 6);
    cut.resize(cut.size() / 2);
    CHECK_THROWS_AS(unfinish_deflate_stream(cut), Error);
    std::string trailing = zlib_deflate("x", 6) + "junk";
    CHECK_THROWS_AS(unfinish_deflate_stream(trailing), Error);
  }

  TEST_CASE("every size round-trips, with and without a pool, at every level") {
    base::ThreadPool pool(2);
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, DeflateStream::kBlockSize,
                          DeflateStream::kBlockSize + 1, DeflateStream::kBlockSize * 3 + 12345}) {
      const std::string data = sample(n, static_cast<unsigned>(n));
      for (int level : {0, 1, 6, 9}) {
        CHECK(inflate_raw(compress(data, level, nullptr)) == data);
        CHECK(inflate_raw(compress(data, level, &pool, 100003)) == data);
      }
    }
  }

  TEST_CASE("the result does not depend on threads or on how the input is cut") {
    base::ThreadPool pool(3);
    const std::string data = sample(DeflateStream::kBlockSize * 4 + 777);
    const std::string one = compress(data, 6, nullptr, 1 << 20);
    CHECK(compress(data, 6, &pool, 4099) == one);
    CHECK(compress(data, 6, nullptr, 123457) == one);
  }

  TEST_CASE("compresses as well as zlib at the same level") {
    const std::string data = sample(DeflateStream::kBlockSize * 2);
    CHECK(compress(data, 6, nullptr).size() <= zlib_deflate(data, 6).size() * 105 / 100);
  }

  TEST_CASE("random (incompressible) data round-trips in parallel") {
    base::ThreadPool pool(2);
    std::mt19937 rng(1);
    std::string data(DeflateStream::kBlockSize * 3 + 17, '\0');
    for (char& c : data) c = static_cast<char>(rng());
    CHECK(inflate_raw(compress(data, 6, &pool)) == data);
  }

  TEST_CASE("levels outside 0-9 are refused") {
    CHECK_THROWS_AS(DeflateStream(10, nullptr, [](std::string_view) {}), Error);
    CHECK_THROWS_AS(DeflateStream(-1, nullptr, [](std::string_view) {}), Error);
  }

  TEST_CASE("an exception from the sink propagates and leaves no work running") {
    base::ThreadPool pool(2);
    const std::string data = sample(DeflateStream::kBlockSize * 6);
    bool threw = false;
    try {
      DeflateStream ds(6, &pool, [](std::string_view) { throw Error("disk full"); });
      ds.write(data);
      ds.finish();
    } catch (const Error& e) {
      threw = std::string(e.what()) == "disk full";
    }
    CHECK(threw);
  }

  TEST_CASE("available_cpus is at least one") { CHECK(base::available_cpus() >= 1); }
}
