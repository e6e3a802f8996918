#include "export/archive_writer.hpp"

#include <ctime>

#include "io/archive_library.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"

namespace zanj::exporter {

ArchiveWriter::ArchiveWriter(const std::string& format, const std::string& filter, std::string name)
    : name_(std::move(name)) {
  const io::ArchiveLibrary& lib = io::archive_library();
  a_ = lib.write_new();
  if (!a_) throw Error(name_ + ": libarchive could not start a writer", Exit::usage);
  // A constructor that throws runs no destructor: the writer is freed here before the refusal.
  const auto refuse = [&](const std::string& what) {
    lib.write_free(a_);
    a_ = nullptr;
    throw Error(what, Exit::usage);
  };
  if (lib.write_set_format_by_name(a_, format.c_str()) != ARCHIVE_OK)
    refuse("libarchive cannot write the format '" + terminal_safe(format) + "'");
  if (!filter.empty() && lib.write_add_filter_by_name(a_, filter.c_str()) < ARCHIVE_WARN)
    refuse("libarchive cannot write the filter '" + terminal_safe(filter) + "'");
}

ArchiveWriter::~ArchiveWriter() {
  if (a_) io::archive_library().write_free(a_);  // after an error: nothing more is written
}

void ArchiveWriter::fail(const std::string& what) const {
  const char* why = io::archive_library().error_string(a_);
  throw Error(name_ + ": " + what + ": " + (why ? why : "libarchive error"), Exit::usage);
}

void ArchiveWriter::open(int fd) {
  if (io::archive_library().write_open_fd(a_, fd) != ARCHIVE_OK) fail("cannot start writing");
  open_ = true;
}

void ArchiveWriter::begin(const std::string& path, std::uint64_t size) {
  const io::ArchiveLibrary& lib = io::archive_library();
  archive_entry* e = lib.entry_new();
  if (!e) throw Error(name_ + ": out of memory", Exit::usage);
  lib.entry_set_pathname_utf8(e, path.c_str());
  lib.entry_set_size(e, static_cast<la_int64_t>(size));
  lib.entry_set_filetype(e, AE_IFREG);
  lib.entry_set_perm(e, 0644);
  lib.entry_set_mtime(e, std::time(nullptr), 0);
  const int r = lib.write_header(a_, e);
  lib.entry_free(e);
  entry_ = path;
  if (r < ARCHIVE_WARN) fail("cannot write the header of '" + terminal_safe(path) + "'");
}

void ArchiveWriter::write(std::string_view bytes) {
  while (!bytes.empty()) {
    const la_ssize_t n = io::archive_library().write_data(a_, bytes.data(), bytes.size());
    if (n <= 0) fail("cannot write '" + terminal_safe(entry_) + "'");
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void ArchiveWriter::end() {
  if (io::archive_library().write_finish_entry(a_) < ARCHIVE_WARN)
    fail("cannot finish '" + terminal_safe(entry_) + "'");
}

void ArchiveWriter::close() {
  if (open_ && io::archive_library().write_close(a_) != ARCHIVE_OK) fail("cannot finish the archive");
  open_ = false;
}

}  // namespace zanj::exporter
