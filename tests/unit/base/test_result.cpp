// Result<T>: a value or why there is none; value_or_throw turns the failure into the Error it
// stands for, with the exit status the caller chooses.
#include <doctest/doctest.h>

#include <string>

#include "base/result.hpp"
#include "test_support.hpp"

namespace zanj {

TEST_CASE("a Result holds a value or a reason, never both") {
  const Result<int> seven = 7;
  REQUIRE(seven.ok());
  CHECK(static_cast<bool>(seven));
  CHECK(*seven == 7);
  CHECK(seven.value_or_throw() == 7);

  const Result<std::string> none = Failure{"no such thing"};
  CHECK_FALSE(none.ok());
  CHECK_FALSE(static_cast<bool>(none));
  CHECK(none.why() == "no such thing");
  CHECK_THROWS_WITH_AS(none.value_or_throw(), "no such thing", Error);
  CHECK(test::exit_of([&] { (void)none.value_or_throw(); }) == Exit::invalid);
  CHECK(test::exit_of([&] { (void)none.value_or_throw(Exit::usage); }) == Exit::usage);

  const Result<std::string> text = std::string("abc");
  CHECK(text->size() == 3);
}

}  // namespace zanj
