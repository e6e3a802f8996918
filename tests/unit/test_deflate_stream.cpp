#include <doctest/doctest.h>
#include <zlib.h>

#include <random>

#include "zanj/deflate_stream.hpp"
#include "zanj/error.hpp"

using namespace zanj;

namespace {

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
  CHECK(zs.avail_in == 0);  // nothing after the final block
  inflateEnd(&zs);
  return out;
}

/// What Python's zipfile produces: one raw stream, level `level`, default memLevel.
std::string zlib_one_shot(const std::string& data, int level) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK);
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

std::string compress(const std::string& data, int level, DeflatePool* pool, std::size_t piece = 70000) {
  std::string out;
  DeflateStream ds(level, pool, [&](std::string_view c) { out.append(c); });
  for (std::size_t at = 0; at < data.size(); at += piece) ds.write(std::string_view(data).substr(at, piece));
  ds.finish();
  return out;
}

}  // namespace

TEST_SUITE("deflate_stream") {
  TEST_CASE("without a pool the bytes are those of one zlib stream") {
    const std::string data = sample(300000);
    for (int level : {1, 6, 9}) CHECK(compress(data, level, nullptr) == zlib_one_shot(data, level));
    // Level 0 cuts stored blocks where the input chunks end: same data, other framing.
    CHECK(inflate_raw(compress(data, 0, nullptr)) == data);
  }

  TEST_CASE("with a pool, a member under one block is still one zlib stream") {
    DeflatePool pool(2);
    const std::string data = sample(DeflateStream::kBlockSize - 1);
    CHECK(compress(data, 6, &pool) == zlib_one_shot(data, 6));
  }

  TEST_CASE("blocks compressed in parallel form one valid stream") {
    DeflatePool pool(2);
    for (std::size_t n : {DeflateStream::kBlockSize, DeflateStream::kBlockSize * 5 + 12345}) {
      const std::string data = sample(n, static_cast<unsigned>(n));
      const std::string out = compress(data, 6, &pool, 100003);
      CHECK(inflate_raw(out) == data);
      // The preset dictionaries keep the ratio close to a single stream's.
      CHECK(out.size() < zlib_one_shot(data, 6).size() * 102 / 100 + 64);
    }
  }

  TEST_CASE("random (incompressible) data and level 0 round trip in parallel") {
    DeflatePool pool(3);
    std::mt19937 rng(1);
    std::string data(DeflateStream::kBlockSize * 3 + 17, '\0');
    for (char& c : data) c = static_cast<char>(rng());
    CHECK(inflate_raw(compress(data, 6, &pool)) == data);
    CHECK(inflate_raw(compress(data, 0, &pool)) == data);
  }

  TEST_CASE("empty input is a valid empty stream") {
    DeflatePool pool(2);
    CHECK(inflate_raw(compress("", 6, &pool)).empty());
    CHECK(inflate_raw(compress("", 6, nullptr)).empty());
  }

  TEST_CASE("levels outside 0-9 are refused") {
    CHECK_THROWS_AS(DeflateStream(10, nullptr, [](std::string_view) {}), Error);
    CHECK_THROWS_AS(DeflateStream(-1, nullptr, [](std::string_view) {}), Error);
  }

  TEST_CASE("an exception from the sink propagates and leaves no work running") {
    DeflatePool pool(2);
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

  TEST_CASE("available_cpus is at least one") { CHECK(available_cpus() >= 1); }
}
