#include <doctest/doctest.h>

#include "remote/url.hpp"
#include "test_support.hpp"
#include "zanj/archive.hpp"
#include "zanj/error.hpp"

using zanj::Exit;
using zanj::remote::parse_remote_url;
using zanj::remote::RemoteUrl;
using zanj::test::exit_of;

TEST_CASE("URLs are told from file names by their scheme, in any case") {
  CHECK(zanj::is_remote_url("http://h/a.zanj"));
  CHECK(zanj::is_remote_url("HTTPS://h/a.zanj"));
  CHECK(zanj::is_remote_url("s3://bucket/key"));
  CHECK_FALSE(zanj::is_remote_url("http.zanj"));
  CHECK_FALSE(zanj::is_remote_url("ftp://h/a.zanj"));
  CHECK_FALSE(zanj::is_remote_url("http://"));
  CHECK_FALSE(parse_remote_url("model.zanj").has_value());
}

TEST_CASE("user:password never reaches the display name") {
  const auto url = parse_remote_url("https://alice:s3cret@example.org:8443/x/a.zanj?v=1");
  REQUIRE(url);
  CHECK(url->scheme == RemoteUrl::Scheme::https);
  CHECK(url->text == "https://alice:s3cret@example.org:8443/x/a.zanj?v=1");
  CHECK(url->display == "https://example.org:8443/x/a.zanj?v=\xE2\x80\xA6");
  CHECK(zanj::remote::without_credentials("http://u@h/p@q") == "http://h/p@q");  // '@' in the path stays
  CHECK(zanj::remote::without_credentials("plain.zanj") == "plain.zanj");
}

TEST_CASE("s3 URLs name a bucket and a key") {
  const auto url = parse_remote_url("s3://my-bucket/dir/model one.zanj");
  REQUIRE(url);
  CHECK(url->bucket == "my-bucket");
  CHECK(url->key == "dir/model one.zanj");
  CHECK(exit_of([] { parse_remote_url("s3://bucket-only"); }) == Exit::usage);
  CHECK(exit_of([] { parse_remote_url("s3://bucket/"); }) == Exit::usage);
  CHECK(exit_of([] { parse_remote_url("http:///no-host"); }) == Exit::usage);
}

TEST_CASE("query values never reach the display name; s3 and gs keys keep their '?'") {
  CHECK(zanj::remote::without_credentials("https://h/m.zanj?X-Amz-Signature=abc123&X-Amz-Expires=60&flag&e=#frag") ==
        "https://h/m.zanj?X-Amz-Signature=\xE2\x80\xA6&X-Amz-Expires=\xE2\x80\xA6&flag&e=#frag");
  CHECK(zanj::remote::without_credentials("http://u:p@h/x?token=t0k") == "http://h/x?token=\xE2\x80\xA6");
  CHECK(zanj::remote::without_credentials("s3://b/what?x=1") == "s3://b/what?x=1");
  const auto url = parse_remote_url("https://h/m.zanj?sig=s3cret");
  REQUIRE(url);
  CHECK(url->text == "https://h/m.zanj?sig=s3cret");  // what libcurl fetches
  CHECK(url->display.find("s3cret") == std::string::npos);
}

TEST_CASE("gs URLs name a bucket and an object") {
  CHECK(zanj::is_remote_url("gs://bucket/object"));
  CHECK(zanj::is_remote_url("GS://bucket/object"));
  const auto url = parse_remote_url("gs://my-bucket/run 7/model.zanj");
  REQUIRE(url);
  CHECK(url->scheme == RemoteUrl::Scheme::gs);
  CHECK(url->bucket == "my-bucket");
  CHECK(url->key == "run 7/model.zanj");
  CHECK(url->display == "gs://my-bucket/run 7/model.zanj");
  CHECK(exit_of([] { parse_remote_url("gs://bucket-only"); }) == Exit::usage);
  CHECK(exit_of([] { parse_remote_url("gs://u:p@bucket/k"); }) == Exit::usage);
}
