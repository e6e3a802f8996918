#include <doctest/doctest.h>

#include <random>

#include "codec_fixture.hpp"
#include "zanj/archive.hpp"
#include "zip/member_decoder.hpp"
#include "zip/archive_access.hpp"

using namespace zanj;
using namespace zanj::zip;
using namespace zanj::test;

namespace {

constexpr std::uint16_t kMethods[] = {0, 8, 12, 14, 93, 95};

std::string mixed_bytes(std::size_t n) {
  std::string out;
  std::mt19937 rng(7);
  for (std::size_t i = 0; i < n; ++i) out += static_cast<char>(i % 97 < 60 ? 'a' + i % 13 : rng() % 256);
  return out;
}

Archive open_bytes(std::string bytes, const ResourceLimits& limits = {}) {
  return open_archive(std::make_unique<io::MemorySource>(std::move(bytes)), "t.zip", limits);
}

std::string read_chunked(const Archive& a, const ZipEntry& e, std::size_t* chunks = nullptr) {
  std::string out;
  a.read(e, [&](std::string_view c) {
    out.append(c);
    if (chunks) ++*chunks;
    return true;
  });
  return out;
}

MemberDataError::Kind kind_of(const Archive& a, const ZipEntry& e) {
  try {
    read_chunked(a, e);
  } catch (const MemberDataError& err) {
    return err.kind();
  }
  FAIL("no MemberDataError");
  return MemberDataError::Kind::undecodable;
}

}  // namespace

