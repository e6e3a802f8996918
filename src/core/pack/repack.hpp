#pragma once
// Packing back a directory laid out as `extract` leaves one (__zanj__.json, usually
// __zanj_meta__.json, and the members as files), after the user may have edited it; or an
// archive (a tar) holding such a directory, read as one (archive_input.hpp).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "array/npy_header.hpp"
#include "zanj/json.hpp"
#include "zanj/pack.hpp"
#include "pack/pack_plan.hpp"

namespace zanj::pack {

/// A .jsonl file's line count and first value: what the reference records as len(data) and
/// data[0].
struct JsonlStats {
  std::uint64_t lines = 0;
  std::optional<Json> first;
};

/// What a plan took a reference's file to hold when its tree knew nothing of it yet (an
/// archive streamed in one pass): the plan all of the tree makes places that reference the same
/// way if the file holds it (archive_input.cpp checks once the file is read).
struct ExpectedFile {
  enum class Kind : std::uint8_t {
    unprovable,  ///< no file would leave the node as it is (an odd node): the plan is made again
    npy,         ///< an .npy of `shape`, its dtype compatible with `dtype` (what the node names)
    lines,       ///< `lines` JSON lines, the first (when there is one) written as `first`
  };
  Kind kind = Kind::unprovable;
  bool has_first = false;  ///< the entry has a data[0], `first`
  array::Dtype dtype;
  std::vector<std::uint64_t> shape;
  std::uint64_t lines = 0;
  std::string first;  ///< compact JSON text
};

/// The files plan_repack packs: a folder on disk, or an archive read as one. Every method
/// names the file in the Errors it throws.
class PackTree {
 public:
  virtual ~PackTree() = default;
  /// How messages name the tree: the folder, the archive.
  virtual const std::string& name() const = 0;
  /// __zanj__.json is there, as a regular file.
  virtual bool has_main() const = 0;
  /// Every regular file as a relative '/'-separated name, with its size; files skipped (a
  /// temporary file left by an interrupted `extract`) get a line in `notes`. Throws Error for
  /// a symbolic link, a special file, an unsafe name.
  virtual std::map<std::string, std::uint64_t> files(std::vector<std::string>& notes) = 0;
  /// A file's whole text; refused over `max_bytes`. Asked once per file (a tree may hand over
  /// what it held).
  virtual std::string text(const std::string& file, std::uint64_t max_bytes) = 0;
  /// A file's .npy header, checked against its size (check_npy_size); nothing when it is not
  /// known yet (an archive streamed in one pass): the object's node is taken at its word.
  virtual std::optional<array::NpyHeader> npy_header(const std::string& file, const NpyLimits& limits) = 0;
  /// A file's lines as JSON lines, within the limits' line length and line count; nothing when
  /// not known yet: the meta's entry is taken at its word.
  virtual std::optional<JsonlStats> jsonl_stats(const std::string& file, const ResourceLimits& limits) = 0;
  /// Where writing reads the file's bytes from.
  virtual MemberSource source(const std::string& file) = 0;
  /// Told, for each reference whose file npy_header or jsonl_stats knew nothing of, what the
  /// plan took the file to hold.
  virtual void expect(const std::string& /*file*/, const ExpectedFile& /*expected*/) {}
};

/// True for a file's base name that an interrupted `extract` leaves behind (".NAME.zanj-tmp-...").
bool is_leftover_temp_name(const std::string& base);

/// Plan the archive for directory `dir` (plan_repack of a folder's PackTree).
PackPlan plan_repack(const std::string& dir, const PackSettings& settings);

/// Plan the archive for `tree`:
/// - every regular file in it becomes a member named by its relative path (symlinks and
///   special files are refused, never followed; leftover temporary files of an interrupted
///   `extract` are skipped);
/// - each reference in __zanj__.json must name one of them; an array node's shape, dtype and
///   n_elements are updated from its .npy header when the file was edited (the object text
///   is kept byte for byte when nothing changed);
/// - the meta keeps what it had (zanj_cfg, sysinfo, other keys), with `externals_info`
///   rebuilt so every reference has its item_type and path, "zanj_cli" added to sysinfo, the
///   compress method and timestamp updated; without a meta a fresh one is made. It is planned
///   as text (meta_text), each entry written as it is made;
/// - members are written in the reference's order: the object's references, the meta's
///   references, then any other files by name.
/// Throws Error when __zanj__.json is missing or broken, a reference has no file, an .npy
/// header is broken, or a name is unsafe.
PackPlan plan_repack(PackTree& tree, const PackSettings& settings);

}  // namespace zanj::pack
