#pragma once
// FILE arguments: the one check every subcommand puts on the archives it reads, and the one
// way to open them, so "-" (standard input) and the error messages are the same everywhere.
#include <CLI/CLI.hpp>
#include <string>

#include "zanj/archive.hpp"

namespace zanj::cli {

/// How this run opens archives: the global options --max-json-bytes, --max-json-values,
/// --max-jsonl-line-bytes, --max-jsonl-rows, --max-ratio, --max-member-bytes and the URL
/// options, and the user:password set aside from URL arguments. Filled while the arguments are
/// parsed, then only read. The library has no such setting: it is the command line's one
/// process-wide choice, passed to every archive a command opens.
OpenOptions& open_options();
/// Add those options (the limits' and the URLs': --connect-timeout, --idle-timeout, --retries,
/// --insecure, --download, --http-header, ...) to the top-level app, bound to open_options().
void add_open_options(CLI::App& app);
/// After parsing: ZANJ_HTTP_HEADER's headers, and -v's request lines and warnings routed to
/// the diagnostics channel.
void apply_remote_options();

/// On a URL, "bytes_fetched" and "requests" (what reading it cost so far) into a --json
/// object; nothing for a local file.
void add_transfer_json(JsonObject& object, const Archive& archive);

/// CLI11 transform for an input archive ("-", a URL or a file): it sets a URL's user:password
/// aside (from here on the URL is held without them). The path is checked when it is opened
/// (`zanj: error: PATH: No such file or directory`, exit 2), not while the command line is
/// parsed: a mistyped option is then reported as that, with its near name, even when it made a
/// word after it look like the FILE; and a command that reads several archives (verify, info,
/// hash) gives the one that cannot be read its own error line and still reads the others.
CLI::Validator input_file();

/// --jobs when it was not given: ZANJ_JOBS (a whole CI job's setting, for every command that
/// has --jobs), else 0, which the core reads as the CPUs this process may use (its affinity
/// mask and cgroup CPU quota). A ZANJ_JOBS that is not a number from 1 to 1024 is a usage error.
unsigned jobs_or_default(unsigned given);
/// -j/--jobs N (1 to 1024; default ZANJ_JOBS, else the CPUs this process may use), defined
/// once for every command that has it; `work` says what the threads do ("inflating members").
CLI::Option* add_jobs_option(CLI::App* app, unsigned& jobs, const std::string& work);

/// Open FILE ("-" for standard input) as a ZANJ archive with open_options(); says at -v where
/// it came from.
ZanjFile open_zanj(const std::string& file, const ZanjLimits& limits = {});
/// The same, doing `while_parsing` on the directory while the documents are parsed
/// (ZanjFile's constructor).
ZanjFile open_zanj(const std::string& file, const ZanjLimits& limits, const ZanjFile::DirectoryWork& while_parsing);
/// The same for diff's and hash's operands, which may also be an .npz or .safetensors file,
/// read as the object `zanj pack` would make of it (open_as_zanj).
ZanjFile open_object(const std::string& file, const ZanjLimits& limits = {});

}  // namespace zanj::cli
