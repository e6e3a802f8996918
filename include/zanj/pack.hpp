#pragma once
// `pack`: making a .zanj archive the reference library reads back equal to the input, from
// .npz files (numpy.savez / savez_compressed), .npy files, .safetensors files, JSON files, or a directory laid
// out as `extract` leaves one. Planned first (prepare_pack), then written to a temporary
// file beside the output and renamed into place only once complete.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/json.hpp"
#include "zanj/limits.hpp"
#include "zanj/safe_files.hpp"
#include "zanj/tree.hpp"
#include "zanj/verify.hpp"

namespace zanj {

struct PrivateAccess;

/// When JSON lists and inline arrays go to members of their own, as the reference library
/// decides it (its external_array_threshold and external_list_threshold).
struct Thresholds {
  std::uint64_t array = 256;  ///< external_array_threshold: elements
  std::uint64_t list = 256;   ///< external_list_threshold: length
};

struct PackSettings {
  Thresholds thresholds;  ///< when JSON lists and inline arrays go external
  /// store or deflate; unset: deflate, or for a directory the method its meta records
  std::optional<ZipMethod> method;
  int level = 6;         ///< deflate level (zipfile's default)
  unsigned threads = 0;  ///< deflate threads; 0: the CPUs available
  std::string npy_key;   ///< root key of a lone .npy input (default: its stem)
  ResourceLimits limits;
  /// Whether an existing output file may be replaced (`pack --force`); with Replace::no it is
  /// an Error (usage), before anything is written. A URL's object is replaced unless
  /// output.no_clobber says otherwise (docs/remote.md).
  Replace replace = Replace::yes;
  OutputOptions output;  ///< --no-clobber, and how a URL output is uploaded
};

/// Refuse an existing output file when `replace` is Replace::no (Error, usage: "OUT: exists (use
/// --force to replace it)"), as pack does before it reads any input. A URL's object is not
/// looked at: OutputOptions::no_clobber decides for it.
void check_replaceable(const std::string& out_path, Replace replace);

/// One input: a file or directory, and the root key it is stored under when there are several.
struct PackInput {
  std::string key;  ///< the name to store it under; empty: the file's stem ("weights" for dir/weights.npz)
  std::string path;
  bool named = false;  ///< the key was chosen (NAME=PATH): a lone input is then stored under it too
};

enum class InputKind { npz, npy, json, safetensors, directory };
/// By file type and extension (.npz, .npy, .json, .safetensors), else by the first bytes. Throws Error
/// (usage) for paths that cannot be read or are neither.
InputKind input_kind(const std::string& path);

/// Plan the archive for `inputs`. One unnamed input gives the root directly: an .npz's dict of
/// arrays, {stem: array} for an .npy, a JSON value, or an extracted directory's object.
/// Several inputs (or named ones) become the keys of a dict root; a directory must be alone.
/// Arrays from .npz and .npy inputs are always stored as .npy members, their bytes
/// unchanged. Throws Error naming the input on anything the reference could not read back.
class PackJob {
 public:
  /// Things worth a warning that did not stop the plan.
  const std::vector<std::string>& notes() const;
  /// Bytes of the members whose sizes are known in advance (for progress).
  std::uint64_t known_bytes() const;

 private:
  friend struct PrivateAccess;
  struct Plan;  // what will be written, and where each member's bytes come from
  std::shared_ptr<const Plan> impl_;
};
PackJob prepare_pack(const std::vector<PackInput>& inputs, const PackSettings& settings);

struct PackProgress {
  std::uint64_t bytes_done = 0, bytes_total = 0;  ///< member bytes, of those known in advance
};
struct PackSummary {
  std::uint64_t members = 0;       ///< ZIP members written, the two JSON members included
  std::uint64_t input_bytes = 0;   ///< uncompressed bytes stored
  std::uint64_t output_bytes = 0;  ///< size of the archive
  OutputObject object;             ///< a URL output's ETag or generation
  /// Warnings known only once the input was read to its end (a tar read in one pass: the notes
  /// of the plan finally written), beside PackJob::notes(), said before writing.
  std::vector<std::string> notes;
};

/// Write the planned archive to `out_path` in the reference's layout (meta, object, externals; Zip64
/// extras on the externals' local headers). The archive goes to a temporary file in the
/// same directory, renamed over `out_path` only when complete: on any error an existing
/// `out_path` is untouched and the temporary file is removed. An s3://, gs:// or http(s)://
/// `out_path` is uploaded instead (settings.output), and likewise appears only when complete.
PackSummary write_pack(const PackJob& job, const std::string& out_path, const PackSettings& settings,
                       const std::function<void(const PackProgress&)>& progress = {});

/// True for an operand diff and hash read as the object `pack` would make of it by its name
/// alone: a local file named *.npz or *.safetensors (not standard input, not a URL).
bool is_array_file_operand(const std::string& path);
/// What open_as_zanj found an operand to be.
enum class OperandKind { zanj, npz, safetensors };
/// Open `path` as a .zanj object. An .npz or .safetensors file is read as the object `pack`
/// would make of it: planned as pack plans it (its checks, its errors) and written, stored
/// rather than deflated, to an unnamed temporary file under $TMPDIR that no exit can leave
/// behind, then opened from there; nothing is written under any name. A local file is
/// recognised by its name (is_array_file_operand); any other operand (a URL, standard input, a
/// file of another name) by its content: a safetensors header (an 8-byte length, then JSON),
/// or a ZIP whose members are all .npy with no __zanj__.json. Anything else is opened as it
/// is: ZanjFile(Archive(path, options), limits). `kind`, when given, gets what it was.
ZanjFile open_as_zanj(const std::string& path, const OpenOptions& options = {}, const ZanjLimits& limits = {},
                      OperandKind* kind = nullptr);

// ---- set and edit: rewriting the object ------------------------------------------------
// `edit` and `set`: an archive with a new __zanj__.json. Every other member is copied as it is
// stored (compressed bytes, CRC-32, method, sizes, name and times unchanged, nothing decoded or
// compressed again); __zanj__.json is written as the reference library writes it (tab-indented
// JSON, json.dumps(obj, indent="\t")) with the method it had. The result is checked with
// verify's checks before it replaces anything, and is written to a temporary file beside the
// output, renamed over it only when complete and valid.

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
  /// Members copied as stored (the two JSON members are written anew).
  std::uint64_t members_copied = 0;
  /// externals_info keeps following the object, as the reference loader walks it: the members
  /// whose entry's path now leads to the node that moved (their externals_info "path"
  /// rewritten), and the members no node refers to any more (dropped, with their entry).
  std::vector<std::string> externals_moved, members_dropped;
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
