#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>

#include "credential_fixture.hpp"
#include "http_fixture.hpp"
#include "remote/range_fetcher.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"

using namespace std::chrono_literals;

using zanj::RemoteOptions;
using zanj::remote::FetchTarget;
using zanj::remote::RangeFetcher;
using zanj::test::HttpFixture;

namespace {

std::string body() {
  std::string b;
  for (int i = 0; i < 5000; ++i) b += static_cast<char>('a' + i % 26);
  return b;
}

FetchTarget target(const HttpFixture& server) { return FetchTarget{server.url(), server.url(), {}, nullptr}; }

RemoteOptions quick() {
  RemoteOptions options;
  options.retries = 2;
  options.connect_timeout = 2;
  options.idle_timeout = 2;
  return options;
}

}  // namespace

TEST_CASE("the first request brings the tail and the size; later ranges are pinned and checked") {
  HttpFixture server(body());
  RangeFetcher fetcher(target(server), quick());
  const auto opening = fetcher.open(1000, {});
  CHECK(opening.size == 5000);
  CHECK(opening.tail == body().substr(4000));
  std::string out(10, '\0');
  fetcher.fetch(100, out.data(), out.size());
  CHECK(out == body().substr(100, 10));
  const auto requests = server.requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].find("Range: bytes=-1000") != std::string::npos);
  CHECK(requests[1].find("Range: bytes=100-109") != std::string::npos);
  CHECK(requests[1].find("If-Match: \"v1\"") != std::string::npos);
  CHECK(requests[1].find("If-Range: \"v1\"") != std::string::npos);
  CHECK(fetcher.transfer().requests == 2);
  CHECK(fetcher.transfer().bytes_fetched == 1010);
}

TEST_CASE("a 500 is retried, and a range cut short is resumed where it stopped") {
  HttpFixture server(body(), [](const std::string& range, int n, const std::string& b) {
    if (n == 1) return std::string("HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n");
    std::string full = HttpFixture::partial(range, n, b);
    if (n == 2) return full.substr(0, full.size() - 5);  // five bytes short: the connection closes
    return full;
  });
  RangeFetcher fetcher(target(server), quick());
  fetcher.open(100, {});
  std::string out(50, '\0');
  fetcher.fetch(0, out.data(), out.size());
  CHECK(out == body().substr(0, 50));
  const auto requests = server.requests();
  REQUIRE(requests.size() == 4);
  CHECK(requests[3].find("Range: bytes=45-49") != std::string::npos);
}

TEST_CASE("a wrong Content-Range, a changed ETag or an ignored Range are errors naming the URL") {
  HttpFixture wrong_range(body(), [](const std::string& range, int n, const std::string& b) {
    return n == 0 ? HttpFixture::partial(range, n, b) : HttpFixture::partial("bytes=0-9", n, b);
  });
  RangeFetcher fetcher(target(wrong_range), quick());
  fetcher.open(100, {});
  std::string out(10, '\0');
  const std::string expected = wrong_range.url() + ": the server answered bytes=20-29 with Content-Range";
  CHECK_THROWS_WITH_AS(fetcher.fetch(20, out.data(), 10), doctest::Contains(expected.c_str()), zanj::Error);

  HttpFixture changed(body(), [](const std::string& range, int n, const std::string& b) {
    std::string r = HttpFixture::partial(range, n, b);
    if (n > 0) r.replace(r.find("\"v1\""), 4, "\"v2\"");
    return r;
  });
  RangeFetcher second(target(changed), quick());
  second.open(100, {});
  CHECK_THROWS_WITH_AS(second.fetch(0, out.data(), 10), doctest::Contains("changed on the server"), zanj::Error);

  HttpFixture whole(body(), [](const std::string&, int, const std::string& b) {
    return "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(b.size()) + "\r\n\r\n" + b;
  });
  RemoteOptions small = quick();
  small.download_max = 1000;  // past --download-max without --download: an error naming --download
  RangeFetcher third(target(whole), small);
  CHECK_THROWS_WITH_AS(third.open(100, [](std::string_view) {}), doctest::Contains("--download fetches it whole"),
                       zanj::Error);
  std::string within;  // within --download-max: fetched whole
  RangeFetcher fifth(target(whole), quick());
  CHECK(fifth.open(100, [&](std::string_view chunk) { within += chunk; }).whole);
  CHECK(within == body());
  RemoteOptions download = small;
  download.download = true;
  RangeFetcher fourth(target(whole), download);
  std::string spooled;
  const auto opening = fourth.open(100, [&](std::string_view chunk) { spooled += chunk; });
  CHECK(opening.whole);
  CHECK(spooled == body());
}

TEST_CASE("range reads: credentials near their expiry are refreshed before the request, not after a refusal") {
  zanj::test::NumberedCredentials source;
  const zanj::test::HttpFixture* self = nullptr;
  std::atomic<int> refused{0};
  zanj::test::HttpFixture server(body(), [&](const std::string& range, int n, const std::string& b) {
    if (zanj::test::test_token_of(*self) != (n == 0 ? "token-0" : "token-1"))
      return ++refused, zanj::test::http_response("403 Forbidden");
    return zanj::test::HttpFixture::partial(range, n, b);
  });
  self = &server;
  auto provider = source.provider();
  zanj::remote::RangeFetcher fetcher(zanj::remote::FetchTarget{server.url(), server.url(), {}, provider},
                                     zanj::test::quick_remote_options());
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
  zanj::test::NumberedCredentials source;
  const zanj::test::HttpFixture* self = nullptr;
  // The first request of open() and of fetch() are refused; each retry carries the next token.
  zanj::test::HttpFixture server(body(), [&](const std::string& range, int n, const std::string& b) {
    const std::string token = zanj::test::test_token_of(*self);
    if (n == 0) return zanj::test::http_response("403 Forbidden");
    if (n == 2)
      return zanj::test::http_response("400 Bad Request",
                                       "<Error><Code>ExpiredToken</Code><Message>expired</Message></Error>");
    return token == "token-" + std::to_string((n + 1) / 2) ? zanj::test::HttpFixture::partial(range, n, b)
                                                           : zanj::test::http_response("403 Forbidden");
  });
  self = &server;
  auto provider = source.provider();
  zanj::remote::RangeFetcher fetcher(zanj::remote::FetchTarget{server.url(), server.url(), {}, provider},
                                     zanj::test::quick_remote_options());
  CHECK(fetcher.open(1000, {}).size == 5000);  // 403 with token-0, then token-1
  CHECK(provider->refreshes() == 1);
  std::string out(10, '\0');
  fetcher.fetch(100, out.data(), out.size());  // ExpiredToken with token-1, then token-2
  CHECK(out == body().substr(100, 10));
  CHECK(provider->refreshes() == 2);
  CHECK(server.requests().size() == 4);
}

TEST_CASE("range reads: a refusal that a refresh does not cure fails once, naming the sources tried") {
  zanj::test::NumberedCredentials source;
  zanj::test::HttpFixture server(
      body(), [](const std::string&, int, const std::string&) { return zanj::test::http_response("403 Forbidden"); });
  auto provider = source.provider();
  zanj::remote::RangeFetcher fetcher(zanj::remote::FetchTarget{server.url(), "s3://b/k", {}, provider},
                                     zanj::test::quick_remote_options());
  CHECK_THROWS_WITH_AS(fetcher.open(1000, {}),
                       "s3://b/k: HTTP 403 Forbidden (credentials tried: A: not set; used: the test source)",
                       zanj::Error);
  CHECK(provider->refreshes() == 1);
  CHECK(server.requests().size() == 2);
}
