#include <doctest/doctest.h>

#include "remote/bucket_listing.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"

TEST_CASE("an S3 ListObjectsV2 page: keys decoded, the token only when truncated") {
  const auto page = zanj::remote::parse_s3_listing(
      "<?xml version=\"1.0\"?><ListBucketResult><Name>b</Name><Prefix>r/</Prefix>"
      "<Contents><Key>r/a&amp;b.zanj</Key><Size>3</Size></Contents>"
      "<Contents><Key>r/&lt;x&gt;&#233;.zanj</Key></Contents>"
      "<IsTruncated>true</IsTruncated><NextContinuationToken>tok+/=</NextContinuationToken></ListBucketResult>");
  REQUIRE(page.names.size() == 2);
  CHECK(page.names[0] == "r/a&b.zanj");
  CHECK(page.names[1] == "r/<x>\xC3\xA9.zanj");
  CHECK(page.next == "tok+/=");
  const auto last = zanj::remote::parse_s3_listing(
      "<ListBucketResult><IsTruncated>false</IsTruncated><NextContinuationToken>t</NextContinuationToken>"
      "</ListBucketResult>");
  CHECK(last.names.empty());
  CHECK(last.next.empty());
}

TEST_CASE("an S3 key's character references: decimal and hex decoded, malformed ones kept as text") {
  const auto page = zanj::remote::parse_s3_listing(
      "<ListBucketResult><Contents><Key>a&#x41;&#9;b</Key></Contents>"
      "<Contents><Key>c&#1114112;&#xD800;&#zz;&#;&#12x;d</Key></Contents></ListBucketResult>");
  REQUIRE(page.names.size() == 2);
  CHECK(page.names[0] == "aA\tb");
  CHECK(page.names[1] == "c&#1114112;&#xD800;&#zz;&#;&#12x;d");  // past U+10FFFF, a surrogate, not digits
}

TEST_CASE("a GCS objects.list page: items' names and nextPageToken") {
  const auto page = zanj::remote::parse_gcs_listing(
      R"({"kind":"storage#objects","items":[{"name":"r/a.zanj"},{"name":"r/b.zanj"}],"nextPageToken":"2"})");
  REQUIRE(page.names.size() == 2);
  CHECK(page.names[1] == "r/b.zanj");
  CHECK(page.next == "2");
  CHECK(zanj::remote::parse_gcs_listing(R"({"kind":"storage#objects"})").names.empty());
  CHECK(zanj::test::exit_of([] { zanj::remote::parse_gcs_listing("not json"); }) == zanj::Exit::usage);
}
