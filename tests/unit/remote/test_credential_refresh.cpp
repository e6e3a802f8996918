// Credentials kept current where requests are sent: the range fetcher (reads) and http_call
// (uploads, listings, metadata) take a CredentialProvider, refresh it before it expires and
// once after a server rejects it.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>

#include "environment_fixture.hpp"
#include "http_fixture.hpp"
#include "remote/credential_provider.hpp"
#include "remote/gcs_address.hpp"
#include "remote/http_call.hpp"
#include "remote/range_fetcher.hpp"
#include "remote/s3_address.hpp"
#include "remote/url.hpp"
#include "zanj/error.hpp"

using namespace std::chrono_literals;
using zanj::CredentialProvider;
using zanj::CredentialTime;
using zanj::RequestCredentials;
using zanj::test::HttpFixture;

namespace refresh_test {

std::string body() {
  std::string b;
  for (int i = 0; i < 5000; ++i) b += static_cast<char>('a' + i % 26);
  return b;
}

zanj::RemoteOptions quick() {
  zanj::RemoteOptions options;
  options.retries = 1;
  options.connect_timeout = 2;
  options.idle_timeout = 2;
  return options;
}

/// Temporary credentials "X-Test-Token: token-N", N counting the source's answers, good for an hour.
struct Source {
  CredentialTime now = CredentialTime(std::chrono::sys_days(std::chrono::year(2026) / 11 / 27));
  int calls = 0;
  RequestCredentials next() {
    RequestCredentials c;
    c.headers = {"X-Test-Token: token-" + std::to_string(calls++)};
    c.expires = now + 1h;
    c.temporary = true;
    c.source = "the test source";
    c.tried = {"A: not set"};
    return c;
  }
  std::shared_ptr<CredentialProvider> provider() {
    RequestCredentials first = next();
    return std::make_shared<CredentialProvider>(
        first, [this] { return next(); }, "test", nullptr, [this] { return now; });
  }
};

/// The last request's token, read on the server's thread (where requests() is filled).
std::string token_of(const HttpFixture& server) {
  const std::string request = server.requests().back();
  const std::size_t at = request.find("X-Test-Token: ");
  return at == std::string::npos ? "" : request.substr(at + 14, request.find("\r\n", at) - at - 14);
}

std::string status(const std::string& line, const std::string& extra = "") {
  return "HTTP/1.1 " + line + "\r\nContent-Length: " + std::to_string(extra.size()) + "\r\n\r\n" + extra;
}

// (the tests too are in refresh_test: these files are compiled in batches, a unity build)

TEST_CASE("range reads: credentials near their expiry are refreshed before the request, not after a refusal") {
  Source source;
  const HttpFixture* self = nullptr;
  std::atomic<int> refused{0};
  HttpFixture server(body(), [&](const std::string& range, int n, const std::string& b) {
    if (token_of(*self) != (n == 0 ? "token-0" : "token-1")) return ++refused, status("403 Forbidden");
    return HttpFixture::partial(range, n, b);
  });
  self = &server;
  auto provider = source.provider();
  zanj::RangeFetcher fetcher(zanj::FetchTarget{server.url(), server.url(), {}, provider}, quick());
  CHECK(fetcher.open(1000, {}).size == 5000);
  source.now += 58min;  // two minutes left
  std::string out(10, '\0');
  fetcher.fetch(100, out.data(), out.size());
  CHECK(out == body().substr(100, 10));
  CHECK(refused == 0);
  CHECK(provider->refreshes() == 1);
  CHECK(server.requests().size() == 2);
}

TEST_CASE("range reads: a 403, or S3's 400 ExpiredToken, refreshes temporary credentials once and retries") {
  Source source;
  const HttpFixture* self = nullptr;
  // The first request of open() and of fetch() are refused; each retry carries the next token.
  HttpFixture server(body(), [&](const std::string& range, int n, const std::string& b) {
    const std::string token = token_of(*self);
    if (n == 0) return status("403 Forbidden");
    if (n == 2) return status("400 Bad Request", "<Error><Code>ExpiredToken</Code><Message>expired</Message></Error>");
    return token == "token-" + std::to_string((n + 1) / 2) ? HttpFixture::partial(range, n, b)
                                                           : status("403 Forbidden");
  });
  self = &server;
  auto provider = source.provider();
  zanj::RangeFetcher fetcher(zanj::FetchTarget{server.url(), server.url(), {}, provider}, quick());
  CHECK(fetcher.open(1000, {}).size == 5000);  // 403 with token-0, then token-1
  CHECK(provider->refreshes() == 1);
  std::string out(10, '\0');
  fetcher.fetch(100, out.data(), out.size());  // ExpiredToken with token-1, then token-2
  CHECK(out == body().substr(100, 10));
  CHECK(provider->refreshes() == 2);
  CHECK(server.requests().size() == 4);
}

TEST_CASE("range reads: a refusal that a refresh does not cure fails once, naming the sources tried") {
  Source source;
  HttpFixture server(body(), [](const std::string&, int, const std::string&) { return status("403 Forbidden"); });
  auto provider = source.provider();
  zanj::RangeFetcher fetcher(zanj::FetchTarget{server.url(), "s3://b/k", {}, provider}, quick());
  CHECK_THROWS_WITH_AS(fetcher.open(1000, {}),
                       "s3://b/k: HTTP 403 Forbidden (credentials tried: A: not set; used: the test source)",
                       zanj::Error);
  CHECK(provider->refreshes() == 1);
  CHECK(server.requests().size() == 2);
}

TEST_CASE("http_call: a 401 refreshes the call's credentials once and retries; its own headers win") {
  Source source;
  const HttpFixture* self = nullptr;
  HttpFixture server("", [&](const std::string&, int, const std::string&) {
    return token_of(*self) == "token-0" ? status("401 Unauthorized") : status("200 OK", "listed");
  });
  self = &server;
  auto provider = source.provider();
  zanj::HttpCall call;
  call.url = server.url("/list");
  call.display = "gs://b";
  call.credentials = provider.get();
  const zanj::HttpReply reply = zanj::http_call(call, quick());
  CHECK(reply.status == 200);
  CHECK(reply.body == "listed");
  CHECK(provider->refreshes() == 1);
  REQUIRE(server.requests().size() == 2);
  // A header the call names itself is not replaced by the credentials' one of the same name.
  call.headers = {"x-test-token: mine"};
  CHECK(zanj::http_call(call, quick()).status == 200);
  CHECK(server.requests().back().find("X-Test-Token: token-1") == std::string::npos);
  CHECK(server.requests().back().find("x-test-token: mine") != std::string::npos);
}

/// "HTTP/1.1 200 OK" with a JSON body and `headers` ("Name: value\r\n" each).
std::string json_reply(const std::string& json, const std::string& headers = "") {
  return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + headers +
         "Content-Length: " + std::to_string(json.size()) + "\r\n\r\n" + json;
}

}  // namespace refresh_test

