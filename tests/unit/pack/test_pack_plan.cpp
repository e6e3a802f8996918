#include <doctest/doctest.h>

#include "temp_dir.hpp"
#include "zanj/error.hpp"
#include "pack/pack_plan.hpp"

using namespace zanj;
using namespace zanj::pack;

namespace {
JsonArray path(std::initializer_list<Json> segments) { return JsonArray(segments); }
}  // namespace

TEST_SUITE("pack_plan") {
  TEST_CASE("member names are the path joined by '/', unescaped, plus the item type") {
    ExternalRegistry r;
    CHECK(r.name_for(path({"big_array"}), "npy") == "big_array.npy");
    CHECK(r.name_for(path({"nested", "deeper", "matrix"}), "npy") == "nested/deeper/matrix.npy");
    CHECK(r.name_for(path({"list", std::uint64_t{3}}), "jsonl") == "list/3.jsonl");
    CHECK(r.name_for(path({"a/b"}), "npy") == "a/b.npy");  // a '/' in a key makes a deeper name
  }

  TEST_CASE("the reference's collision rules") {
    ExternalRegistry r;
    r.add({r.name_for(path({"a", "b"}), "npy"), "npy", path({"a", "b"}), {}});
    CHECK_THROWS_WITH_AS(r.name_for(path({"a", "b"}), "npy"), doctest::Contains("both be stored"), Error);
    CHECK_THROWS_WITH_AS(r.name_for(path({"a"}), "jsonl"), doctest::Contains("prefix"), Error);
    CHECK_THROWS_WITH_AS(r.name_for(path({"a", "b", "c"}), "npy"), doctest::Contains("prefix"), Error);
    CHECK(r.name_for(path({"ab"}), "npy") == "ab.npy");  // a string prefix is not a path prefix
    CHECK(r.name_for(path({"a", "bc"}), "npy") == "a/bc.npy");
    // Only what was added counts: a list named before its elements are added below it.
    const std::string list = r.name_for(path({"l"}), "jsonl");
    r.add({r.name_for(path({"l", std::uint64_t{0}}), "npy"), "npy", path({"l", std::uint64_t{0}}), {}});
    r.add({list, "jsonl", path({"l"}), {}});
    CHECK_THROWS_WITH_AS(r.name_for(path({"l", std::uint64_t{1}}), "npy"), doctest::Contains("prefix"), Error);
  }

  TEST_CASE("the root and unsafe names are refused") {
    ExternalRegistry r;
    CHECK_THROWS_WITH_AS(r.name_for(path({}), "npy"), doctest::Contains("root"), Error);
    CHECK_THROWS_WITH_AS(r.name_for(path({"..", "x"}), "npy"), doctest::Contains(".."), Error);
    CHECK_THROWS_AS(r.name_for(path({"/etc/passwd"}), "npy"), Error);
    CHECK_THROWS_AS(r.name_for(path({"a\\b"}), "npy"), Error);
  }

  TEST_CASE("externals_info is ordered by path length, stable, item_type and path first") {
    ExternalRegistry r;
    for (const auto& p : {path({"x", "y"}), path({"z"}), path({"w", "v"}), path({"u"})}) {
      const std::string name = r.name_for(p, "npy");
      r.add({name, "npy", p, JsonObject{{"len(data)", std::uint64_t{1}}}});
    }
    const Json info = r.externals_info();
    std::vector<std::string> order;
    for (const auto& [k, v] : info.as_object()) order.push_back(k);
    CHECK(order == std::vector<std::string>{"z.npy", "u.npy", "x/y.npy", "w/v.npy"});
    CHECK(to_json(*info.find("x/y.npy")) == R"j({"item_type": "npy", "path": ["x", "y"], "len(data)": 1})j");
  }

  TEST_CASE("meta in the reference's shape") {
    const Json meta = make_meta(default_zanj_cfg(256, 128, 8), tool_sysinfo(), Json(JsonObject{}), 1.5);
    std::vector<std::string> keys;
    for (const auto& [k, v] : meta.as_object()) keys.push_back(k);
    CHECK(keys == std::vector<std::string>{"zanj_cfg", "sysinfo", "externals_info", "timestamp"});
    const Json* cfg = meta.find("zanj_cfg");
    CHECK(cfg->string_at("error_mode") == "ErrorMode.Except");
    CHECK(cfg->string_at("array_mode") == "array_list_meta");
    CHECK(cfg->find("external_list_threshold")->as_uint64() == 128);
    CHECK(cfg->find("compress")->as_uint64() == 8);
    CHECK(meta.find("sysinfo")->find("zanj_cli")->string_at("name") == "zanj");
    CHECK(now_timestamp() > 1.6e9);
  }

  TEST_CASE("Python type names") {
    CHECK(python_type_name(Json(nullptr)) == "NoneType");
    CHECK(python_type_name(Json(true)) == "bool");
    CHECK(python_type_name(Json(3)) == "int");
    CHECK(python_type_name(Json(BigInt{"123456789012345678901234567890"})) == "int");
    CHECK(python_type_name(Json(0.5)) == "float");
    CHECK(python_type_name(Json("s")) == "str");
    CHECK(python_type_name(Json(JsonArray{})) == "list");
    CHECK(python_type_name(Json(JsonObject{})) == "dict");
  }

  TEST_CASE("npy files: header, size check, text files") {
    zanj::test::TempDir tmp;
    const std::string header = array::make_npy_header(array::parse_descr("<f4"), false, {2, 3});
    zanj::test::write_file(tmp / "ok.npy", header + std::string(24, '\0'));
    zanj::test::write_file(tmp / "short.npy", header + std::string(20, '\0'));
    zanj::test::write_file(tmp / "bad.npy", "not an npy file at all");
    const io::FileSource ok(tmp / "ok.npy");
    const array::NpyHeader h = read_npy_file_header(ok);
    CHECK(h.shape == std::vector<std::uint64_t>{2, 3});
    CHECK_NOTHROW(check_npy_size(h, ok.size(), "ok.npy"));
    CHECK_THROWS_WITH_AS(check_npy_size(h, io::FileSource(tmp / "short.npy").size(), "short.npy"),
                         doctest::Contains("needs"), Error);
    CHECK_THROWS_WITH_AS(read_npy_file_header(io::FileSource(tmp / "bad.npy")), doctest::Contains("bad.npy"), Error);
    zanj::test::write_file(tmp / "t.json", "[1, 2]");
    CHECK(read_text_file(tmp / "t.json", 100) == "[1, 2]");
    CHECK_THROWS_WITH_AS(read_text_file(tmp / "t.json", 3), doctest::Contains("over the limit"), Error);
  }

  TEST_CASE("known_bytes sums what is known") {
    PackPlan plan;
    plan.members.push_back({"a.npy", BytesSource{"xyz"}, 3});
    plan.members.push_back({"b.jsonl", JsonLinesSource{}, 0});
    plan.members.push_back({"c.npy", DiskFileSource{"/x"}, 10});
    CHECK(plan.known_bytes() == 13);
  }
}
