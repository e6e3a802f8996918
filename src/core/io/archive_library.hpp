#pragma once
// libarchive, opened the first time a tar (or other non-ZIP) archive is written or read, like
// libcurl and libcrypto (base/shared_library.hpp says why it is never linked: every local
// command would pay for mapping it). <archive.h> is used for its types and constants only;
// every call goes through these pointers, looked up once. zanj reads .zanj and .npz files
// itself (zip/): libarchive is only for the other formats.
#include <archive.h>
#include <archive_entry.h>

#include <string>

#include "base/result.hpp"

namespace zanj::io {

struct ArchiveLibrary {
  decltype(&archive_write_new) write_new;
  decltype(&archive_write_free) write_free;
  decltype(&archive_write_set_format_by_name) write_set_format_by_name;
  decltype(&archive_write_add_filter_by_name) write_add_filter_by_name;
  decltype(&archive_write_open_fd) write_open_fd;
  decltype(&archive_write_header) write_header;
  decltype(&archive_write_data) write_data;
  decltype(&archive_write_finish_entry) write_finish_entry;
  decltype(&archive_write_close) write_close;
  decltype(&archive_error_string) error_string;
  decltype(&archive_entry_new) entry_new;
  decltype(&archive_entry_free) entry_free;
  decltype(&archive_entry_set_pathname_utf8) entry_set_pathname_utf8;
  decltype(&archive_entry_set_size) entry_set_size;
  decltype(&archive_entry_set_filetype) entry_set_filetype;
  decltype(&archive_entry_set_perm) entry_set_perm;
  decltype(&archive_entry_set_mtime) entry_set_mtime;
  decltype(&archive_version_details) version_details;
  // reading (pack of a tar, 7z, cpio, ...)
  decltype(&archive_read_new) read_new;
  decltype(&archive_read_free) read_free;
  decltype(&archive_read_support_format_all) read_support_format_all;
  decltype(&archive_read_support_filter_all) read_support_filter_all;
  decltype(&archive_read_open_filename) read_open_filename;
  decltype(&archive_read_next_header) read_next_header;
  decltype(&archive_read_data) read_data;
  decltype(&archive_entry_pathname_utf8) entry_pathname_utf8;
  decltype(&archive_entry_pathname) entry_pathname;
  decltype(&archive_entry_filetype) entry_filetype;
  decltype(&archive_entry_hardlink) entry_hardlink;
  decltype(&archive_entry_size) entry_size;
  decltype(&archive_entry_size_is_set) entry_size_is_set;
};

/// libarchive.so.13, opened once per process; safe from any thread. Throws Error(Exit::usage)
/// saying what needs libarchive when it is not installed.
const ArchiveLibrary& archive_library();
/// The same, or why libarchive cannot be used (not installed, or too old).
base::Result<const ArchiveLibrary*> find_archive_library();

/// "libarchive 3.6.2 zlib/1.2.13 ..." when libarchive opens, else a line saying it is not
/// installed (for --version, which must work without it).
std::string archive_library_version_line();

}  // namespace zanj::io
