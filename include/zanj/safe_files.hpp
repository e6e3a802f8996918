#pragma once
// Writing files without trusting names or the filesystem: directories below a target are
// opened one component at a time relative to directory descriptors with O_NOFOLLOW (a
// symlink planted in the target cannot redirect a write outside it), and every output is
// written to a temporary file in its final directory and renamed into place only when
// complete, so a failing or interrupted run never leaves a truncated file under a real name.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace zanj {

/// An open file descriptor, closed on destruction.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd();
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  /// Close now, reporting what close() says (delayed write errors on NFS or a full quota);
  /// false with errno set on failure. Afterwards empty either way.
  bool close();

 private:
  int fd_ = -1;
};

enum class CreateDirs { no, yes };

/// Open a directory the user named (symlinks followed: the user chose this path), creating it
/// and its parents when asked. Throws Error (usage) when it cannot.
UniqueFd open_user_directory(const std::string& path, CreateDirs create);

/// Open the directory `relative` ('/'-separated, "" for `root` itself) below `root`, one
/// component at a time, never following a symlink. Missing components are created when
/// `create` is yes, else the result is empty. Throws Error naming the first component that
/// is a symlink or not a directory.
std::optional<UniqueFd> open_below(int root, std::string_view relative, CreateDirs create);

/// What `name` is inside directory `dir`, without following a symlink.
enum class EntryType { missing, regular, directory, symlink, other };
EntryType entry_type_at(int dir, const std::string& name);

/// Whether committing may replace an existing file.
enum class Replace { no, yes };

/// A new temporary file in a directory, renamed to its final name by commit() and removed
/// if never committed: by the destructor, and by SIGINT/SIGTERM/SIGHUP once
/// install_interrupt_cleanup() has run.
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
  int slot_ = -1;  ///< entry in the interrupt-cleanup table
  bool live_ = false;
};

/// On SIGINT, SIGTERM and SIGHUP, remove every live TempFile, then die of the signal as usual.
void install_interrupt_cleanup();

}  // namespace zanj
