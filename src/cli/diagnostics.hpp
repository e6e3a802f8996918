#pragma once
// The one channel to stderr. Messages are one line each, `zanj: <level>: <message>`:
// errors always, warnings unless -q, info at -v, debug at -vv (levels set from the global
// options by terminal.cpp). Every message is escaped here, once, by terminal_safe: messages
// quote names, keys and paths from archives and the command line, and none of them may put a
// control sequence on the terminal. The level is coloured when --color says so.
//
// Progress bars (progress.hpp) reach stderr through write_progress, in this module too, but
// not as messages: a bar redraws one line in place ("\r...\x1b[K") many times a second, is
// no message to escape or prefix, and a failed write of it must never fail the operation.
#include <string_view>

namespace zanj::cli {

/// Levels and colour from -v (0, 1, 2+), -q and whether to colour the level names. Until
/// this is called (errors while parsing the command line), warnings and errors are shown,
/// uncoloured.
void configure_diagnostics(int verbose, bool quiet, bool color);
/// Whether warnings are shown (not -q): progress bars follow the same rule.
bool warnings_shown();

/// `zanj: error: <message>`.
void error(std::string_view message);
/// `zanj: error: <message>` and `Run 'zanj --help' for usage.` on the next line (with a
/// command, `Run 'zanj COMMAND --help' for usage.`: its own options).
void usage_error(std::string_view message, std::string_view command = {});
/// `zanj: warning: <message>`, unless -q.
void warn(std::string_view message);
/// `zanj: <message>`, unless -q: what a command did that the user did not name (report's
/// default output file).
void note(std::string_view message);
/// `zanj: info: <message>`, with -v.
void info(std::string_view message);
/// `zanj: debug: <message>`, with -vv.
void debug(std::string_view message);

/// Write raw bytes for a progress bar; failures are ignored.
void write_progress(std::string_view text);

}  // namespace zanj::cli
