#include <doctest/doctest.h>

#include <filesystem>

#include "temp_dir.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"
#include "zanj/extract.hpp"
#include "zip_builder.hpp"
#include "zip/archive_access.hpp"

using namespace zanj;
using zanj::test::open_corpus;
using zanj::test::TempDir;
namespace fs = std::filesystem;

namespace {

/// Every file and directory below `dir`, relative, sorted.
std::vector<std::string> tree(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) out.push_back(fs::relative(e.path(), dir).string());
  std::sort(out.begin(), out.end());
  return out;
}

ExtractResult extract_all(const Archive& a, const std::string& dir, Replace replace = Replace::no) {
  const UniqueFd root = open_user_directory(dir, CreateDirs::yes);
  ExtractPlan plan = plan_extract(a, {});
  check_targets(plan, root.get(), replace);
  return write_extract(a, plan, root.get(), replace);
}

}  // namespace

TEST_SUITE("extract") {
  TEST_CASE("every member is written intact and nothing else") {
    TempDir tmp;
    const Archive a = open_corpus("basic.zanj");
    ExtractProgress last;
    const UniqueFd root = open_user_directory(tmp / "out", CreateDirs::yes);
    const ExtractPlan plan = plan_extract(a, {});
    const ExtractResult r =
        write_extract(a, plan, root.get(), Replace::no, [&](const ExtractProgress& p) { last = p; });
    CHECK(r.failed.empty());
    CHECK(r.written.size() == a.entries().size());
    for (const ZipEntry& e : a.entries())
      CHECK(zanj::test::read_file(tmp / ("out/" + e.name)) == a.read_all(e, 1 << 30));
    CHECK(tree(tmp / "out") == std::vector<std::string>{"__zanj__.json", "__zanj_meta__.json", "big_array.npy",
                                                        "long_list.jsonl", "nested", "nested/deeper",
                                                        "nested/deeper/matrix.npy"});
    CHECK(last.members_done == last.members_total);
    CHECK(last.bytes_done == plan.total_bytes);
  }

  TEST_CASE("on several threads: the same files, reported in storage order, progress counted once") {
    for (unsigned threads : {1u, 2u, 3u, 16u}) {
      TempDir tmp;
      const Archive a = open_corpus("basic.zanj");
      const UniqueFd root = open_user_directory(tmp / "out", CreateDirs::yes);
      const ExtractPlan plan = plan_extract(a, {});
      ExtractProgress last;
      const ExtractResult r = write_extract(
          a, plan, root.get(), Replace::no, [&](const ExtractProgress& p) { last = p; }, threads);
      CHECK(r.failed.empty());
      std::vector<std::string> in_storage_order;
      for (const ZipEntry* e : plan.members)
        if (!e->is_directory()) in_storage_order.push_back(e->name);
      CHECK(r.written == in_storage_order);
      for (const ZipEntry& e : a.entries())
        CHECK(zanj::test::read_file(tmp / ("out/" + e.name)) == a.read_all(e, 1 << 30));
      CHECK(last.members_done == last.members_total);
      CHECK(last.bytes_done == plan.total_bytes);
    }
    // A failure on one thread is reported like any other, the members of the others written.
    TempDir tmp;
    const Archive bad = open_corpus("malformed/bad_crc.zanj");
    const UniqueFd root = open_user_directory(tmp / "out", CreateDirs::yes);
    const ExtractResult r = write_extract(bad, plan_extract(bad, {}), root.get(), Replace::no, {}, 4);
    REQUIRE(r.failed.size() == 1);
    CHECK(r.failed[0].name == "big_array.npy");
    CHECK(r.written.size() + 1 == bad.entries().size());
  }

  TEST_CASE("a member failing its CRC leaves no file, the others are written") {
    TempDir tmp;
    const ExtractResult r = extract_all(open_corpus("malformed/bad_crc.zanj"), tmp / "out");
    REQUIRE(r.failed.size() == 1);
    CHECK(r.failed[0].name == "big_array.npy");
    CHECK(r.failed[0].reason.find("CRC-32") != std::string::npos);
    CHECK(!fs::exists(tmp / "out/big_array.npy"));
    for (const auto& path : tree(tmp / "out")) CHECK(path.find("zanj-tmp") == std::string::npos);
    CHECK(fs::exists(tmp / "out/nested/deeper/matrix.npy"));
  }

  TEST_CASE("existing files are replaced only when asked") {
    TempDir tmp;
    const Archive a = open_corpus("basic.zanj");
    zanj::test::write_file(tmp / "out/long_list.jsonl", "old");
    const UniqueFd root = open_user_directory(tmp / "out", CreateDirs::no);
    ExtractPlan plan = plan_extract(a, {{"long_list.jsonl"}});
    // Without the check, writing still refuses to replace (a file appearing after planning).
    const ExtractResult kept = write_extract(a, plan, root.get(), Replace::no);
    CHECK(kept.failed.size() == 1);
    CHECK(zanj::test::read_file(tmp / "out/long_list.jsonl") == "old");
    const ExtractResult replaced = write_extract(a, plan, root.get(), Replace::yes);
    CHECK(replaced.failed.empty());
    CHECK(zanj::test::read_file(tmp / "out/long_list.jsonl") == a.read_all(*a.find("long_list.jsonl"), 1 << 20));
  }

  TEST_CASE("a symlink planted after planning still cannot redirect a write") {
    TempDir tmp;
    const Archive a = open_corpus("basic.zanj");
    const UniqueFd root = open_user_directory(tmp / "out", CreateDirs::yes);
    ExtractPlan plan = plan_extract(a, {});
    check_targets(plan, root.get(), Replace::no);
    fs::create_directory(tmp / "outside");
    fs::create_directory_symlink(tmp / "outside", tmp / "out/nested");
    const ExtractResult r = write_extract(a, plan, root.get(), Replace::no);
    REQUIRE(r.failed.size() == 1);
    CHECK(r.failed[0].name == "nested/deeper/matrix.npy");
    CHECK(fs::is_empty(tmp / "outside"));
  }

  TEST_CASE("directory members become directories") {
    TempDir tmp;
    const std::string zip = zanj::test::build_zip({{"d/", ""}, {"d/e/", ""}, {"d/f", "data"}}).bytes;
    const Archive a = zip::open_archive(std::make_unique<io::MemorySource>(zip), "dirs.zip");
    const ExtractResult r = extract_all(a, tmp / "out");
    CHECK(r.failed.empty());
    CHECK(tree(tmp / "out") == std::vector<std::string>{"d", "d/e", "d/f"});
  }
}
