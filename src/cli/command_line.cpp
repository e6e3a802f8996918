// The command line as one call: sets up the program's model, parses, runs the command named and
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

#include "command_line.hpp"
#include "command.hpp"
#include "completion.hpp"
#include "diagnostics.hpp"
#include "inputs.hpp"
#include "manual.hpp"
#include "manual_pages.hpp"
#include "output.hpp"
#include "program.hpp"
#include "terminal.hpp"
#include "zanj/error.hpp"
#include "zanj/report.hpp"

namespace zanj::cli {
namespace {

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
std::vector<std::string> dashed_option_names(const CLI::App& app) {
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
    for (const auto& command : command_entries()) names.emplace_back(command.name);
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
    std::vector<std::string> names = dashed_option_names(*command);
    for (const std::string& global : dashed_option_names(app)) names.push_back(global);
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

/// `zanj --generate man DIR`: the build writes the man pages with it (src/cli/CMakeLists.txt).
int generate(const CLI::App& app, int argc, char** argv) {
  if (argc != 4 || std::string_view(argv[2]) != "man")
    return report("usage: zanj --generate man DIR", static_cast<int>(zanj::Exit::usage));
  try {
    std::vector<const CLI::App*> pages{&app};
    for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) pages.push_back(command);
    for (const CLI::App* command : pages)
      zanj::save_page(std::string(argv[3]) + "/" + zanj::cli::manual::page_name(app, *command) + ".1",
                      zanj::cli::manual::man_page(app, *command));
  } catch (const zanj::cli::manual::SyntaxError& e) {  // a page the build must refuse
    return report(e.what(), static_cast<int>(zanj::Exit::invalid));
  }
  return 0;
}

/// `zanj --complete WORD...`: what the shell completions offer (completion.hpp).
int print_completions(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> words(argv + 2, argv + argc);
  if (words.empty()) words.emplace_back();
  zanj::cli::write_out(zanj::cli::completion_text(zanj::cli::complete(app, words)));
  return 0;
}

}  // namespace

int run_command_line(int argc, char** argv) {
  CLI::App app{"", "zanj"};
  zanj::cli::TerminalOptions terminal;
  zanj::cli::setup_program(app, terminal);

  // The completions and the man pages need every command; a run needs only the one it names.
  const std::string_view first = argc > 1 ? argv[1] : "";
  const bool every_command = first == "--complete" || first == "--generate";
  const CommandEntry* chosen = every_command ? nullptr : chosen_command(app, argc, argv);
  std::vector<zanj::cli::Command> commands;
  for (const auto& command : command_entries())
    if (!chosen || &command == chosen) commands.push_back(zanj::cli::setup_command(app, command));
  try {
    if (first == "--complete") return print_completions(app, argc, argv);
    if (first == "--generate") return generate(app, argc, argv);
  } catch (const zanj::Error& e) {
    return report(e.what(), e.exit_code());
  }

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

}  // namespace zanj::cli
