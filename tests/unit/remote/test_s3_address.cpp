#include <doctest/doctest.h>

#include <map>
#include <string>

#include "remote/s3_address.hpp"
#include "environment_fixture.hpp"

using zanj::s3_address;
using zanj::test::environment_table;

namespace {

zanj::RemoteUrl s3(const std::string& text) { return *zanj::parse_remote_url(text); }

}  // namespace

TEST_CASE("without credentials or endpoint: anonymous, virtual-hosted AWS address") {
  const auto a = s3_address(s3("s3://models/v1/model.zanj"), environment_table({}));
  CHECK(a.url == "https://models.s3.us-east-1.amazonaws.com/v1/model.zanj");
  CHECK(a.sigv4.empty());
  CHECK(a.user_password.empty());
  CHECK(a.headers.empty());
}

TEST_CASE("credentials and region from the AWS variables sign with SigV4") {
  const auto a = s3_address(s3("s3://models/m.zanj"), environment_table({{"AWS_ACCESS_KEY_ID", "AKID"},
                                                                         {"AWS_SECRET_ACCESS_KEY", "SECRET"},
                                                                         {"AWS_SESSION_TOKEN", "TOKEN"},
                                                                         {"AWS_DEFAULT_REGION", "eu-west-3"}}));
  CHECK(a.url == "https://models.s3.eu-west-3.amazonaws.com/m.zanj");
  CHECK(a.sigv4 == "aws:amz:eu-west-3:s3");
  CHECK(a.user_password == "AKID:SECRET");
  REQUIRE(a.headers.size() == 2);
  CHECK(a.headers[0].rfind("x-amz-content-sha256: e3b0c442", 0) == 0);
  CHECK(a.headers[1] == "x-amz-security-token: TOKEN");
  // AWS_REGION wins over AWS_DEFAULT_REGION; a key alone is not enough to sign.
  CHECK(s3_address(s3("s3://b/k"), environment_table({{"AWS_REGION", "ap-south-1"}, {"AWS_DEFAULT_REGION", "x"}}))
            .region == "ap-south-1");
  CHECK(s3_address(s3("s3://b/k"), environment_table({{"AWS_ACCESS_KEY_ID", "AKID"}})).sigv4.empty());
}

TEST_CASE("an endpoint override is addressed path-style; ZANJ_S3_ENDPOINT first") {
  CHECK(s3_address(s3("s3://b/k.zanj"), environment_table({{"AWS_ENDPOINT_URL", "http://127.0.0.1:9000/"}})).url ==
        "http://127.0.0.1:9000/b/k.zanj");
  CHECK(s3_address(s3("s3://b/k.zanj"), environment_table({{"AWS_ENDPOINT_URL", "http://a"},
                                                           {"ZANJ_S3_ENDPOINT", "https://storage.googleapis.com"}}))
            .url == "https://storage.googleapis.com/b/k.zanj");
  // Dotted bucket names break the wildcard certificate of virtual-hosted names.
  CHECK(s3_address(s3("s3://my.bucket/k"), environment_table({})).url ==
        "https://s3.us-east-1.amazonaws.com/my.bucket/k");
}

TEST_CASE("keys are percent-encoded except unreserved bytes and '/'") {
  CHECK(zanj::s3_encode_key("a b/c+d~e_f.g-h") == "a%20b/c%2Bd~e_f.g-h");
  CHECK(zanj::s3_encode_key("100%") == "100%25");
}
