#include <doctest/doctest.h>

#include "zanj_builder.hpp"
#include "zanj/report.hpp"
#include "zanj/summary.hpp"

using namespace zanj;

namespace {
ZanjFile with_values(const std::string& values) {
  return test::make_zanj(R"({"m": {"w": {"__muutils_format__": "numpy.ndarray:array_list_meta", "dtype": "float64",)"
                         R"( "shape": [2, 3], "n_elements": 6, "data": )" +
                         values + "}}, \"n\": 1}");
}
}  // namespace

TEST_SUITE("comparison_page") {
  TEST_CASE("differing array: path, kind, histogram of a - b and the largest differences") {
    const std::string page =
        comparison_page(with_values("[[1, 2, 3], [4, 5, 6]]"), with_values("[[1, 2, 3], [4, 5, 16]]"), DiffOptions{});
    CHECK(page.find("m/w") != std::string::npos);
    CHECK(page.find("array_values") != std::string::npos);
    CHECK(page.find("Histogram of a - b for m/w") != std::string::npos);
    CHECK(page.find("<td>[1, 2]</td>") != std::string::npos);
    CHECK(page.find("Differences by subtree") != std::string::npos);
    // the a and b cells of the changed array: each side's dtype, shape and values in brief
    CHECK(page.find("<td>float64 [2, 3]: mean 3.5, 1 \xE2\x80\xA6 6</td><td>float64 [2, 3]: mean 5.16667, 1 "
                    "\xE2\x80\xA6 16</td>") != std::string::npos);
  }
  TEST_CASE("equal archives") {
    const std::string page =
        comparison_page(with_values("[[1, 2, 3], [4, 5, 6]]"), with_values("[[1, 2, 3], [4, 5, 6]]"), DiffOptions{});
    CHECK(page.find("class=\"ok\">equal") != std::string::npos);
  }
}
