#pragma once
// The whole program as CLI11 sees it: its description, its global options and its commands.
// run_command_line (command_line.hpp) parses with it; the manual's pages and the shell
// completions read the same model, so a command or an option exists once, here and in its
// command's setup function.
#include <CLI/CLI.hpp>
#include <span>
#include <string_view>

#include "command.hpp"
#include "terminal.hpp"

namespace zanj::cli {

struct CommandEntry {
  std::string_view name;
  Command (*setup)(CLI::App& parent);
};

/// The commands, in the order `zanj --help` lists them; each name is the one its setup function
/// gives its subcommand.
std::span<const CommandEntry> command_entries();
const CommandEntry* command_named(std::string_view name);

/// Sets up one command on `root` with its summary (shown by `zanj --help`) and its --help footer
/// from its manual page (docs/man/zanj-NAME.md).
Command setup_command(CLI::App& root, const CommandEntry& entry);

/// The program's description, footer, global options and --version on `app`, without commands.
void setup_program(CLI::App& app, TerminalOptions& terminal);

}  // namespace zanj::cli
