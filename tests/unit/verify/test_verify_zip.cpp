#include <doctest/doctest.h>

#include "doctest_printers.hpp"

#include <algorithm>

#include "io/byte_source.hpp"
#include "verify/verify_checks.hpp"
#include "zip_builder.hpp"

using namespace zanj;
using namespace zanj::verify;
using test::build_zip;
using test::BuiltZip;
using test::patch;
using test::put;
using test::TestMember;

namespace {

// Field offsets in local (L) and central (C) headers, APPNOTE 4.3.7 and 4.3.12.
constexpr std::uint64_t kLFlags = 6, kLMethod = 8, kLCrc = 14, kLUsize = 22, kLName = 30;
constexpr std::uint64_t kCMadeBy = 4, kCFlags = 8, kCMethod = 10, kCCsize = 20, kCUsize = 24, kCAttr = 38,
                        kCOffset = 42;

struct Checked {
  VerifyReport report;
  ZipStructure structure;
};

Checked check(const std::string& bytes, const ResourceLimits& limits = {}, unsigned threads = 1) {
  io::MemorySource source(bytes);
  const zip::ZipDirectory dir = zip::read_zip_directory(source);
  Checked out;
  out.structure = check_zip_structure(source, dir, limits, threads, out.report);
  return out;
}

std::vector<std::string> zip_codes(const VerifyReport& r) {
  std::vector<std::string> out;
  for (const auto* list : {&r.errors, &r.warnings})
    for (const Problem& p : *list) out.push_back(p.code);
  return out;
}

BuiltZip three() { return build_zip({{"a.txt", "hello"}, {"b.bin", std::string(300, 'x'), true}, {"c.txt", "world"}}); }

}  // namespace

