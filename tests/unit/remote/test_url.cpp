#include <doctest/doctest.h>

#include "remote/url.hpp"
#include "test_support.hpp"
#include "zanj/archive.hpp"
#include "zanj/error.hpp"

using zanj::Exit;
using zanj::RemoteUrl;
using zanj::parse_remote_url;
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
  CHECK(url->display == "https://example.org:8443/x/a.zanj?v=1");
  CHECK(zanj::without_credentials("http://u@h/p@q") == "http://h/p@q");  // '@' in the path stays
  CHECK(zanj::without_credentials("plain.zanj") == "plain.zanj");
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