TEST_SUITE("member_decoder") {
  TEST_CASE("every method decodes, whole, in chunks, and as a prefix") {
    const std::string data = mixed_bytes(700'000);
    for (const std::uint16_t method : kMethods) {
      CAPTURE(method);
      const Archive a = open_bytes(raw_zip({raw_member("m.bin", method, data)}));
      const ZipEntry& e = a.entries().front();
      std::size_t chunks = 0;
      CHECK(read_chunked(a, e, &chunks) == data);
      CHECK(chunks > 1);  // streamed, not one buffer
      CHECK(a.read_prefix(e, 100) == data.substr(0, 100));
      CHECK(a.read_prefix(e, data.size() + 5) == data);
      CHECK(a.read_all(e, data.size()) == data);
    }
  }

  TEST_CASE("empty members") {
    for (const std::uint16_t method : kMethods) {
      CAPTURE(method);
      const Archive a = open_bytes(raw_zip({raw_member("e", method, "")}));
      CHECK(read_chunked(a, a.entries().front()).empty());
    }
  }

  TEST_CASE("truncated streams are too short or undecodable, never accepted") {
    const std::string data = mixed_bytes(200'000);
    for (const std::uint16_t method : kMethods) {
      CAPTURE(method);
      RawMember m = raw_member("m", method, data);
      m.compressed.resize(m.compressed.size() / 2);
      const Archive a = open_bytes(raw_zip({m}));
      const auto kind = kind_of(a, a.entries().front());
      CHECK((kind == MemberDataError::Kind::too_short || kind == MemberDataError::Kind::undecodable));
    }
  }

  TEST_CASE("corrupt streams are undecodable or fail their CRC-32") {
    const std::string data = mixed_bytes(50'000);
    for (const std::uint16_t method : kMethods) {
      if (method == 0) continue;  // stored bytes cannot be corrupt, only wrong (CRC-32 below)
      CAPTURE(method);
      RawMember m = raw_member("m", method, data);
      for (std::size_t i = m.compressed.size() / 3; i < m.compressed.size() / 3 + 40; ++i) m.compressed[i] ^= 0x5A;
      const Archive a = open_bytes(raw_zip({m}));
      CHECK_THROWS_AS(read_chunked(a, a.entries().front()), MemberDataError);
    }
  }

  TEST_CASE("size and CRC-32 lies") {
    const std::string data = mixed_bytes(30'000);
    for (const std::uint16_t method : kMethods) {
      CAPTURE(method);
      RawMember longer = raw_member("m", method, data), shorter = longer, crc = longer;
      longer.uncompressed_size = data.size() - 1000;  // inflates past it
      shorter.uncompressed_size = data.size() + 1;
      crc.crc ^= 1;
      CHECK(kind_of(open_bytes(raw_zip({longer})), open_bytes(raw_zip({longer})).entries().front()) ==
            MemberDataError::Kind::too_long);
      const Archive s = open_bytes(raw_zip({shorter}));
      CHECK(kind_of(s, s.entries().front()) == MemberDataError::Kind::too_short);
      const Archive c = open_bytes(raw_zip({crc}));
      CHECK(kind_of(c, c.entries().front()) == MemberDataError::Kind::crc_mismatch);
    }
  }

  TEST_CASE("ratio: declared sizes over a ratio limit the caller set are refused before decoding") {
    RawMember m = raw_member("m", 14, "tiny");
    m.uncompressed_size = std::uint64_t{3} << 30;  // 3 GiB from a few bytes
    Archive a = open_bytes(raw_zip({m}));
    a.set_max_ratio(10'000);
    CHECK_THROWS_WITH_AS(read_chunked(a, a.entries().front()), doctest::Contains("ratio limit"), MemberDataError);
    CHECK_THROWS_WITH_AS(a.read_all(a.entries().front(), std::uint64_t{4} << 30), doctest::Contains("ratio limit"),
                         MemberDataError);
    CHECK(declares_excess_ratio(a.entries().front(), 10'000));
    ZipEntry deflate = a.entries().front();
    deflate.method = 8;
    deflate.compressed_size = 1000;
    deflate.uncompressed_size = 1000 * 1032;
    CHECK_FALSE(declares_excess_ratio(deflate, 10'000));
    deflate.uncompressed_size = 1000 * 1034 + 2000;
    CHECK(declares_excess_ratio(deflate, 1'000'000));  // deflate's physical bound holds whatever the limit
  }

  TEST_CASE("ratio: no refusal by default; the declared size and --max-member-bytes bound the work") {
    RawMember m = raw_member("m", 14, "tiny");
    m.uncompressed_size = std::uint64_t{3} << 30;  // 3 GiB from a few bytes: a lie the data shows
    const Archive liar = open_bytes(raw_zip({m}));
    CHECK_THROWS_WITH_AS(read_chunked(liar, liar.entries().front()), doctest::Contains("truncated"), MemberDataError);
    try {
      read_chunked(liar, liar.entries().front());
      FAIL("no error");
    } catch (const MemberDataError& e) {  // the member is a field; the message names it once
      CHECK(e.member() == "m");
      CHECK(e.reason().rfind("member 'm' is truncated: ", 0) == 0);
    }
    ResourceLimits limits;
    limits.max_member_bytes = std::uint64_t{1} << 30;
    const Archive capped = open_bytes(raw_zip({m}), limits);
    CHECK_THROWS_WITH_AS(read_chunked(capped, capped.entries().front()), doctest::Contains("--max-member-bytes"),
                         Error);
  }

  TEST_CASE("ratio: output running ahead of the input consumed is stopped") {
    const std::string zeros(40 << 20, '\0');
    const RawMember m = raw_member("z", 12, zeros);  // bzip2 of zeros: far past 10,000:1
    const Archive a = open_bytes(raw_zip({m}));
    CHECK(declares_excess_ratio(a.entries().front(), 10'000));
    CHECK(read_chunked(a, a.entries().front()).size() == zeros.size());  // true, so read by default
    // Padding after the stream makes the declared ratio modest (under 20:1), but the stream
    // itself front-loads: decoding stops soon after the output outruns 20 x the input used.
    RawMember padded = m;
    padded.compressed += std::string(3 << 20, 'p');
    Archive front_loaded = open_bytes(raw_zip({padded}));
    front_loaded.set_max_ratio(20);
    CHECK_FALSE(declares_excess_ratio(front_loaded.entries().front(), 20));
    std::uint64_t seen = 0;
    CHECK_THROWS_WITH_AS(front_loaded.read(front_loaded.entries().front(),
                                           [&](std::string_view c) {
                                             seen += c.size();
                                             return true;
                                           }),
                         doctest::Contains("while decoding (ratio limit, --max-ratio)"), MemberDataError);
    CHECK(seen <= (2u << 20));
  }

  TEST_CASE("the local header must describe the central entry") {
    RawMember a = raw_member("a.npy", 0, "AAAA"), b = raw_member("b.npy", 0, "BBBB");
    b.local_name = "a.npy";
    const Archive z = open_bytes(raw_zip({a, b}));
    CHECK(read_chunked(z, *z.find("a.npy")) == "AAAA");
    CHECK_THROWS_WITH_AS(read_chunked(z, *z.find("b.npy")), doctest::Contains("disagree (name)"), Error);
    CHECK_THROWS_AS(z.read_prefix(*z.find("b.npy"), 4), Error);
    try {
      read_chunked(z, *z.find("b.npy"));
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.member() == "b.npy");  // a field, not only text
      CHECK(e.detail().rfind("central directory and local header disagree (name", 0) == 0);
      CHECK(e.reason() == "member 'b.npy': " + e.detail());
    }
  }

  TEST_CASE("unsupported methods and encryption are undecodable") {
    RawMember m = raw_member("m", 0, "data");
    m.method = 9;  // deflate64
    const Archive a = open_bytes(raw_zip({m}));
    CHECK(kind_of(a, a.entries().front()) == MemberDataError::Kind::undecodable);
    CHECK_FALSE(method_decodable(9));
    RawMember enc = raw_member("m", 0, "data");
    enc.flags = 1;
    const Archive b = open_bytes(raw_zip({enc}));
    CHECK(kind_of(b, b.entries().front()) == MemberDataError::Kind::undecodable);
  }

  TEST_CASE("an LZMA header with odd property sizes is undecodable") {
    RawMember m = raw_member("m", 14, mixed_bytes(1000));
    m.compressed[2] = 7;
    const Archive a = open_bytes(raw_zip({m}));
    CHECK(kind_of(a, a.entries().front()) == MemberDataError::Kind::undecodable);
  }
}
