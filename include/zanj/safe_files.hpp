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

/// What `name` is inside directory `dir`, without following a symlink.
enum class EntryType { missing, regular, directory, symlink, other };
EntryType entry_type_at(int dir, const std::string& name);

/// Whether committing may replace an existing file.
enum class Replace { no, yes };

/// On SIGINT, SIGTERM and SIGHUP, remove every temporary file zanj is writing (an extract's
/// members, a pack's archive), then die of the signal as usual. SIGXFSZ is ignored, so a
/// write past a file size limit fails (EFBIG) and is reported like a full disk.
void install_interrupt_cleanup();

}  // namespace zanj
