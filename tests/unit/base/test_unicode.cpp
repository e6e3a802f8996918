#include <doctest/doctest.h>

#include "base/unicode.hpp"

using namespace zanj;
using namespace zanj::base;

TEST_SUITE("unicode") {
  TEST_CASE("NFD decomposes precomposed characters and leaves decomposed ones") {
    const std::string nfc = "caf\xC3\xA9.npy", decomposed = "cafe\xCC\x81.npy";
    CHECK(nfd(nfc) == decomposed);
    CHECK(nfd(decomposed) == decomposed);
    CHECK(nfd("plain/ascii.npy") == "plain/ascii.npy");
    CHECK(nfd("\xC3\x85") == "A\xCC\x8A");              // Å
    CHECK(nfd("\xE2\x84\xAB") == "A\xCC\x8A");          // Ångström sign: a singleton decomposition
    CHECK(nfd("\xE1\xB9\xA9") == "s\xCC\xA3\xCC\x87");  // ṩ: fully expanded, recursively
  }

  TEST_CASE("NFD of Hangul syllables is algorithmic") {
    CHECK(nfd("\xEA\xB0\x80") == "\xE1\x84\x80\xE1\x85\xA1");              // 가 = ᄀ ᅡ
    CHECK(nfd("\xED\x9E\xA3") == "\xE1\x84\x92\xE1\x85\xB5\xE1\x87\x82");  // 힣, the last syllable
    CHECK(nfd("\xEA\xB0\x81") == "\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA8");  // 각 = ᄀ ᅡ ᆨ
  }

  TEST_CASE("combining marks are put in canonical order") {
    // a + acute (230) + dot below (220) -> a + dot below + acute
    CHECK(nfd("a\xCC\x81\xCC\xA3") == "a\xCC\xA3\xCC\x81");
    CHECK(nfd("a\xCC\xA3\xCC\x81") == "a\xCC\xA3\xCC\x81");
    // equal classes keep their order
    CHECK(nfd("a\xCC\x81\xCC\x80") == "a\xCC\x81\xCC\x80");
    // ordering also applies to marks produced by a decomposition: é + dot below
    CHECK(nfd("\xC3\xA9\xCC\xA3") == "e\xCC\xA3\xCC\x81");
  }

  TEST_CASE("text that is not UTF-8 is left as it is") {
    CHECK(nfd("caf\xE9") == "caf\xE9");
    CHECK(nfd("\xED\xA0\x80") == "\xED\xA0\x80");      // a surrogate
    CHECK_FALSE(decode_utf8("\xC0\xAF").has_value());  // overlong
    CHECK(decode_utf8("\xF0\x9F\x98\x80")->front() == 0x1F600);
  }

  TEST_CASE("code page 437, as Python decodes names without the UTF-8 flag") {
    CHECK(cp437_to_utf8("abc") == "abc");
    CHECK(cp437_to_utf8("caf\x82") == "caf\xC3\xA9");                      // 0x82 is é
    CHECK(cp437_to_utf8("caf\xC3\xA9") == "caf\xE2\x94\x9C\xE2\x8C\x90");  // UTF-8 bytes read as cp437: ├⌐
    CHECK(cp437_to_utf8("\xFF") == "\xC2\xA0");
  }
}
