#pragma once
// Random-access input for the archive parsers. The ZIP directory parser needs
// to jump to the end of the file, then back to the central directory, then to
// each local header, so it works on offsets rather than on a stream. Keeping
// this behind an interface lets the fuzzer and the unit tests feed bytes from
// memory through exactly the same code that reads real files.
#include <cstddef>
#include <cstdint>
#include <memory>
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

/// One thread's forward pass over many small pieces of a source (local headers and the data of
/// small members, in storage order): reads of under half a window are served from a window
/// read ahead in one call, so a pass over 50,000 members of 250 bytes makes about 60 system
/// calls, not 100,000 (the window grows while the pass goes forward, and is a page again
/// after a jump). Larger reads, and reads that the window cannot hold, go straight to
/// the source, which then says what is wrong (a read past the end, a file that shrank).
/// Not shared between threads: each pass makes its own. Only for local sources
/// (`ahead_pays_off`): on a URL, bytes read ahead that no piece wants are bytes fetched.
class ReadWindow final : public ByteSource {
 public:
  static constexpr std::size_t kDefaultWindow = 256 << 10;
  explicit ReadWindow(const ByteSource& source, std::size_t window = kDefaultWindow);

  std::uint64_t size() const override { return source_.size(); }
  void read_at(std::uint64_t offset, void* buffer, std::size_t n) const override;
  std::size_t read_some(std::uint64_t offset, void* buffer, std::size_t n) const override;
  void will_need(std::uint64_t offset, std::uint64_t n) const override { source_.will_need(offset, n); }
  void rethrow_failure() const override { source_.rethrow_failure(); }
  std::optional<TransferCount> transfer() const override { return source_.transfer(); }

  /// Calls to the source so far (for the tests: the window is what saves them).
  std::uint64_t source_reads() const { return source_reads_; }

 private:
  /// Whether [offset, offset + n) is (made) present in the window; false when a read of that
  /// size goes straight to the source.
  bool hold(std::uint64_t offset, std::size_t n) const;

  /// What a read after a jump fetches: a page.
  static constexpr std::size_t kLeastAhead = 4 << 10;

  const ByteSource& source_;
  const std::size_t capacity_;
  mutable std::size_t ahead_ = kLeastAhead;  ///< what the next miss reads (up to capacity_)
  mutable std::unique_ptr<char[]> window_;
  mutable std::uint64_t begin_ = 0;  ///< the window holds [begin_, begin_ + held_)
  mutable std::size_t held_ = 0;
  mutable std::uint64_t source_reads_ = 0;
};

/// Whether reading ahead of what is asked costs nothing but memory: true for files and memory,
/// false for a URL, whose every byte is fetched (a remote source counts its transfer).
inline bool ahead_pays_off(const ByteSource& source) { return !source.transfer().has_value(); }

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
