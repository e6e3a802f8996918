#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "io/byte_source.hpp"
#include "test_support.hpp"
#include "zip/local_scan.hpp"
#include "zip/zip_directory.hpp"
#include "zip_builder.hpp"

using namespace zanj;
using namespace zanj::zip;
using test::build_zip;
using test::TestMember;

namespace {

LocalScan scan(const std::string& bytes) { return scan_local_headers(io::MemorySource(bytes)); }

std::vector<TestMember> three_members() {
  return {{"a.txt", "hello"}, {"dir/b.bin", std::string(300, 'x'), true}, {"c.json", "{\"PK\\u0003\\u0004\": 1}"}};
}

}  // namespace

TEST_CASE("an intact archive: every member found, as its central directory says") {
  const auto zip = build_zip(three_members());
  const LocalScan found = scan(zip.bytes);
  const ZipDirectory dir = read_zip_directory(io::MemorySource(zip.bytes));
  REQUIRE(found.entries.size() == 3);
  CHECK(found.lost.empty());
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(found.entries[i].name == dir.entries[i].name);
    CHECK(found.entries[i].local_header_offset == dir.entries[i].local_header_offset);
    CHECK(found.entries[i].compressed_size == dir.entries[i].compressed_size);
    CHECK(found.entries[i].crc32 == dir.entries[i].crc32);
  }
  CHECK(found.entries[1].has_zip64_extra);
}

TEST_CASE("cut inside a member: the ones before it found, it reported, nothing after") {
  const auto zip = build_zip(three_members());
  const std::uint64_t inside_b = zip.local_offsets[1] + 30 + 9 + 20 + 100;
  const LocalScan found = scan(zip.bytes.substr(0, inside_b));
  REQUIRE(found.entries.size() == 1);
  CHECK(found.entries[0].name == "a.txt");
  REQUIRE(found.lost.size() == 1);
  CHECK(found.lost[0].name == "dir/b.bin");
  CHECK(found.lost[0].reason.find("cut off") != std::string::npos);
}

TEST_CASE("cut inside a local header, and inside the central directory") {
  const auto zip = build_zip(three_members());
  const LocalScan header = scan(zip.bytes.substr(0, zip.local_offsets[2] + 12));
  CHECK(header.entries.size() == 2);
  REQUIRE(header.lost.size() == 1);
  CHECK(header.lost[0].reason == "cut off inside its local header");
  const LocalScan directory = scan(zip.bytes.substr(0, zip.cd_offset + 50));
  CHECK(directory.entries.size() == 3);
  CHECK(directory.lost.empty());
}

TEST_CASE("a header whose data size is not borne out by what follows is no member") {
  // A signature inside a member's data, with a size that ends nowhere near a record.
  std::string fake = "PK\x03\x04";
  fake += std::string(26, '\x02');
  const auto zip = build_zip({{"a.bin", "xx" + fake + std::string(2000, 'y')}, {"b.txt", "after"}});
  const LocalScan found = scan(zip.bytes);
  REQUIRE(found.entries.size() == 2);
  CHECK(found.entries[1].name == "b.txt");
}

TEST_CASE("nothing to find, and a limit on headers") {
  CHECK(scan("").entries.empty());
  CHECK(scan(std::string(1000, 'z')).lost.empty());
  const auto zip = build_zip(three_members());
  const LocalScan limited = scan_local_headers(io::MemorySource(zip.bytes), LocalScanLimits{2, 10'000});
  CHECK(limited.entries.size() == 2);
  REQUIRE(limited.lost.size() == 1);
  CHECK(limited.lost[0].reason.find("limit") != std::string::npos);
}
