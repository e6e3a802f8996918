// The --json shapes the command line gives the core's reports (src/cli/json_output).
#include <doctest/doctest.h>

#include "difference_fixture.hpp"
#include "json_output.hpp"
#include "test_support.hpp"

using namespace zanj;
using zanj::cli::difference_json;
using zanj::cli::verify_json;
using zanj::test::corpus;

using zanj::test::values_difference;

TEST_SUITE("cli json output") {
  TEST_CASE("verify --json has the documented shape") {
    const VerifyReport r = verify_file(corpus("malformed/bad_crc.zanj"));
    const Json j = verify_json(r, false);
    CHECK(j.find("file")->as_string() == corpus("malformed/bad_crc.zanj"));
    CHECK(j.find("ok")->as_bool() == false);
    const Json& e = j.find("errors")->as_array().at(0);
    CHECK(e.string_at("code") == "crc_mismatch");
    CHECK(e.string_at("member") == "big_array.npy");
    CHECK(e.find("path")->is_string());
    CHECK(e.find("message")->is_string());
    CHECK(j.find("warnings")->as_array().empty());
    for (const char* key : {"members", "members_read", "bytes_read", "references", "npy_members", "jsonl_members",
                            "jsonl_rows", "inline_arrays"})
      CHECK(j.find("checked")->find(key) != nullptr);
  }

  TEST_CASE("diff --json: the fields of one difference") {
    const Json j = difference_json(values_difference(DiffKind::array_values, "elements"));
    CHECK(j.string_at("path") == "w");
    CHECK(j.string_at("scope") == "object");
    CHECK(j.string_at("kind") == "array_values");
    CHECK(j.find("differing")->as_uint64() == 12);
    CHECK(j.find("compared")->as_uint64() == 512);
    CHECK(j.find("max_abs_diff")->as_real() == 0.25);
    CHECK(to_json(*j.find("max_abs_diff_at")) == "[3, 7]");
    CHECK(to_json(*j.find("max_rel_diff_at")) == "[0, 2]");
    CHECK(j.find("rtol")->as_real() == 1e-3);
    const Json plain = difference_json({DiffScope::object, "k", DiffKind::value_changed, 1, "1", {}});
    CHECK(plain.find("a")->as_int64() == 1);
    CHECK(plain.find("b")->as_string() == "1");
    CHECK(plain.find("differing") == nullptr);
  }
}
