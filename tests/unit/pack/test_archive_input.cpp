#include <doctest/doctest.h>

#include <fcntl.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "export/archive_writer.hpp"
#include "pack/archive_input.hpp"
#include "temp_dir.hpp"
#include "zanj/error.hpp"
#include "zanj/safe_files.hpp"

using namespace zanj;
using zanj::test::TempDir;

namespace {

void write_tar(const std::string& path, const std::vector<std::pair<std::string, std::string>>& files) {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644));
  ArchiveWriter w("paxr", "gzip", path);
  w.open(fd.get());
  for (const auto& [name, bytes] : files) {
    w.begin(name, bytes.size());
    w.write(bytes);
    w.end();
  }
  w.close();
}

}  // namespace

TEST_SUITE("archive_input") {
  TEST_CASE("names libarchive reads") {
    CHECK(is_libarchive_input("a.tar.zst"));
    CHECK(is_libarchive_input("a.7z"));
    CHECK_FALSE(is_libarchive_input("a.npz"));
    CHECK_FALSE(is_libarchive_input("dir"));
  }

  TEST_CASE("an archive is unpacked into a directory removed afterwards") {
    TempDir tmp;
    write_tar(tmp / "x.tar.gz", {{"__zanj__.json", "{}"}, {"a/b.npy", "xyz"}});
    std::string dir;
    {
      const UnpackedArchive u(tmp / "x.tar.gz", ResourceLimits{});
      dir = u.directory();
      CHECK(zanj::test::read_file(dir + "/a/b.npy") == "xyz");
    }
    CHECK_FALSE(std::filesystem::exists(dir));
  }

  TEST_CASE("hostile names and bombs are refused") {
    TempDir tmp;
    write_tar(tmp / "evil.tar.gz", {{"../evil", "x"}});
    CHECK_THROWS_WITH_AS(UnpackedArchive(tmp / "evil.tar.gz", ResourceLimits{}), doctest::Contains("evil"), Error);
    write_tar(tmp / "bomb.tar.gz", {{"zeros", std::string(4 << 20, '\0')}});
    ResourceLimits tight;
    tight.max_ratio = 1;
    CHECK_THROWS_WITH_AS(UnpackedArchive(tmp / "bomb.tar.gz", tight), doctest::Contains("--max-ratio"), Error);
  }
}
