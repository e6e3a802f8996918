#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "temp_dir.hpp"
#include "zanj/error.hpp"
#include "zanj/report.hpp"
#include "zanj/summary.hpp"

using namespace zanj;

TEST_SUITE("save_page") {
  TEST_CASE("written whole, replacing an older page; no temporary file left") {
    const test::TempDir dir;
    const std::string path = dir.path() + "/r.html";
    save_page(path, "old");
    save_page(path, "<html>new</html>");
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    CHECK(text.str() == "<html>new</html>");
    CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), {}) == 1);
  }
  TEST_CASE("a missing directory is a usage error") {
    CHECK_THROWS_AS(save_page("/nonexistent-dir-zanj/r.html", "x"), Error);
  }
}
