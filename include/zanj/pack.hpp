#pragma once
// `pack`: making a .zanj archive the reference library reads back equal to the input, from
// .npz files (numpy.savez / savez_compressed), .npy files, JSON files, or a directory laid
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
#include "zanj/output_options.hpp"

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
  OutputOptions output;  ///< --no-clobber, and how a URL output is uploaded
};

/// One input: a file or directory, and the root key it is stored under when there are several.
struct PackInput {
  std::string key;  ///< the name to store it under; empty: the file's stem ("weights" for dir/weights.npz)
  std::string path;
  bool named = false;  ///< the key was chosen (NAME=PATH): a lone input is then stored under it too
};

enum class InputKind { npz, npy, json, directory };
/// By file type and extension (.npz, .npy, .json), else by the first bytes. Throws Error
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
};

/// Write the planned archive to `out_path` in the reference's layout (meta, object, externals; Zip64
/// extras on the externals' local headers). The archive goes to a temporary file in the
/// same directory, renamed over `out_path` only when complete: on any error an existing
/// `out_path` is untouched and the temporary file is removed. An s3://, gs:// or http(s)://
/// `out_path` is uploaded instead (settings.output), and likewise appears only when complete.
PackSummary write_pack(const PackJob& job, const std::string& out_path, const PackSettings& settings,
                       const std::function<void(const PackProgress&)>& progress = {});

}  // namespace zanj
