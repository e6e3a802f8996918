#pragma once
// The pieces verify() is made of, one file each, exposed so they can be unit-tested alone:
// the problem codes and report helpers (verify_report.cpp), the ZIP structure checks
// (verify_zip.cpp), the ZANJ consistency checks (verify_zanj.cpp) and the streaming value
// checks of one member (verify_values.cpp). Commands use verify.hpp, not this.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <string_view>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/json.hpp"
#include "zanj/limits.hpp"
#include "array/member_reader.hpp"
#include "object/tree_json.hpp"
#include "zanj/tree.hpp"
#include "zanj/verify.hpp"
#include "zip/zip_directory.hpp"
#include "json/json_parse.hpp"

namespace zanj::verify {

/// Every problem verify reports. The names (code_name) are the stable codes.
enum class Code {
  // ZIP structure
  no_eocd,
  eocd_inconsistent,
  zip64_inconsistent,
  bad_central_directory,
  bad_local_header,
  cd_local_mismatch,
  overlapping_entries,
  overlaps_directory,
  duplicate_name,
  ambiguous_name,
  ambiguous_end_record,
  encrypted,
  not_regular_file,
  unsupported_method,
  unsafe_name,
  too_many_entries,
  too_large,
  ratio_lie,
  entry_unreadable,
  // member data
  crc_mismatch,
  size_lie,
  size_mismatch,
  data_corrupt,
  // ZANJ consistency
  missing_main,
  missing_meta,
  json_invalid,
  json_too_deep,
  meta_not_object,
  no_externals_info,
  bad_reference,
  dangling_ref,
  unreferenced_member,
  externals_info_mismatch,
  // values
  npy_invalid,
  npy_mismatch,
  npy_data_size,
  jsonl_invalid,
  jsonl_row_count,
  table_columns,
  inline_array_invalid,
  // warnings
  trailing_data,
  unaccounted_bytes,
  utf8_flag_missing,
  shared_member,
  npy_trailing_data,
  externals_info_len,
  duplicate_key,
  bom,
  high_ratio,
};

std::string_view code_name(Code code);
bool code_is_warning(Code code);

/// Record a problem in the report's errors or warnings, as the code's severity says.
/// `member` is made printable (control and non-UTF-8 bytes escaped).
void add_problem(VerifyReport& report, Code code, std::string_view member, std::string_view path,
                 std::string_view message);
/// The duplicate_key and bom warnings for what parse_json noticed in `member` (`where`: a line).
void report_json_notes(VerifyReport& report, const json::JsonParseNotes& notes, std::string_view member,
                       std::string_view path, std::string_view where = {});

/// Add the problems of `part` (a thread's or a member's findings) and its counts to `report`.
void merge_report(VerifyReport& report, const VerifyReport& part);
/// Close the report: one line per code that had more problems than were listed.
void finish_report(VerifyReport& report);

/// Record why reading a member failed: the MemberDataError kinds map to crc_mismatch,
/// size_lie, size_mismatch and data_corrupt; any other Error means the ZIP reader could not
/// present the member (entry_unreadable). `archive_name` is stripped from the message.
void add_read_failure(VerifyReport& report, const ZipEntry& entry, const Error& error, std::string_view archive_name);

/// The code for the part of the directory read_zip_directory found at fault (no_eocd,
/// zip64_inconsistent, ...).
Code directory_fault_code(zip::DirectoryFault fault);

// ---- ZIP structure (verify_zip.cpp) ----------------------------------------------------

/// What the structure checks decided about inflating members.
struct ZipStructure {
  /// Per entry (directory order): safe to inflate. False for encrypted, non-regular, unknown
  /// method, broken local header, overlapping or ratio-lying entries and those over the limits.
  std::vector<bool> inflatable;
};

/// Check the directory against the local headers and the limits, without inflating anything.
/// The local headers of many entries are read on up to `threads` threads; the report is the
/// same with any number.
ZipStructure check_zip_structure(const io::ByteSource& source, const zip::ZipDirectory& directory,
                                 const ResourceLimits& limits, unsigned threads, VerifyReport& report);

// ---- ZANJ consistency (verify_zanj.cpp) ------------------------------------------------

/// What a member is for, and what its contents must agree with.
struct MemberPlan {
  enum class Role : std::uint8_t { other, main_json, meta_json, npy, jsonl };
  Role role = Role::other;
  bool list_elements = false;  ///< jsonl of a list: check inline arrays in lines
  std::string path;            ///< object path of the first node referring to it
  /// npy: every array node referring to it (views into the documents, which outlive the plans;
  /// classified again when the header is checked: a copy of each was 7 MB on 50,000 members)
  std::vector<JsonView> arrays;
  /// What only a .jsonl member needs: held apart, so that the plans of 50,000 .npy members do
  /// not carry it (about 100 bytes each, 5 MiB of a report's peak).
  struct Lines {
    std::optional<std::uint64_t> rows;                ///< expected number of lines
    std::string rows_from;                            ///< where `rows` was declared, for messages
    std::optional<std::vector<std::string>> columns;  ///< table: keys of every row
    /// A node inside its lines that an externals_info path leads to; the loader walks `rest`
    /// (the line index first) through the lines and asserts the node's $ref is `member`.
    struct LineReference {
      std::vector<Json> rest;
      std::string member;
      std::string path;  ///< the whole path, for messages
      bool npy = true;   ///< externals_info item_type: "npy" (else "jsonl")
    };
    std::vector<LineReference> line_references;
  };
  using LineReference = Lines::LineReference;
  /// The .jsonl part, made when first asked for.
  Lines& lines() {
    if (!lines_) lines_ = std::make_unique<Lines>();
    return *lines_;
  }
  /// The .jsonl part, empty when none was made.
  const Lines& lines() const {
    static const Lines none;
    return lines_ ? *lines_ : none;
  }
  /// A reference node inside some .jsonl line refers to this member: its header or line count
  /// is kept for check_row_claims.
  bool in_rows = false;

