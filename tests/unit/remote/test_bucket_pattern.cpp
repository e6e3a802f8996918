#include <doctest/doctest.h>

#include "remote/bucket_listing.hpp"
#include "remote/bucket_pattern.hpp"
#include "test_support.hpp"
#include "zanj/many_archives.hpp"
#include "zanj/error.hpp"

using zanj::key_matches;

TEST_CASE("a key pattern is a name with * or ?") {
  CHECK(zanj::is_key_pattern("run-7/*/model.zanj"));
  CHECK(zanj::is_key_pattern("model-?.zanj"));
  CHECK_FALSE(zanj::is_key_pattern("run-7/model.zanj"));
  CHECK(zanj::pattern_literal_prefix("run-7/*/model.zanj") == "run-7/");
  CHECK(zanj::pattern_literal_prefix("a?b*") == "a");
  CHECK(zanj::pattern_literal_prefix("**") == "");
  CHECK(zanj::pattern_literal_prefix("plain") == "plain");
}

TEST_CASE("bucket patterns are s3:// and gs:// URLs whose object name holds * or ?") {
  CHECK(zanj::is_bucket_pattern("s3://bucket/run/*.zanj"));
  CHECK(zanj::is_bucket_pattern("GS://bucket/**"));
  CHECK_FALSE(zanj::is_bucket_pattern("s3://bucket/run/model.zanj"));
  CHECK_FALSE(zanj::is_bucket_pattern("https://host/a*.zanj?x=1"));  // a web URL is never listed
  CHECK_FALSE(zanj::is_bucket_pattern("local/*.zanj"));
  CHECK_FALSE(zanj::is_bucket_pattern("s3://bucket"));
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

TEST_CASE("an S3 ListObjectsV2 page: keys decoded, the token only when truncated") {
  const auto page = zanj::parse_s3_listing(
      "<?xml version=\"1.0\"?><ListBucketResult><Name>b</Name><Prefix>r/</Prefix>"
      "<Contents><Key>r/a&amp;b.zanj</Key><Size>3</Size></Contents>"
      "<Contents><Key>r/&lt;x&gt;&#233;.zanj</Key></Contents>"
      "<IsTruncated>true</IsTruncated><NextContinuationToken>tok+/=</NextContinuationToken></ListBucketResult>");
  REQUIRE(page.names.size() == 2);
  CHECK(page.names[0] == "r/a&b.zanj");
  CHECK(page.names[1] == "r/<x>\xC3\xA9.zanj");
  CHECK(page.next == "tok+/=");
  const auto last = zanj::parse_s3_listing(
      "<ListBucketResult><IsTruncated>false</IsTruncated><NextContinuationToken>t</NextContinuationToken>"
      "</ListBucketResult>");
  CHECK(last.names.empty());
  CHECK(last.next.empty());
}

TEST_CASE("a GCS objects.list page: items' names and nextPageToken") {
  const auto page = zanj::parse_gcs_listing(
      R"({"kind":"storage#objects","items":[{"name":"r/a.zanj"},{"name":"r/b.zanj"}],"nextPageToken":"2"})");
  REQUIRE(page.names.size() == 2);
  CHECK(page.names[1] == "r/b.zanj");
  CHECK(page.next == "2");
  CHECK(zanj::parse_gcs_listing(R"({"kind":"storage#objects"})").names.empty());
  CHECK(zanj::test::exit_of([] { zanj::parse_gcs_listing("not json"); }) == zanj::Exit::usage);
}
