#include <doctest/doctest.h>

#include "temp_dir.hpp"
#include "test_support.hpp"
#include "zanj/archive.hpp"
#include "zanj/error.hpp"
#include "zip_builder.hpp"
#include "zip/archive_access.hpp"

using namespace zanj;
using namespace zanj::zip;
using test::corpus;
using test::read_file;

TEST_SUITE("archive") {
  TEST_CASE("split_for_threads: balanced by compressed size, each group in storage order") {
    std::vector<ZipEntry> entries(7);
    const std::uint64_t sizes[] = {100, 10, 60, 50, 5, 40, 0};
    for (std::size_t i = 0; i < entries.size(); ++i) {
      entries[i].compressed_size = sizes[i];
      entries[i].local_header_offset = 1000 * i;
    }
    std::vector<const ZipEntry*> all;
    for (const ZipEntry& e : entries) all.push_back(&e);
    const auto groups = split_for_threads(all, 2, 1);
    REQUIRE(groups.size() == 2);
    std::size_t members = 0;
    for (const auto& g : groups) {
      members += g.size();
      for (std::size_t k = 1; k < g.size(); ++k) CHECK(g[k - 1]->local_header_offset < g[k]->local_header_offset);
    }
    CHECK(members == entries.size());
    std::uint64_t load[2] = {0, 0};
    for (std::size_t g = 0; g < 2; ++g)
      for (const ZipEntry* e : groups[g]) load[g] += e->compressed_size;
    CHECK(load[0] + load[1] == 265);
    CHECK((load[0] > load[1] ? load[0] - load[1] : load[1] - load[0]) <= 15);  // largest first onto the lightest
    CHECK(split_for_threads(all, 64, 1).size() == entries.size());             // never more groups than members
    CHECK(split_for_threads({}, 4, 1).size() == 1);                            // one (empty) group for none
    CHECK(split_for_threads(all, 0, 1).size() == 1);
  }

  TEST_CASE("members stream whole, in chunks, for deflate and store") {
    for (const char* name : {"basic.zanj", "stored.zanj"}) {
      Archive a(corpus(name));
      for (const auto& e : a.entries()) {
        std::uint64_t total = 0;
        a.read(e, [&](std::string_view chunk) {
          total += chunk.size();
          return true;
        });
        CHECK(total == e.uncompressed_size);
      }
    }
  }

  TEST_CASE("a sink may read another member: the bytes it was handed stay its own") {
    // A row of a .jsonl list is walked, and its array read, while the list still streams.
    Archive a(corpus("releases/zanj-0.6.0_populate_nested.zanj"));
    const ZipEntry* list = a.find("lst_basic.jsonl");
    const ZipEntry* npy = a.find("lst_basic/3/arr_numbers.npy");
    REQUIRE(list);
    REQUIRE(npy);
    CHECK(list->method == 8);  // deflated, small: the whole-member path with its reused buffers
    const std::string expected = a.read_all(*list, 1 << 20), inner = a.read_all(*npy, 1 << 20);
    std::string got;
    a.read(*list, [&](std::string_view chunk) {
      const std::string before(chunk);
      CHECK(a.read_all(*npy, 1 << 20) == inner);
      CHECK(chunk == before);
      got.append(chunk);
      return true;
    });
    CHECK(got == expected);
  }

  TEST_CASE("read_all and read_prefix") {
    Archive a(corpus("basic.zanj"));
    const ZipEntry* npy = a.find("big_array.npy");
    REQUIRE(npy);
    const std::string all = a.read_all(*npy, 1 << 20);
    CHECK(all.size() == 2176);
    CHECK(all.substr(0, 6) == "\x93NUMPY");
    CHECK(a.read_prefix(*npy, 10) == all.substr(0, 10));
    CHECK_THROWS_WITH_AS(a.read_all(*npy, 100), doctest::Contains("over the limit"), Error);
  }

  TEST_CASE("read_each visits wanted members once, in storage order") {
    Archive a(corpus("dtypes.zanj"));
    std::vector<const ZipEntry*> wanted{a.find("f4.npy"), a.find("b1.npy"), a.find("c16.npy")};
    std::vector<std::string> seen;
    a.read_each(wanted, [&](const ZipEntry& e, const Archive::MemberReader& read) {
      seen.push_back(e.name);
      if (e.name != "b1.npy") read([](std::string_view) { return true; });  // b1 skipped unread
    });
    CHECK(seen == std::vector<std::string>{"b1.npy", "f4.npy", "c16.npy"});
  }

  TEST_CASE("a CRC mismatch is an error, and stopping early is not") {
    Archive a(corpus("malformed/bad_crc.zanj"));
    const ZipEntry* e = a.find("big_array.npy");
    REQUIRE(e);
    CHECK_THROWS_WITH_AS(a.read(*e, [](std::string_view) { return true; }), doctest::Contains("CRC-32"), Error);
    CHECK(a.read_prefix(*e, 6).size() == 6);
  }

  TEST_CASE("archives open from memory exactly as from disk") {
    Archive from_disk(corpus("basic.zanj"));
    Archive from_memory = open_archive(std::make_unique<io::MemorySource>(read_file(corpus("basic.zanj"))), "mem");
    REQUIRE(from_memory.entries().size() == from_disk.entries().size());
    const ZipEntry* e = from_memory.find("__zanj__.json");
    REQUIRE(e);
    CHECK(from_memory.read_all(*e, 1 << 20) == from_disk.read_all(*from_disk.find("__zanj__.json"), 1 << 20));
  }

  TEST_CASE("not a ZIP, truncated, missing file") {
    CHECK_THROWS_WITH_AS(open_archive(std::make_unique<io::MemorySource>(std::string(100, 'x')), "junk"),
                         doctest::Contains("junk:"), Error);
    CHECK_THROWS_AS(Archive(corpus("malformed/truncated.zanj")), Error);
    try {
      Archive missing(corpus("does-not-exist.zanj"));
      FAIL("opened a missing file");
    } catch (const Error& err) {
      CHECK(err.exit() == Exit::usage);
    }
  }

  TEST_CASE("read failures say what kind they are") {
    Archive a(corpus("malformed/bad_crc.zanj"));
    try {
      a.read(*a.find("big_array.npy"), [](std::string_view) { return true; });
      FAIL("read a corrupt member");
    } catch (const MemberDataError& e) {
      CHECK(e.kind() == MemberDataError::Kind::crc_mismatch);
    }
    const auto lie = [&](std::uint64_t declared) {
      ZipEntry e = *a.find("__zanj__.json");
      e.uncompressed_size = declared;
      try {
        a.read(e, [](std::string_view) { return true; });
      } catch (const MemberDataError& err) {
        return err.kind();
      }
      FAIL("no error");
      return MemberDataError::Kind::undecodable;
    };
    // A size only the central directory claims is caught before any data: the local header
    // disagrees (lies in both headers: test_member_decoder.cpp).
    CHECK_THROWS_WITH_AS(lie(100), doctest::Contains("central directory and local header disagree"), Error);
  }

  TEST_CASE("reads start from the central entry: a renamed copy reads its own bytes only if the local header agrees") {
    Archive a(corpus("basic.zanj"));
    ZipEntry ghost = *a.find("big_array.npy");
    ghost.name = "ghost.npy";
    std::vector<std::string> seen;
    const auto missing = read_each_found(a, {a.find("big_array.npy"), &ghost},
                                         [&](const ZipEntry& e, const auto&) { seen.push_back(e.name); });
    CHECK(seen.size() == 2);  // presented, both: nothing is matched by name
    CHECK(missing.empty());
    CHECK_THROWS_WITH_AS(a.read(ghost, [](std::string_view) { return true; }), doctest::Contains("disagree (name)"),
                         Error);
  }

  TEST_CASE("an archive over a directory read beforehand") {
    io::MemorySource probe(read_file(corpus("stored.zanj")));
    ZipDirectory dir = read_zip_directory(probe);
    Archive a =
        open_archive(std::make_unique<io::MemorySource>(read_file(corpus("stored.zanj"))), "mem", std::move(dir));
    REQUIRE(a.find("data.npy"));
    CHECK(a.read_all(*a.find("data.npy"), 1 << 20).size() == 8128);
  }

  TEST_CASE("non-ASCII member names are read whatever the locale") {
    const std::string name = "schl\xC3\xBCssel/\xE6\x95\xB0.npy";  // UTF-8, flag bit 11 set below
    auto zip = test::build_zip({{name, "payload"}});
    test::patch(zip.bytes, zip.local_offsets[0] + 6, 0x800, 2);
    test::patch(zip.bytes, zip.central_offsets[0] + 8, 0x800, 2);
    Archive a = open_archive(std::make_unique<io::MemorySource>(zip.bytes), "utf8");
    REQUIRE(a.find(name));
    CHECK(a.read_all(*a.find(name), 100) == "payload");
  }

  TEST_CASE("library versions are reported") {
    const std::string versions = archive_library_versions();
    for (const char* library : {"zlib ", "bzip2 ", "liblzma ", "zstd "})
      CHECK(versions.find(library) != std::string::npos);
    CHECK(versions.find("libarchive") == std::string::npos);
  }
}
