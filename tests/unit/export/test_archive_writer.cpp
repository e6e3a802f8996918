#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include "export/archive_writer.hpp"
#include "temp_dir.hpp"
#include "zanj/error.hpp"
#include "zanj/safe_files.hpp"

using namespace zanj;
using namespace zanj::exporter;
using zanj::test::TempDir;

TEST_SUITE("archive_writer") {
  TEST_CASE("entries streamed into a tar") {
    TempDir tmp;
    {
      UniqueFd fd(::open((tmp / "x.tar").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644));
      ArchiveWriter w("paxr", "", "x.tar");
      w.open(fd.get());
      w.begin("dir/a.npy", 5);
      w.write("ab");
      w.write("cde");
      w.end();
      w.close();
    }
    const std::string tar = zanj::test::read_file(tmp / "x.tar");
    CHECK(tar.size() % 512 == 0);
    CHECK(tar.rfind("dir/a.npy", 0) == 0);
    CHECK(tar.substr(512, 5) == "abcde");
  }

  TEST_CASE("unknown formats and filters are refused by name") {
    CHECK_THROWS_WITH_AS(ArchiveWriter("nosuch", "", "x"), doctest::Contains("nosuch"), Error);
    CHECK_THROWS_WITH_AS(ArchiveWriter("paxr", "nosuchfilter", "x"), doctest::Contains("nosuchfilter"), Error);
  }
}
