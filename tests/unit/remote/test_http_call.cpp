#include <doctest/doctest.h>

#include <limits>

#include "remote/http_call.hpp"

TEST_CASE("percent_encode keeps unreserved bytes only") {
  CHECK(zanj::percent_encode("a-b_c.d~e") == "a-b_c.d~e");
  CHECK(zanj::percent_encode("a b/c+d=&") == "a%20b%2Fc%2Bd%3D%26");
}

TEST_CASE("the deadline: none by default, spent once passed, named in seconds") {
  zanj::RemoteOptions options;
  CHECK(zanj::seconds_left(options) == std::numeric_limits<double>::infinity());
  options.deadline = 2.5;
  options.start -= std::chrono::seconds(3);
  CHECK(zanj::seconds_left(options) < 0);
  CHECK(zanj::deadline_passed(options) == "the --deadline of 2.5 s passed");
  options.deadline = 60;
  CHECK(zanj::deadline_passed(options) == "the --deadline of 60 s passed");
}

TEST_CASE("HTTP statuses are named as the servers' replies are read, one table for every request") {
  CHECK(zanj::http_status_text(404) == "HTTP 404 Not Found");
  CHECK(zanj::http_status_text(412) == "HTTP 412 Precondition Failed");  // a pinned object changed
  CHECK(zanj::http_status_text(410) == "HTTP 410 Gone");
  CHECK(zanj::http_status_text(504) == "HTTP 504 Gateway Timeout");
  CHECK(zanj::http_status_text(418) == "HTTP 418");  // no name: the number alone
}
