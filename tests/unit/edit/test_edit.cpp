#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>

#include "temp_dir.hpp"
#include "test_support.hpp"
#include "zanj/archive.hpp"
#include "zanj/pack.hpp"
#include "zanj/error.hpp"
#include "zanj/verify.hpp"

using namespace zanj;
using zanj::test::corpus;
using zanj::test::member;
using zanj::test::read_file;
using zanj::test::TempDir;

namespace {

/// A copy of a corpus archive in `dir`.
std::string copy_of(const TempDir& dir, const std::string& name) {
  const std::string path = dir / name;
  std::filesystem::copy_file(corpus(name), path);
  return path;
}

}  // namespace

TEST_SUITE("edit") {
  TEST_CASE("parse_json_value reads what Python's json.loads reads, and refuses the rest") {
    CHECK(parse_json_value("64", "VALUE") == Json(std::int64_t{64}));
    CHECK(parse_json_value(" \"ReLU\" ", "VALUE") == Json("ReLU"));
    CHECK(std::isnan(parse_json_value("NaN", "VALUE").as_real()));
    CHECK(parse_json_value("{\"a\": 1, \"a\": 2}", "VALUE") == Json(JsonObject{{"a", std::int64_t{2}}}));
    CHECK_THROWS_AS(parse_json_value("ReLU", "VALUE"), Error);
    CHECK_THROWS_AS(parse_json_value("[1,", "VALUE"), Error);
  }

  TEST_CASE("replace_value sets a nested key or list item, adds a key with create, and names a near key") {
    const ZanjFile z(corpus("model.zanj"));
    const Json root = replace_value(z.root(), {"zanj_model_config", "d_hidden"}, Json(64), false, "model.zanj");
    CHECK(*root.find("zanj_model_config")->find("d_hidden") == Json(64));
    CHECK(*root.find("meta") == z.root().find("meta").copy());  // the rest as it was
    const Json added = replace_value(z.root(), {"zanj_model_config", "new"}, Json(true), true, "model.zanj");
    CHECK(added.find("zanj_model_config")->as_object().back() == std::pair<std::string, Json>{"new", Json(true)});
    const Json listed = replace_value(z.root(), {"meta", "class_source", "0"}, Json("x"), false, "model.zanj");
    CHECK(listed.find("meta")->find("class_source")->as_array()[0] == Json("x"));
    CHECK(replace_value(z.root(), {}, Json(1), false, "model.zanj") == Json(1));
    try {
      replace_value(z.root(), {"zanj_model_config", "d_hiden"}, Json(1), false, "model.zanj");
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find("did you mean 'd_hidden'?") != std::string::npos);
      CHECK(e.exit() == Exit::invalid);
    }
    CHECK_THROWS_AS(replace_value(z.root(), {"nothing", "here"}, Json(1), true, "model.zanj"), Error);
    CHECK_THROWS_AS(replace_value(z.root(), {"meta", "class_source", "01"}, Json(1), false, "model.zanj"), Error);
  }

  TEST_CASE("editable_json is the reference's tab-indented text with a newline") {
    const Json value(JsonObject{{"a", JsonArray{1, 2}}, {"b", "x"}});
    const ZanjFile z(corpus("model.zanj"));
    CHECK(editable_json(z.root().find("zanj_model_config")).starts_with("{\n\t\"__muutils_format__\""));
    CHECK(editable_json(z.root()).ends_with("}\n"));
  }

  TEST_CASE("rewrite_object replaces __zanj__.json and copies the rest as stored") {
    TempDir dir;
    const std::string path = copy_of(dir, "model.zanj");
    ::chmod(path.c_str(), 0640);
    const ZanjFile before(corpus("model.zanj"));
    const Json root = replace_value(before.root(), {"zanj_model_config", "d_out"}, Json(5), false, path);
    const RewriteOutcome outcome = rewrite_object(path, root, path);
    CHECK(outcome.written);
    CHECK(outcome.errors.empty());
    const Archive after(path);
    REQUIRE(after.entries().size() == before.archive().entries().size());
    for (std::size_t i = 0; i < after.entries().size(); ++i) {
      const ZipEntry& a = before.archive().entries()[i];
      const ZipEntry& b = after.entries()[i];
      CHECK(a.name == b.name);
      CHECK(a.method == b.method);
      if (a.name == kMainMember) continue;
      CHECK(a.crc32 == b.crc32);
      CHECK(a.compressed_size == b.compressed_size);
      CHECK(a.dos_date == b.dos_date);
    }
    const ZanjFile z(path);
    CHECK(z.root().find("zanj_model_config").find("d_out").as_int64() == 5);
    CHECK(member(after, std::string(kMainMember)) ==
          editable_json(z.root()).substr(0, editable_json(z.root()).size() - 1));
    CHECK(verify_file(path).ok());
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0640);
    CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), {}) == 1);  // no temporary file left
  }

  TEST_CASE("rewrite_object keeps externals_info on the nodes it moves, and drops what it deletes") {
    TempDir dir;
    const std::string path = copy_of(dir, "basic.zanj");
    const ZanjFile before(path);
    // nested/deeper/matrix moves to the root's "moved" (a list's first item); big_array goes.
    Json root = before.root().copy();
    Json matrix;
    for (auto& [key, value] : root.as_object()) {
      if (key != "nested") continue;
      for (auto& [deeper_key, deeper] : value.as_object())
        if (deeper_key == "deeper") matrix = deeper.find("matrix") ? *deeper.find("matrix") : Json();
      value = Json(JsonObject{});
    }
    REQUIRE(matrix.is_object());
    JsonObject kept;
    for (auto& [key, value] : root.as_object())
      if (key != "big_array") kept.emplace_back(key, std::move(value));
    kept.emplace_back("moved", Json(JsonArray{matrix}));
    const RewriteOutcome outcome = rewrite_object(path, Json(std::move(kept)), path);
    REQUIRE(outcome.written);
    CHECK(outcome.externals_moved == std::vector<std::string>{"nested/deeper/matrix.npy"});
    CHECK(outcome.members_dropped == std::vector<std::string>{"big_array.npy"});
    CHECK(outcome.members_copied == 2);  // long_list.jsonl and the matrix
    const ZanjFile after(path);
    CHECK(after.archive().find("big_array.npy") == nullptr);
    const JsonView externals = after.meta().find("externals_info");
    CHECK(!externals.find("big_array.npy"));
    CHECK(externals.find("nested/deeper/matrix.npy").find("path").copy() ==
          Json(JsonArray{Json("moved"), Json(std::int64_t{0})}));
    CHECK(externals.find("long_list.jsonl").find("path").copy() == Json(JsonArray{Json("long_list")}));
    // the rest of the meta as it was
    CHECK(after.meta().find("zanj_cfg") == before.meta().find("zanj_cfg"));
    const VerifyReport report = verify_file(path);
    CHECK(report.ok());
    CHECK(report.warnings.empty());
  }

  TEST_CASE("rewrite_object writes nothing for the same object or a result verify refuses") {
    TempDir dir;
    const std::string path = copy_of(dir, "model.zanj");
    const std::string original = read_file(path);
    const ZanjFile z(path);
    CHECK(rewrite_object(path, z.root().copy(), path).unchanged);
    const Json broken =
        replace_value(z.root(), {"state_dict", "net.0.weight", "shape"}, Json(JsonArray{1, 2}), false, path);
    const RewriteOutcome outcome = rewrite_object(path, broken, path);
    CHECK_FALSE(outcome.written);
    REQUIRE_FALSE(outcome.errors.empty());
    CHECK(outcome.errors[0].code == "npy_mismatch");
    CHECK(read_file(path) == original);
    CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), {}) == 1);
  }

  TEST_CASE("rewrite_object to another file refuses to replace one without Replace::yes") {
    TempDir dir;
    const std::string path = copy_of(dir, "model.zanj");
    const std::string out = dir / "out.zanj";
    const ZanjFile z(path);
    const Json root = replace_value(z.root(), {"meta", "class_name"}, Json("Other"), false, path);
    CHECK(rewrite_object(path, root, out).written);
    try {
      rewrite_object(path, root, out);
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.exit() == Exit::usage);
      CHECK(std::string(e.what()).find("--force") != std::string::npos);
    }
    RewriteSettings settings;
    settings.replace = Replace::yes;
    CHECK(rewrite_object(path, root, out, settings).written);
    CHECK(ZanjFile(out).root().find("meta").find("class_name").as_string() == "Other");
  }
}
