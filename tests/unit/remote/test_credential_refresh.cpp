// Credentials kept current where requests are sent: the range fetcher (reads) and http_call
// (uploads, listings, metadata) take a CredentialProvider, refresh it before it expires and
// once after a server rejects it.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>

#include "http_fixture.hpp"
#include "remote/credential_provider.hpp"
#include "remote/http_call.hpp"
#include "remote/range_fetcher.hpp"
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

}  // namespace refresh_test