 private:
  std::unique_ptr<Lines> lines_;
};

/// A JSON member parsed already (a ZanjFile's), with what its parse noticed.
struct ParsedMember {
  const JsonDocument* document = nullptr;
  const json::JsonParseNotes* notes = nullptr;
};

/// The two JSON members, parsed. `given_*` (in, optional): members parsed already, which are
/// checked as a reading would be (present, inflatable, within the size limit) but not read and
/// parsed again. `main` and `meta` (out): the documents, absent when missing or invalid; they
/// point at a given one or into `read_*`.
struct ZanjDocuments {
  std::optional<ParsedMember> given_main, given_meta;
  const JsonDocument* main = nullptr;
  const JsonDocument* meta = nullptr;
  std::optional<JsonDocument> read_main, read_meta;
};

/// Read and check both JSON members (those not given), every reference and externals_info.
/// Returns one plan per directory entry. JSON members that are not `inflatable` are not read
/// (nor used when given). A document read while the other is not is parsed on `threads`.
std::vector<MemberPlan> check_zanj_consistency(const Archive& archive, const std::vector<bool>& inflatable,
                                               const ResourceLimits& limits, unsigned threads, ZanjDocuments& documents,
                                               VerifyReport& report);

// ---- externals_info paths (verify_path_walk.cpp) ----------------------------------------

/// Python's tuple(path) for an externals_info "path": a list's items, a string's characters or
/// an object's keys; nullopt when the loader would fail on it (another type, empty, or an item
/// that is neither a str nor an int -- a bool is an int).
std::optional<std::vector<Json>> python_path_items(JsonView path);
/// How many items python_path_items gives, found without copying them (nullopt as it).
std::optional<std::size_t> python_path_length(JsonView path);
inline std::optional<std::vector<Json>> python_path_items(const Json& path) {
  return python_path_items(json::view_of(path));
}

/// An external node that an earlier externals_info entry has given its data (the loader walks
/// the entries shortest path first and populates each node before walking the next path).
struct PopulatedNode {
  std::string_view member;  ///< the member whose data it received (a view into the meta)
  bool jsonl = false;       ///< a list of lines (can be walked into), not an array (cannot)
};
using PopulatedNodes = std::unordered_map<json::JsonViewIdentity, PopulatedNode, json::JsonViewIdentityHash>;

/// Where the loader's walk of an externals_info path ends.
struct PathWalk {
  JsonView target;        ///< the node reached; invalid when the walk fails or goes `through`
  std::string failure;    ///< why the loader would fail (when neither target nor through)
  PathSegments segments;  ///< keys and list positions used (a bool or negative index resolved)
  /// The path enters the lines of this populated .jsonl member: `rest` (starting with the line
  /// index) is walked inside them, which only the data pass can see.
  std::string through;
  std::vector<Json> rest;
  /// The walk failed at an external node with no data: one that a member loaded elsewhere could
  /// have fed (only known where `populated` is complete).
  bool blocked_by_external = false;
};

/// list[key] as Python evaluates it for a list of `size`: the position, or nullopt for a
/// TypeError (not an int) or an IndexError. A bool is an int; a negative one counts from the end.
std::optional<std::size_t> list_position(const Json& key, std::size_t size);

/// Walk `items` from `root` with Python subscripts (docs/format.md, populate_externals). `index`
/// (optional) makes key lookups in large objects constant time.
PathWalk walk_python_path(JsonView root, const std::vector<Json>& items, const PopulatedNodes& populated,
                          object::KeyIndex* index = nullptr);
inline PathWalk walk_python_path(const Json& root, const std::vector<Json>& items, const PopulatedNodes& populated,
                                 object::KeyIndex* index = nullptr) {
  return walk_python_path(json::view_of(root), items, populated, index);
}

// ---- values (verify_values.cpp) --------------------------------------------------------

/// What a reference node found in a .jsonl line says about the member it refers to. That member
/// may be read before or after the line, by another thread, so the claim is kept and checked
/// against it once every member has been read (check_row_claims).
struct RowClaim {
  std::string member;                 ///< the node's $ref
  std::string path;                   ///< the node's object path, for messages
  std::optional<ArrayNode> array;     ///< an external array: its dtype, shape and n_elements
  std::optional<std::uint64_t> rows;  ///< an external list or table: its declared length
};

/// What the data pass found in a member that rows refer to (MemberPlan::in_rows).
struct RowTarget {
  std::optional<array::NpyHeader> header;  ///< an .npy member whose header was valid
  std::optional<std::uint64_t> lines;      ///< a .jsonl member whose lines were all read
};

/// Check each claim against its member, as finish_npy and finish_jsonl check the nodes of
/// __zanj__.json: npy_mismatch, jsonl_row_count. A claim whose member has no target (missing,
/// unreadable or invalid) was reported already.
void check_row_claims(const std::vector<RowClaim>& claims, const std::map<std::string, RowTarget, std::less<>>& targets,
                      VerifyReport& report);

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
  /// After finish(): the claims of the reference nodes found in this member's lines.
  std::vector<RowClaim>& row_claims() { return row_claims_; }
  /// After finish(): what check_row_claims needs of this member.
  RowTarget row_target() const;

