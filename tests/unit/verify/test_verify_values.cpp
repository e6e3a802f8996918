#include <deque>

#include <doctest/doctest.h>

#include "doctest_printers.hpp"

#include "verify/verify_checks.hpp"
#include "zanj_fixture.hpp"
#include "json/json_parse.hpp"
#include "json/json_view_access.hpp"

using namespace zanj;
using namespace zanj::verify;
using Role = MemberPlan::Role;

namespace {

/// An external array node as __zanj__.json holds it. A plan views its array nodes, so each
/// one is kept for the whole run (a deque does not move what it holds).
JsonView array_node(const char* dtype, std::vector<std::uint64_t> shape,
                    std::optional<std::uint64_t> n_elements = std::nullopt) {
  static std::deque<Json> nodes;
  JsonArray dims(shape.begin(), shape.end());
  JsonObject node{
      {"__muutils_format__", "numpy.ndarray:external"}, {"$ref", "m"}, {"dtype", dtype}, {"shape", std::move(dims)}};
  if (n_elements) node.emplace_back("n_elements", *n_elements);
  return json::view_of(nodes.emplace_back(std::move(node)));
}

/// Feed `bytes` in chunks of `chunk` bytes (1 finds every split-boundary bug) and finish.
std::vector<std::string> run_check(const MemberPlan& plan, const std::string& bytes, std::size_t chunk,
                                   const ResourceLimits& limits = {}, VerifyCounts* counts = nullptr) {
  ZipEntry entry;
  entry.name = "m";
  VerifyReport report;
  MemberValueCheck check(entry, plan, limits);
  for (std::size_t at = 0; at < bytes.size(); at += chunk) check.feed(std::string_view(bytes).substr(at, chunk));
  check.finish(report);
  if (counts) *counts = report.checked;
  std::vector<std::string> codes;
  for (const auto* list : {&report.errors, &report.warnings})
    for (const Problem& p : *list) codes.push_back(p.code);
  return codes;
}

MemberPlan npy_plan(const char* dtype = "float32", std::vector<std::uint64_t> shape = {4, 3},
                    std::optional<std::uint64_t> n_elements = std::nullopt) {
  MemberPlan plan;
  plan.role = Role::npy;
  plan.arrays.push_back(array_node(dtype, std::move(shape), n_elements));
  return plan;
}

MemberPlan jsonl_plan(std::optional<std::uint64_t> rows, std::optional<std::vector<std::string>> columns = {}) {
  MemberPlan plan;
  plan.role = Role::jsonl;
  plan.lines().rows = rows;
  plan.lines().rows_from = "len(data)";
  plan.lines().columns = std::move(columns);
  plan.list_elements = !plan.lines().columns;
  return plan;
}

using Codes = std::vector<std::string>;

}  // namespace

