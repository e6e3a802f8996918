// The libcrypto digests: known answers (FIPS 180 "abc"), restart after finish, and a refused name.
#include <doctest/doctest.h>

#include "hash/digest.hpp"
#include "zanj/error.hpp"

using namespace zanj;
using namespace zanj::hash;

TEST_SUITE("hash digest") {
  TEST_CASE("SHA-256 of \"abc\" in pieces, then the same object starts over") {
    Digest d("sha256");
    CHECK(d.size() == 32);
    d.update("a");
    d.update("bc");
    CHECK(hex_text(d.finish()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(hex_text(d.finish()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  }

  TEST_CASE("every offered algorithm works; others are usage errors") {
    for (const auto& name : digest_algorithms()) CHECK(!Digest(name).finish().empty());
    CHECK(digest_algorithms().front() == "sha256");
    try {
      Digest("md5");
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.exit() == Exit::usage);
      CHECK(std::string(e.what()).find("sha256") != std::string::npos);
    }
  }

  TEST_CASE("hex_text writes two lowercase digits per byte") {
    CHECK(hex_text(std::string("\x00\xff\x1a", 3)) == "00ff1a");
  }
}