 private:
  void feed_npy(std::string_view chunk);
  void feed_jsonl(std::string_view chunk);
  bool on_line(std::uint64_t index, std::string_view line);
  void check_line_references(std::uint64_t index, JsonView value);
  void claim_row_reference(const Node& node, const MemberPlan::LineReference& ref);
  void fail(Code code, const std::string& message);
  void finish_npy();
  void finish_jsonl();

  const ZipEntry& entry_;
  const MemberPlan& plan_;
  const ResourceLimits& limits_;
  std::uint64_t bytes_ = 0;
  std::optional<array::NpyHeaderCollector> npy_;
  std::optional<array::JsonlLineSplitter> lines_;
  std::set<std::string_view> columns_;  ///< plan_.columns, each name once (a table may repeat one)
  /// plan_.line_references by line index (non-negative ones), and which were found.
  std::unordered_multimap<std::uint64_t, std::size_t> references_by_line_;
  std::vector<bool> reference_found_;
  json::JsonParseNotes first_notes_;  ///< of the first line with a BOM or a repeated key
  std::uint64_t noted_lines_ = 0, first_noted_line_ = 0;
  std::vector<RowClaim> row_claims_;
  bool jsonl_complete_ = false;  ///< every line was read and split
  VerifyReport found_;           ///< problems and counts, handed over by finish()
  bool broken_ = false;          ///< a problem that ends the checks was found: stop looking at the contents
};

/// Check one visited node when it is an inline array (check_inline_array).
void check_inline_node(const TreeVisit& v, std::string_view member, VerifyReport& report);

/// Why the release that wrote a "__format__" array node fails to load it, if it does: those
/// releases' loaders cast every array through muutils' DTYPE_MAP, which knows a fixed set of
/// dtype names (no uint16..uint64, no byte-order or string dtypes): anything else is a
/// KeyError. nullopt for today's nodes and for dtypes the map has.
std::optional<std::string> legacy_loader_refusal(const Node& node);
/// Check every inline array under `root` (check_inline_array); `member` names the document
/// and `start` is the object path of `root` in it.
void check_inline_arrays(JsonView root, std::string_view member, VerifyReport& report, const PathSegments& start = {});
inline void check_inline_arrays(const Json& root, std::string_view member, VerifyReport& report,
                                const PathSegments& start = {}) {
  check_inline_arrays(json::view_of(root), member, report, start);
}

}  // namespace zanj::verify
