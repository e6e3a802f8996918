#include <doctest/doctest.h>

#include <filesystem>

#include "temp_dir.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"
#include "zanj/pack.hpp"
#include "object/zanj_file_access.hpp"
#include "json/json_parse.hpp"
#include "zip/archive_access.hpp"
#include "pack/pack_plan.hpp"

using namespace zanj;
using namespace zanj::pack;
using zanj::test::convert;
using zanj::test::member;
using zanj::test::TempDir;
namespace fs = std::filesystem;

TEST_SUITE("pack") {
  TEST_CASE("every source kind is written, meta and object first") {
    TempDir tmp;
    zanj::test::write_file(tmp / "file.bin", "from a file");
    PackPlan plan;
    plan.root = json::parse_json(R"j({"k": 1})j", "root");
    plan.meta = json::parse_json(R"j({"externals_info": {}})j", "meta");
    auto npz = std::make_shared<const Archive>(convert("arrays.npz"));
    plan.members.push_back({"copied.npy", ArchiveMemberSource{npz, npz->find("bias.npy")}, 256});
    plan.members.push_back({"file.bin", DiskFileSource{tmp / "file.bin"}, 11});
    plan.members.push_back(
        {"lines.jsonl", JsonLinesSource{JsonArray{Json(1), Json("two"), Json(JsonObject{{"x", nullptr}})}}, 0});
    plan.members.push_back({"bytes.npy", BytesSource{"raw"}, 3});
    PackProgress last;
    const PackSummary s = write_pack(plan, tmp / "out.zanj", {}, [&](const PackProgress& p) { last = p; });
    const Archive out(tmp / "out.zanj");
    std::vector<std::string> names;
    for (const auto& e : out.entries()) names.push_back(e.name);
    CHECK(names == std::vector<std::string>{"__zanj_meta__.json", "__zanj__.json", "copied.npy", "file.bin",
                                            "lines.jsonl", "bytes.npy"});
    CHECK(member(out, "__zanj__.json") == "{\n\t\"k\": 1\n}");
    CHECK(member(out, "copied.npy") == npz->read_all(*npz->find("bias.npy"), 1 << 20));
    CHECK(member(out, "file.bin") == "from a file");
    CHECK(member(out, "lines.jsonl") == "1\n\"two\"\n{\"x\": null}\n");
    CHECK(member(out, "bytes.npy") == "raw");
    CHECK(s.members == 6);
    CHECK(s.output_bytes == fs::file_size(tmp / "out.zanj"));
    CHECK(last.bytes_total == 270);
    CHECK(last.bytes_done >= 270);
    for (const auto& e : out.entries()) {
      const zip::LocalHeader h = zip::read_local_header(zip::archive_source(out), e);
      const bool external = e.name.rfind("__zanj", 0) != 0;
      CHECK(h.has_zip64_extra == external);     // force_zip64 on the externals only
      CHECK((e.dos_date == 0x21) == external);  // externals dated 1980-01-01, JSON members now
    }
  }

  TEST_CASE("root_text is stored verbatim") {
    TempDir tmp;
    PackPlan plan;
    plan.root = Json(JsonObject{});
    plan.root_text = "{\"exact\":  true}";
    plan.meta = Json(JsonObject{});
    write_pack(plan, tmp / "v.zanj", {});
    CHECK(member(Archive(tmp / "v.zanj"), "__zanj__.json") == "{\"exact\":  true}");
  }

  TEST_CASE("a failure leaves an existing output untouched and no temporary file") {
    TempDir tmp;
    zanj::test::write_file(tmp / "out.zanj", "previous");
    std::string npz = zanj::test::read_file(convert("arrays.npz"));
    npz[npz.find("\x93NUMPY") + 300] ^= 0x55;  // corrupt the first array: CRC mismatch while copying
    zanj::test::write_file(tmp / "bad.npz", npz);
    const PackPlan plan = plan_pack({PackInput{"", tmp / "bad.npz"}}, {});
    CHECK_THROWS_WITH_AS(write_pack(plan, tmp / "out.zanj", {}), doctest::Contains("CRC-32"), Error);
    CHECK(zanj::test::read_file(tmp / "out.zanj") == "previous");
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(tmp.path())) left.push_back(e.path().filename().string());
    std::sort(left.begin(), left.end());
    CHECK(left == std::vector<std::string>{"bad.npz", "out.zanj"});
  }

  TEST_CASE("the output must be a file in an existing directory") {
    TempDir tmp;
    PackPlan plan;
    plan.meta = Json(JsonObject{});
    CHECK_THROWS_AS(write_pack(plan, tmp / "missing/out.zanj", {}), Error);
    CHECK_THROWS_WITH_AS(write_pack(plan, tmp.path(), {}), doctest::Contains("directory"), Error);
  }

  TEST_CASE("the packed npz is a ZANJ archive with the settings applied") {
    TempDir tmp;
    PackSettings settings;
    settings.method = ZipMethod::store;
    write_pack(plan_pack({PackInput{"", convert("arrays_compressed.npz")}}, settings), tmp / "s.zanj", settings);
    const ZanjFile z(tmp / "s.zanj");
    CHECK(z.problems().empty());
    for (const auto& e : z.archive().entries()) CHECK(e.method == 0);
    CHECK(z.root().find("tiny").string_at("$ref") == "tiny.npy");
  }

  TEST_CASE("JSON members are tab-indented like the reference's") {
    CHECK(zanj_json_text(json::parse_json(R"j({"a": [1, {"b": null}], "c": {}})j", "t")) ==
          "{\n\t\"a\": [\n\t\t1,\n\t\t{\n\t\t\t\"b\": null\n\t\t}\n\t],\n\t\"c\": {}\n}");
  }
}
