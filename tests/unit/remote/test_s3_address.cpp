#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "credential_fixture.hpp"
#include "http_fixture.hpp"
#include "remote/url.hpp"
#include "remote/s3_address.hpp"
#include "environment_fixture.hpp"

using namespace std::chrono_literals;

using zanj::remote::s3_address;
using zanj::test::environment_table;

namespace {

zanj::remote::RemoteUrl s3(const std::string& text) { return *zanj::remote::parse_remote_url(text); }

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
  CHECK(zanj::remote::s3_encode_key("a b/c+d~e_f.g-h") == "a%20b/c%2Bd~e_f.g-h");
  CHECK(zanj::remote::s3_encode_key("100%") == "100%25");
}

TEST_CASE("s3_access: container credentials signed with, refreshed from the container endpoint before they expire") {
  // The endpoint's credentials expire at 11:00; the clock starts at 10:00.
  zanj::test::HttpFixture endpoint("", [](const std::string&, int n, const std::string&) {
    return zanj::test::http_response(
        "200 OK", R"({"AccessKeyId": "AKID", "SecretAccessKey": "SECRET", "Token": "session-)" + std::to_string(n) +
                      R"(", "Expiration": "2026-11-27T1)" + std::to_string(n + 1) + R"(:00:00Z"})");
  });
  zanj::remote::CredentialTime now =
      zanj::remote::CredentialTime(std::chrono::sys_days(std::chrono::year(2026) / 11 / 27)) + 10h;
  const auto environment =
      zanj::test::environment_table({{"AWS_CONTAINER_CREDENTIALS_FULL_URI", endpoint.url("/creds")},
                                     {"AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials"},
                                     {"AWS_CONFIG_FILE", "/nonexistent/config"},
                                     {"AWS_EC2_METADATA_DISABLED", "true"},
                                     {"AWS_REGION", "eu-west-3"}});
  std::vector<std::string> log;
  zanj::RemoteOptions options = zanj::test::quick_remote_options();
  options.log = [&](const std::string& line) { log.push_back(line); };
  const zanj::remote::S3Access access = zanj::remote::s3_access(*zanj::remote::parse_remote_url("s3://b/k"), "s3://b/k",
                                                                environment, options, [&] { return now; });
  CHECK(access.url == "https://b.s3.eu-west-3.amazonaws.com/k");
  auto c = access.credentials->current();
  CHECK(c->sigv4 == "aws:amz:eu-west-3:s3");
  CHECK(c->user_password == "AKID:SECRET");
  CHECK(c->headers.back() == "x-amz-security-token: session-0");
  CHECK(c->expires == now + 1h);
  now += 56min;  // four minutes left
  c = access.credentials->current();
  CHECK(c->headers.back() == "x-amz-security-token: session-1");
  CHECK(c->expires == zanj::remote::CredentialTime(std::chrono::sys_days(std::chrono::year(2026) / 11 / 27)) + 12h);
  CHECK(endpoint.requests().size() == 2);
  CHECK(log.back() ==
        "s3://b/k: credentials refreshed (they were about to expire) from the container endpoint; "
        "they expire in 3840 s");
  for (const std::string& line : log) CHECK(line.find("session-") == std::string::npos);
}
