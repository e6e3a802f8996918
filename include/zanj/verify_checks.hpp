#pragma once
// The pieces verify() is made of, one file each, exposed so they can be unit-tested alone:
// the problem codes and report helpers (verify_report.cpp), the ZIP structure checks
// (verify_zip.cpp), the ZANJ consistency checks (verify_zanj.cpp) and the streaming value
// checks of one member (verify_values.cpp). Commands use verify.hpp, not this.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/json.hpp"
#include "zanj/limits.hpp"
#include "zanj/member_reader.hpp"
#include "zanj/object_path.hpp"
#include "zanj/tree.hpp"
#include "zanj/verify.hpp"
#include "zanj/zip_directory.hpp"

namespace zanj {

/// Every problem verify reports. The names (code_name) are the stable codes.
enum class Code {
  // ZIP structure
  no_eocd, eocd_inconsistent, zip64_inconsistent, bad_central_directory, bad_local_header,
  cd_local_mismatch, overlapping_entries, overlaps_directory, duplicate_name, ambiguous_name, ambiguous_end_record,
  encrypted,
  not_regular_file, unsupported_method, unsafe_name, too_many_entries, too_large, ratio_lie,
  entry_unreadable,
  // member data
  crc_mismatch, size_lie, size_mismatch, data_corrupt,
  // ZANJ consistency
  missing_main, missing_meta, json_invalid, json_too_deep, meta_not_object, no_externals_info,
  bad_reference, dangling_ref, unreferenced_member, externals_info_mismatch,
  // values
  npy_invalid, npy_mismatch, npy_data_size, jsonl_invalid, jsonl_row_count, table_columns,
  inline_array_invalid,
  // warnings
  trailing_data, unaccounted_bytes, utf8_flag_missing, shared_member, externals_info_len,
};

std::string_view code_name(Code code);
bool code_is_warning(Code code);

/// Record a problem in the report's errors or warnings, as the code's severity says.
/// `member` is made printable (control and non-UTF-8 bytes escaped).
void add_problem(VerifyReport& report, Code code, std::string_view member, std::string path, std::string message);

/// Add the problems of `part` (a thread's or a member's findings) and its counts to `report`.
void merge_report(VerifyReport& report, const VerifyReport& part);
/// Close the report: one line per code that had more problems than were listed.
void finish_report(VerifyReport& report);

/// Record why reading a member failed: the MemberDataError kinds map to crc_mismatch,
/// size_lie, size_mismatch and data_corrupt; any other Error means the ZIP reader could not
/// present the member (entry_unreadable). `archive_name` is stripped from the message.
void add_read_failure(VerifyReport& report, const ZipEntry& entry, const Error& error,
                      std::string_view archive_name);

/// The code for an Error thrown by read_zip_directory (no_eocd, zip64_inconsistent, ...).
Code directory_error_code(std::string_view message);

// ---- ZIP structure (verify_zip.cpp) ----------------------------------------------------

/// What the structure checks decided about inflating members.
struct ZipStructure {
  /// Per entry (directory order): safe to inflate. False for encrypted, non-regular, unknown
  /// method, broken local header, overlapping or ratio-lying entries and those over the limits.
  std::vector<bool> inflatable;
};

/// Check the directory against the local headers and the limits, without inflating anything.
ZipStructure check_zip_structure(const ByteSource& source, const ZipDirectory& directory,
                                 const ResourceLimits& limits, VerifyReport& report);

// ---- ZANJ consistency (verify_zanj.cpp) ------------------------------------------------

/// What a member is for, and what its contents must agree with.
struct MemberPlan {
  enum class Role { other, main_json, meta_json, npy, jsonl };
  Role role = Role::other;
  std::string path;                           ///< object path of the first node referring to it
  std::vector<ArrayNode> arrays;              ///< npy: every array node referring to it
  std::optional<std::uint64_t> rows;          ///< jsonl: expected number of lines
  std::string rows_from;                      ///< where `rows` was declared, for messages
  std::optional<std::vector<std::string>> columns;  ///< table: keys of every row
  bool list_elements = false;                 ///< jsonl of a list: check inline arrays in lines
};

/// The two JSON members, parsed (absent when missing or invalid).
struct ZanjDocuments {
  std::optional<Json> main, meta;
};

/// Read and check both JSON members, every reference and externals_info. Returns one plan
/// per directory entry. JSON members that are not `inflatable` are not read.
std::vector<MemberPlan> check_zanj_consistency(const Archive& archive, const std::vector<bool>& inflatable,
                                               const ResourceLimits& limits, ZanjDocuments& documents,
                                               VerifyReport& report);

// ---- values (verify_values.cpp) --------------------------------------------------------

/// Checks one member's contents as its bytes stream past (a ChunkSink), against its plan.
class MemberValueCheck {
 public:
  MemberValueCheck(const ZipEntry& entry, const MemberPlan& plan, const ResourceLimits& limits);
  MemberValueCheck(const MemberValueCheck&) = delete;  // the line splitter calls back into this
  MemberValueCheck& operator=(const MemberValueCheck&) = delete;
  /// Look at the next chunk. Problems are remembered, never thrown: reading goes on so that
  /// the CRC-32 of the whole member is still checked.
  void feed(std::string_view chunk);
  /// The member was read whole and its CRC-32 matched: report what was found.
  void finish(VerifyReport& report);

 private:
  void feed_npy(std::string_view chunk);
  void feed_jsonl(std::string_view chunk);
  bool on_line(std::uint64_t index, std::string_view line);
  void fail(Code code, std::string message);
  void finish_npy();
  void finish_jsonl();

  const ZipEntry& entry_;
  const MemberPlan& plan_;
  const ResourceLimits& limits_;
  std::uint64_t bytes_ = 0;
  std::optional<NpyHeaderCollector> npy_;
  std::optional<JsonlLineSplitter> lines_;
  VerifyReport found_;  ///< problems and counts, handed over by finish()
  bool broken_ = false;  ///< a problem that ends the checks was found: stop looking at the contents
};

/// Check every inline array under `root` (check_inline_array); `member` names the document
/// and `start` is the object path of `root` in it.
void check_inline_arrays(const Json& root, std::string_view member, VerifyReport& report,
                         const PathSegments& start = {});

}  // namespace zanj
