#include "terminal.hpp"

#include <cstdlib>

#include "diagnostics.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "style.hpp"

namespace zanj::cli {

void add_terminal_options(CLI::App& app, TerminalOptions& options) {
  app.add_flag("-v,--verbose", options.verbose, "More messages on stderr (-vv for debug output)");
  app.add_flag("-q,--quiet", options.quiet, "Only errors on stderr: no warnings, no progress bar");
  app.add_option("--color", options.color, "Colour output: auto (on a terminal, unless NO_COLOR is set), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->option_text("WHEN");
  app.add_option("--progress", options.progress,
                 "Progress bar on stderr for pack, extract, verify and cat of big arrays: auto (on a terminal, "
                 "after a second, not with -q), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->option_text("WHEN");
}

void apply_terminal_options(const TerminalOptions& options) {
  const ColorMode mode = parse_color_mode(options.color);
  const char* no_color = std::getenv("NO_COLOR");
  enable_color(color_wanted(mode, stdout_is_terminal(), no_color));

  configure_diagnostics(options.verbose, options.quiet, color_wanted(mode, stderr_is_terminal(), no_color));
  set_progress_mode(parse_progress_mode(options.progress));
}

}  // namespace zanj::cli
