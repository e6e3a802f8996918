#pragma once
// The global options every command shares, and what they set up before a command runs:
// -v/-q decide which messages diagnostics.hpp shows (all go to stderr, data to stdout), --color decides
// whether human output on stdout and messages on stderr are coloured, --progress whether long
// operations draw a progress bar on stderr (progress.hpp).
#include <CLI/CLI.hpp>
#include <string>

namespace zanj::cli {

struct TerminalOptions {
  int verbose = 0;     ///< -v: info messages, -vv: debug messages
  bool quiet = false;  ///< -q: errors only (and no progress bar)
  std::string color = "auto";
  std::string progress = "auto";
};

/// Add -v/--verbose, -q/--quiet, --color=WHEN and --progress=WHEN to the top-level app.
void add_terminal_options(CLI::App& app, TerminalOptions& options);

/// After parsing: set up the stderr diagnostics (level, colour), stdout colour (style.hpp) and the
/// progress mode.
void apply_terminal_options(const TerminalOptions& options);

}  // namespace zanj::cli
