#include <doctest/doctest.h>

#include "io/archive_library.hpp"

using namespace zanj;
using namespace zanj::io;

TEST_SUITE("archive_library") {
  TEST_CASE("libarchive opens at run time and names its version") {
    const ArchiveLibrary& lib = archive_library();
    CHECK(static_cast<bool>(lib.write_new));
    CHECK(static_cast<bool>(lib.read_next_header));
    CHECK(&archive_library() == &lib);  // opened once
    CHECK(archive_library_version_line().rfind("libarchive ", 0) == 0);
  }

  TEST_CASE("find_archive_library: the table archive_library() returns") {
    const base::Result<const ArchiveLibrary*> found = find_archive_library();
    REQUIRE(found.ok());  // the failure (not installed) is covered by test_version's "not installed" line
    CHECK(*found == &archive_library());
  }
}
