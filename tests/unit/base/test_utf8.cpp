#include <doctest/doctest.h>

#include "base/utf8.hpp"

using namespace zanj;
using namespace zanj::base;

TEST_SUITE("utf8") {
  TEST_CASE("UTF-8 validation") {
    CHECK(is_valid_utf8("plain"));
    CHECK(is_valid_utf8("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));
    CHECK_FALSE(is_valid_utf8("\xc0\xaf"));          // overlong '/'
    CHECK_FALSE(is_valid_utf8("\xed\xa0\x80"));      // surrogate
    CHECK_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // beyond U+10FFFF
    CHECK_FALSE(is_valid_utf8("\xe2\x82"));          // truncated
  }

  TEST_CASE("terminal_safe escapes controls, C1, surrogates and invalid bytes one sequence at a time") {
    CHECK(terminal_safe("a\x1b]0;title\x07"
                        "b") == "a\\x1B]0;title\\x07b");
    CHECK(terminal_safe("\r\t\x7f") == "\\x0D\\x09\\x7F");
    CHECK(terminal_safe("\xc2\x9b"
                        "2J") == "\\xC2\\x9B2J");                   // U+009B, the C1 CSI
    CHECK(terminal_safe("\x9b") == "\\x9B");                        // a lone C1 byte
    CHECK(terminal_safe("caf\xc3\xa9\xff") == "caf\xc3\xa9\\xFF");  // valid text stays beside a bad byte
    CHECK(terminal_safe("\xed\xa0\x80") == "\\xED\\xA0\\x80");      // WTF-8 lone surrogate
    CHECK(terminal_safe("\xe2\x82") == "\\xE2\\x82");               // truncated
    const std::string once = terminal_safe("\x1b\xff\xc2\x85");
    CHECK(terminal_safe(once) == once);
    CHECK(is_valid_utf8(once));
  }
}
