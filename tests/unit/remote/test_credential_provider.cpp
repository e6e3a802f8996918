#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "remote/credential_provider.hpp"
#include "remote/credentials_aws.hpp"
#include "remote/credentials_gcp.hpp"
#include "zanj/error.hpp"

using namespace std::chrono_literals;
using zanj::remote::CredentialProvider;
using zanj::remote::CredentialTime;
using zanj::remote::RequestCredentials;

namespace provider_test {

/// A clock the test moves by hand, read by the provider from any thread.
struct TestClock {
  std::atomic<CredentialTime::rep> ticks{
      CredentialTime(std::chrono::sys_days(std::chrono::year(2026) / 11 / 27)).time_since_epoch().count()};
  CredentialTime now() const { return CredentialTime(CredentialTime::duration(ticks.load())); }
  void advance(std::chrono::milliseconds by) {
    ticks += std::chrono::duration_cast<CredentialTime::duration>(by).count();
  }
  zanj::remote::CredentialClock function() {
    return [this] { return now(); };
  }
};

/// Credentials numbered by how many times the source was asked, good for `lifetime` from now.
struct CountingSource {
  TestClock& clock;
  std::chrono::milliseconds lifetime;
  std::atomic<int> calls{0};
  std::chrono::milliseconds delay{0};  // how long each answer takes (concurrent callers wait)

