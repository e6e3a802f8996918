#include <doctest/doctest.h>

#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "zanj/error.hpp"
#include "io/spool_file.hpp"

using namespace zanj;
using namespace zanj::io;

namespace {
std::size_t entries_in(const std::string& dir) {
  std::size_t n = 0;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) n += std::string(e->d_name) != "." && std::string(e->d_name) != "..";
    closedir(d);
  }
  return n;
}
}  // namespace

TEST_SUITE("spool_file") {
  TEST_CASE("appends and reads back, leaving nothing on disk") {
    char dir_template[] = "/tmp/zanj-spool-test-XXXXXX";
    REQUIRE(mkdtemp(dir_template) != nullptr);
    const std::string dir = dir_template;
    {
      SpoolFile spool(dir);
      CHECK(entries_in(dir) == 0);  // unlinked at once
      spool.append("hello ");
      spool.append(std::string(100000, 'x'));
      spool.append("world");
      CHECK(spool.size() == 100011);
      char buf[5];
      spool.read_at(100006, buf, 5);
      CHECK(std::string(buf, 5) == "world");
      spool.read_at(0, buf, 5);
      CHECK(std::string(buf, 5) == "hello");
      CHECK(spool.read_some(100009, buf, 5) == 2);
      CHECK(spool.read_some(200000, buf, 5) == 0);
      CHECK_THROWS_AS(spool.read_at(100008, buf, 5), Error);
    }
    CHECK(entries_in(dir) == 0);
    rmdir(dir.c_str());
  }

  TEST_CASE("a directory that cannot hold it is a usage error") {
    try {
      SpoolFile spool("/nonexistent/zanj");
      FAIL("created a spool file in a missing directory");
    } catch (const Error& e) {
      CHECK(e.exit() == Exit::usage);
      CHECK(std::string(e.what()).find("cannot create a temporary file in /nonexistent/zanj: ") == 0);
    }
  }
}
