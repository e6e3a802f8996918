#include <doctest/doctest.h>

#include <filesystem>

#include "export/staged_directory.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"

using namespace zanj;
using namespace zanj::exporter;
using zanj::test::TempDir;
namespace fs = std::filesystem;

TEST_SUITE("staged_directory") {
  TEST_CASE("files appear under the name only on commit") {
    TempDir tmp;
    {
      StagedDirectory dir(tmp / "out", false);
      UniqueFd fd = dir.create_file("a/b.npy");
      write_all(fd.get(), "xyz", "b.npy");
      CHECK(fd.close());
      CHECK_FALSE(fs::exists(tmp / "out"));
      dir.commit();
    }
    CHECK(zanj::test::read_file(tmp / "out/a/b.npy") == "xyz");
    CHECK(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()) == 1);
  }

  TEST_CASE("an uncommitted directory is removed") {
    TempDir tmp;
    {
      StagedDirectory dir(tmp / "out", false);
      dir.create_file("x");
    }
    CHECK(tmp.empty());
  }

  TEST_CASE("an existing target is refused, or replaced when allowed") {
    TempDir tmp;
    fs::create_directory(tmp / "out");
    zanj::test::write_file(tmp / "out/old", "old");
    CHECK_THROWS_WITH_AS(StagedDirectory(tmp / "out", false), doctest::Contains("already exists"), Error);
    {
      StagedDirectory dir(tmp / "out", true);
      dir.create_file("new");
      dir.commit();
    }
    CHECK(fs::exists(tmp / "out/new"));
    CHECK_FALSE(fs::exists(tmp / "out/old"));
    CHECK(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()) == 1);
  }
}
