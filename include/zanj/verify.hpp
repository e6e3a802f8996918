#pragma once
// `zanj verify`: is an archive whole, consistent and safe? Every problem found is reported,
// not just the first, each with a stable code (problem_codes()) that scripts can rely on.
// The verdict is the Python library's, plus safety: an error means the reference loader
// (docs/format.md) would fail or get other values than zanj shows, or a safety refusal (ambiguous
// or unsafe names, bombs); anything else suspicious is a warning.
// The checks, in the order they run:
//   1. ZIP structure (verify_zip.cpp): our central-directory parser cross-checked with the local
//      headers, overlaps, duplicates, names, methods, declared sizes against the limits;
//   2. ZANJ consistency (verify_zanj.cpp): both JSON members, references, externals_info;
//   3. member data (verify.cpp + verify_values.cpp): every member inflated once, streaming,
//      on every CPU (--jobs), CRC-32 and sizes checked and .npy/.jsonl contents checked against the
//      reference nodes that point to them.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/json.hpp"
#include "zanj/limits.hpp"

namespace zanj {

struct Problem {
  std::string code;     ///< stable snake_case identifier, one of problem_codes()
  std::string member;   ///< the ZIP member concerned ("" when none); printable
  std::string path;     ///< the object path concerned ("" when none)
  std::string message;  ///< one line for people
  bool operator==(const Problem&) const = default;
};

/// What was looked at, so a report can say how much it vouches for.
struct VerifyCounts {
  std::uint64_t members = 0;        ///< entries in the central directory
  std::uint64_t members_read = 0;   ///< members inflated whole with CRC-32 and size checked
  std::uint64_t bytes_read = 0;     ///< uncompressed bytes inflated
  std::uint64_t references = 0;     ///< reference nodes ($ref) in both JSON members
  std::uint64_t npy_members = 0;    ///< .npy members whose header and size were checked
  std::uint64_t jsonl_members = 0;  ///< .jsonl members whose lines were checked
  std::uint64_t jsonl_rows = 0;     ///< lines parsed in them
  std::uint64_t inline_arrays = 0;  ///< inline arrays checked against their shape and dtype
  bool operator==(const VerifyCounts&) const = default;
};

struct VerifyReport {
  std::string file;
  std::vector<Problem> errors, warnings;
  VerifyCounts checked;
  /// Problems found per code, listed or not: only the first kMaxListedPerCode of a code are
  /// listed (a zip bomb can have a million overlapping entries), then one line says how many
  /// more there were.
  std::vector<std::pair<std::string, std::uint64_t>> code_counts;
  static constexpr std::uint64_t kMaxListedPerCode = 100;
  /// On a URL: what reading it cost.
  std::optional<TransferCount> transfer;

  /// Valid: no errors (and, when strict, no warnings either).
  bool ok(bool strict = false) const { return errors.empty() && (!strict || warnings.empty()); }
};

struct VerifyOptions {
  ResourceLimits limits;
  RemoteOptions remote;  ///< how a URL is fetched
  /// Members are inflated on this many threads; 0: the CPUs this process may use (its
  /// affinity mask and cgroup CPU quota), as pack's deflater.
  unsigned threads = 0;
  /// Called as member data is checked (optional): uncompressed bytes inflated so far and the
  /// total the members declare. Calls come from the reading threads, one at a time.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
  /// Optional, for callers that want the data too (zanj report), so that each member is
  /// inflated once: called from the reading threads as a member's data starts to be read
  /// (again, should a read be retried), with the member's name as Python sees it; what it
  /// returns (may be empty) then gets the member's uncompressed bytes chunk by chunk. Bytes of
  /// a member verify then finds broken are passed on too: look at the report's problems.
  std::function<std::function<void(std::string_view chunk)>(const std::string& member)> member_data;
};

/// The problems of one code, for a report that names each code once (`verify` without -v).
struct ProblemGroup {
  std::string code;
  /// Problems of the code found, listed or not (VerifyReport::code_counts).
  std::uint64_t count = 0;
  /// The listed ones, in the report's order (the first is the example a summary shows).
  std::vector<const Problem*> listed;
};
/// `problems` (a report's errors or its warnings) grouped by code, in the order of each code's
/// first problem. The pointers point into `problems`.
std::vector<ProblemGroup> group_problems(const VerifyReport& report, const std::vector<Problem>& problems);

/// Verify the archive at `path` ("-": standard input, as for Archive). Throws Error
/// (Exit::usage) only when it cannot be opened or read; everything wrong with its bytes,
/// including not being a ZIP at all, is in the report.
VerifyReport verify_file(const std::string& path, const VerifyOptions& options = {});
/// The same checks of an archive open already (zanj report): its byte source, its directory and
/// its two parsed JSON members are used, not opened, read and parsed again. The report is
/// verify_file's when `options.limits` are those the file was opened with
/// (`file.archive().limits()`); an archive a ZanjFile refuses to open (ambiguous names, no
/// __zanj__.json) has to be verified with verify_file.
VerifyReport verify_zanj_file(const ZanjFile& file, const VerifyOptions& options = {});
/// The same checks on bytes in memory (fuzzing, tests); `name` becomes the report's file.
VerifyReport verify_bytes(std::string bytes, const std::string& name, const VerifyOptions& options = {});

/// A documented problem code. Each code is always an error or always a warning.
struct ProblemCodeInfo {
  std::string_view name;
  bool warning;
  std::string_view meaning;
};
/// Every code verify can report, in documentation order.
const std::vector<ProblemCodeInfo>& problem_codes();

/// One archive's verdict for a CI report: its report, or (no report) why it could not be read.
struct VerifyOutcome {
  std::string file;
  std::optional<VerifyReport> report;
  std::string error;  ///< the message when there is no report
};

/// `verify --junit`: one JUnit XML document, one <testcase> per archive (name and file: the
/// archive), one <failure type="CODE"> per error (per warning too when `strict`; otherwise
/// warnings are listed in <system-out>), and an <error type="unreadable"> for an archive that
/// could not be read. Text is escaped for XML; control bytes and invalid UTF-8 are written
/// `\xNN` as on a terminal.
std::string junit_xml(const std::vector<VerifyOutcome>& outcomes, bool strict = false);

/// GitHub Actions workflow commands for one archive, one line per problem:
/// `::error file=FILE,title=zanj verify [CODE]::MEMBER (at PATH): MESSAGE` (warnings as
/// `::warning`, or `::error` when `strict`), escaped as GitHub's runner decodes them.
std::string github_annotations(const VerifyOutcome& outcome, bool strict = false);

}  // namespace zanj
