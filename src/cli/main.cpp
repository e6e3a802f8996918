// zanj: the command line for .zanj archives. main only wires subcommands to the core and
// turns the one core error type into `zanj: error: ...` and an exit status.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <vector>

#include "cat_command.hpp"
#include "command.hpp"
#include "diagnostics.hpp"
#include "diff_command.hpp"
#include "extract_command.hpp"
#include "info_command.hpp"
#include "ls_command.hpp"
#include "pack_command.hpp"
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
    "FILE may be '-' to read an archive from standard input. Global options may also follow\n"
    "the command (`zanj ls FILE -q`). See zanj(1) for more.\n\n"
    "Exit status: 0 success, 1 invalid archive (or data), 2 usage error or unreadable path.\n"
    "Run `zanj COMMAND --help` for each command's options.";

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
  // JSON, jsonl and ratio limits for every command (limits.hpp: what they bound and why the defaults).
  zanj::ResourceLimits& limits = zanj::reader_limits();
  app.add_option("--max-json-bytes", limits.max_json_bytes, "Largest JSON member read, in bytes")
      ->capture_default_str()->check(CLI::PositiveNumber)->type_name("BYTES");
  app.add_option("--max-json-values", limits.max_json_values,
                 "Most values (elements and members) in one JSON member or .jsonl line")
      ->capture_default_str()->check(CLI::PositiveNumber)->type_name("N");
  app.add_option("--max-jsonl-line-bytes", limits.max_jsonl_line_bytes, "Longest .jsonl line read, in bytes")
      ->capture_default_str()->check(CLI::PositiveNumber)->type_name("BYTES");
  app.add_option("--max-jsonl-rows", limits.max_jsonl_rows, "Most lines read from one .jsonl member")
      ->capture_default_str()->check(CLI::PositiveNumber)->type_name("N");
  app.add_option("--max-ratio", limits.max_ratio,
                 "Most bytes a member may decode to per compressed byte, plus 1 MiB (deflate: 1032)")
      ->capture_default_str()->check(CLI::PositiveNumber)->type_name("N");
  app.add_flag_callback(
      "-V,--version",
      [] {
        std::fputs(zanj::version_report().c_str(), stdout);
        throw CLI::Success();
      },
      "Print the versions of zanj and the libraries it uses, then exit");

  std::vector<zanj::cli::Command> commands{
      zanj::cli::setup_info(app),
      zanj::cli::setup_ls(app),
      zanj::cli::setup_cat(app),
      zanj::cli::setup_verify(app),
      zanj::cli::setup_extract(app),
      zanj::cli::setup_pack(app),
      zanj::cli::setup_diff(app),
      zanj::cli::setup_stats(app),
  };

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    zanj::cli::usage_error(e.what());
    return static_cast<int>(zanj::Exit::usage);
  } catch (const zanj::Error& e) {  // a FILE argument that cannot be read (inputs.hpp)
    return report(e.what(), e.exit_code());
  }
  zanj::cli::apply_terminal_options(terminal);

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
