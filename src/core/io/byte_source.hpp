#pragma once
// Random-access input for the archive parsers. The ZIP directory parser needs
// to jump to the end of the file, then back to the central directory, then to
// each local header, so it works on offsets rather than on a stream. Keeping
// this behind an interface lets the fuzzer and the unit tests feed bytes from
// memory through exactly the same code that reads real files.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "zanj/archive.hpp"
#include "zanj/safe_files.hpp"

namespace zanj::io {

/// Random-access bytes: a file on disk, a buffer in memory (fuzzing, tests) or a URL
/// (remote/remote_source.hpp). Reads may come from several threads at once.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual std::uint64_t size() const = 0;
  /// Read exactly n bytes at offset; throws Error("unexpected end of file ...")
  /// if any of them lies past the end.
  virtual void read_at(std::uint64_t offset, void* buffer, std::size_t n) const = 0;
  /// Reads up to n bytes at offset, returns the count read (0 at or past the
  /// end); used by streaming readers.
  virtual std::size_t read_some(std::uint64_t offset, void* buffer, std::size_t n) const = 0;
  /// A hint that [offset, offset + n) will be read soon: a remote source fetches it now, in
  /// as few requests as possible (the two JSON members, read one after the other); local
  /// sources ignore it.
  virtual void will_need(std::uint64_t offset, std::uint64_t n) const {
    (void)offset;
    (void)n;
  }
  /// Rethrow the first read failure a remote source met (a changed file, a broken server),
  /// for commands that turn read errors into per-member findings (verify, extract): on a URL
  /// such a failure is the transfer's, not the archive's, and ends the command with exit 2.
  virtual void rethrow_failure() const {}
  /// Bytes and requests spent fetching; nullopt for local sources.
  virtual std::optional<TransferCount> transfer() const { return std::nullopt; }
};

/// A regular file opened read-only. The size is taken once when opening: an
/// archive that changes underneath us is reported as truncated, not re-read.
class FileSource final : public ByteSource {
 public:
  /// Throws Error(path + ": <reason>", Exit::usage) when the path cannot be
  /// opened or is not a regular file (directories, devices, FIFOs, sockets).
  explicit FileSource(const std::string& path);
  /// Takes `fd`, an open descriptor of a regular file (standard input redirected from a
  /// file, a spooled temporary file); `name` is used in messages. Throws like the path
  /// constructor (fd is closed then) when it is not a regular file.
  FileSource(UniqueFd fd, std::string name);

  std::uint64_t size() const override { return size_; }
  void read_at(std::uint64_t offset, void* buffer, std::size_t n) const override;
  std::size_t read_some(std::uint64_t offset, void* buffer, std::size_t n) const override;

  const std::string& path() const { return path_; }

 private:
  /// fstat the descriptor: refuse non-regular files, record the size.
  void take_size();

  std::string path_;
  UniqueFd fd_;
  std::uint64_t size_ = 0;
};

/// Bytes held in memory (the fuzzer's input, archives built by tests).
class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string bytes) : bytes_(std::move(bytes)) {}

  std::uint64_t size() const override { return bytes_.size(); }
  void read_at(std::uint64_t offset, void* buffer, std::size_t n) const override;
  std::size_t read_some(std::uint64_t offset, void* buffer, std::size_t n) const override;

 private:
  std::string bytes_;
};

}  // namespace zanj::io
