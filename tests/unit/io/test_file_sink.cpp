#include <doctest/doctest.h>

#include <filesystem>

#include "io/file_sink.hpp"
#include "temp_dir.hpp"
#include "zanj/error.hpp"

using namespace zanj;
using namespace zanj::io;
using zanj::test::TempDir;

TEST_SUITE("file_sink") {
  TEST_CASE("a file appears only when committed, with patched bytes") {
    TempDir dir;
    const std::string path = dir / "out.bin";
    {
      FileSink sink(path, Replace::yes);
      CHECK(sink.can_patch());
      sink.write("hello world");
      sink.patch(0, "J");
      CHECK(sink.size() == 11);
      CHECK(!std::filesystem::exists(path));
      sink.commit();
    }
    CHECK(zanj::test::read_file(path) == "Jello world");
  }

  TEST_CASE("an uncommitted sink leaves nothing") {
    TempDir dir;
    {
      FileSink sink(dir / "gone.bin", Replace::yes);
      sink.write("partial");
    }
    CHECK(dir.empty());
  }

  TEST_CASE("no clobber refuses an existing file and keeps it") {
    TempDir dir;
    const std::string path = dir / "kept.bin";
    zanj::test::write_file(path, "old");
    FileSink sink(path, Replace::no);
    sink.write("new");
    CHECK_THROWS_WITH_AS(sink.commit(), doctest::Contains("already exists"), Error);
    CHECK(zanj::test::read_file(path) == "old");
  }

  TEST_CASE("bad outputs are refused before anything is written") {
    TempDir dir;
    CHECK_THROWS_WITH_AS(FileSink(dir / "", Replace::yes), doctest::Contains("not a file name"), Error);
    CHECK_THROWS_WITH_AS(FileSink(dir / "missing/x.bin", Replace::yes), doctest::Contains("missing"), Error);
  }
}
