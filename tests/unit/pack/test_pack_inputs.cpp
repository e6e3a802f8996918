#include <doctest/doctest.h>

#include "temp_dir.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"
#include "zanj/pack.hpp"
#include "pack/pack_plan.hpp"

using namespace zanj;
using namespace zanj::pack;
using zanj::test::convert;
using zanj::test::member_names;
using zanj::test::TempDir;

namespace {

std::vector<std::string> keys(const Json& object) {
  std::vector<std::string> out;
  for (const auto& [k, v] : object.as_object()) out.push_back(k);
  return out;
}

}  // namespace

TEST_SUITE("pack_inputs") {
  TEST_CASE("input kinds by extension, then by content") {
    TempDir tmp;
    CHECK(input_kind(convert("arrays.npz")) == InputKind::npz);
    CHECK(input_kind(convert("single.npy")) == InputKind::npy);
    CHECK(input_kind(convert("plain.json")) == InputKind::json);
    CHECK(input_kind(tmp.path()) == InputKind::directory);
    zanj::test::write_file(tmp / "arrays", zanj::test::read_file(convert("arrays.npz")));
    zanj::test::write_file(tmp / "array", zanj::test::read_file(convert("single.npy")));
    zanj::test::write_file(tmp / "doc", "{}");
    CHECK(input_kind(tmp / "arrays") == InputKind::npz);
    CHECK(input_kind(tmp / "array") == InputKind::npy);
    CHECK(input_kind(tmp / "doc") == InputKind::json);
    CHECK_THROWS_AS(input_kind(tmp / "missing"), Error);
    CHECK_THROWS_WITH_AS(input_kind(test::corpus("basic.zanj")), doctest::Contains("already"), Error);
  }

  TEST_CASE("an npz gives a dict root with one external array per member, in storage order") {
    const PackPlan plan = plan_pack({PackInput{"", convert("arrays_compressed.npz")}}, {});
    CHECK(keys(plan.root) == std::vector<std::string>{"weights", "bias", "labels", "mask", "tiny"});
    CHECK(member_names(plan) ==
          std::vector<std::string>{"weights.npy", "bias.npy", "labels.npy", "mask.npy", "tiny.npy"});
    CHECK(
        to_json(*plan.root.find("weights")) ==
        R"j({"__muutils_format__": "numpy.ndarray:external", "$ref": "weights.npy", "shape": [64, 32], "dtype": "float32", "n_elements": 2048})j");
    CHECK(plan.root.find("mask")->string_at("dtype") == "bool");
    const auto& src = std::get<ArchiveMemberSource>(plan.members[0].source);
    CHECK(src.entry->name == "weights.npy");
    CHECK(plan.members[0].size == 8320);
    CHECK(to_json(*plan.meta.find("externals_info")->find("labels.npy")) ==
          R"j({"item_type": "npy", "path": ["labels"], "type(data)": "<class 'numpy.ndarray'>", "len(data)": 1000})j");
    CHECK(plan.method == ZipMethod::deflate);
  }

  TEST_CASE("a lone npy is wrapped in a dict, keyed by its stem or --key") {
    const PackPlan plan = plan_pack({PackInput{"", convert("single.npy")}}, {});
    CHECK(keys(plan.root) == std::vector<std::string>{"single"});
    CHECK(member_names(plan) == std::vector<std::string>{"single.npy"});
    CHECK(std::get<DiskFileSource>(plan.members[0].source).path == convert("single.npy"));
    PackSettings keyed;
    keyed.npy_key = "w";
    CHECK(keys(plan_pack({PackInput{"", convert("single.npy")}}, keyed).root) == std::vector<std::string>{"w"});
  }

  TEST_CASE("several inputs become root keys; names must differ") {
    const PackPlan plan = plan_pack({PackInput{"a", convert("arrays.npz"), true}, PackInput{"", convert("plain.json")},
                                     PackInput{"", convert("single.npy")}},
                                    {});
    CHECK(keys(plan.root) == std::vector<std::string>{"a", "plain", "single"});
    CHECK(member_names(plan)[0] == "a/weights.npy");
    CHECK(member_names(plan).back() == "single.npy");
    CHECK(plan.root.find("single")->string_at("$ref") == "single.npy");
    CHECK_THROWS_WITH_AS(
        plan_pack({PackInput{"", convert("single.npy")}, PackInput{"single", convert("plain.json"), true}}, {}),
        doctest::Contains("'single'"), Error);
  }

  TEST_CASE("a JSON input and the settings recorded in the meta") {
    PackSettings settings;
    settings.thresholds = {100, 400};
    settings.method = ZipMethod::store;
    const PackPlan plan = plan_pack({PackInput{"", convert("plain.json")}}, settings);
    CHECK(member_names(plan) == std::vector<std::string>{"losses.jsonl"});  // 500 >= 400 > 300
    const Json* cfg = plan.meta.find("zanj_cfg");
    CHECK(cfg->find("external_array_threshold")->as_uint64() == 100);
    CHECK(cfg->find("external_list_threshold")->as_uint64() == 400);
    CHECK(cfg->find("compress")->as_uint64() == 0);
    CHECK(plan.method == ZipMethod::store);
  }

  TEST_CASE("broken inputs are refused with their name") {
    TempDir tmp;
    const std::string npy = zanj::test::read_file(convert("single.npy"));
    zanj::test::write_file(tmp / "short.npy", npy.substr(0, npy.size() - 4));
    std::string objects = array::make_npy_header(array::parse_descr("<f8"), false, {2});
    objects.replace(objects.find("<f8"), 3, "|O8");  // pickled objects: never accepted as data
    zanj::test::write_file(tmp / "objects.npy", objects + std::string(16, 'x'));
    zanj::test::write_file(tmp / "bad.json", "{\"a\": ");
    CHECK_THROWS_WITH_AS(plan_pack({PackInput{"", tmp / "short.npy"}}, {}), doctest::Contains("short.npy"), Error);
    CHECK_THROWS_WITH_AS(plan_pack({PackInput{"", tmp / "objects.npy"}}, {}), doctest::Contains("objects.npy"), Error);
    CHECK_THROWS_WITH_AS(plan_pack({PackInput{"", tmp / "bad.json"}}, {}), doctest::Contains("bad.json"), Error);
    CHECK_THROWS_WITH_AS(plan_pack({PackInput{"", tmp.path()}, PackInput{"", convert("single.npy")}}, {}),
                         doctest::Contains("on its own"), Error);
  }
}
