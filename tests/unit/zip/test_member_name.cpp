#include <doctest/doctest.h>

#include "zip/member_name.hpp"

using namespace zanj;

TEST_SUITE("member_name") {
  TEST_CASE("ordinary ZANJ names are fine") {
    for (const char* ok : {"__zanj__.json", "big_array.npy", "nested/deeper/matrix.npy", "state_dict/net.0.weight.npy",
                           "zanj_cfg/serialization_handlers/.serialize override/serialize_func/code.jsonl", "ünï.npy",
                           "a..b.npy", "...npy"})
      CHECK_MESSAGE(!member_name_problem(ok), ok);
  }

  TEST_CASE("hostile names are refused with a reason") {
    CHECK(*member_name_problem("") == "empty name");
    CHECK(*member_name_problem("/tmp/zanj_absolute_escape") == "absolute path");
    CHECK(*member_name_problem("../../escape.npy") == "name contains a '..' segment");
    CHECK(*member_name_problem("a/../../b") == "name contains a '..' segment");
    CHECK(*member_name_problem("a/..") == "name contains a '..' segment");
    CHECK(*member_name_problem("a\\b") == "name contains a backslash");
    CHECK(*member_name_problem("C:evil") == "name starts with a drive letter");
    CHECK(*member_name_problem(std::string("a\0b", 3)) == "name contains a NUL or control character");
    CHECK(*member_name_problem("a\nb") == "name contains a NUL or control character");
    CHECK(*member_name_problem("\xff.npy") == "name is not valid UTF-8");
    CHECK(*member_name_problem("a//b") == "name contains an empty segment ('//')");
    CHECK(*member_name_problem("./a") == "name contains a '.' segment");
  }

  TEST_CASE("UTF-8 validation") {
    CHECK(is_valid_utf8("plain"));
    CHECK(is_valid_utf8("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));
    CHECK_FALSE(is_valid_utf8("\xc0\xaf"));          // overlong '/'
    CHECK_FALSE(is_valid_utf8("\xed\xa0\x80"));      // surrogate
    CHECK_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // beyond U+10FFFF
    CHECK_FALSE(is_valid_utf8("\xe2\x82"));          // truncated
  }

  TEST_CASE("printable names escape control bytes") {
    CHECK(printable_name("a\nb") == "a\\x0Ab");
    CHECK(printable_name("ok/é") == "ok/é");
    CHECK(printable_name("\xff") == "\\xFF");
  }

  TEST_CASE("terminal_safe escapes controls, C1, surrogates and invalid bytes one sequence at a time") {
    CHECK(terminal_safe("a\x1b]0;title\x07" "b") == "a\\x1B]0;title\\x07b");
    CHECK(terminal_safe("\r\t\x7f") == "\\x0D\\x09\\x7F");
    CHECK(terminal_safe("\xc2\x9b" "2J") == "\\xC2\\x9B2J");  // U+009B, the C1 CSI
    CHECK(terminal_safe("\x9b") == "\\x9B");                      // a lone C1 byte
    CHECK(terminal_safe("caf\xc3\xa9\xff") == "caf\xc3\xa9\\xFF");  // valid text stays beside a bad byte
    CHECK(terminal_safe("\xed\xa0\x80") == "\\xED\\xA0\\x80");  // WTF-8 lone surrogate
    CHECK(terminal_safe("\xe2\x82") == "\\xE2\\x82");          // truncated
    const std::string once = terminal_safe("\x1b\xff\xc2\x85");
    CHECK(terminal_safe(once) == once);
    CHECK(is_valid_utf8(once));
  }
}