TEST_SUITE("verify_values") {
  TEST_CASE("npy: header and data length against the array node, in any chunking") {
    for (const std::size_t chunk : {1, 7, 64, 1 << 20}) {
      CAPTURE(chunk);
      VerifyCounts counts;
      CHECK(run_check(npy_plan(), test::fixture_npy(), chunk, {}, &counts).empty());
      CHECK(counts.npy_members == 1);
      CHECK(run_check(npy_plan("torch.float32"), test::fixture_npy(), chunk).empty());
      CHECK(run_check(npy_plan("float64"), test::fixture_npy(), chunk) == Codes{"npy_mismatch"});
      CHECK(run_check(npy_plan("float32", {3, 4}), test::fixture_npy(), chunk) == Codes{"npy_mismatch"});
      // numpy reads only the bytes the shape needs: more is a warning, fewer an error
      CHECK(run_check(npy_plan(), test::fixture_npy("<f4", {4, 3}, 1), chunk) == Codes{"npy_trailing_data"});
      const std::string npy = test::fixture_npy();
      CHECK(run_check(npy_plan(), npy.substr(0, npy.size() - 1), chunk) == Codes{"npy_data_size"});
      CHECK(run_check(npy_plan(), test::fixture_npy().substr(0, 40), chunk) == Codes{"npy_invalid"});
      CHECK(run_check(npy_plan(), "", chunk) == Codes{"npy_invalid"});
    }
  }

  TEST_CASE("npy: what np.load refuses is invalid, whatever the node says") {
    CHECK(run_check(npy_plan("<U0"), test::fixture_npy("<U0"), 64) == Codes{"npy_invalid"});
    CHECK(run_check(npy_plan("|S0", {4}), test::fixture_npy("|S0", {4}), 64) == Codes{"npy_invalid"});
    constexpr std::uint64_t k2p62 = std::uint64_t{1} << 62;
    CHECK(run_check(npy_plan("uint8", {k2p62, 0, 4}),
                    array::make_npy_header(array::parse_descr("|u1"), false, {k2p62, 0, 4}),
                    64) == Codes{"npy_invalid"});
    CHECK(run_check(npy_plan("float64", {1000000000000000000, 0}),
                    array::make_npy_header(array::parse_descr("<f8"), false, {1000000000000000000, 0}), 64)
              .empty());
  }

  TEST_CASE("npy: object dtypes, bad magic, header limits, n_elements") {
    std::string object = test::fixture_npy();
    object.replace(object.find("<f4"), 3, "|O4");
    CHECK(run_check(npy_plan(), object, 5) == Codes{"npy_invalid"});
    CHECK(run_check(npy_plan(), "NOTNPY" + test::fixture_npy().substr(6), 5) == Codes{"npy_invalid"});
    ResourceLimits limits;
    limits.max_npy_header_bytes = 20;
    CHECK(run_check(npy_plan(), test::fixture_npy(), 5, limits) == Codes{"npy_invalid"});
    MemberPlan plan = npy_plan("float32", {4, 3}, 11);
    CHECK(run_check(plan, test::fixture_npy(), 5) == Codes{"npy_mismatch"});
    plan = npy_plan("bfloat16");
    CHECK(run_check(plan, test::fixture_npy(), 5) == Codes{"npy_mismatch"});
  }

  TEST_CASE("jsonl: rows, invalid lines, Python tokens, a last line without newline") {
    for (const std::size_t chunk : {1, 3, 1 << 20}) {
      CAPTURE(chunk);
      VerifyCounts counts;
      CHECK(run_check(jsonl_plan(3), "1\nNaN\n-Infinity\n", chunk, {}, &counts).empty());
      CHECK(counts.jsonl_rows == 3);
      CHECK(counts.jsonl_members == 1);
      CHECK(run_check(jsonl_plan(3), "1\n2\n3", chunk).empty());
      CHECK(run_check(jsonl_plan(3), "1\n2\n", chunk) == Codes{"jsonl_row_count"});
      CHECK(run_check(jsonl_plan(std::nullopt), "1\n2\n", chunk).empty());
      CHECK(run_check(jsonl_plan(3), "1\n{x\n3\n", chunk) == Codes{"jsonl_invalid"});
      CHECK(run_check(jsonl_plan(3), "1\n\n3\n", chunk) == Codes{"jsonl_invalid"});  // Python cannot load ""
    }
  }

  TEST_CASE("jsonl: line length and depth limits, inline arrays in list elements") {
    ResourceLimits limits;
    limits.max_jsonl_line_bytes = 4;
    CHECK(run_check(jsonl_plan(2), "1\n123456\n", 2, limits) == Codes{"jsonl_invalid"});
    limits = {};
    limits.max_json_depth = 2;
    CHECK(run_check(jsonl_plan(1), "[[[1]]]\n", 2, limits) == Codes{"jsonl_invalid"});
    const std::string bad_hex =
        R"({"__muutils_format__": "numpy.ndarray:array_hex_meta", "data": "01", "shape": [1], "dtype": "int16"})";
    VerifyCounts counts;
    CHECK(run_check(jsonl_plan(1), bad_hex + "\n", 9, {}, &counts) == Codes{"inline_array_invalid"});
    CHECK(counts.inline_arrays == 1);
  }

  TEST_CASE("jsonl: a node an externals_info path reaches inside the lines has that member's $ref") {
    MemberPlan plan = jsonl_plan(3);
    const auto ref = [](std::string path) {
      return MemberPlan::LineReference{json::parse_json(path, "path").as_array(), "a.npy", "lst"};
    };
    const std::string node = R"({"__muutils_format__": "numpy.ndarray:external", "$ref": "a.npy"})";
    plan.lines().line_references = {ref("[1]"), ref("[true]"), ref("[-1]")};  // a negative index is not judged
    CHECK(run_check(plan, "0\n" + node + "\n2\n", 3).empty());
    plan.lines().line_references = {ref("[false, \"k\"]")};  // line 0 is a number: no keys
    CHECK(run_check(plan, "0\n" + node + "\n2\n", 3) == Codes{"externals_info_mismatch"});
    plan.lines().line_references = {ref("[1, \"k\"]")};  // into an external node nothing here loads: not judged
    CHECK(run_check(plan, "0\n" + node + "\n2\n", 3).empty());
    plan.lines().line_references = {ref("[1]")};
    CHECK(run_check(plan, "0\n{\"$ref\": \"b.npy\"}\n2\n", 3) == Codes{"externals_info_mismatch"});
    plan.lines().line_references = {ref("[7]")};
    CHECK(run_check(plan, "0\n1\n2\n", 3) == Codes{"externals_info_mismatch"});  // no such line
  }

  TEST_CASE("rows: a reference node's claims, checked against the member it names") {
    MemberPlan plan = jsonl_plan(2);
    const auto ref = [](std::string path, std::string member, bool npy) {
      return MemberPlan::LineReference{json::parse_json(path, "path").as_array(), member, "lst", npy};
    };
    plan.lines().line_references = {ref("[0, \"arr\"]", "a.npy", true), ref("[1, \"sub\"]", "s.jsonl", false)};
    const std::string lines =
        R"({"arr": {"__muutils_format__": "numpy.ndarray:external", "$ref": "a.npy", "shape": [2, 3], "dtype": "float32"}})"
        "\n"
        R"x({"sub": {"__muutils_format__": "list:external", "$ref": "s.jsonl", "len(data)": 4}})x"
        "\n";
    ZipEntry entry;
    entry.name = "m";
    VerifyReport found;
    const ResourceLimits limits;  // the check keeps a reference: it must outlive the check
    MemberValueCheck check(entry, plan, limits);
    check.feed(lines);
    check.finish(found);
    CHECK(found.errors.empty());
    const std::vector<RowClaim> claims = check.row_claims();
    REQUIRE(claims.size() == 2);
    CHECK(claims[0].array->shape == std::vector<std::uint64_t>{2, 3});
    CHECK(claims[1].rows == 4u);
    CHECK(check.row_target().lines == 2u);  // this member's own line count, for claims on it

    const auto codes_for = [&](const array::NpyHeader& header, std::uint64_t lines_in_sub) {
      std::map<std::string, RowTarget, std::less<>> targets;
      targets["a.npy"].header = header;
      targets["s.jsonl"].lines = lines_in_sub;
      VerifyReport report;
      check_row_claims(claims, targets, report);
      std::vector<std::string> codes;
      for (const Problem& p : report.errors) codes.push_back(p.code + " " + p.member);
      return codes;
    };
    array::NpyHeader header;
    header.dtype = array::parse_dtype_name("float32");
    header.shape = {2, 3};
    CHECK(codes_for(header, 4).empty());
    CHECK(codes_for(header, 5) == std::vector<std::string>{"jsonl_row_count s.jsonl"});
    header.shape = {3, 2};
    CHECK(codes_for(header, 4) == std::vector<std::string>{"npy_mismatch a.npy"});
    header.shape = {2, 3};
    header.dtype = array::parse_dtype_name("float64");
    CHECK(codes_for(header, 4) == std::vector<std::string>{"npy_mismatch a.npy"});
    // A member with nothing to check against (missing or invalid, reported elsewhere): no claim judged.
    VerifyReport none;
    check_row_claims(claims, {}, none);
    CHECK(none.errors.empty());
    // The item_type is held to the node it reaches, as for paths in __zanj__.json.
    plan.lines().line_references = {ref("[0, \"arr\"]", "a.npy", false)};
    CHECK(run_check(plan, lines, 5) == Codes{"externals_info_mismatch"});
  }

  TEST_CASE("tables: every row an object with exactly the columns") {
    const auto plan = jsonl_plan(2, std::vector<std::string>{"a", "b"});
    CHECK(run_check(plan, "{\"b\": 1, \"a\": 2}\n{\"a\": NaN, \"b\": null}\n", 4).empty());
    CHECK(run_check(plan, "{\"a\": 1}\n{\"a\": 1, \"b\": 2, \"c\": 3}\n", 4) ==
          Codes{"table_columns", "table_columns"});
    CHECK(run_check(plan, "[1, 2]\n{\"a\": 1, \"c\": 2}\n", 4) == Codes{"table_columns", "table_columns"});
    // pandas allows a column name twice; a row, being a dict, holds it once
    const MemberPlan twice = jsonl_plan(2, std::vector<std::string>{"a", "b", "a"});
    CHECK(run_check(twice, "{\"a\": 1, \"b\": 2}\n{\"b\": 1, \"a\": 2}\n", 4).empty());
    CHECK(run_check(twice, "{\"a\": 1, \"b\": 2}\n{\"a\": 2}\n", 4) == Codes{"table_columns"});
  }

  TEST_CASE("members without a plan are only counted") {
    MemberPlan other;
    CHECK(run_check(other, "anything at all", 3).empty());
  }

  TEST_CASE("inline arrays in a document, with their paths") {
    const Json doc = json::parse_json(R"({"a": {"b": {"__muutils_format__": "numpy.ndarray:array_list_meta",
        "data": [1, 2, 3], "shape": [2], "dtype": "int8"}},
      "ok": {"__muutils_format__": "torch.Tensor:zero_dim", "data": 1.5, "shape": [], "dtype": "torch.float32"}})",
                                      "doc");
    VerifyReport report;
    check_inline_arrays(doc, "__zanj__.json", report);
    CHECK(report.checked.inline_arrays == 2);
    REQUIRE(report.errors.size() == 1);
    CHECK(report.errors[0].code == "inline_array_invalid");
    CHECK(report.errors[0].path == "a/b");
    CHECK(report.errors[0].member == "__zanj__.json");
  }
}
