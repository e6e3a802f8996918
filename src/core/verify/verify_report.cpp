// The problem codes (the documented, stable part of verify's output) and the report helpers.
#include <algorithm>
#include <array>

#include "zip/member_name.hpp"
#include "object/tree_json.hpp"
#include "verify/verify_checks.hpp"

namespace zanj {
namespace {

struct CodeRow {
  verify::Code code;
  ProblemCodeInfo info;
};

constexpr bool kError = false, kWarning = true;

// Documentation order: docs/man/zanj-verify.md lists these codes under PROBLEM CODES (a unit test,
// tests/unit/cli/test_manual.cpp, keeps the two in step).
const std::array kCodes{
    CodeRow{verify::Code::no_eocd,
            {"no_eocd", kError, "no end of central directory record: not a ZIP file, or truncated"}},
    CodeRow{verify::Code::eocd_inconsistent,
            {"eocd_inconsistent", kError,
             "end record fields disagree with each other or with the file (entry counts, directory offset and size, "
             "multi-disk)"}},
    CodeRow{verify::Code::zip64_inconsistent,
            {"zip64_inconsistent", kError,
             "Zip64 end record, locator or extra field missing, out of range or disagreeing"}},
    CodeRow{verify::Code::bad_central_directory,
            {"bad_central_directory", kError, "a central directory entry is malformed"}},
    CodeRow{verify::Code::bad_local_header,
            {"bad_local_header", kError,
             "a local header is missing or malformed, or its data runs past the end of the file"}},
    CodeRow{verify::Code::cd_local_mismatch,
            {"cd_local_mismatch", kError,
             "central directory and local header (or data descriptor) disagree: name, method, flags, CRC-32 or sizes"}},
    CodeRow{verify::Code::overlapping_entries,
            {"overlapping_entries", kError, "two entries share bytes (a zip bomb technique); neither is inflated"}},
    CodeRow{verify::Code::overlaps_directory,
            {"overlaps_directory", kError, "an entry's data runs into the central directory"}},
    CodeRow{verify::Code::duplicate_name,
            {"duplicate_name", kError,
             "two entries have the same name (as bytes, or as Python decodes it); data commands refuse the archive"}},
    CodeRow{verify::Code::ambiguous_name,
            {"ambiguous_name", kError,
             "two entries' names differ in bytes but are equal after Unicode canonical normalization (NFD); data "
             "commands refuse the archive"}},
    CodeRow{verify::Code::ambiguous_end_record,
            {"ambiguous_end_record", kError,
             "readers would take different central directories: a second end record opens as another archive (Python "
             "reads the last one in the file, other readers the one ending the file), or the directory does not end "
             "where the end record begins (Python then shifts every offset); data commands refuse it"}},
    CodeRow{verify::Code::encrypted, {"encrypted", kError, "an entry is encrypted"}},
    CodeRow{verify::Code::not_regular_file,
            {"not_regular_file", kError, "an entry is a directory, symlink, device, FIFO or socket"}},
    CodeRow{verify::Code::unsupported_method,
            {"unsupported_method", kError, "compression other than store, deflate, bzip2, LZMA, xz or zstd"}},
    CodeRow{verify::Code::unsafe_name,
            {"unsafe_name", kError,
             "name not UTF-8, with NUL or control characters, absolute, with '..' or '.' segments, backslashes or a "
             "drive letter"}},
    CodeRow{verify::Code::too_many_entries, {"too_many_entries", kError, "more entries than --max-entries"}},
    CodeRow{verify::Code::too_large,
            {"too_large", kError,
             "declared sizes over --max-total-bytes (nothing is inflated) or --max-member-bytes (that member is not "
             "inflated), or a JSON member over the JSON limit (--max-json-bytes)"}},
    CodeRow{verify::Code::ratio_lie,
            {"ratio_lie", kError,
             "an entry claims more than its method can expand (deflate: 1032:1): its declared size is false; it is not "
             "inflated"}},
    CodeRow{verify::Code::entry_unreadable,
            {"entry_unreadable", kError, "the ZIP reader cannot reach or present the entry"}},
    CodeRow{verify::Code::crc_mismatch,
            {"crc_mismatch", kError, "the CRC-32 of a member's bytes differs from the declared one"}},
    CodeRow{verify::Code::size_lie,
            {"size_lie", kError,
             "a member inflates past its declared size, which is therefore false (reading stops there)"}},
    CodeRow{verify::Code::size_mismatch,
            {"size_mismatch", kError,
             "a member ends before its declared size, which is therefore false, or a stored one has different sizes"}},
    CodeRow{verify::Code::data_corrupt, {"data_corrupt", kError, "a member's compressed data cannot be decoded"}},
    CodeRow{verify::Code::missing_main, {"missing_main", kError, "no __zanj__.json member"}},
    CodeRow{verify::Code::missing_meta, {"missing_meta", kError, "no __zanj_meta__.json member"}},
    CodeRow{verify::Code::json_invalid,
            {"json_invalid", kError,
             "a JSON member is not valid JSON (NaN and Infinity as Python writes them are accepted)"}},
    CodeRow{verify::Code::json_too_deep, {"json_too_deep", kError, "JSON nested deeper than --max-json-depth"}},
    CodeRow{verify::Code::meta_not_object, {"meta_not_object", kError, "__zanj_meta__.json is not a JSON object"}},
    CodeRow{verify::Code::no_externals_info, {"no_externals_info", kError, "the meta has no externals_info object"}},
    CodeRow{verify::Code::bad_reference,
            {"bad_reference", kError,
             "a reference node lacks its $ref, or an external array its shape or dtype, or has a dtype numpy refuses"}},
    CodeRow{verify::Code::dangling_ref, {"dangling_ref", kError, "a $ref or externals_info entry names no member"}},
    CodeRow{verify::Code::unreferenced_member,
            {"unreferenced_member", kWarning, "a member nothing refers to (the loader ignores it)"}},
    CodeRow{verify::Code::externals_info_mismatch,
            {"externals_info_mismatch", kError,
             "an externals_info entry is missing or malformed, its path cannot be walked as the loader walks it (a "
             "list takes an int, a dict a str key) or does not lead to the reference node whose $ref is the entry's "
             "name, or its item_type is wrong"}},
    CodeRow{verify::Code::npy_invalid,
            {"npy_invalid", kError,
             "an .npy member's header is invalid or numpy refuses it (object dtypes, which need pickle; zero itemsize; "
             "a shape over intp)"}},
    CodeRow{
        verify::Code::npy_mismatch,
        {"npy_mismatch", kError, "an .npy header's dtype, shape or element count disagrees with the reference node"}},
    CodeRow{verify::Code::npy_data_size,
            {"npy_data_size", kError, "an .npy member's data is shorter than prod(shape) * itemsize bytes"}},
    CodeRow{verify::Code::jsonl_invalid, {"jsonl_invalid", kError, "a .jsonl line is not valid JSON (or too long)"}},
    CodeRow{verify::Code::jsonl_row_count,
            {"jsonl_row_count", kError, "a .jsonl member's line count differs from len(data)"}},
    CodeRow{verify::Code::table_columns,
            {"table_columns", kError, "a table row is not an object whose keys are the table's (distinct) columns"}},
    CodeRow{verify::Code::inline_array_invalid,
            {"inline_array_invalid", kError,
             "an inline array's data disagrees with its shape or dtype (nesting, hex or base64 length), or numpy "
             "refuses its dtype or shape"}},
    CodeRow{verify::Code::trailing_data,
            {"trailing_data", kWarning, "bytes after the end of central directory record"}},
    CodeRow{verify::Code::unaccounted_bytes,
            {"unaccounted_bytes", kWarning, "bytes between entries or before the directory that belong to no entry"}},
    CodeRow{verify::Code::utf8_flag_missing,
            {"utf8_flag_missing", kWarning, "a non-ASCII name without the UTF-8 flag (general purpose bit 11)"}},
    CodeRow{verify::Code::shared_member,
            {"shared_member", kWarning, "several reference nodes point to the same member"}},
    CodeRow{verify::Code::npy_trailing_data,
            {"npy_trailing_data", kWarning,
             "an .npy member has bytes after the prod(shape) * itemsize its shape needs (numpy ignores them)"}},
    CodeRow{verify::Code::externals_info_len,
            {"externals_info_len", kWarning, "an array's externals_info len(data) is not its first dimension"}},
    CodeRow{verify::Code::duplicate_key,
            {"duplicate_key", kWarning,
             "a JSON object repeats a key (Python keeps the first position and the last value, as zanj does)"}},
    CodeRow{verify::Code::bom,
            {"bom", kWarning,
             "a JSON member or .jsonl line starts with a byte-order mark (Python skips it, as zanj does)"}},
    CodeRow{verify::Code::high_ratio,
            {"high_ratio", kWarning,
             "a bzip2, LZMA, xz or zstd entry declares more than --max-ratio (default 10000:1) plus 1 MiB; a truthful "
             "ratio is valid: it is read in full, never past its declared size"}},
};

const CodeRow& row(verify::Code code) {
  for (const CodeRow& r : kCodes)
    if (r.code == code) return r;
  return kCodes.front();  // unreachable: the table lists every code (unit-tested)
}

}  // namespace

std::string_view verify::code_name(verify::Code code) { return row(code).info.name; }
bool verify::code_is_warning(verify::Code code) { return row(code).info.warning; }

const std::vector<ProblemCodeInfo>& problem_codes() {
  static const std::vector<ProblemCodeInfo> all = [] {
    std::vector<ProblemCodeInfo> out;
    out.reserve(kCodes.size());
    for (const CodeRow& r : kCodes) out.push_back(r.info);
    return out;
  }();
  return all;
}

namespace {

std::uint64_t& count_of(VerifyReport& report, std::string_view code) {
  for (auto& [name, count] : report.code_counts)
    if (name == code) return count;
  return report.code_counts.emplace_back(std::string(code), 0).second;
}

bool is_warning_name(std::string_view code) {
  for (const CodeRow& r : kCodes)
    if (r.info.name == code) return r.info.warning;
  return false;
}

void add_named(VerifyReport& report, Problem problem) {
  if (++count_of(report, problem.code) > VerifyReport::kMaxListedPerCode) return;
  (is_warning_name(problem.code) ? report.warnings : report.errors).push_back(std::move(problem));
}

}  // namespace

void verify::report_json_notes(VerifyReport& report, const json::JsonParseNotes& notes, std::string_view member,
                               std::string_view path, std::string_view where) {
  const std::string prefix = where.empty() ? std::string() : std::string(where) + ": ";
  if (notes.bom)
    verify::add_problem(report, verify::Code::bom, member, path,
                        prefix + "starts with a byte-order mark (" + std::string(notes.encoding) + ")");
  if (notes.duplicate_keys)
    verify::add_problem(report, verify::Code::duplicate_key, member, path,
                        prefix + std::to_string(notes.duplicate_keys) + " repeated key" +
                            (notes.duplicate_keys == 1 ? "" : "s") + ", the first at '" +
                            join_path(notes.first_duplicate) + "': the last value is used");
}

void verify::add_problem(VerifyReport& report, verify::Code code, std::string_view member, std::string_view path,
                         std::string_view message) {
  add_named(report, Problem{std::string(verify::code_name(code)), zip::printable_name(member),
                            zip::printable_name(path), zip::printable_name(message)});
}

void verify::merge_report(VerifyReport& report, const VerifyReport& part) {
  for (const auto* list : {&part.errors, &part.warnings})
    for (const Problem& p : *list) add_named(report, p);
  // Problems the part counted but did not list still count here.
  for (const auto& [code, count] : part.code_counts)
    if (count > VerifyReport::kMaxListedPerCode) count_of(report, code) += count - VerifyReport::kMaxListedPerCode;
  VerifyCounts& c = report.checked;
  const VerifyCounts& d = part.checked;
  c.members_read += d.members_read;
  c.bytes_read += d.bytes_read;
  c.references += d.references;
  c.npy_members += d.npy_members;
  c.jsonl_members += d.jsonl_members;
  c.jsonl_rows += d.jsonl_rows;
  c.inline_arrays += d.inline_arrays;
}

void verify::finish_report(VerifyReport& report) {
  for (const auto& [code, count] : report.code_counts) {
    if (count <= VerifyReport::kMaxListedPerCode) continue;
    Problem p{code, "", "",
              std::to_string(count - VerifyReport::kMaxListedPerCode) + " more '" + code + "' problems not listed"};
    (is_warning_name(code) ? report.warnings : report.errors).push_back(std::move(p));
  }
}

std::vector<ProblemGroup> group_problems(const VerifyReport& report, const std::vector<Problem>& problems) {
  std::vector<ProblemGroup> groups;
  for (const Problem& p : problems) {
    auto group = std::find_if(groups.begin(), groups.end(), [&](const ProblemGroup& g) { return g.code == p.code; });
    if (group == groups.end()) group = groups.insert(groups.end(), ProblemGroup{p.code, 0, {}});
    group->listed.push_back(&p);
  }
  for (ProblemGroup& g : groups) {
    g.count = g.listed.size();
    for (const auto& [code, count] : report.code_counts)
      if (code == g.code && count > VerifyReport::kMaxListedPerCode) g.count = count;  // the rest went unlisted
  }
  return groups;
}

void verify::add_read_failure(VerifyReport& report, const ZipEntry& entry, const Error& error,
                              std::string_view archive_name) {
  // The report names the archive; the member's own error need not.
  const std::string message = error.message_in(archive_name);
  verify::Code code = verify::Code::entry_unreadable;
  if (const auto* data = dynamic_cast<const MemberDataError*>(&error)) {
    switch (data->kind()) {
      case MemberDataError::Kind::undecodable:
        code = verify::Code::data_corrupt;
        break;
      case MemberDataError::Kind::too_long:
        code = verify::Code::size_lie;
        break;
      case MemberDataError::Kind::too_short:
        code = verify::Code::size_mismatch;
        break;
      case MemberDataError::Kind::crc_mismatch:
        code = verify::Code::crc_mismatch;
        break;
    }
  }
  // The member the error names, when it names one (an error of the member's reader may
  // concern another: a row's array); else the member being read.
  verify::add_problem(report, code, error.member().empty() ? entry.name : error.member(), error.object_path(), message);
}

verify::Code verify::directory_fault_code(zip::DirectoryFault fault) {
  switch (fault) {
    case zip::DirectoryFault::no_end_record:
      return verify::Code::no_eocd;
    case zip::DirectoryFault::too_many_entries:
      return verify::Code::too_many_entries;
    case zip::DirectoryFault::zip64:
      return verify::Code::zip64_inconsistent;
    case zip::DirectoryFault::central_directory:
      return verify::Code::bad_central_directory;
    case zip::DirectoryFault::end_record:
      break;
  }
  return verify::Code::eocd_inconsistent;
}

}  // namespace zanj
