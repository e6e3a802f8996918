#include <doctest/doctest.h>

#include <string>

#include "http_fixture.hpp"
#include "remote/range_fetcher.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"

using zanj::FetchTarget;
using zanj::RangeFetcher;
using zanj::RemoteOptions;
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
