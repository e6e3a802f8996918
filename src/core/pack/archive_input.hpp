#pragma once
// `pack` of a tar, 7z, cpio (any archive libarchive reads): the archive is unpacked, entry by
// entry as libarchive streams it, into a private temporary directory, which is then packed as
// the directory it holds. Hostile entries are refused before anything is packed, with the
// temporary directory removed: absolute names, '..', names unsafe as paths, symbolic and hard
// links, device nodes, FIFOs and sockets, more entries than max_entries, and more bytes than
// max_total_bytes or max_ratio times the archive's size (a bomb).
#include <memory>
#include <string>

#include "zanj/limits.hpp"

namespace zanj {

/// True when `path`'s name says libarchive should read it: .tar, .tar.gz, .tgz, .tar.xz, .txz,
/// .tar.zst, .tzst, .tar.bz2, .tbz2, .7z, .cpio.
bool is_libarchive_input(const std::string& path);

/// A temporary directory holding an unpacked archive; removed when the last owner goes.
class UnpackedArchive {
 public:
  /// Throws Error (invalid) naming the entry and what is wrong with it, (usage) when the
  /// archive cannot be read or libarchive is missing.
  UnpackedArchive(const std::string& archive, const ResourceLimits& limits);
  ~UnpackedArchive();
  UnpackedArchive(const UnpackedArchive&) = delete;
  UnpackedArchive& operator=(const UnpackedArchive&) = delete;
  const std::string& directory() const { return dir_; }

 private:
  std::string dir_;
};

}  // namespace zanj
