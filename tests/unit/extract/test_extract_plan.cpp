#include <doctest/doctest.h>

#include <algorithm>
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
using zanj::test::TestMember;
namespace fs = std::filesystem;

namespace {

Archive from_bytes(std::string bytes) {
  return zip::open_archive(std::make_unique<io::MemorySource>(std::move(bytes)), "test.zip");
}
std::vector<std::string> names(const ExtractPlan& plan) {
  std::vector<std::string> out;
  for (const ZipEntry* e : plan.members) out.push_back(e->name);
  return out;
}

std::string reason_for(const ExtractPlan& plan, const std::string& name) {
  for (const auto& r : plan.refused)
    if (r.name == name) return r.reason;
  return "";
}

TestMember file(std::string name, std::string data = "x") { return TestMember{std::move(name), std::move(data)}; }

}  // namespace

TEST_SUITE("extract_plan") {
  TEST_CASE("every member of a good archive, in storage order") {
    const Archive a = open_corpus("basic.zanj");
    const ExtractPlan plan = plan_extract(a, {});
    CHECK(plan.refused.empty());
    REQUIRE(plan.members.size() == a.entries().size());
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < plan.members.size(); ++i) {
      total += plan.members[i]->uncompressed_size;
      if (i) CHECK(plan.members[i - 1]->local_header_offset < plan.members[i]->local_header_offset);
    }
    CHECK(plan.total_bytes == total);
  }

  TEST_CASE("unsafe names are refused with the reason, the rest accepted") {
    const Archive a = from_bytes(
        zanj::test::build_zip({file("ok.npy"), file("/abs"), file("../up"), file("a/../b"), file("win\\name"),
                               file("C:drive"), file("ctl\x01name"), file("sub/ok.jsonl")})
            .bytes);
    const ExtractPlan plan = plan_extract(a, {});
    CHECK(names(plan) == std::vector<std::string>{"ok.npy", "sub/ok.jsonl"});
    CHECK(reason_for(plan, "/abs") == "absolute path");
    CHECK(reason_for(plan, "../up").find("..") != std::string::npos);
    CHECK(reason_for(plan, "a/../b").find("..") != std::string::npos);
    CHECK(reason_for(plan, "win\\name").find("backslash") != std::string::npos);
    CHECK(reason_for(plan, "C:drive").find("drive letter") != std::string::npos);
    CHECK(reason_for(plan, "ctl\\x01name").find("control") != std::string::npos);  // name printed escaped
  }

  TEST_CASE("symlinks, devices, duplicates and file/directory conflicts are refused") {
    TestMember link = file("link", "/etc/passwd");
    link.external_attributes = 0120777u << 16;
    TestMember device = file("dev");
    device.external_attributes = 0020644u << 16;
    const std::string bytes = zanj::test::build_zip({link, device, file("twice"), file("twice"), file("a"), file("a/b"),
                                                     file("dir/"), file("dir/c")})
                                  .bytes;
    // Opening for data refuses the duplicate outright; the plan refuses it too, for an archive
    // opened over its directory (as verify does).
    CHECK_THROWS_WITH_AS(from_bytes(bytes), doctest::Contains("2 entries are named 'twice'"), Error);
    io::MemorySource probe(bytes);
    const Archive a =
        zip::open_archive(std::make_unique<io::MemorySource>(bytes), "test.zip", zip::read_zip_directory(probe));
    const ExtractPlan plan = plan_extract(a, {});
    CHECK(names(plan) == std::vector<std::string>{"a", "dir/", "dir/c"});
    CHECK(reason_for(plan, "link") == "a symbolic link");
    CHECK(reason_for(plan, "dev").find("special file") != std::string::npos);
    CHECK(std::count_if(plan.refused.begin(), plan.refused.end(), [](const auto& r) { return r.name == "twice"; }) ==
          2);
    CHECK(reason_for(plan, "a/b").find("'a' is a file") != std::string::npos);
  }

  TEST_CASE("members whose data overlap are refused (non-recursive zip bombs)") {
    // Member "a" holds a complete local header and data for "b"; the central entry of "b"
    // points into "a"'s data, so the same bytes would be written twice.
    const std::string inner = zanj::test::build_zip({file("b", "hello")}).bytes;
    const std::string b_local = inner.substr(0, inner.find("PK\x01\x02"));
    zanj::test::BuiltZip zip = zanj::test::build_zip({file("a", b_local), file("b", "hello")});
    zanj::test::patch(zip.bytes, zip.central_offsets[1] + 42, zip.local_offsets[0] + 30 + 1, 4);
    const ExtractPlan plan = plan_extract(from_bytes(zip.bytes), {});
    CHECK(plan.members.empty());
    CHECK(reason_for(plan, "a").find("overlaps") != std::string::npos);
    CHECK(reason_for(plan, "b").find("overlaps") != std::string::npos);
  }

  TEST_CASE("declared sizes are held to the limits") {
    zanj::test::BuiltZip zip = zanj::test::build_zip({file("small", "0123456789"), file("bomb", "0123456789")});
    // "bomb": deflate claiming 10 bytes inflate to 100 MB
    zanj::test::patch(zip.bytes, zip.central_offsets[1] + 10, 8, 2);
    zanj::test::patch(zip.bytes, zip.central_offsets[1] + 24, 100'000'000, 4);
    const Archive a = from_bytes(zip.bytes);
    const ExtractPlan plan = plan_extract(a, {});
    CHECK(names(plan) == std::vector<std::string>{"small"});
    CHECK(reason_for(plan, "bomb").find("compression ratio") != std::string::npos);

    ResourceLimits tight;
    tight.max_member_bytes = 5;
    CHECK(reason_for(plan_extract(a, {}, tight), "small").find("over the limit") != std::string::npos);
    ResourceLimits total;
    total.max_total_bytes = 5;
    CHECK_THROWS_WITH_AS(plan_extract(a, {}, total), doctest::Contains("over the limit"), Error);
  }

  TEST_CASE("encrypted members are refused") {
    zanj::test::BuiltZip zip = zanj::test::build_zip({file("secret")});
    zanj::test::patch(zip.bytes, zip.central_offsets[0] + 8, 1, 2);
    CHECK(reason_for(plan_extract(from_bytes(zip.bytes), {}), "secret") == "encrypted");
  }

  TEST_CASE("selection by member name, object path and filters") {
    const Archive a = open_corpus("basic.zanj");
    CHECK(names(plan_extract(a, {{"long_list.jsonl"}})) == std::vector<std::string>{"long_list.jsonl"});
    CHECK(names(plan_extract(a, {{"nested"}})) == std::vector<std::string>{"nested/deeper/matrix.npy"});
    CHECK(names(plan_extract(a, {{"big_array", "long_list"}})) ==
          std::vector<std::string>{"big_array.npy", "long_list.jsonl"});
    CHECK(names(plan_extract(a, {{}, true, false})) ==
          std::vector<std::string>{"big_array.npy", "nested/deeper/matrix.npy"});
    CHECK(names(plan_extract(a, {{}, false, true})) ==
          std::vector<std::string>{"__zanj_meta__.json", "__zanj__.json", "long_list.jsonl"});
    CHECK_THROWS_WITH_AS(plan_extract(a, {{"no/such"}}), doctest::Contains("neither a member nor an object path"),
                         Error);
    CHECK_THROWS_WITH_AS(plan_extract(a, {{"small_array"}}), doctest::Contains("inline"), Error);
  }

  TEST_CASE("a referenced member missing from the archive is refused, not silently skipped") {
    const Archive a = open_corpus("malformed/missing_external.zanj");
    const ExtractPlan plan = plan_extract(a, {{"big_array"}});
    CHECK(plan.members.empty());
    CHECK(reason_for(plan, "big_array.npy").find("not in the archive") != std::string::npos);
  }

  TEST_CASE("targets that exist, are directories or lie behind a symlink") {
    TempDir tmp;
    const Archive a = from_bytes(
        zanj::test::build_zip({file("new"), file("exists"), file("dir"), file("link/x"), file("deep/er/y")}).bytes);
    zanj::test::write_file(tmp / "out/exists", "old");
    fs::create_directories(tmp / "out/dir");
    fs::create_directories(tmp / "elsewhere");
    fs::create_directory_symlink(tmp / "elsewhere", tmp / "out/link");
    const UniqueFd root = open_user_directory(tmp / "out", CreateDirs::no);
    ExtractPlan plan = plan_extract(a, {});
    check_targets(plan, root.get(), Replace::no);
    CHECK(names(plan) == std::vector<std::string>{"new", "deep/er/y"});
    CHECK(reason_for(plan, "exists").find("--force") != std::string::npos);
    CHECK(reason_for(plan, "dir").find("directory is in the way") != std::string::npos);
    CHECK(reason_for(plan, "link/x").find("symbolic link") != std::string::npos);
    CHECK(plan.total_bytes == 2);

    ExtractPlan forced = plan_extract(a, {});
    check_targets(forced, root.get(), Replace::yes);
    CHECK(names(forced) == std::vector<std::string>{"new", "exists", "deep/er/y"});
  }
}
