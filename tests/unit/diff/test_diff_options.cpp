#include <doctest/doctest.h>

#include "zanj/diff.hpp"
#include "zanj/error.hpp"

using namespace zanj;

TEST_SUITE("diff_options") {
  TEST_CASE("--tol PATH_GLOB=RTOL[,ATOL]") {
    ToleranceRule r = parse_tolerance_rule("weights/*=1e-3");
    CHECK(r.glob == "weights/*");
    CHECK(r.tolerance == Tolerance{1e-3, 0});
    r = parse_tolerance_rule("a=b/x=0.5,2");  // the last '=' splits: globs may hold '='
    CHECK(r.glob == "a=b/x");
    CHECK(r.tolerance == Tolerance{0.5, 2});
    for (const char* bad : {"nothing", "=1", "x=", "x=abc", "x=-1", "x=1,", "x=1,inf", "x=nan", "x=1,2,3"})
      CHECK_THROWS_AS(parse_tolerance_rule(bad), Error);
    try {
      parse_tolerance_rule("x=-1");
    } catch (const Error& e) {
      CHECK(e.exit() == Exit::usage);
    }
  }

  TEST_CASE("tolerance numbers") {
    CHECK(parse_tolerance_value("0", "--atol") == 0.0);
    CHECK(parse_tolerance_value("2.5e-7", "--atol") == 2.5e-7);
    CHECK_THROWS_WITH_AS(parse_tolerance_value("-0.1", "--rtol"), doctest::Contains("--rtol"), Error);
    CHECK_THROWS_AS(parse_tolerance_value("", "--rtol"), Error);
    CHECK_THROWS_AS(parse_tolerance_value("1x", "--rtol"), Error);
  }

  TEST_CASE("the last matching rule wins, and a rule covers the paths below its own") {
    DiffOptions o;
    o.tolerance = {0, 1e-9};
    o.rules = {parse_tolerance_rule("model/*=0.1"), parse_tolerance_rule("model/head=0.2,1"),
               parse_tolerance_rule("*bias=0.3")};
    CHECK(tolerance_for(o, "other") == Tolerance{0, 1e-9});
    CHECK(tolerance_for(o, "model/body/w") == Tolerance{0.1, 0});
    CHECK(tolerance_for(o, "model/head") == Tolerance{0.2, 1});
    CHECK(tolerance_for(o, "model/head/w") == Tolerance{0.2, 1});     // below model/head
    CHECK(tolerance_for(o, "model/head/bias") == Tolerance{0.3, 0});  // a later rule matches
    CHECK(tolerance_for(o, "") == Tolerance{0, 1e-9});
  }

  TEST_CASE("exclusions are shell globs where '*' also matches '/'") {
    DiffOptions o;
    CHECK_FALSE(is_excluded(o, "anything"));
    o.excludes = {"*timestamp*", "logs"};
    CHECK(is_excluded(o, "run/timestamp"));
    CHECK(is_excluded(o, "logs"));
    CHECK_FALSE(is_excluded(o, "logs2"));
    CHECK_FALSE(is_excluded(o, "weights"));
  }
}
