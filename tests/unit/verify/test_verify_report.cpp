#include <doctest/doctest.h>

#include "doctest_printers.hpp"

#include <set>

#include "io/byte_source.hpp"
#include "zanj/error.hpp"
#include "verify/verify_checks.hpp"
#include "zip_builder.hpp"

using namespace zanj;
using namespace zanj::verify;
using test::build_zip;
using test::patch;
using test::TestMember;

namespace {

constexpr Code kLastCode = Code::high_ratio;

/// The code read_zip_directory's error for these bytes maps to.
std::string code_for(const std::string& bytes, const zip::ZipLimits& limits = {}) {
  try {
    zip::read_zip_directory(io::MemorySource(bytes), limits);
  } catch (const zip::DirectoryError& e) {
    return std::string(code_name(directory_fault_code(e.fault())));
  } catch (const Error&) {
    return std::string(code_name(Code::eocd_inconsistent));  // as verify_source takes a short read
  }
  return "no error";
}

}  // namespace

TEST_SUITE("verify_report") {
  TEST_CASE("every code has one unique name, documented in problem_codes()") {
    std::set<std::string_view> names;
    for (int i = 0; i <= static_cast<int>(kLastCode); ++i) {
      const auto name = code_name(static_cast<Code>(i));
      CHECK_FALSE(name.empty());
      CHECK(names.insert(name).second);
    }
    CHECK(problem_codes().size() == names.size());
    for (const auto& info : problem_codes()) {
      CHECK(names.count(info.name) == 1);
      CHECK_FALSE(info.meaning.empty());
    }
    CHECK(code_is_warning(Code::trailing_data));
    CHECK_FALSE(code_is_warning(Code::crc_mismatch));
  }

  TEST_CASE("problems go to errors or warnings by code, names made printable") {
    VerifyReport r;
    add_problem(r, Code::crc_mismatch, "a\nb", "p", "bad\x01");
    add_problem(r, Code::trailing_data, "", "", "junk");
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].code == "crc_mismatch");
    CHECK(r.errors[0].member == "a\\x0Ab");
    CHECK(r.errors[0].message == "bad\\x01");
    REQUIRE(r.warnings.size() == 1);
    CHECK(r.warnings[0].code == "trailing_data");
    CHECK_FALSE(r.ok());
    r.errors.clear();
    CHECK(r.ok());
    CHECK_FALSE(r.ok(true));
  }

  TEST_CASE("at most kMaxListedPerCode problems per code, then one line counts the rest") {
    VerifyReport r;
    for (int i = 0; i < 250; ++i) add_problem(r, Code::overlapping_entries, "m" + std::to_string(i), "", "x");
    add_problem(r, Code::crc_mismatch, "c", "", "x");
    CHECK(r.errors.size() == VerifyReport::kMaxListedPerCode + 1);
    finish_report(r);
    REQUIRE(r.errors.size() == VerifyReport::kMaxListedPerCode + 2);
    CHECK(r.errors.back().code == "overlapping_entries");
    CHECK(r.errors.back().message.find("150 more") == 0);
  }

  TEST_CASE("merging keeps counts and caps") {
    VerifyReport part;
    for (int i = 0; i < 120; ++i) add_problem(part, Code::unsafe_name, "n", "", "x");
    part.checked.members_read = 3;
    part.checked.bytes_read = 10;
    VerifyReport whole;
    whole.checked.members = 7;
    merge_report(whole, part);
    merge_report(whole, part);
    CHECK(whole.errors.size() == VerifyReport::kMaxListedPerCode);
    CHECK(whole.checked.members == 7);
    CHECK(whole.checked.members_read == 6);
    CHECK(whole.checked.bytes_read == 20);
    finish_report(whole);
    CHECK(whole.errors.back().message.find("140 more") == 0);
  }

  TEST_CASE("read failures map to codes, without the archive name") {
    ZipEntry e;
    e.name = "m.npy";
    const std::pair<MemberDataError::Kind, const char*> kinds[] = {
        {MemberDataError::Kind::undecodable, "data_corrupt"},
        {MemberDataError::Kind::too_long, "size_lie"},
        {MemberDataError::Kind::too_short, "size_mismatch"},
        {MemberDataError::Kind::crc_mismatch, "crc_mismatch"}};
    for (const auto& [kind, code] : kinds) {
      VerifyReport r;
      add_read_failure(r, e, MemberDataError(kind, InArchive{"a.zanj"}, "member 'm.npy' is bad"), "a.zanj");
      REQUIRE(r.errors.size() == 1);
      CHECK(r.errors[0].code == code);
      CHECK(r.errors[0].member == "m.npy");
      CHECK(r.errors[0].message == "member 'm.npy' is bad");
    }
    VerifyReport r;
    add_read_failure(r, e, Error(InArchive{"a.zanj"}, "cannot read member header"), "a.zanj");
    CHECK(r.errors.at(0).code == "entry_unreadable");
    CHECK(r.errors.at(0).message == "cannot read member header");
    // An error about something else (the file under a URL's spool, say) keeps its own name.
    VerifyReport other;
    add_read_failure(other, e, Error(InArchive{"/tmp/spool"}, "Input/output error"), "a.zanj");
    CHECK(other.errors.at(0).message == "/tmp/spool: Input/output error");
  }

  TEST_CASE("a read failure's member and path come from the Error's fields when it has them") {
    ZipEntry e;
    e.name = "rows.jsonl";
    VerifyReport r;  // reading rows.jsonl failed on another member (a row's array)
    add_read_failure(r, e,
                     Error(InArchive{"a.zanj"}, AtPath{"rows/0/w"}, "values ended early").in_member(InMember{"w.npy"}),
                     "a.zanj");
    CHECK(r.errors.at(0).member == "w.npy");
    CHECK(r.errors.at(0).path == "rows/0/w");
    CHECK(r.errors.at(0).message == "array 'rows/0/w': member 'w.npy': values ended early");
    VerifyReport plain;  // no member in the error: the one being read
    add_read_failure(plain, e, Error(InArchive{"a.zanj"}, "cannot read member header"), "a.zanj");
    CHECK(plain.errors.at(0).member == "rows.jsonl");
    CHECK(plain.errors.at(0).path == "");
  }

  TEST_CASE("directory errors map to codes (pinned to read_zip_directory's real messages)") {
    const auto zip = build_zip({{"a.txt", "hello"}, {"b.txt", "world"}});
    CHECK(code_for(zip.bytes) == "no error");
    CHECK(code_for(zip.bytes.substr(0, zip.bytes.size() / 2)) == "no_eocd");
    CHECK(code_for(zip.bytes, zip::ZipLimits{1}) == "too_many_entries");
    auto count = zip.bytes;
    patch(count, zip.end_offset + 8, 1, 2);
    patch(count, zip.end_offset + 10, 1, 2);
    CHECK(code_for(count) == "eocd_inconsistent");
    auto offset = zip.bytes;
    patch(offset, zip.end_offset + 16, zip.cd_offset + 1000, 4);
    CHECK(code_for(offset) == "eocd_inconsistent");
    auto signature = zip.bytes;
    patch(signature, zip.central_offsets[1], 0x12345678, 4);
    CHECK(code_for(signature) == "bad_central_directory");
    auto local = zip.bytes;
    patch(local, zip.central_offsets[1] + 42, zip.cd_offset, 4);
    CHECK(code_for(local) == "bad_central_directory");
    test::ZipOptions zip64;
    zip64.zip64_end = true;
    const auto wide = build_zip({{"a.txt", "hello"}}, zip64);
    auto disagree = wide.bytes;
    patch(disagree, wide.end_offset + 10, 3, 2);  // total entries: neither 0xFFFF nor 1
    CHECK(code_for(disagree) == "zip64_inconsistent");
    // The code is the fault's, whatever the message quotes: a member whose name says Zip64
    // has a bad entry, not an inconsistent Zip64 record (the wording once decided it).
    const auto named = build_zip({{"a.txt", "hello"}, {"Zip64 more than the limit.txt", "x"}});
    auto misplaced = named.bytes;
    patch(misplaced, named.central_offsets[1] + 42, named.cd_offset, 4);
    CHECK(code_for(misplaced) == "bad_central_directory");
  }
}
