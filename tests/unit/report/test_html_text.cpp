#include <doctest/doctest.h>

#include "report/html_text.hpp"

using namespace zanj::report;

TEST_SUITE("html_text") {
  TEST_CASE("markup characters become references") {
    CHECK(zanj::report::escape_html("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;");
    CHECK(zanj::report::escape_html("a\"b'c&d") == "a&quot;b&#39;c&amp;d");
  }
  TEST_CASE("UTF-8 kept; invalid bytes and controls replaced") {
    CHECK(zanj::report::escape_html("\xD7\xA9\xD7\x9C\xE2\x80\x8B") ==
          "\xD7\xA9\xD7\x9C\xE2\x80\x8B");  // Hebrew, zero-width space
    CHECK(zanj::report::escape_html("a\xFF"
                                    "b") ==
          "a\xEF\xBF\xBD"
          "b");
    CHECK(zanj::report::escape_html("\xC0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong NUL
    CHECK(zanj::report::escape_html(std::string("x\0y\x1b", 4)) == "x\xEF\xBF\xBDy\xEF\xBF\xBD");
    CHECK(zanj::report::escape_html("\xC2\x85") == "\xEF\xBF\xBD\xEF\xBF\xBD");  // C1 control NEL
  }
  TEST_CASE("sizes and numbers") {
    CHECK(zanj::report::byte_size_text(312) == "312 B");
    CHECK(zanj::report::byte_size_text(2048) == "2.0 KiB");
    CHECK(zanj::report::number_text6(std::nullopt) == "-");
    CHECK(zanj::report::number_text6(1.0 / 3) == "0.333333");
  }
}
