#include <doctest/doctest.h>

#include "report/page_frame.hpp"

using namespace zanj::report;

TEST_SUITE("page_frame") {
  TEST_CASE("a whole document: escaped title, dark mode, no URL but the SVG namespace") {
    std::string page;
    zanj::report::open_page(page, "<t>", "<h>");
    zanj::report::tree_search_box(page);
    zanj::report::close_page(page);
    CHECK(page.starts_with("<!DOCTYPE html>"));
    CHECK(page.find("<title>&lt;t&gt;</title>") != std::string::npos);
    CHECK(page.find("<h1>&lt;h&gt;</h1>") != std::string::npos);
    CHECK(page.find("prefers-color-scheme:dark") != std::string::npos);
    CHECK(page.find("http") == std::string::npos);
    CHECK(page.ends_with("</html>\n"));
  }
}
