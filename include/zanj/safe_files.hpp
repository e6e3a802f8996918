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

#include "zanj/archive.hpp"

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

// ---- outputs: files and uploads --------------------------------------------------------
// Where a command's output goes: a local file (written beside its name and renamed into place
// when complete) or, for a URL, an object uploaded to s3://, gs:// or an http(s):// PUT URL
// (docs/remote.md, "Writing"), which likewise appears only when complete.

struct OutputOptions {
  /// --no-clobber: refuse to replace an existing file or object (atomically: a rename that
  /// does not replace, If-None-Match: * on S3 and plain PUT, ifGenerationMatch=0 on GCS).
  bool no_clobber = false;
  /// --part-size: bytes per S3 part or GCS chunk (S3's minimum, 5 MiB, up to 128 MiB; GCS
  /// chunks are rounded down to a multiple of 256 KiB). What an upload holds in memory.
  std::uint64_t part_size = std::uint64_t{16} << 20;
  /// Timeouts, retries, TLS and logging for uploads (the reading options' own).
  RemoteOptions remote;
};

/// What writing an output made, as its server names it (empty for a local file).
struct OutputObject {
  std::string etag;        ///< S3 and plain PUT: the ETag the server gave
  std::string generation;  ///< GCS: the object's generation
};

/// Smallest and largest --part-size.
constexpr std::uint64_t kMinPartSize = std::uint64_t{5} << 20;
constexpr std::uint64_t kMaxPartSize = std::uint64_t{128} << 20;

}  // namespace zanj
