// zanj: the command line for .zanj archives. main only wires subcommands to the core and
// turns the one core error type into `zanj: error: ...` and an exit status.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cat_command.hpp"
#include "command.hpp"
#include "diagnostics.hpp"
#include "diff_command.hpp"
#include "export_command.hpp"
#include "extract_command.hpp"
#include "hash_command.hpp"
#include "info_command.hpp"
#include "inputs.hpp"
#include "ls_command.hpp"
#include "pack_command.hpp"
#include "report_command.hpp"
#include "stats_command.hpp"
#include "terminal.hpp"
#include "verify_command.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zanj/limits.hpp"
#include "zanj/archive.hpp"

namespace {

constexpr const char* kDescription =
    "zanj: inspect, validate, extract and convert .zanj archives (ZIP files written by the\n"
    "Python ZANJ library) without loading them in Python.\n";

constexpr const char* kFooter =
    "Object paths are dict keys and list indices joined by '/', with '~' written '~0', '/'\n"
    "written '~1', an empty key '~e' and a control or non-UTF-8 byte '~xNN'; the root is the\n"
    "empty path. `zanj ls -1 FILE` prints them all.\n"
    "FILE may be '-' to read an archive from standard input, or an http://, https:// or\n"
    "s3://BUCKET/KEY URL, read with HTTP range requests. Global options may also follow\n"
    "the command (`zanj ls FILE -q`). See zanj(1) for more.\n\n"
    "Exit status: 0 success, 1 invalid archive (or data), 2 usage error or unreadable path.\n"
    "Run `zanj COMMAND --help` for each command's options.";

// The commands, in the order `zanj --help` lists them; each name is the one its setup function
// gives its subcommand.
struct CommandEntry {
  std::string_view name;
  zanj::cli::Command (*setup)(CLI::App& parent);
};
constexpr CommandEntry kCommands[] = {
    {"info", zanj::cli::setup_info},     {"ls", zanj::cli::setup_ls},           {"cat", zanj::cli::setup_cat},
    {"verify", zanj::cli::setup_verify}, {"extract", zanj::cli::setup_extract}, {"pack", zanj::cli::setup_pack},
    {"export", zanj::cli::setup_export}, {"diff", zanj::cli::setup_diff},       {"stats", zanj::cli::setup_stats},
    {"hash", zanj::cli::setup_hash},     {"report", zanj::cli::setup_report},
};

const CommandEntry* command_named(std::string_view name) {
  for (const auto& command : kCommands)
    if (command.name == name) return &command;
  return nullptr;
}

// Whether `arg` holds only global options of `app` that CLI11 reads the same whichever commands
// exist: flags, or options of exactly one value (`--opt=V`, `--opt V`, `-oV`, `-o V`), but no
// help flag (help before the command is the whole program's help). `value_follows` tells that
// the next argument is the value.
bool is_global_options(const CLI::App& app, std::string_view arg, bool& value_follows) {
  const auto plain = [&app](const CLI::Option* option) {
    return option && option != app.get_help_ptr() && option != app.get_help_all_ptr() &&
           (option->get_items_expected_max() == 0 ||
            (option->get_items_expected_min() == 1 && option->get_items_expected_max() == 1));
  };
  value_follows = false;
  if (arg.size() > 2 && arg.starts_with("--")) {
    const std::size_t equals = arg.find('=');
    const CLI::Option* option = app.get_option_no_throw(std::string(arg.substr(0, equals)));
    if (!plain(option)) return false;
    value_follows = equals == std::string_view::npos && option->get_items_expected_max() == 1;
    return true;
  }
  if (arg.size() < 2 || arg[0] != '-' || arg[1] == '-') return false;
  for (std::size_t i = 1; i < arg.size(); ++i) {  // -vq: a cluster of flags, maybe ending in -oV
    const CLI::Option* option = app.get_option_no_throw(std::string{'-', arg[i]});
    if (!plain(option)) return false;
    if (option->get_items_expected_max() == 1) {
      value_follows = i + 1 == arg.size();
      return true;
    }
  }
  return true;
}

/// The first argument that is not a global option (or its value): where the command should be;
/// argc when there is none.
int command_position(const CLI::App& app, int argc, char** argv) {
  int i = 1;
  for (bool value_follows = false; i < argc && argv[i][0] == '-'; i += value_follows ? 2 : 1)
    if (!is_global_options(app, argv[i], value_follows)) return argc;
  return i;
}

// The command named on the command line when no other could be parsed: every argument before
// it is a global option (with its value), and no later one names another command (CLI11 goes
// on to a sibling after one ends) or asks for --help-all. Otherwise nullptr. Setting up only
// that command's options takes `zanj info tests/corpus/basic.zanj` from 6.31M to 4.65M
// instructions (callgrind, RelWithDebInfo; a quarter of the whole run), which is why this stays;
// what CLI11 parses, prints and rejects is the same, since nothing on the line could reach the
// commands left out (tests/e2e/test_startup.py).
const CommandEntry* chosen_command(const CLI::App& app, int argc, char** argv) {
  const int i = command_position(app, argc, argv);
  if (i >= argc) return nullptr;
  const CommandEntry* chosen = command_named(argv[i]);
  for (int later = i + 1; chosen && later < argc; ++later)
    if (command_named(argv[later]) || app.get_help_all_ptr()->check_name(argv[later])) return nullptr;
  return chosen;
}

/// Every long and short option name of `app`, with its dashes.
std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

/// A parse error as the user should read it, and the command whose help to point to ("" for
/// the whole program's): a word where a command should be gets the nearest command's name, and
/// an unknown option the nearest of that command's (or the global) options.
std::pair<std::string, std::string> explain_parse_error(const CLI::App& app,
                                                        const std::vector<zanj::cli::Command>& commands,
                                                        const CLI::ParseError& e, int argc, char** argv) {
  const int at = command_position(app, argc, argv);
  // A value refused by its option's check (`--color info FILE`: info taken as --color's value)
  // is reported as CLI11 words it, not as the next word being a wrong command.
  const bool refused_value = dynamic_cast<const CLI::ValidationError*>(&e) != nullptr;
  if (!refused_value && at < argc && argv[at][0] != '-' && !command_named(argv[at])) {
    std::vector<std::string> names;
    for (const auto& command : kCommands) names.emplace_back(command.name);
    const std::string near = zanj::nearest_name(argv[at], names);
    return {"'" + std::string(argv[at]) + "' is not a zanj command" +
                (near.empty() ? "" : "; did you mean '" + near + "'?"),
            ""};
  }
  const CLI::App* command = nullptr;
  for (const auto& c : commands)
    if (c.app->parsed()) command = c.app;
  std::string message = e.what();
  if (command) {
    std::vector<std::string> names = option_names(*command);
    for (const std::string& global : option_names(app)) names.push_back(global);
    for (int i = at + 1; i < argc; ++i) {
      const std::string_view arg = argv[i];
      if (arg == "--") break;
      if (!arg.starts_with("--")) continue;
      const std::string name(arg.substr(0, arg.find('=')));
      if (std::find(names.begin(), names.end(), name) != names.end()) continue;
      const std::string near = zanj::nearest_name(name, names);
      if (!near.empty()) message += "; did you mean '" + near + "'?";
      break;
    }
  }
  return {message, command ? command->get_name() : ""};
}

int report(const std::string& message, int status) {
  // Messages quote keys, names and paths from archives and the command line: escaped here,
  // once, so none can put a control sequence on the terminal.
  if (!message.empty()) zanj::cli::error(message);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{kDescription, "zanj"};
  app.footer(kFooter);
  app.require_subcommand(1);
  app.fallthrough();  // global options (-v, -q, ...) work after the subcommand too
  app.set_help_all_flag("--help-all", "Print help for every command");
  zanj::cli::TerminalOptions terminal;
  zanj::cli::add_terminal_options(app, terminal);
  zanj::cli::add_open_options(app);  // limits and URL options, for every archive a command opens
  app.add_flag_callback(
      "-V,--version",
      [] {
        std::fputs(zanj::version_report().c_str(), stdout);
        throw CLI::Success();
      },
      "Print the versions of zanj and the libraries it uses, then exit");

  const CommandEntry* chosen = chosen_command(app, argc, argv);
  std::vector<zanj::cli::Command> commands;
  for (const auto& command : kCommands)
    if (!chosen || &command == chosen) commands.push_back(command.setup(app));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    const auto [message, command] = explain_parse_error(app, commands, e, argc, argv);
    zanj::cli::usage_error(message, command);
    return static_cast<int>(zanj::Exit::usage);
  } catch (const zanj::Error& e) {  // a FILE argument that cannot be read (inputs.hpp)
    return report(e.what(), e.exit_code());
  }
  zanj::cli::apply_terminal_options(terminal);
  zanj::cli::apply_remote_options();

  try {
    for (const auto& command : commands)
      if (command.app->parsed()) return command.run();
    return report("no command given", static_cast<int>(zanj::Exit::usage));
  } catch (const zanj::Error& e) {
    return report(e.what(), e.exit_code());
  } catch (const std::bad_alloc&) {
    return report("out of memory", static_cast<int>(zanj::Exit::invalid));
  } catch (const std::exception& e) {
    return report(std::string("internal error: ") + e.what(), static_cast<int>(zanj::Exit::invalid));
  }
}
