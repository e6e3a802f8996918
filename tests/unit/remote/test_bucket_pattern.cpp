#include <doctest/doctest.h>

#include "remote/bucket_pattern.hpp"

using zanj::remote::key_matches;

TEST_CASE("a key pattern is a name with * or ?") {
  CHECK(zanj::remote::is_key_pattern("run-7/*/model.zanj"));
  CHECK(zanj::remote::is_key_pattern("model-?.zanj"));
  CHECK_FALSE(zanj::remote::is_key_pattern("run-7/model.zanj"));
  CHECK(zanj::remote::pattern_literal_prefix("run-7/*/model.zanj") == "run-7/");
  CHECK(zanj::remote::pattern_literal_prefix("a?b*") == "a");
  CHECK(zanj::remote::pattern_literal_prefix("**") == "");
  CHECK(zanj::remote::pattern_literal_prefix("plain") == "plain");
}

TEST_CASE("* and ? stay within one folder") {
  CHECK(key_matches("run/*.zanj", "run/a.zanj"));
  CHECK(key_matches("run/*.zanj", "run/.zanj"));
  CHECK_FALSE(key_matches("run/*.zanj", "run/x/a.zanj"));
  CHECK_FALSE(key_matches("run/*.zanj", "run/a.zanjx"));
  CHECK(key_matches("run-?/m.zanj", "run-7/m.zanj"));
  CHECK_FALSE(key_matches("run-?/m.zanj", "run-17/m.zanj"));
  CHECK_FALSE(key_matches("a?b", "a/b"));
  CHECK(key_matches("*/*/m.zanj", "x/y/m.zanj"));
  CHECK_FALSE(key_matches("*/m.zanj", "x/y/m.zanj"));
  CHECK(key_matches("*", "anything"));
  CHECK_FALSE(key_matches("*", "a/b"));
  CHECK(key_matches("a*b*c", "aXbYbZc"));
  CHECK_FALSE(key_matches("a*b*c", "aXbYbZ"));
}

TEST_CASE("** crosses folders, and **/ may stand for none") {
  CHECK(key_matches("**", "a/b/c.zanj"));
  CHECK(key_matches("run/**.zanj", "run/x/y/m.zanj"));
  CHECK(key_matches("run/**/m.zanj", "run/x/y/m.zanj"));
  CHECK(key_matches("run/**/m.zanj", "run/x/m.zanj"));
  CHECK(key_matches("run/**/m.zanj", "run/m.zanj"));
  CHECK_FALSE(key_matches("run/**/m.zanj", "run/xm.zanj"));
  CHECK_FALSE(key_matches("run/**/m.zanj", "other/m.zanj"));
  CHECK(key_matches("**/m.zanj", "m.zanj"));
  CHECK(key_matches("**/m.zanj", "a/b/m.zanj"));
}

TEST_CASE("literal characters match themselves, byte for byte") {
  CHECK(key_matches("a[1].zanj", "a[1].zanj"));
  CHECK_FALSE(key_matches("A.zanj", "a.zanj"));
  CHECK(key_matches("", ""));
  CHECK_FALSE(key_matches("", "a"));
  CHECK(key_matches("caf\xC3\xA9/*", "caf\xC3\xA9/x"));
}

TEST_CASE("a long pattern against a long name takes no exponential time") {
  const std::string name(1024, 'a');
  CHECK_FALSE(key_matches("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", name));
  CHECK(key_matches("**a**a**a**a", name));
}
