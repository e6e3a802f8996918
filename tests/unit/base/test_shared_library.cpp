// Lazily opened libraries: the first soname that opens is used, one object per library, and
// a missing library or symbol is a usage error that names what to install.
#include <doctest/doctest.h>

#include <zlib.h>

#include "base/shared_library.hpp"
#include "zanj/error.hpp"

namespace zanj {

TEST_CASE("load opens the first soname that exists, once, and finds typed symbols") {
  const base::SharedLibrary& zlib = base::SharedLibrary::load("test", {"libzanj-does-not-exist.so.9", "libz.so.1"});
  CHECK(zlib.soname() == "libz.so.1");
  CHECK(&zlib == &base::SharedLibrary::load("again", {"libzanj-does-not-exist.so.9"}));
  auto* crc = zlib.symbol<decltype(::crc32)>("crc32");
  const unsigned char bytes[] = {'a', 'b', 'c'};
  CHECK(crc(0, bytes, 3) == 0x352441c2u);
}

TEST_CASE("a missing library or symbol is a usage error naming it") {
  try {
    base::SharedLibrary::load("remote archives", {"libzanj-missing.so.1"});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.exit() == Exit::usage);
    CHECK(std::string(e.what()).rfind("remote archives needs libzanj-missing.so.1: ", 0) == 0);
  }
  const base::SharedLibrary& zlib = base::SharedLibrary::load("test", {"libz.so.1"});
  try {
    zlib.symbol<void()>("zanj_no_such_function");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.exit() == Exit::usage);
    CHECK(std::string(e.what()).find("libz.so.1 has no zanj_no_such_function") != std::string::npos);
  }
}

}  // namespace zanj

namespace {
int opener_calls = 0;
struct FakeTable {
  int value;
};
FakeTable open_fails_once() {
  if (++opener_calls == 1) throw zanj::Error("fake.so.1: cannot open shared object file", zanj::Exit::usage);
  return FakeTable{42};
}
}  // namespace

TEST_CASE("load_table_once: a failed open reaches the caller as an Error, and the next call tries again") {
  // std::call_once aborted the process here (an exception cannot unwind through pthread_once).
  CHECK_THROWS_AS((zanj::base::load_table_once<FakeTable, open_fails_once>()), zanj::Error);
  const FakeTable& table = zanj::base::load_table_once<FakeTable, open_fails_once>();
  CHECK(table.value == 42);
  CHECK(&zanj::base::load_table_once<FakeTable, open_fails_once>() == &table);  // made once, then kept
  CHECK(opener_calls == 2);
}

TEST_CASE("try_load and find_symbol: the library or symbol, or why not, as load and symbol throw it") {
  const zanj::base::Result<const zanj::base::SharedLibrary*> zlib =
      zanj::base::SharedLibrary::try_load("test", {"libz.so.1"});
  REQUIRE(zlib.ok());
  CHECK((*zlib)->soname() == "libz.so.1");
  const zanj::base::Result<decltype(::crc32)*> crc = (*zlib)->find_symbol<decltype(::crc32)>("crc32");
  REQUIRE(crc.ok());
  const bool same = *crc == (*zlib)->symbol<decltype(::crc32)>("crc32");
  CHECK(same);
  const zanj::base::Result<void (*)()> none = (*zlib)->find_symbol<void()>("zanj_no_such_function");
  REQUIRE_FALSE(none.ok());
  CHECK(none.why().rfind("test: libz.so.1 has no zanj_no_such_function", 0) == 0);
  const zanj::base::Result<const zanj::base::SharedLibrary*> missing =
      zanj::base::SharedLibrary::try_load("remote archives", {"libzanj-missing.so.1"});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.why().rfind("remote archives needs libzanj-missing.so.1: ", 0) == 0);
}

namespace {
int result_opener_calls = 0;
struct ResultFakeTable {
  int value;
};
zanj::base::Result<ResultFakeTable> open_result_fails_once() {
  if (++result_opener_calls == 1) return zanj::base::Failure{"fake.so.1: cannot open shared object file"};
  return ResultFakeTable{7};
}
}  // namespace

TEST_CASE("try_load_table_once: why the open failed, then the table once it opens, kept") {
  const auto first = zanj::base::try_load_table_once<ResultFakeTable, open_result_fails_once>();
  REQUIRE_FALSE(first.ok());
  CHECK(first.why() == "fake.so.1: cannot open shared object file");
  const auto second = zanj::base::try_load_table_once<ResultFakeTable, open_result_fails_once>();
  REQUIRE(second.ok());
  CHECK((*second)->value == 7);
  CHECK(*zanj::base::try_load_table_once<ResultFakeTable, open_result_fails_once>() == *second);
  CHECK(result_opener_calls == 2);
}
