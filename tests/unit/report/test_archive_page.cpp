#include <doctest/doctest.h>

#include "test_support.hpp"
#include "zanj/report.hpp"
#include "zanj/summary.hpp"

using namespace zanj;

TEST_SUITE("archive_page") {
  TEST_CASE("summary, verify verdict, flags, bytes and the tree of a corpus archive") {
    const std::string path = test::corpus("nan_values.zanj");
    const ZanjFile z(path);
    ReportOptions options;
    options.verify_path = path;
    const std::string page = report_page(z, options);
    CHECK(page.find("<h2>Summary</h2>") != std::string::npos);
    CHECK(page.find("class=\"ok\">valid") != std::string::npos);
    CHECK(page.find("NaN</span>") != std::string::npos);
    CHECK(page.find("Where the bytes go") != std::string::npos);
    CHECK(page.find("<b>small</b>") != std::string::npos);
  }
  TEST_CASE("standard input: the page says it was not verified") {
    const ZanjFile z(test::corpus("basic.zanj"));
    CHECK(report_page(z).find("Not verified") != std::string::npos);
  }
}
