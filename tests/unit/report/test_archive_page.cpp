#include <doctest/doctest.h>

#include "test_support.hpp"
#include "zanj/report.hpp"
#include "zanj/summary.hpp"

using namespace zanj;

TEST_SUITE("archive_page") {
  TEST_CASE("summary, verify verdict, flags, bytes and the tree of a corpus archive") {
    const std::string path = test::corpus("nan_values.zanj");
    const ZanjFile z(path);
    const std::string page = report_page(z);
    CHECK(page.find("<h2>Summary</h2>") != std::string::npos);
    CHECK(page.find("class=\"ok\">valid") != std::string::npos);
    CHECK(page.find("NaN</span>") != std::string::npos);
    CHECK(page.find("Where the bytes go") != std::string::npos);
    CHECK(page.find("<b>small</b>") != std::string::npos);
  }
  TEST_CASE("the verdict first, then the summary and the settings as tables; zeros only noted") {
    const std::string path = test::corpus("model.zanj");
    const ZanjFile z(path);
    const std::string page = report_page(z);
    const std::size_t verdict = page.find("<h2>Verify</h2>"), summary = page.find("<h2>Summary</h2>");
    REQUIRE(verdict != std::string::npos);
    CHECK(verdict < summary);
    CHECK(page.find("<table class=\"facts\" id=\"settings\"><tr><th><code>error_mode</code></th>") !=
          std::string::npos);
    CHECK(page.find("&quot;array_mode&quot;") == std::string::npos);  // no raw JSON
    CHECK(page.find("<th>root</th><td>MLP</td>") != std::string::npos);
    CHECK(page.find("class=\"flag\">all zero") == std::string::npos);
    CHECK(page.find("class=\"note\" title=\"every value is 0\">all zero") != std::string::npos);
    CHECK(page.find("inline") != std::string::npos);
    // the tree: its first two levels open, class_source (13 strings, depth 2) closed
    CHECK(page.find("<li><details><summary><b>class_source</b>") != std::string::npos);
    CHECK(page.find("<li><details open><summary><b>state_dict</b>") != std::string::npos);
  }
  TEST_CASE("without verify the page says it was not verified") {
    const ZanjFile z(test::corpus("basic.zanj"));
    ReportOptions options;
    options.verify = false;
    CHECK(report_page(z, options).find("Not verified") != std::string::npos);
    CHECK(report_page(z).find("class=\"ok\">valid") != std::string::npos);
  }
}
