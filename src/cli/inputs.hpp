#pragma once
// FILE arguments: the one check every subcommand puts on the archives it reads, and the one
// way to open them, so "-" (standard input) and the error messages are the same everywhere.
#include <CLI/CLI.hpp>
#include <string>

#include "zanj/archive.hpp"

namespace zanj::cli {

/// Add the options for URL inputs (--connect-timeout, --idle-timeout, --retries, --insecure,
/// --download, --http-header) to the top-level app; they fill zanj::remote_options().
void add_remote_options(CLI::App& app);
/// After parsing: ZANJ_HTTP_HEADER's headers, and -v's request lines and warnings routed to
/// the diagnostics channel.
void apply_remote_options();

/// On a URL, "bytes_fetched" and "requests" (what reading it cost so far) into a --json
/// object; nothing for a local file.
void add_transfer_json(JsonObject& object, const Archive& archive);

/// CLI11 check (used with ->transform: it rewrites a URL without its user:password) for an input archive: "-", a URL, or a readable file that is not a directory. A bad
/// path stops the run before any work with `zanj: error: PATH: No such file or directory`,
/// exit 2. (It throws zanj::Error rather than returning CLI11's message so that the message
/// and exit status are the same as when opening fails later.)
CLI::Validator input_file();

/// Open FILE ("-" for standard input) as a ZANJ archive; says at -v where it came from.
ZanjFile open_zanj(const std::string& file, const ZanjLimits& limits = {});

}  // namespace zanj::cli
