#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "array/npy_header.hpp"
#include "io/file_sink.hpp"
#include "pack/archive_input.hpp"
#include "pack/pack_plan.hpp"
#include "tar_fixture.hpp"
#include "temp_dir.hpp"
#include "zanj/archive.hpp"
#include "zanj/error.hpp"
#include "zanj/json.hpp"

using namespace zanj;
using namespace zanj::pack;
using zanj::test::TempDir;

namespace {

/// The tars here are gzip-compressed whatever their names say: libarchive reads by content.
void write_gzip_tar(const std::string& path, const std::vector<std::pair<std::string, std::string>>& files) {
  test::write_tar(path, files, "gzip");
}

/// Member `name` of `tree`'s archive, as writing reads it.
std::string read_member(PackTree& tree, const std::string& name) {
  const MemberSource source = tree.source(name);
  return test::collect_chunks(
      [&](const ChunkSink& sink) { std::get<SequentialMemberSource>(source).archive->read(name, sink); });
}

}  // namespace

TEST_SUITE("archive_input") {
  TEST_CASE("names libarchive reads") {
    CHECK(is_libarchive_input("a.tar.zst"));
    CHECK(is_libarchive_input("a.7z"));
    CHECK_FALSE(is_libarchive_input("a.npz"));
    CHECK_FALSE(is_libarchive_input("dir"));
  }

  TEST_CASE("an archive is read as the folder it holds, nothing unpacked") {
    TempDir tmp;
    write_gzip_tar(tmp / "x.tar.gz", {{"__zanj__.json", "{}"}, {"a/b.npy", "xyz"}, {"t.jsonl", "1\n[2]\n"}});
    const std::unique_ptr<PackTree> tree = scan_archive(tmp / "x.tar.gz", ResourceLimits{});
    std::vector<std::string> notes;
    const std::map<std::string, std::uint64_t> want{{"__zanj__.json", 2}, {"a/b.npy", 3}, {"t.jsonl", 6}};
    CHECK(tree->files(notes) == want);
    CHECK(tree->has_main());
    CHECK(tree->text("__zanj__.json", 100) == "{}");
    CHECK_THROWS_WITH_AS(tree->text("__zanj__.json", 1), doctest::Contains("over the limit"), Error);
    CHECK_THROWS_WITH_AS(tree->npy_header("a/b.npy", {}), doctest::Contains("a/b.npy"), Error);
    const JsonlStats stats = tree->jsonl_stats("t.jsonl", ResourceLimits{}).value();
    CHECK(stats.lines == 2);
    REQUIRE(stats.first);
    CHECK(to_json(*stats.first) == "1");
    CHECK(read_member(*tree, "a/b.npy") == "xyz");
  }

  TEST_CASE("members are handed out in any order: those met early are spooled") {
    TempDir tmp;
    write_gzip_tar(tmp / "x.tar", {{"c", std::string(3 << 20, 'c')}, {"b", "bb"}, {"a", "a"}});
    const std::unique_ptr<PackTree> tree = scan_archive(tmp / "x.tar", ResourceLimits{});
    for (const char* name : {"a", "b", "c"}) tree->source(name);
    CHECK(read_member(*tree, "a") == "a");
    CHECK(read_member(*tree, "c") == std::string(3 << 20, 'c'));
    CHECK(read_member(*tree, "b") == "bb");
  }

  TEST_CASE("one pass: planned from the JSON members, checked against the whole archive") {
    TempDir tmp;
    const auto npy = [](std::uint64_t n) {
      return array::make_npy_header(array::Dtype{}, false, {n}) + std::string(static_cast<std::size_t>(n * 8), '\1');
    };
    const auto object = [](std::uint64_t n) {
      return R"({"a": {"__muutils_format__": "numpy.ndarray:external", "$ref": "a.npy", "shape": [)" +
             std::to_string(n) + R"(], "dtype": "float64", "n_elements": )" + std::to_string(n) + "}}";
    };
    const auto pack = [&](const std::string& tar) {
      PackSettings settings;
      const PackPlan plan = plan_archive(tar, settings);
      CHECK(plan.recheck);  // one pass
      write_pack(plan, tmp / "out.zanj", settings);
      const ZanjFile z(tmp / "out.zanj");
      std::filesystem::remove(tmp / "out.zanj");
      return to_json(z.root().find("a").find("shape"));
    };
    // As export writes it: the JSON first, then the members in the plan's order.
    write_gzip_tar(tmp / "fits.tar", {{"__zanj__.json", object(2)}, {"__zanj_meta__.json", "{}"}, {"a.npy", npy(2)}});
    CHECK(pack(tmp / "fits.tar") == "[2]");
    // An array edited since (another shape): the plan is proved wrong, and written again.
    write_gzip_tar(tmp / "edited.tar", {{"__zanj__.json", object(2)}, {"__zanj_meta__.json", "{}"}, {"a.npy", npy(3)}});
    CHECK(pack(tmp / "edited.tar") == "[3]");
    // The member before the JSON: spooled until its turn.
    write_gzip_tar(tmp / "late.tar", {{"a.npy", npy(2)}, {"__zanj__.json", object(2)}});
    CHECK(pack(tmp / "late.tar") == "[2]");
  }

  TEST_CASE("one pass: the plan proves right, without a second plan, unless a file says otherwise") {
    TempDir tmp;
    const std::string npy = array::make_npy_header(array::Dtype{}, false, {2}) + std::string(16, '\1');
    const std::string object =
        R"({"a": {"__muutils_format__": "numpy.ndarray:external", "$ref": "a.npy", "shape": [2], )"
        R"("dtype": "float64", "n_elements": 2}, "l": {"__muutils_format__": "list:external", "$ref": "l.jsonl"}})";
    const std::string meta =
        R"j({"externals_info": {"l.jsonl": {"item_type": "jsonl", "path": ["l"], "len(data)": 2, "data[0]": [1, 2]}}})j";
    // write_pack_to cannot start over: it refuses a plan that its recheck replaces.
    const auto proved = [&](const std::vector<std::pair<std::string, std::string>>& files) {
      write_gzip_tar(tmp / "x.tar", files);
      PackSettings settings;
      const PackPlan plan = plan_archive(tmp / "x.tar", settings);
      REQUIRE(plan.recheck);
      io::FileSink sink(tmp / "out.zanj", Replace::yes);
      try {
        write_pack_to(plan, sink, "out.zanj", settings);
        return true;
      } catch (const Error& e) {  // the plan was replaced
        CHECK(std::string(e.what()).find("the plan changed") != std::string::npos);
        return false;
      }
    };
    const std::vector<std::pair<std::string, std::string>> fits{
        {"__zanj__.json", object}, {"__zanj_meta__.json", meta}, {"a.npy", npy}, {"l.jsonl", "[1, 2]\n3\n"}};
    CHECK(proved(fits));
    auto changed = fits;
    changed[2].second = array::make_npy_header(array::Dtype{}, false, {1, 2}) + std::string(16, '\1');
    CHECK_FALSE(proved(changed));  // another shape
    changed = fits;
    changed[3].second = "[1, 2]\n3\n4\n";
    CHECK_FALSE(proved(changed));  // another length
    changed = fits;
    changed[3].second = "[1,2]\n3\n";
    CHECK(proved(changed));  // the same first value, written otherwise
    changed = fits;
    changed[3].second = "[2, 1]\n3\n";
    CHECK_FALSE(proved(changed));  // another first value
    changed = fits;
    changed.emplace_back("extra.txt", "x");
    CHECK_FALSE(proved(changed));  // a file the plan lacks
  }

  TEST_CASE("one pass: the warnings said are those of the plan finally written") {
    TempDir tmp;
    const std::string npy = array::make_npy_header(array::Dtype{}, false, {2}) + std::string(16, '\1');
    const std::string object =
        R"({"a": {"__muutils_format__": "numpy.ndarray:external", "$ref": "a.npy", "shape": [2], )"
        R"("dtype": "float64", "n_elements": 2}})";
    const std::string leftover = ".a.npy.zanj-tmp-1234";
    PackSettings settings;
    // The plan was right: the note of a file learnt after it was made comes with the summary.
    write_gzip_tar(tmp / "right.tar", {{"__zanj__.json", object}, {"a.npy", npy}, {leftover, "x"}});
    PackPlan plan = plan_archive(tmp / "right.tar", settings);
    REQUIRE(plan.recheck);
    CHECK(plan.notes.empty());  // nothing said from the head of the archive
    PackSummary summary = write_pack(plan, tmp / "out.zanj", settings);
    REQUIRE(summary.notes.size() == 1);
    CHECK(summary.notes[0].find("temporary file") != std::string::npos);
    // The plan was replaced (the array has another shape): its notes are the ones said.
    const std::string edited = array::make_npy_header(array::Dtype{}, false, {3}) + std::string(24, '\1');
    write_gzip_tar(tmp / "edited.tar", {{"__zanj__.json", object}, {"a.npy", edited}, {leftover, "x"}});
    plan = plan_archive(tmp / "edited.tar", settings);
    summary = write_pack(plan, tmp / "out2.zanj", settings);
    REQUIRE(summary.notes.size() == 1);
    CHECK(summary.notes[0].find("temporary file") != std::string::npos);
    CHECK(to_json(ZanjFile(tmp / "out2.zanj").root().find("a").find("shape")) == "[3]");
  }

  TEST_CASE(
      "one pass: no __zanj__.json is said at the archive's end; a late one past the spool's bound reads it twice") {
    TempDir tmp;
    write_gzip_tar(tmp / "none.tar", {{"a.npy", "x"}, {"b/c.npy", "y"}});
    CHECK_THROWS_WITH_AS(plan_archive(tmp / "none.tar", PackSettings{}), doctest::Contains("no __zanj__.json"), Error);
    // 65 MiB before the JSON: no longer spooled, so planned in two passes (no recheck), and right.
    const std::string big =
        array::make_npy_header(array::Dtype{}, false, {65u << 17}) + std::string(std::size_t{65} << 20, '\0');
    const std::string object = R"({"a": {"__muutils_format__": "numpy.ndarray:external", "$ref": "a.npy", "shape": [)" +
                               std::to_string(65u << 17) + R"(], "dtype": "float64", "n_elements": )" +
                               std::to_string(65u << 17) + "}}";
    write_gzip_tar(tmp / "late.tar", {{"a.npy", big}, {"__zanj__.json", object}});
    const PackPlan plan = plan_archive(tmp / "late.tar", PackSettings{});
    CHECK_FALSE(plan.recheck);
    PackSettings settings;
    settings.method = ZipMethod::store;
    write_pack(plan, tmp / "out.zanj", settings);
    CHECK(to_json(ZanjFile(tmp / "out.zanj").root().find("a").find("shape")) == "[" + std::to_string(65u << 17) + "]");
  }

  TEST_CASE("hostile names and bombs are refused") {
    TempDir tmp;
    write_gzip_tar(tmp / "evil.tar.gz", {{"../evil", "x"}});
    CHECK_THROWS_WITH_AS(scan_archive(tmp / "evil.tar.gz", ResourceLimits{}), doctest::Contains("evil"), Error);
    write_gzip_tar(tmp / "bomb.tar.gz", {{"zeros", std::string(4 << 20, '\0')}});
    ResourceLimits tight;
    tight.max_ratio = 1;
    CHECK_THROWS_WITH_AS(scan_archive(tmp / "bomb.tar.gz", tight), doctest::Contains("--max-ratio"), Error);
  }

  TEST_CASE("a name twice, or both a file and a folder, is refused") {
    TempDir tmp;
    write_gzip_tar(tmp / "twice.tar", {{"a", "1"}, {"a", "2"}});
    CHECK_THROWS_WITH_AS(scan_archive(tmp / "twice.tar", ResourceLimits{}), doctest::Contains("appears twice"), Error);
    write_gzip_tar(tmp / "both.tar", {{"a", "1"}, {"a/b", "2"}});
    CHECK_THROWS_WITH_AS(scan_archive(tmp / "both.tar", ResourceLimits{}),
                         doctest::Contains("both a file and a folder"), Error);
  }
}
