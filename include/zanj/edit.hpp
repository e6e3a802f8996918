#pragma once
// `edit` and `set`: an archive with a new __zanj__.json. Every other member is copied as it is
// stored (compressed bytes, CRC-32, method, sizes, name and times unchanged, nothing decoded or
// compressed again); __zanj__.json is written as the reference library writes it (tab-indented
// JSON, json.dumps(obj, indent="\t")) with the method it had. The result is checked with
// verify's checks before it replaces anything, and is written to a temporary file beside the
// output, renamed over it only when complete and valid.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/json.hpp"
#include "zanj/limits.hpp"
#include "zanj/safe_files.hpp"
#include "zanj/tree.hpp"
#include "zanj/verify.hpp"

namespace zanj {

/// Parse text as a JSON value the way the reference loader's json.loads reads it (NaN,
/// Infinity, big integers, duplicate keys: the last wins). Throws Error (invalid) saying where
/// the text stops being JSON; `what` names it in the message.
Json parse_json_value(std::string_view text, std::string_view what, const ResourceLimits& limits = {});

/// `root` with the value at object path `segments` (dict keys and list indices, as
/// zanj/tree.hpp follows them) replaced by `value`. With `create`, a missing last key is added
/// to its dict. Throws Error (invalid) when the path names nothing, saying what is there and
/// suggesting a near key, as cat does; `archive_name` goes into the message.
Json replace_value(JsonView root, const PathSegments& segments, Json value, bool create, std::string_view archive_name);

/// The same node as text for an editor: indented with tabs as the reference writes
/// __zanj__.json, ending with a newline.
std::string editable_json(JsonView value);

struct RewriteSettings {
  ResourceLimits limits;
  unsigned threads = 0;  ///< verify's threads; 0: the CPUs available
  /// Whether an existing output other than the archive itself may be replaced (the archive is
  /// always replaced in place when it is the output).
  Replace replace = Replace::no;
};

struct RewriteOutcome {
  bool unchanged = false;  ///< the object is the archive's own: nothing was written
  bool written = false;
  /// Problems verify finds in the result that the archive did not have; nothing was written.
  std::vector<Problem> errors;
};

/// Write the archive at `archive_path` (a local file) with `root` as its object to `out_path`
/// (the archive itself: replaced in place, keeping its permissions; a symlink is followed).
/// Nothing is written when `root` equals the archive's object (`unchanged`), or when verify
/// finds errors in the result that the archive had not (`errors`); otherwise the new archive
/// replaces `out_path` atomically. Throws Error for what stops it (unreadable archive, an
/// existing output with Replace::no, a full disk): an existing `out_path` is then untouched.
RewriteOutcome rewrite_object(const std::string& archive_path, const Json& root, const std::string& out_path,
                              const RewriteSettings& settings = {});

}  // namespace zanj
