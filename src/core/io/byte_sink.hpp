#pragma once
// Where an output's bytes go, in order, and how it is made to appear: the one byte sink that
// `pack`, `report` and `export` write through, whether the output is a local file (a temporary
// file renamed into place, file_sink) or an object uploaded to a server (remote/*_upload).
// Nothing appears under the output's name until commit(); a sink destroyed without it leaves
// nothing behind (the temporary file removed, the upload aborted).
#include <cstdint>
#include <string>
#include <string_view>

#include "zanj/safe_files.hpp"

namespace zanj::io {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  /// Append `bytes`. Throws Error on failure (the output is then abandoned by the destructor).
  virtual void write(std::string_view bytes) = 0;
  /// Whether bytes already written can be overwritten (a file can; an upload cannot).
  virtual bool can_patch() const { return false; }
  /// Overwrite already written bytes at `offset`. Only when can_patch(); throws otherwise.
  virtual void patch(std::uint64_t offset, std::string_view bytes);
  /// Make the output appear, complete, under its name. Throws Error when it cannot (an
  /// existing output kept by --no-clobber: Exit::invalid). Nothing may be written afterwards.
  virtual OutputObject commit() = 0;
  /// Bytes written so far.
  std::uint64_t size() const { return size_; }

 protected:
  std::uint64_t size_ = 0;
};

/// An open file descriptor written in place (not owned, nothing to commit): what ZipWriter's
/// descriptor constructor writes to.
class FdSink final : public ByteSink {
 public:
  FdSink(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  void write(std::string_view bytes) override;
  bool can_patch() const override { return true; }
  void patch(std::uint64_t offset, std::string_view bytes) override;
  OutputObject commit() override { return {}; }

 private:
  int fd_;
  std::string name_;
};

/// Write all of `bytes` to `fd` at `offset` (pwrite, EINTR retried). Throws Error (usage)
/// naming `name`.
void write_all_at(int fd, std::uint64_t offset, std::string_view bytes, const std::string& name);

}  // namespace zanj::io