TEST_SUITE("verify_zip") {
  TEST_CASE("a clean archive has no problems and everything may be inflated") {
    const Checked c = check(three().bytes);
    CHECK(zip_codes(c.report).empty());
    CHECK(c.structure.inflatable == std::vector<bool>{true, true, true});
  }

  TEST_CASE("central directory and local header must agree") {
    const BuiltZip z = three();
    const std::uint64_t b = z.local_offsets[1];
    SUBCASE("name") {
      auto bytes = z.bytes;
      bytes[b + kLName] = 'X';
      const Checked c = check(bytes);
      CHECK(zip_codes(c.report) == std::vector<std::string>{"cd_local_mismatch"});
      CHECK(c.report.errors[0].message.find("name") != std::string::npos);
      CHECK_FALSE(c.structure.inflatable[1]);
    }
    SUBCASE("CRC-32 is reported, the member is still read") {
      auto bytes = z.bytes;
      patch(bytes, b + kLCrc, 1, 4);
      const Checked c = check(bytes);
      CHECK(zip_codes(c.report) == std::vector<std::string>{"cd_local_mismatch"});
      CHECK(c.structure.inflatable[1]);
    }
    SUBCASE("method, flags, size, and the Zip64 sizes") {
      const std::pair<std::uint64_t, std::uint64_t> lies[] = {
          {kLMethod, 12}, {kLFlags, 0x800}, {kLUsize, 12}, {kLName + 5 + 4, 12}};  // +9: the Zip64 usize
      for (const auto& [field, value] : lies) {
        auto bytes = z.bytes;
        patch(bytes, b + field, value, 2);
        const Checked c = check(bytes);
        CHECK(zip_codes(c.report) == std::vector<std::string>{"cd_local_mismatch"});
        CHECK_FALSE(c.structure.inflatable[1]);
      }
    }
  }

  TEST_CASE("a data descriptor may carry the CRC-32 and sizes") {
    // One stored member with flag bit 3, zeros in its local header, a signed descriptor.
    const std::string data = "descriptor";
    std::string bytes;
    put(bytes, 0x04034b50, 4), put(bytes, 20, 2), put(bytes, 8, 2), put(bytes, 0, 2), put(bytes, 0, 4);
    put(bytes, 0, 4), put(bytes, 0, 4), put(bytes, 0, 4), put(bytes, 1, 2), put(bytes, 0, 2);
    bytes += "d" + data;
    put(bytes, 0x08074b50, 4), put(bytes, test::crc32_of(data), 4), put(bytes, data.size(), 4),
        put(bytes, data.size(), 4);
    const std::uint64_t cd = bytes.size();
    put(bytes, 0x02014b50, 4), put(bytes, 0x0314, 2), put(bytes, 20, 2), put(bytes, 8, 2), put(bytes, 0, 2);
    put(bytes, 0, 4), put(bytes, test::crc32_of(data), 4), put(bytes, data.size(), 4), put(bytes, data.size(), 4);
    put(bytes, 1, 2), put(bytes, 0, 2), put(bytes, 0, 2), put(bytes, 0, 2), put(bytes, 0, 2);
    put(bytes, 0100644u << 16, 4), put(bytes, 0, 4);
    bytes += "d";
    const std::uint64_t cd_size = bytes.size() - cd;
    put(bytes, 0x06054b50, 4), put(bytes, 0, 4), put(bytes, 1, 2), put(bytes, 1, 2), put(bytes, cd_size, 4);
    put(bytes, cd, 4), put(bytes, 0, 2);
    CHECK(zip_codes(check(bytes).report).empty());
    auto wrong = bytes;
    patch(wrong, 31 + data.size() + 4, 0, 4);  // the descriptor's CRC-32
    // the descriptor's 16 bytes are then unaccounted for, too
    CHECK(zip_codes(check(wrong).report) == std::vector<std::string>{"cd_local_mismatch", "unaccounted_bytes"});
  }

  TEST_CASE("overlaps: two entries sharing a header, an entry running into the directory") {
    BuiltZip z = build_zip({{"a.txt", "hello"}, {"b.txt", "hello"}});
    auto shared = z.bytes;
    patch(shared, z.central_offsets[1] + kCOffset, 0, 4);  // b points at a's header
    const Checked c = check(shared);
    const auto all = zip_codes(c.report);
    CHECK(std::count(all.begin(), all.end(), "overlapping_entries") == 1);
    CHECK(std::count(all.begin(), all.end(), "cd_local_mismatch") == 1);  // b's name is a's
    CHECK(c.structure.inflatable == std::vector<bool>{false, false});
    auto into_cd = z.bytes;  // b claims 10 more bytes (stored: both sizes), into the directory
    for (const std::uint64_t at : {z.central_offsets[1] + kCCsize, z.central_offsets[1] + kCUsize})
      patch(into_cd, at, 15, 4);
    for (const std::uint64_t at : {z.local_offsets[1] + 18, z.local_offsets[1] + kLUsize}) patch(into_cd, at, 15, 4);
    CHECK(zip_codes(check(into_cd).report) == std::vector<std::string>{"overlaps_directory"});
  }

  TEST_CASE("entry kinds: encrypted, symlink, directory, methods, stored sizes, ratio") {
    BuiltZip z = three();
    const std::uint64_t c = z.central_offsets[1], l = z.local_offsets[1];
    const auto with = [&](std::initializer_list<std::tuple<std::uint64_t, std::uint64_t, int>> patches) {
      auto bytes = z.bytes;
      for (const auto& [at, value, width] : patches) patch(bytes, at, value, width);
      return check(bytes);
    };
    const Checked encrypted = with({{c + kCFlags, 1, 2}, {l + kLFlags, 1, 2}});
    CHECK(zip_codes(encrypted.report) == std::vector<std::string>{"encrypted"});
    CHECK_FALSE(encrypted.structure.inflatable[1]);
    CHECK(zip_codes(with({{c + kCAttr, 0120777u << 16, 4}}).report) == std::vector<std::string>{"not_regular_file"});
    CHECK(zip_codes(with({{c + kCAttr, 0060644u << 16, 4}}).report) == std::vector<std::string>{"not_regular_file"});
    CHECK(zip_codes(with({{c + kCAttr, 0, 4}, {c + kCMadeBy, 0, 2}}).report).empty());  // DOS maker: a file
    CHECK(zip_codes(with({{c + kCMethod, 98, 2}, {l + kLMethod, 98, 2}}).report) ==
          std::vector<std::string>{"unsupported_method"});
    for (const std::uint64_t ok : {12u, 14u, 93u, 95u})  // bzip2, LZMA, zstd and xz are fine structurally
      CHECK(zip_codes(with({{c + kCMethod, ok, 2}, {l + kLMethod, ok, 2}}).report).empty());
    CHECK(zip_codes(with({{c + kCUsize, 301, 4}}).report) ==
          std::vector<std::string>{"size_mismatch", "cd_local_mismatch"});
    // deflate, 300 compressed bytes claiming 300 * 1032 + 2000: impossible
    const Checked bomb = with({{c + kCMethod, 8, 2}, {l + kLMethod, 8, 2}, {c + kCUsize, 300 * 1032 + 2000, 4}});
    CHECK(zip_codes(bomb.report)[0] == "ratio_lie");
    CHECK_FALSE(bomb.structure.inflatable[1]);
    CHECK(zip_codes(with({{c + kCMethod, 8, 2},
                          {l + kLMethod, 8, 2},
                          {c + kCUsize, 300 * 1032, 4},
                          {l + kLUsize, 300 * 1032, 4},
                          {l + kLName + 5 + 4, 300 * 1032, 8}})
                        .report)
              .empty());  // exactly at the maximum: honest
    // bzip2, 300 compressed bytes claiming 300 * 10000 + 2 MiB: possible (zeros reach far more),
    // so a warning, and the member is still read (its data will say whether the size is true)
    const Checked high = with({{c + kCMethod, 12, 2},
                               {l + kLMethod, 12, 2},
                               {c + kCUsize, 300 * 10000 + (2 << 20), 4},
                               {l + kLUsize, 300 * 10000 + (2 << 20), 4},
                               {l + kLName + 5 + 4, 300 * 10000 + (2 << 20), 8}});
    CHECK(zip_codes(high.report) == std::vector<std::string>{"high_ratio"});
    CHECK(high.report.errors.empty());
    CHECK(high.structure.inflatable[1]);
    CHECK(high.report.warnings[0].message.find("--max-ratio") != std::string::npos);
  }

  TEST_CASE("names: unsafe, duplicated, non-ASCII without the UTF-8 flag") {
    const Checked c = check(build_zip({{"../x", "1"}, {"ok/ü.txt", "2"}, {"d.txt", "3"}, {"d.txt", "4"}}).bytes);
    CHECK(zip_codes(c.report) == std::vector<std::string>{"unsafe_name", "duplicate_name", "utf8_flag_missing"});
    CHECK(c.report.errors[1].message == "2 entries have this name");
  }

  TEST_CASE("names equal after NFD, and a second end record, are ambiguities") {
    auto zip = build_zip({{"caf\xC3\xA9.txt", "1"}, {"cafe\xCC\x81.txt", "2"}});
    for (const auto offset : {zip.local_offsets[0], zip.local_offsets[1]}) test::patch(zip.bytes, offset + 6, 0x800, 2);
    for (const auto offset : {zip.central_offsets[0], zip.central_offsets[1]})
      test::patch(zip.bytes, offset + 8, 0x800, 2);
    const Checked c = check(zip.bytes);
    CHECK(zip_codes(c.report) == std::vector<std::string>{"ambiguous_name"});
    // The real end record's comment holds a record listing the first entry only.
    const auto two = build_zip({{"a.txt", "1"}, {"b.txt", "2"}});
    std::string fake = test::end_record_head(1, 46 + 5, two.cd_offset);
    test::put(fake, 0, 2);  // its comment length
    const Checked e = check(build_zip({{"a.txt", "1"}, {"b.txt", "2"}}, test::ZipOptions{fake}).bytes);
    const auto found = zip_codes(e.report);
    // Reported twice: the second record, and its directory not ending where it begins (Python
    // would shift every offset).
    CHECK(std::count(found.begin(), found.end(), "ambiguous_end_record") == 2);
    // Bytes between the directory and the end record: Python reads the directory elsewhere.
    auto gap = build_zip({{"a.txt", "1"}});
    gap.bytes.insert(gap.end_offset, "gap!");
    const Checked g = check(gap.bytes);
    CHECK(zip_codes(g.report) == std::vector<std::string>{"ambiguous_end_record", "unaccounted_bytes"});
    io::MemorySource source(gap.bytes);
    CHECK(zip::read_zip_directory(source).python_offset_shift == 4);
  }

  TEST_CASE("limits: one member or the total over the limit") {
    ResourceLimits limits;
    limits.max_member_bytes = 299;
    Checked c = check(three().bytes, limits);
    CHECK(zip_codes(c.report) == std::vector<std::string>{"too_large"});
    CHECK(c.report.errors[0].message.find("--max-member-bytes") != std::string::npos);
    CHECK(c.structure.inflatable == std::vector<bool>{true, false, true});
    limits = {};
    limits.max_total_bytes = 309;
    c = check(three().bytes, limits);
    CHECK(zip_codes(c.report) == std::vector<std::string>{"too_large"});
    CHECK(c.structure.inflatable == std::vector<bool>{false, false, false});
  }

  TEST_CASE("bytes that belong to nothing are warnings") {
    const BuiltZip z = three();
    const Checked trailing = check(z.bytes + "junk");
    CHECK(zip_codes(trailing.report) == std::vector<std::string>{"trailing_data"});
    CHECK(trailing.report.errors.empty());
  }

  TEST_CASE("the local headers of many entries checked on several threads give the report of one") {
    // 5,000 entries, three runs of them; every 97th local header names another member, every
    // 89th has a CRC-32 the directory does not, and one is encrypted.
    std::vector<TestMember> members;
    for (int i = 0; i < 5000; ++i) members.push_back({"m" + std::to_string(i) + ".txt", std::to_string(i * i)});
    BuiltZip z = build_zip(members);
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i % 97 == 5) z.bytes[z.local_offsets[i] + kLName] = 'X';
      if (i % 89 == 7) patch(z.bytes, z.local_offsets[i] + kLCrc, 1, 4);
    }
    patch(z.bytes, z.central_offsets[4321] + kCFlags, 1, 2);  // the encrypted flag, in the directory only
    const Checked one = check(z.bytes, {}, 1), three = check(z.bytes, {}, 3);
    const std::vector<std::string> codes = zip_codes(one.report);
    CHECK(std::count(codes.begin(), codes.end(), "encrypted") == 1);
    CHECK(one.report.code_counts.size() >= 2);
    CHECK(one.report.errors == three.report.errors);
    CHECK(one.report.warnings == three.report.warnings);
    CHECK(one.report.code_counts == three.report.code_counts);
    CHECK(one.structure.inflatable == three.structure.inflatable);
    CHECK(std::count(one.structure.inflatable.begin(), one.structure.inflatable.end(), false) > 50);
  }
}