namespace refresh_test {

TEST_CASE("s3_access: container credentials signed with, refreshed from the container endpoint before they expire") {
  // The endpoint's credentials expire at 11:00; the clock starts at 10:00.
  HttpFixture endpoint("", [](const std::string&, int n, const std::string&) {
    return json_reply(R"({"AccessKeyId": "AKID", "SecretAccessKey": "SECRET", "Token": "session-)" + std::to_string(n) +
                      R"(", "Expiration": "2026-11-27T1)" + std::to_string(n + 1) + R"(:00:00Z"})");
  });
  CredentialTime now = CredentialTime(std::chrono::sys_days(std::chrono::year(2026) / 11 / 27)) + 10h;
  const auto environment =
      zanj::test::environment_table({{"AWS_CONTAINER_CREDENTIALS_FULL_URI", endpoint.url("/creds")},
                                     {"AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials"},
                                     {"AWS_CONFIG_FILE", "/nonexistent/config"},
                                     {"AWS_EC2_METADATA_DISABLED", "true"},
                                     {"AWS_REGION", "eu-west-3"}});
  std::vector<std::string> log;
  zanj::RemoteOptions options = quick();
  options.log = [&](const std::string& line) { log.push_back(line); };
  const zanj::S3Access access =
      zanj::s3_access(*zanj::parse_remote_url("s3://b/k"), "s3://b/k", environment, options, [&] { return now; });
  CHECK(access.url == "https://b.s3.eu-west-3.amazonaws.com/k");
  auto c = access.credentials->current();
  CHECK(c->sigv4 == "aws:amz:eu-west-3:s3");
  CHECK(c->user_password == "AKID:SECRET");
  CHECK(c->headers.back() == "x-amz-security-token: session-0");
  CHECK(c->expires == now + 1h);
  now += 56min;  // four minutes left
  c = access.credentials->current();
  CHECK(c->headers.back() == "x-amz-security-token: session-1");
  CHECK(c->expires == CredentialTime(std::chrono::sys_days(std::chrono::year(2026) / 11 / 27)) + 12h);
  CHECK(endpoint.requests().size() == 2);
  CHECK(log.back() ==
        "s3://b/k: credentials refreshed (they were about to expire) from the container endpoint; "
        "they expire in 3840 s");
  for (const std::string& line : log) CHECK(line.find("session-") == std::string::npos);
}

TEST_CASE("a refresh asks the same source only: a metadata server gone is an error, never anonymous requests") {
  std::atomic<bool> down{false};
  HttpFixture metadata("", [&](const std::string&, int n, const std::string&) {
    if (down) return status("503 Service Unavailable");
    return json_reply(R"({"access_token": "ya29.m)" + std::to_string(n) + R"(", "expires_in": 120})",
                      "Metadata-Flavor: Google\r\n");
  });
  CredentialTime now{};
  const std::string host = metadata.url("").substr(7);  // 127.0.0.1:PORT
  const auto environment = zanj::test::environment_table(
      {{"GCE_METADATA_HOST", host}, {"CLOUDSDK_CONFIG", "/nonexistent"}, {"HOME", "/nonexistent"}});
  zanj::RemoteOptions options = quick();
  options.retries = 0;
  const auto provider = zanj::gcs_credential_provider("gs://b/o", environment, options, [&] { return now; });
  CHECK(provider->current()->headers == std::vector<std::string>{"Authorization: Bearer ya29.m0"});
  CHECK(provider->current()->expires == now + 120s);
  now += 91s;  // within a quarter of the two minutes
  CHECK(provider->current()->headers == std::vector<std::string>{"Authorization: Bearer ya29.m1"});
  down = true;
  now += 200s;  // expired, and the source does not answer
  const std::string expected = "gs://b/o: Google Cloud credentials from the metadata server (" + host + "): HTTP 503";
  CHECK_THROWS_WITH_AS(provider->current(), doctest::Contains(expected.c_str()), zanj::Error);
}

}  // namespace refresh_test
