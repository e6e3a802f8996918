#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "test_support.hpp"
#include "temp_dir.hpp"
#include "zanj/error.hpp"
#include "zanj/extract.hpp"

using namespace zanj;

namespace {

/// A temporary file holding `bytes`, removed on destruction.
struct TempArchive {
  std::string path;
  explicit TempArchive(const std::string& bytes) {
    char name[] = "/tmp/zanj-salvage-test-XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
    ::close(fd);
    path = name;
  }
  ~TempArchive() { std::remove(path.c_str()); }
};

}  // namespace

TEST_CASE("a readable directory is used as it is") {
  const SalvagedArchive opened = open_or_salvage(test::corpus("basic.zanj"));
  CHECK(opened.damage.empty());
  CHECK(opened.lost.empty());
  CHECK(opened.archive.entries().size() == 5);
}

TEST_CASE("a truncated archive: the members before the cut, read and checked") {
  const std::string whole = test::read_file(test::corpus("basic.zanj"));
  const TempArchive cut(whole.substr(0, whole.find("PK\x01\x02") + 10));
  const SalvagedArchive opened = open_or_salvage(cut.path);
  CHECK(opened.damage.find("end of central directory") != std::string::npos);
  REQUIRE(opened.archive.entries().size() == 5);
  const ZipEntry* meta = opened.archive.find("__zanj_meta__.json");
  REQUIRE(meta);
  CHECK(opened.archive.read_all(*meta, 1 << 20).size() == meta->uncompressed_size);
  const TempArchive mid(whole.substr(0, whole.size() / 2));
  const SalvagedArchive half = open_or_salvage(mid.path);
  CHECK(half.archive.entries().size() < 5);
  CHECK(half.lost.size() == 1);
}
