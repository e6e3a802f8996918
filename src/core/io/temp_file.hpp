#pragma once
// The private half of safe_files (zanj/safe_files.hpp): directories opened below a root one
// component at a time, and temporary files renamed into place only when complete.
#include <optional>
#include <string>
#include <string_view>

#include "zanj/safe_files.hpp"

namespace zanj::io {

/// Open the directory `relative` ('/'-separated, "" for `root` itself) below `root`, one
/// component at a time, never following a symlink. Missing components are created when
/// `create` is yes, else the result is empty. Throws Error naming the first component that
/// is a symlink or not a directory.
std::optional<UniqueFd> open_below(int root, std::string_view relative, CreateDirs create);

/// Eight random letters and digits, for temporary names that must not collide (TempFile,
/// export's staging directories).
std::string random_suffix();

/// A new temporary file in a directory, renamed to its final name by commit() and removed
/// if never committed: by the destructor, and by SIGINT/SIGTERM/SIGHUP once
/// install_interrupt_cleanup() has run (which also turns SIGXFSZ into an EFBIG error).
class TempFile {
 public:
  /// Create ".<hint>.zanj-tmp-XXXXXX" in `dir` (O_CREAT|O_EXCL|O_NOFOLLOW). `hint` is
  /// shortened to fit a file name. Throws Error (usage) when it cannot.
  TempFile(int dir, std::string_view hint);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  int fd() const { return fd_.get(); }
  const std::string& name() const { return name_; }
  /// Write all of `bytes` at the current position. Throws Error (usage) on failure.
  void write(std::string_view bytes);
  /// Close and rename to `final_name` in the same directory. With Replace::no an existing
  /// file there is left alone and Error is thrown. Afterwards the destructor does nothing.
  void commit(const std::string& final_name, Replace replace);
  /// Remove the file now (idempotent).
  void discard() noexcept;

 private:
  UniqueFd dir_, fd_;
  std::string name_;
  std::string target_;  ///< the hint: what the file becomes, for messages
  int slot_ = -1;       ///< entry in the interrupt-cleanup table
  bool live_ = false;
};

/// A directory created under a temporary name (export's staging directory) that
/// SIGINT/SIGTERM/SIGHUP remove, with everything in it, until released: the same table and
/// handler as TempFile's (install_interrupt_cleanup). Removing it otherwise is the owner's job.
class CleanupDirectory {
 public:
  CleanupDirectory() = default;
  ~CleanupDirectory() { release(); }
  CleanupDirectory(const CleanupDirectory&) = delete;
  CleanupDirectory& operator=(const CleanupDirectory&) = delete;

  /// mkdirat(dir, name), registered for the interrupt cleanup; false with errno set when the
  /// directory cannot be created. `dir` must stay open until release().
  bool create(int dir, const std::string& name);
  /// No longer removed on a signal (it was renamed into place, or removed). Idempotent.
  void release() noexcept;

 private:
  int slot_ = -1;
};

/// While one is alive (an upload under way), SIGINT, SIGTERM and SIGHUP do not kill at once:
/// the signal is noted (interrupt_pending()), requests in flight stop, the upload is cancelled
/// on the server, and when the last one is destroyed the process dies of the signal as usual
/// (a second signal kills at once). Needs install_interrupt_cleanup().
class InterruptDeferral {
 public:
  InterruptDeferral();
  ~InterruptDeferral();
  InterruptDeferral(const InterruptDeferral&) = delete;
  InterruptDeferral& operator=(const InterruptDeferral&) = delete;
};

/// Whether a signal arrived while an InterruptDeferral was alive.
bool interrupt_pending();

}  // namespace zanj::io
