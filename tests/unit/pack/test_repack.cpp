#include <doctest/doctest.h>

#include <filesystem>

#include "temp_dir.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"
#include "zanj/extract.hpp"
#include "json/json_parse.hpp"
#include "pack/repack.hpp"

using namespace zanj;
using namespace zanj::pack;
using zanj::test::member_names;
using zanj::test::TempDir;
namespace fs = std::filesystem;

namespace {

/// Extract a corpus archive into tmp/name, as `zanj extract` does.
std::string extract_corpus(const TempDir& tmp, const std::string& name) {
  const Archive a = test::open_corpus(name);
  const std::string dir = tmp / name.substr(0, name.find('.'));
  const UniqueFd root = open_user_directory(dir, CreateDirs::yes);
  const ExtractResult r = write_extract(a, plan_extract(a, {}), root.get(), Replace::no);
  REQUIRE(r.failed.empty());
  return dir;
}

/// The meta a plan writes, as a tree; its text must be what zanj_json_text writes for it.
Json meta_of(const PackPlan& plan) {
  REQUIRE(plan.meta_text);
  const Json meta = json::parse_json(*plan.meta_text, "meta");
  CHECK(zanj_json_text(meta) == *plan.meta_text);
  return meta;
}

}  // namespace

TEST_SUITE("repack") {
  TEST_CASE("an unchanged directory: same members in the reference's order, object text kept") {
    TempDir tmp;
    const std::string dir = extract_corpus(tmp, "basic.zanj");
    const PackPlan plan = plan_repack(dir, {});
    CHECK(member_names(plan) ==
          std::vector<std::string>{"big_array.npy", "long_list.jsonl", "nested/deeper/matrix.npy"});
    REQUIRE(plan.root_text);
    CHECK(*plan.root_text == zanj::test::read_file(dir + "/__zanj__.json"));
    const Json meta = meta_of(plan);
    const Json& info = *meta.find("externals_info");
    CHECK(
        to_json(*info.find("nested/deeper/matrix.npy")) ==
        R"j({"item_type": "npy", "path": ["nested", "deeper", "matrix"], "type(data)": "<class 'numpy.ndarray'>", "len(data)": 20})j");
    CHECK(info.find("long_list.jsonl")->find("data[0]")->as_int64() == 0);  // kept from the old meta
    CHECK(meta.find("sysinfo")->find("python"));                            // kept
    CHECK(meta.find("sysinfo")->find("zanj_cli"));                          // added
    CHECK(plan.method == ZipMethod::deflate);
    CHECK(plan.notes.empty());
  }

  TEST_CASE("the meta's references and unreferenced files are packed too") {
    TempDir tmp;
    const std::string dir = extract_corpus(tmp, "tuple_list.zanj");
    zanj::test::write_file(dir + "/notes/readme.txt", "extra");
    const PackPlan plan = plan_repack(dir, {});
    const auto names = member_names(plan);
    REQUIRE(names.size() == 7);
    CHECK(std::vector<std::string>(names.begin(), names.begin() + 3) ==
          std::vector<std::string>{"tup.jsonl", "strings.jsonl", "mixed.jsonl"});
    CHECK(names[3].rfind("zanj_cfg/", 0) == 0);
    CHECK(names.back() == "notes/readme.txt");
  }

  TEST_CASE("an edited array updates its reference node") {
    TempDir tmp;
    const std::string dir = extract_corpus(tmp, "basic.zanj");
    zanj::test::write_file(dir + "/big_array.npy",
                           array::make_npy_header(array::parse_descr(">i2"), true, {4, 5}) + std::string(40, '\1'));
    const PackPlan plan = plan_repack(dir, {});
    CHECK(!plan.root_text);
    CHECK(
        to_json(*plan.root.find("big_array")) ==
        R"j({"__muutils_format__": "numpy.ndarray:external", "$ref": "big_array.npy", "shape": [4, 5], "dtype": ">i2", "n_elements": 20})j");
    const Json meta = meta_of(plan);
    CHECK(meta.find("externals_info")->find("big_array.npy")->find("len(data)")->as_int64() == 4);
  }

  TEST_CASE("an edited table updates its length and first row, in the node and the meta") {
    TempDir tmp;
    const std::string dir = extract_corpus(tmp, "dataframe.zanj");
    CHECK(plan_repack(dir, {}).root_text);  // unchanged: kept byte for byte
    zanj::test::write_file(dir + "/tiny_table.jsonl",
                           "{\"a\": 9, \"b\": \"z\"}\n{\"a\": 1, \"b\": \"x\"}\n{\"a\": 2, \"b\": \"y\"}\n");
    const PackPlan plan = plan_repack(dir, {});
    CHECK(!plan.root_text);
    const Json* node = plan.root.find("tiny_table");
    CHECK(node->find("len(data)")->as_uint64() == 3);
    CHECK(to_json(*node->find("data[0]")) == R"j({"a": 9, "b": "z"})j");
    const Json meta = meta_of(plan);
    const Json* info = meta.find("externals_info")->find("tiny_table.jsonl");
    CHECK(info->find("len(data)")->as_int64() == 3);
    CHECK(to_json(*info->find("data[0]")) == R"j({"a": 9, "b": "z"})j");
    zanj::test::write_file(dir + "/tiny_table.jsonl", "{\"a\": \n");
    CHECK_THROWS_WITH_AS(plan_repack(dir, {}), doctest::Contains("tiny_table.jsonl"), Error);
  }

  TEST_CASE("a stored archive stays stored unless told otherwise") {
    TempDir tmp;
    const std::string dir = extract_corpus(tmp, "stored.zanj");
    CHECK(plan_repack(dir, {}).method == ZipMethod::store);
    PackSettings deflate;
    deflate.method = ZipMethod::deflate;
    const PackPlan plan = plan_repack(dir, deflate);
    CHECK(plan.method == ZipMethod::deflate);
    const Json meta = meta_of(plan);
    CHECK(meta.find("zanj_cfg")->find("compress")->as_int64() == 8);
  }

  TEST_CASE("without a meta a fresh one is made") {
    TempDir tmp;
    const std::string dir = extract_corpus(tmp, "dataclass.zanj");
    fs::remove(dir + "/__zanj_meta__.json");
    const PackPlan plan = plan_repack(dir, {});
    const Json meta = meta_of(plan);
    CHECK(meta.find("zanj_cfg")->string_at("error_mode") == "ErrorMode.Except");
    CHECK(meta.find("externals_info")->find("weights.npy")->string_at("item_type") == "npy");
  }

  TEST_CASE("what cannot be packed back is refused") {
    TempDir tmp;
    CHECK_THROWS_WITH_AS(plan_repack(tmp.path(), {}), doctest::Contains("no __zanj__.json"), Error);
    const std::string dir = extract_corpus(tmp, "basic.zanj");
    fs::remove(dir + "/long_list.jsonl");
    CHECK_THROWS_WITH_AS(plan_repack(dir, {}), doctest::Contains("long_list.jsonl"), Error);
    zanj::test::write_file(dir + "/long_list.jsonl", "1\n");
    fs::create_symlink("/etc/hostname", dir + "/link");
    CHECK_THROWS_WITH_AS(plan_repack(dir, {}), doctest::Contains("symbolic link"), Error);
    fs::remove(dir + "/link");
    zanj::test::write_file(dir + "/big_array.npy", "garbage");
    CHECK_THROWS_WITH_AS(plan_repack(dir, {}), doctest::Contains("big_array.npy"), Error);
  }

  TEST_CASE("leftover temporary files are skipped with a note") {
    TempDir tmp;
    const std::string dir = extract_corpus(tmp, "basic.zanj");
    zanj::test::write_file(dir + "/.big_array.npy.zanj-tmp-AbCdEfGh", "partial");
    const PackPlan plan = plan_repack(dir, {});
    CHECK(member_names(plan).size() == 3);
    REQUIRE(plan.notes.size() == 1);
    CHECK(plan.notes[0].find("temporary") != std::string::npos);
  }
}
