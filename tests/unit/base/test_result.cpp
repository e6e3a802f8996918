// Result<T>: a value or why there is none; value_or_throw turns the failure into the Error it
// stands for. And the Error itself: the archive it concerns is structure, apart from its reason.
#include <doctest/doctest.h>

#include <string>

#include "base/result.hpp"
#include "test_support.hpp"

namespace zanj {

TEST_CASE("a Result holds a value or a reason, never both") {
  const base::Result<int> seven = 7;
  REQUIRE(seven.ok());
  CHECK(static_cast<bool>(seven));
  CHECK(*seven == 7);
  CHECK(seven.value_or_throw() == 7);

  const base::Result<std::string> none = base::Failure{"no such thing"};
  CHECK_FALSE(none.ok());
  CHECK_FALSE(static_cast<bool>(none));
  CHECK(none.why() == "no such thing");
  CHECK_THROWS_WITH_AS(none.value_or_throw(), "no such thing", Error);
  CHECK(test::exit_of([&] { (void)none.value_or_throw(); }) == Exit::invalid);
  CHECK(test::exit_of([&] { (void)none.value_or_throw(Exit::usage); }) == Exit::usage);

  const base::Result<std::string> text = std::string("abc");
  CHECK(text->size() == 3);
}

namespace {
struct TestFault {
  std::string why;
  int code = 0;
};
}  // namespace

TEST_CASE("a Result's failure may carry more than the reason") {
  base::Result<std::string, TestFault> fine = std::string("abc");
  REQUIRE(fine.ok());
  *fine += "d";
  CHECK(*fine == "abcd");
  const base::Result<std::string, TestFault> failed = TestFault{"too deep", 3};
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.why() == "too deep");
  CHECK(failed.failure().code == 3);
  const base::Result<int> plain = base::Failure{"no"};
  CHECK(plain.failure().why == "no");
}

TEST_CASE("an Error carries the archive it concerns apart from its reason") {
  const Error plain("no such member", Exit::usage);
  CHECK(plain.archive().empty());
  CHECK(plain.reason() == "no such member");
  CHECK(std::string(plain.what()) == "no such member");

  const Error named = plain.in_archive("a.zanj");
  CHECK(named.archive() == "a.zanj");
  CHECK(named.reason() == "no such member");
  CHECK(std::string(named.what()) == "a.zanj: no such member");  // what main prints
  CHECK(named.exit() == Exit::usage);
  // Named once: an error that already names an archive keeps it.
  CHECK(std::string(named.in_archive("b.zanj").what()) == "a.zanj: no such member");
  // In a report about a.zanj the name is said once, by the report; about another, in full.
  CHECK(named.message_in("a.zanj") == "no such member");
  CHECK(named.message_in("b.zanj") == "a.zanj: no such member");
  CHECK(plain.message_in("a.zanj") == "no such member");

  const MemberDataError data(MemberDataError::Kind::crc_mismatch, InArchive{"a.zanj"}, "member 'x' is corrupt");
  CHECK(data.archive() == "a.zanj");
  CHECK(data.reason() == "member 'x' is corrupt");
  CHECK(data.kind() == MemberDataError::Kind::crc_mismatch);
}

}  // namespace zanj
