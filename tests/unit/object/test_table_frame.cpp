#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "json/json_parse.hpp"
#include "object/table_frame.hpp"
#include "zanj/error.hpp"

using namespace zanj;
using namespace zanj::object;

namespace {
/// Each column as "name:dtype", from rows given as JSON lines (what pandas.DataFrame(rows) builds).
std::vector<std::string> frame(const std::vector<std::string>& rows, const std::vector<std::string>& empty = {}) {
  FrameSchemaBuilder schema;
  std::uint64_t number = 0;
  for (const auto& row : rows) schema.add_row(json::parse_json(row, "row"), ++number);
  std::vector<std::string> out;
  for (const auto& c : schema.result(empty)) out.push_back(c.name + ":" + std::string(frame_dtype_name(c.dtype)));
  return out;
}
using V = std::vector<std::string>;
}  // namespace

TEST_SUITE("table_frame") {
  // Each expectation is what pandas 1.5.3 gave for pandas.DataFrame(rows) (tests/e2e/test_loaded_values.py
  // records them with the cells).
  TEST_CASE("columns by first appearance across the rows, not the columns field") {
    CHECK(frame({R"({"a": 1, "b": 2})", R"({"b": 2, "a": 1})"}) == V{"a:int64", "b:int64"});
    CHECK(frame({R"({"b": 2, "a": 1})", R"({"a": 1, "b": 2})"}) == V{"b:int64", "a:int64"});
    CHECK(frame({R"({"a": 1})", R"({"b": 2.5, "a": 2})"}) == V{"a:int64", "b:float64"});
    CHECK(frame({R"({"a": 0, "b": 2, "a": 1})"}) == V{"a:int64", "b:int64"});  // a repeated key keeps its place
    CHECK(frame({}, {"b", "a"}) == V{"b:object", "a:object"});                 // no rows: the columns field
  }

  TEST_CASE("dtypes as pandas infers them") {
    CHECK(frame({R"({"a": 1.5})", R"({"a": 1})"}) == V{"a:float64"});
    CHECK(frame({R"({"a": 1.5})", R"({"a": null})"}) == V{"a:float64"});
    CHECK(frame({R"({"a": 1.5})", R"({})"}) == V{"a:float64"});
    CHECK(frame({R"({"a": 1})", R"({})"}) == V{"a:float64"});
    CHECK(frame({R"({"a": null})", R"({})"}) == V{"a:float64"});
    CHECK(frame({R"({"a": null})", R"({"a": null})"}) == V{"a:object"});
    CHECK(frame({R"({"a": "x"})", R"({"a": null})"}) == V{"a:object"});
    CHECK(frame({R"({"a": true})", R"({"a": false})"}) == V{"a:bool"});
    CHECK(frame({R"({"a": true})", R"({"a": 1})"}) == V{"a:object"});
    CHECK(frame({R"({"a": true})", R"({})"}) == V{"a:object"});
    CHECK(frame({R"({"a": 9223372036854775808})", R"({"a": 1})"}) == V{"a:uint64"});
    CHECK(frame({R"({"a": 9223372036854775808})", R"({"a": -1})"}) == V{"a:object"});
    CHECK(frame({R"({"a": 18446744073709551616})"}) == V{"a:object"});
    CHECK(frame({R"({"a": null})", R"({"a": 1180591620717411303424})"}) ==
          V{"a:float64"});  // range unchecked after None
    CHECK(frame({R"({"a": 1180591620717411303424})", R"({"a": null})"}) == V{"a:object"});
    CHECK(frame({R"({"a": [1]})", R"({"a": {"k": 1}})"}) == V{"a:object"});
  }

  TEST_CASE("cells as the frame holds them") {
    const Json one = json::parse_json("1", "cell"), null = json::parse_json("null", "cell");
    CHECK(frame_cell(FrameDtype::float64, &one) == Json(1.0));
    CHECK(std::isnan(frame_cell(FrameDtype::float64, &null).as_real()));
    CHECK(std::isnan(frame_cell(FrameDtype::float64, nullptr).as_real()));
    CHECK(std::isnan(frame_cell(FrameDtype::object, nullptr).as_real()));  // pandas fills NaN
    CHECK(frame_cell(FrameDtype::object, &null).is_null());                // None stays None
    CHECK(frame_cell(FrameDtype::int64, &one) == Json(1));
  }

  TEST_CASE("a row that is not an object is refused") { CHECK_THROWS_AS(frame({R"({"a": 1})", "[1, 2]"}), Error); }
}
