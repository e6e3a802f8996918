#include <doctest/doctest.h>

#include "zanj/archive.hpp"
#include "io/byte_source.hpp"
#include "zanj/error.hpp"
#include "source/input.hpp"
#include "zip/member_prefix.hpp"
#include "test_support.hpp"
#include "zip/archive_access.hpp"

using namespace zanj;
using namespace zanj::zip;
using test::open_corpus;

TEST_SUITE("member_prefix") {
  TEST_CASE("stored and deflated prefixes equal the start of the whole member") {
    for (const char* file : {"model.zanj", "stored.zanj", "dtypes.zanj"}) {
      const Archive a = open_corpus(file);
      for (const ZipEntry& e : a.entries()) {
        CAPTURE(file);
        CAPTURE(e.name);
        const std::string whole = a.read_all(e, 1 << 24);
        for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{12}, std::size_t{128},
                                    std::size_t{5000}, whole.size(), whole.size() + 10}) {
          const auto prefix = read_member_prefix(archive_source(a), e, n, a.name());
          REQUIRE(prefix.has_value());
          CHECK(*prefix == whole.substr(0, n));
          CHECK(a.read_prefix(e, n) == whole.substr(0, n));
        }
      }
    }
  }

  TEST_CASE("a method the local header does not share, and encrypted members, are refused") {
    const Archive a = open_corpus("model.zanj");
    ZipEntry bzip2 = a.entries().front();
    bzip2.method = 12;
    CHECK_THROWS_WITH_AS(read_member_prefix(archive_source(a), bzip2, 10, a.name()),
                         doctest::Contains("disagree (method)"), Error);
    ZipEntry encrypted = a.entries().front();
    encrypted.flags |= 1;
    CHECK_THROWS_AS(read_member_prefix(archive_source(a), encrypted, 10, a.name()), MemberDataError);
  }

  TEST_CASE("a corrupt deflate stream is an undecodable member") {
    const Archive a = open_corpus("model.zanj");
    const ZipEntry* deflated = nullptr;
    for (const ZipEntry& e : a.entries())
      if (e.method == 8 && e.uncompressed_size > 100) deflated = &e;
    REQUIRE(deflated);
    const LocalHeader local = read_local_header(archive_source(a), *deflated);
    std::string bytes(archive_source(a).size(), '\0');
    archive_source(a).read_at(0, bytes.data(), bytes.size());
    bytes[local.data_offset] = static_cast<char>(0xFF);  // block type 3: reserved, invalid
    const io::MemorySource broken(std::move(bytes));
    try {
      read_member_prefix(broken, *deflated, 64, "broken.zanj");
      FAIL("no error");
    } catch (const MemberDataError& e) {
      CHECK(e.kind() == MemberDataError::Kind::undecodable);
      CHECK(std::string(e.what()).find("broken.zanj: member '" + deflated->name + "' cannot be decoded") == 0);
    }
  }

  TEST_CASE("a local header past the end of the file is an Error naming the member") {
    const Archive a = open_corpus("stored.zanj");
    ZipEntry moved = a.entries().back();
    moved.local_header_offset = archive_source(a).size() - 4;
    CHECK_THROWS_AS(read_member_prefix(archive_source(a), moved, 10, a.name()), Error);
  }
}
