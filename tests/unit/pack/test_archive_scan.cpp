#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "array/npy_header.hpp"
#include "pack/archive_scan.hpp"
#include "tar_fixture.hpp"
#include "temp_dir.hpp"
#include "zanj/error.hpp"

using namespace zanj;
using namespace zanj::pack;
using namespace zanj::pack::archive_scan;
using zanj::test::TempDir;

TEST_SUITE("archive_scan") {
  TEST_CASE("the walker hands out each entry, its name cleaned, its data on request") {
    TempDir tmp;
    test::write_tar(tmp / "x.tar", {{"./a.npy", "abc"}, {"b/c.jsonl", "1\n"}});
    EntryWalker walker(tmp / "x.tar", ResourceLimits{});
    auto e = walker.next();
    REQUIRE(e);
    CHECK(e->name == "a.npy");
    CHECK(e->size == std::optional<std::uint64_t>{3});
    CHECK(test::collect_chunks([&](const ChunkSink& sink) { walker.read(sink); }) == "abc");
    e = walker.next();  // the data of one not read is skipped
    REQUIRE(e);
    CHECK(e->name == "b/c.jsonl");
    CHECK_FALSE(walker.next());
  }

  TEST_CASE("the walker refuses unsafe names and more entries than allowed") {
    TempDir tmp;
    test::write_tar(tmp / "up.tar", {{"../x", "1"}});
    EntryWalker up(tmp / "up.tar", ResourceLimits{});
    CHECK_THROWS_WITH_AS(up.next(), doctest::Contains("nothing packed"), Error);
    test::write_tar(tmp / "many.tar", {{"a", "1"}, {"b", "2"}});
    ResourceLimits few;
    few.max_entries = 1;
    EntryWalker many(tmp / "many.tar", few);
    CHECK(many.next());
    CHECK_THROWS_WITH_AS(many.next(), doctest::Contains("more than 1 entries"), Error);
    CHECK_THROWS_AS(EntryWalker(tmp / "absent.tar", ResourceLimits{}), Error);
  }

  TEST_CASE("the spool keeps members aside, each read back once, and counts its bytes") {
    MemberSpool spool;
    CHECK(spool.bytes() == 0);
    spool.add("a", [](const ChunkSink& to) { to("hello"); });
    spool.add("b", [](const ChunkSink& to) {
      to("wor");
      to("ld");
    });
    CHECK(spool.bytes() == 10);
    CHECK(spool.has("b"));
    CHECK(test::collect_chunks([&](const ChunkSink& sink) { spool.read("b", sink); }) == "world");
    CHECK_FALSE(spool.has("b"));
    CHECK(test::collect_chunks([&](const ChunkSink& sink) { spool.read("a", sink); }) == "hello");
  }

  TEST_CASE("a scan learns .npy headers, line counts and the JSON text; a name twice is refused") {
    TempDir tmp;
    const std::string npy = array::make_npy_header(array::Dtype{}, false, {2}) + std::string(16, '\1');
    test::write_tar(tmp / "x.tar", {{"__zanj__.json", "{}"}, {"a.npy", npy}, {"t.jsonl", "{\"k\": 1}\n[2]\n"}});
    EntryWalker walker(tmp / "x.tar", ResourceLimits{});
    Scan scan(tmp / "x.tar", ResourceLimits{});
    while (const auto e = walker.next()) scan.take(walker, *e);
    scan.check_folders();
    const auto& files = scan.files();
    CHECK(files.at("__zanj__.json").text == "{}");
    REQUIRE(files.at("a.npy").npy);
    CHECK(files.at("a.npy").npy->shape == std::vector<std::uint64_t>{2});
    CHECK(files.at("a.npy").size == npy.size());
    CHECK(files.at("t.jsonl").lines == 2);
    CHECK(files.at("t.jsonl").first_line == "{\"k\": 1}");
    CHECK(files.at("t.jsonl").npy_error);

    test::write_tar(tmp / "twice.tar", {{"a", "1"}, {"a", "2"}});
    EntryWalker again(tmp / "twice.tar", ResourceLimits{});
    Scan twice(tmp / "twice.tar", ResourceLimits{});
    twice.take(again, *again.next());
    CHECK_THROWS_WITH_AS(twice.take(again, *again.next()), doctest::Contains("appears twice"), Error);
  }
}
