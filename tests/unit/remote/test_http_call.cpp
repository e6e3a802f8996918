#include <doctest/doctest.h>

#include <chrono>
#include <limits>

#include "credential_fixture.hpp"
#include "http_fixture.hpp"
#include "remote/http_call.hpp"

using namespace std::chrono_literals;

TEST_CASE("percent_encode keeps unreserved bytes only") {
  CHECK(zanj::remote::percent_encode("a-b_c.d~e") == "a-b_c.d~e");
  CHECK(zanj::remote::percent_encode("a b/c+d=&") == "a%20b%2Fc%2Bd%3D%26");
}

TEST_CASE("the deadline: none by default, spent once passed, named in seconds") {
  zanj::RemoteOptions options;
  CHECK(zanj::remote::seconds_left(options) == std::numeric_limits<double>::infinity());
  options.deadline = 2.5;
  options.start -= std::chrono::seconds(3);
  CHECK(zanj::remote::seconds_left(options) < 0);
  CHECK(zanj::remote::deadline_passed(options) == "the --deadline of 2.5 s passed");
  options.deadline = 60;
  CHECK(zanj::remote::deadline_passed(options) == "the --deadline of 60 s passed");
}

TEST_CASE("HTTP statuses are named as the servers' replies are read, one table for every request") {
  CHECK(zanj::remote::http_status_text(404) == "HTTP 404 Not Found");
  CHECK(zanj::remote::http_status_text(412) == "HTTP 412 Precondition Failed");  // a pinned object changed
  CHECK(zanj::remote::http_status_text(410) == "HTTP 410 Gone");
  CHECK(zanj::remote::http_status_text(504) == "HTTP 504 Gateway Timeout");
  CHECK(zanj::remote::http_status_text(418) == "HTTP 418");  // no name: the number alone
}

TEST_CASE("http_call: a 401 refreshes the call's credentials once and retries; its own headers win") {
  zanj::test::NumberedCredentials source;
  const zanj::test::HttpFixture* self = nullptr;
  zanj::test::HttpFixture server("", [&](const std::string&, int, const std::string&) {
    return zanj::test::test_token_of(*self) == "token-0" ? zanj::test::http_response("401 Unauthorized")
                                                         : zanj::test::http_response("200 OK", "listed");
  });
  self = &server;
  auto provider = source.provider();
  zanj::remote::HttpCall call;
  call.url = server.url("/list");
  call.display = "gs://b";
  call.credentials = provider.get();
  const zanj::remote::HttpReply reply = zanj::remote::http_call(call, zanj::test::quick_remote_options());
  CHECK(reply.status == 200);
  CHECK(reply.body == "listed");
  CHECK(provider->refreshes() == 1);
  REQUIRE(server.requests().size() == 2);
  // A header the call names itself is not replaced by the credentials' one of the same name.
  call.headers = {"x-test-token: mine"};
  CHECK(zanj::remote::http_call(call, zanj::test::quick_remote_options()).status == 200);
  CHECK(server.requests().back().find("X-Test-Token: token-1") == std::string::npos);
  CHECK(server.requests().back().find("x-test-token: mine") != std::string::npos);
}
