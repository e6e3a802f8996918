#pragma once
// Where an archive comes from: a file name, or "-" for standard input. A ZIP reader must seek
// (the directory is at the end), so a pipe on standard input is first copied, chunk by chunk,
// into an unlinked temporary file; standard input redirected from a regular file is read in
// place. Every archive is opened through open_input, so all of them accept "-", and URLs
// (http://, https://, s3://: remote/remote_source.hpp).
#include <memory>
#include <string>
#include <string_view>

#include "io/byte_source.hpp"
#include "zanj/archive.hpp"

namespace zanj::source {

// kStdinName, is_stdin_path, input_display_name and input_problem are public (zanj/archive.hpp).

/// Open an input archive. A URL is read through HTTP range requests, as `remote` says. "-" reads standard input: in
/// place when it is a regular file positioned at its start, else spooled (see spool_to_temporary_file); a terminal is
/// refused. A named pipe (process substitution's /dev/fd/N) is spooled too; one with no writer reads as empty. Throws
/// Error (Exit::usage) when the input cannot be opened or spooled.
std::unique_ptr<io::ByteSource> open_input(const std::string& path, const RemoteOptions& remote);

/// Copy everything readable from `fd` (a pipe, a socket, ...) into an unlinked temporary file
/// in $TMPDIR (else /tmp) and return that file as a source named `name`. Memory use is one
/// chunk whatever the size; the file disappears when the source is destroyed or the process
/// ends. Throws Error (Exit::usage) on read errors or when the temporary file cannot be
/// created or written (e.g. a full disk).
std::unique_ptr<io::ByteSource> spool_to_temporary_file(int fd, const std::string& name);

}  // namespace zanj::source
