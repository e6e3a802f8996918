#pragma once
// A new output directory built under a temporary name beside its target and renamed into
// place only when complete, so a failed export never leaves a half-filled directory under the
// name the user asked for. An existing target is refused, or with `replace` moved aside and
// removed once the new directory is in place. An interrupt (once install_interrupt_cleanup has
// run) removes the staging directory and all it holds.
#include <string>

#include "io/temp_file.hpp"
#include "zanj/safe_files.hpp"

namespace zanj::exporter {

class StagedDirectory {
 public:
  /// Creates ".<name>.zanj-tmp-XXXXXX" in OUT's parent. Throws Error (usage) when OUT exists
  /// and `replace` is false, or when the parent cannot be written.
  StagedDirectory(const std::string& out, bool replace);
  ~StagedDirectory();  ///< removes the staging directory unless committed
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;

  /// A new, empty file `name` ('/'-separated, checked safe by the caller) below the staging
  /// directory, its parent directories created as needed, never through a symlink.
  UniqueFd create_file(const std::string& name);
  /// Rename the staging directory to OUT (replacing it when allowed).
  void commit();

 private:
  std::string out_, parent_, leaf_, staging_;
  UniqueFd parent_fd_, staging_fd_;
  io::CleanupDirectory cleanup_;  ///< the staging directory, removed on SIGINT, SIGTERM, SIGHUP
  bool replace_ = false, live_ = false;
};

/// Write all of `bytes` to `fd`; throws Error (usage) naming `what` on failure.
void write_all(int fd, std::string_view bytes, const std::string& what);

}  // namespace zanj::exporter
