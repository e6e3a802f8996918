#include <doctest/doctest.h>

#include "zip/member_name.hpp"

using namespace zanj;
using namespace zanj::zip;

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

  TEST_CASE("printable names escape control bytes") {
    CHECK(printable_name("a\nb") == "a\\x0Ab");
    CHECK(printable_name("ok/é") == "ok/é");
    CHECK(printable_name("\xff") == "\\xFF");
  }
}
