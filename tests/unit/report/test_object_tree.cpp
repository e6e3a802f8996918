#include <doctest/doctest.h>

#include "report/object_tree.hpp"
#include "zanj_builder.hpp"

using namespace zanj;
using namespace zanj::report;

TEST_SUITE("object_tree") {
  TEST_CASE("nested lists closed in order; hostile keys are text; arrays profiled and flagged") {
    const ZanjFile z = test::make_zanj(
        R"({"<script>alert(1)</script>": {"a\"b": 1}, "w": {"__muutils_format__": "numpy.ndarray:array_list_meta",)"
        R"( "dtype": "float64", "shape": [2, 2], "n_elements": 4, "data": [[0, 0], [0, 0]]}})");
    std::string out;
    const auto records = report::write_object_tree(out, z, ProfileOptions{});
    CHECK(out.find("<script>") == std::string::npos);
    CHECK(out.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
    CHECK(out.find("a&quot;b") != std::string::npos);
    REQUIRE(records.size() == 1);
    CHECK(records[0].path == "w");
    CHECK(records[0].all_zero);
    CHECK(out.find("all zero") != std::string::npos);
    // every <details> closed
    std::size_t opened = 0, closed = 0;
    for (std::size_t at = 0; (at = out.find("<details", at)) != std::string::npos; ++at) ++opened;
    for (std::size_t at = 0; (at = out.find("</details>", at)) != std::string::npos; ++at) ++closed;
    CHECK(opened == closed);
  }
}