  RequestCredentials next() {
    const int n = calls++;
    if (delay.count() > 0) std::this_thread::sleep_for(delay);
    RequestCredentials c;
    c.headers = {"Authorization: Bearer token-" + std::to_string(n)};
    c.expires = clock.now() + lifetime;
    c.temporary = true;
    c.source = "the test source";
    return c;
  }
};

std::string token(const std::shared_ptr<const RequestCredentials>& c) { return c->headers.at(0); }

// (the tests too are in provider_test: these files are compiled in batches, a unity build)

TEST_CASE("fresh credentials are reused; near their expiry they are refreshed from the same source") {
  TestClock clock;
  CountingSource source{clock, 1h};
  std::vector<std::string> log;
  CredentialProvider provider(
      source.next(), [&] { return source.next(); }, "s3://b/k", [&](const std::string& line) { log.push_back(line); },
      clock.function());
  CHECK(token(provider.current()) == "Authorization: Bearer token-0");
  clock.advance(54min);  // 6 minutes left: more than the 5-minute margin
  CHECK(token(provider.current()) == "Authorization: Bearer token-0");
  CHECK(source.calls == 1);
  CHECK(provider.refreshes() == 0);
  clock.advance(2min);  // 4 minutes left
  CHECK(token(provider.current()) == "Authorization: Bearer token-1");
  CHECK(source.calls == 2);
  CHECK(provider.refreshes() == 1);
  CHECK(token(provider.current()) == "Authorization: Bearer token-1");  // the new ones hold for an hour
  REQUIRE(log.size() == 1);
  CHECK(log[0] ==
        "s3://b/k: credentials refreshed (they were about to expire) from the test source; they expire in "
        "3600 s");
  CHECK(log[0].find("token-") == std::string::npos);  // never the secret
}

TEST_CASE("short-lived credentials are refreshed at three quarters of their lifetime") {
  CHECK(zanj::remote::refresh_margin(CredentialTime{}, CredentialTime{} + 1h) == 5min);
  CHECK(zanj::remote::refresh_margin(CredentialTime{}, CredentialTime{} + 8s) == 2s);
  CHECK(zanj::remote::refresh_margin(CredentialTime{} + 1s, CredentialTime{}) == 0s);  // already expired: no margin
  TestClock clock;
  CountingSource source{clock, 8s};
  CredentialProvider provider(
      source.next(), [&] { return source.next(); }, "gs://b/o", {}, clock.function());
  clock.advance(5900ms);
  CHECK(token(provider.current()) == "Authorization: Bearer token-0");
  clock.advance(200ms);  // 1.9 s left of 8: within a quarter
  CHECK(token(provider.current()) == "Authorization: Bearer token-1");
}

TEST_CASE("credentials that do not expire, or a source that cannot refresh, are never asked for again") {
  TestClock clock;
  int calls = 0;
  RequestCredentials keys;
  keys.sigv4 = "aws:amz:us-east-1:s3";
  keys.source = "the environment (AWS_ACCESS_KEY_ID)";
  CredentialProvider forever(
      keys, [&] { return ++calls, keys; }, "s3://b/k", {}, clock.function());
  clock.advance(std::chrono::hours(24 * 365));
  CHECK(forever.current()->sigv4 == "aws:amz:us-east-1:s3");
  CHECK(forever.after_rejection(forever.current(), "HTTP 403 Forbidden") == nullptr);
  CHECK(calls == 0);
}

TEST_CASE("concurrent callers near expiry refresh once and all get the new credentials") {
  TestClock clock;
  CountingSource source{clock, 1h};
  source.delay = 50ms;  // the refresh takes a while: the other threads arrive during it
  CredentialProvider provider(
      source.next(), [&] { return source.next(); }, "s3://b/k", {}, clock.function());
  clock.advance(58min);
  std::vector<std::thread> threads;
  std::vector<std::string> seen(8);
  for (std::size_t i = 0; i < seen.size(); ++i) threads.emplace_back([&, i] { seen[i] = token(provider.current()); });
  for (std::thread& thread : threads) thread.join();
  CHECK(source.calls == 2);  // the first and one refresh
  for (const std::string& t : seen) CHECK(t == "Authorization: Bearer token-1");
}

TEST_CASE("a rejection forces one refresh; a second thread rejected with the same credentials gets the new ones") {
  TestClock clock;
  CountingSource source{clock, 1h};
  CredentialProvider provider(
      source.next(), [&] { return source.next(); }, "s3://b/k", {}, clock.function());
  const auto rejected = provider.current();
  const auto fresh = provider.after_rejection(rejected, "HTTP 403 Forbidden");
  REQUIRE(fresh);
  CHECK(token(fresh) == "Authorization: Bearer token-1");
  CHECK(token(provider.after_rejection(rejected, "HTTP 403 Forbidden")) == "Authorization: Bearer token-1");
  CHECK(source.calls == 2);
}

TEST_CASE("a failed refresh keeps credentials that still hold, and is an error once they have expired") {
  TestClock clock;
  CountingSource source{clock, 1h};
  bool down = true;
  std::vector<std::string> log;
  CredentialProvider provider(
      source.next(),
      [&] {
        if (down) throw zanj::Error("IMDS did not answer", zanj::Exit::usage);
        return source.next();
      },
      "s3://b/k", [&](const std::string& line) { log.push_back(line); }, clock.function());
  clock.advance(57min);
  CHECK(token(provider.current()) == "Authorization: Bearer token-0");
  REQUIRE(log.size() == 1);
  CHECK(log[0].find("refreshing the credentials failed") != std::string::npos);
  clock.advance(5s);  // tried again only after a pause
  CHECK(token(provider.current()) == "Authorization: Bearer token-0");
  CHECK(log.size() == 1);
  clock.advance(3min);  // expired now
  CHECK_THROWS_WITH_AS(provider.current(), doctest::Contains("IMDS did not answer"), zanj::Error);
  down = false;
  CHECK(token(provider.current()) == "Authorization: Bearer token-1");
}

TEST_CASE("rejections: 401, 403, and S3's ExpiredToken in a 400") {
  CHECK(zanj::remote::credentials_rejected(401, ""));
  CHECK(zanj::remote::credentials_rejected(403, ""));
  CHECK(zanj::remote::credentials_rejected(
      400, "<Error><Code>ExpiredToken</Code><Message>The provided token has expired.</Message></Error>"));
  CHECK_FALSE(zanj::remote::credentials_rejected(400, "<Error><Code>InvalidArgument</Code></Error>"));
  CHECK_FALSE(zanj::remote::credentials_rejected(404, "<Code>ExpiredToken</Code>"));
}

TEST_CASE("expiry times: AWS's ISO 8601 Expiration") {
  using std::chrono::sys_days;
  const CredentialTime base = sys_days(std::chrono::year(2026) / 11 / 27);
  CHECK(zanj::remote::parse_utc_time("2026-11-27T10:35:00Z") == base + 10h + 35min);
  CHECK(zanj::remote::parse_utc_time("2026-11-27T10:35:00.250Z") == base + 10h + 35min + 250ms);
  CHECK(zanj::remote::parse_utc_time("2026-11-27T10:35:00+00:00") == base + 10h + 35min);
  CHECK_FALSE(zanj::remote::parse_utc_time(""));
  CHECK_FALSE(zanj::remote::parse_utc_time("2026-11-27"));
  CHECK_FALSE(zanj::remote::parse_utc_time("2026-02-30T00:00:00Z"));
  CHECK_FALSE(
      zanj::remote::parse_utc_time("2026-11-27T10:35:00+02:00"));  // AWS writes UTC; anything else is not trusted
  CHECK_FALSE(zanj::remote::parse_utc_time("tomorrow"));
}

TEST_CASE("expiry from each source's answer: STS's XML, container and IMDS JSON, OAuth and metadata JSON") {
  const CredentialTime expected = std::chrono::sys_days(std::chrono::year(2026) / 11 / 27) + 11h;
  const auto sts = zanj::remote::aws_sts_answer(
      "<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult><Credentials>"
      "<AccessKeyId>AKID</AccessKeyId><SecretAccessKey>SECRET</SecretAccessKey><SessionToken>TOKEN</SessionToken>"
      "<Expiration>2026-11-27T11:00:00Z</Expiration></Credentials></AssumeRoleWithWebIdentityResult>"
      "</AssumeRoleWithWebIdentityResponse>",
      "STS");
  CHECK(sts.session_token == "TOKEN");
  CHECK(sts.expires == expected);
  const auto imds = zanj::remote::aws_json_answer(
      R"({"Code": "Success", "AccessKeyId": "AKID", "SecretAccessKey": "SECRET", "Token": "TOKEN",
          "Expiration": "2026-11-27T11:00:00Z"})",
      "IMDS");
  CHECK(imds.expires == expected);
  CHECK_FALSE(
      zanj::remote::aws_json_answer(R"({"AccessKeyId": "AKID", "SecretAccessKey": "SECRET"})", "container").expires);
  const auto oauth = zanj::remote::gcp_token_answer(
      R"({"access_token": "ya29.x", "expires_in": 3599, "token_type": "Bearer"})", "the token endpoint");
  CHECK(oauth.token == "ya29.x");
  CHECK(oauth.expires_in == std::chrono::seconds(3599));
  CHECK_FALSE(zanj::remote::gcp_token_answer(R"({"access_token": "ya29.x"})", "metadata").expires_in);
  CHECK_THROWS_AS(zanj::remote::gcp_token_answer(R"({"expires_in": 10})", "metadata"), zanj::Error);
}

TEST_CASE("which sources are temporary: those a refresh can ask again") {
  zanj::remote::AwsCredentials aws;
  for (const auto kind : {zanj::remote::AwsSource::web_identity, zanj::remote::AwsSource::container,
                          zanj::remote::AwsSource::instance_metadata}) {
    aws.kind = kind;
    CHECK(aws.temporary());
  }
  for (const auto kind : {zanj::remote::AwsSource::anonymous, zanj::remote::AwsSource::environment,
                          zanj::remote::AwsSource::shared_files}) {
    aws.kind = kind;
    CHECK_FALSE(aws.temporary());
  }
  zanj::remote::GcpCredentials gcp;
  gcp.kind = zanj::remote::GcpSource::metadata_server;
  CHECK(gcp.temporary());
  gcp.kind = zanj::remote::GcpSource::environment;
  CHECK_FALSE(gcp.temporary());
}

}  // namespace provider_test
