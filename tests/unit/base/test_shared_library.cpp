// Lazily opened libraries: the first soname that opens is used, one object per library, and
// a missing library or symbol is a usage error that names what to install.
#include <doctest/doctest.h>

#include <zlib.h>

#include "base/shared_library.hpp"
#include "zanj/error.hpp"

namespace zanj {

TEST_CASE("load opens the first soname that exists, once, and finds typed symbols") {
  const SharedLibrary& zlib =
      SharedLibrary::load("test", {"libzanj-does-not-exist.so.9", "libz.so.1"});
  CHECK(zlib.soname() == "libz.so.1");
  CHECK(&zlib == &SharedLibrary::load("again", {"libzanj-does-not-exist.so.9"}));
  auto* crc = zlib.symbol<decltype(::crc32)>("crc32");
  const unsigned char bytes[] = {'a', 'b', 'c'};
  CHECK(crc(0, bytes, 3) == 0x352441c2u);
}

TEST_CASE("a missing library or symbol is a usage error naming it") {
  try {
    SharedLibrary::load("remote archives", {"libzanj-missing.so.1"});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.exit() == Exit::usage);
    CHECK(std::string(e.what()).rfind("remote archives needs libzanj-missing.so.1: ", 0) == 0);
  }
  const SharedLibrary& zlib = SharedLibrary::load("test", {"libz.so.1"});
  try {
    zlib.symbol<void()>("zanj_no_such_function");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.exit() == Exit::usage);
    CHECK(std::string(e.what()).find("libz.so.1 has no zanj_no_such_function") !=
          std::string::npos);
  }
}

}  // namespace zanj
