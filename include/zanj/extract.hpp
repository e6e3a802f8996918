#pragma once
// Unpacking an archive safely. Everything is decided before anything is written: which
// members (all, or those under object paths / named members), and which of them are
// refused, with the reason: unsafe names (the rules `verify` uses),
// symlinks and other non-files, encryption, duplicate or conflicting names, overlapping
// data, sizes past the resource limits, and targets that exist or lie behind a symlink.
// Then one streaming pass writes each accepted member to a temporary file in its directory
// and renames it into place once its size and CRC-32 are checked.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/limits.hpp"
#include "zanj/safe_files.hpp"

namespace zanj {

/// Which members to extract.
struct ExtractSelection {
  /// Member names or object paths (an object path stands for the members referenced under
  /// it); empty: every member.
  std::vector<std::string> selectors;
  bool npy_only = false;   ///< only `.npy` members
  bool json_only = false;  ///< only `.json` and `.jsonl` members
};

/// A member that will not be written, and why.
struct RefusedMember {
  std::string name;  ///< printable (control bytes escaped)
  std::string reason;
};

struct ExtractPlan {
  std::vector<const ZipEntry*> members;  ///< to write, in storage order (directories included)
  std::vector<RefusedMember> refused;
  std::uint64_t total_bytes = 0;  ///< declared sizes of `members`
};

/// Decide from the archive alone what to write. Throws Error when a selector matches neither
/// a member nor an object path, or when the accepted members together exceed
/// limits.max_total_bytes (a zip bomb is refused whole).
ExtractPlan plan_extract(const Archive& archive, const ExtractSelection& selection, const ResourceLimits& limits = {});

/// Move to `plan.refused` the members whose target below `root` exists (unless `replace`),
/// is a directory, or lies behind a symlink or a file. Reads the filesystem, writes nothing.
void check_targets(ExtractPlan& plan, int root, Replace replace);

struct ExtractProgress {
  std::uint64_t members_done = 0, members_total = 0;
  std::uint64_t bytes_done = 0, bytes_total = 0;
};

struct ExtractResult {
  std::vector<std::string> written;   ///< member names, in the order written
  std::vector<RefusedMember> failed;  ///< members that could not be written (bad CRC, I/O)
};

/// Write the planned members below `root`, on `threads` threads (0: the CPUs this process may
/// use), each making one pass through the archive. A member that fails leaves no file behind
/// and does not stop the others. `progress` (optional) is called now and then, from any of the
/// threads but never from two at once. The result lists members in storage order.
ExtractResult write_extract(const Archive& archive, const ExtractPlan& plan, int root, Replace replace,
                            const std::function<void(const ExtractProgress&)>& progress = {}, unsigned threads = 0);

/// An archive opened for `zanj extract --salvage`: by its central directory when that can be
/// read, else (missing or cut: an interrupted download) by its local headers. A header is
/// trusted no further than its own bytes: a member counts only when all its data is in the
/// file (with a data descriptor: when it decodes to its end and the descriptor there agrees);
/// its CRC-32 is checked when it is written, and plan_extract applies the same name, size and
/// bomb rules as to any archive.
struct SalvagedArchive {
  Archive archive;                  ///< every member found complete, in file order
  std::string damage;               ///< why the directory was not used; "" when it was
  std::vector<RefusedMember> lost;  ///< headers whose member cannot be recovered, and why
};
/// Open `path` ("-": standard input, read once) as above. `options.limits.max_entries` bounds
/// the headers looked at, `max_ratio` the data decoded to find a descriptor. Throws Error as
/// Archive(path) does when the file cannot be read, or when its directory is read but readers
/// would disagree about it (a safety refusal, not damage).
SalvagedArchive open_or_salvage(const std::string& path, const OpenOptions& options = {});

}  // namespace zanj
