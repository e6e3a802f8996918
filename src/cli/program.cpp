#include "program.hpp"

#include <cstdio>

#include "cat_command.hpp"
#include "diff_command.hpp"
#include "edit_command.hpp"
#include "export_command.hpp"
#include "extract_command.hpp"
#include "hash_command.hpp"
#include "info_command.hpp"
#include "inputs.hpp"
#include "ls_command.hpp"
#include "manual_pages.hpp"
#include "pack_command.hpp"
#include "report_command.hpp"
#include "set_command.hpp"
#include "stats_command.hpp"
#include "verify_command.hpp"
#include "zanj/format.hpp"

namespace zanj::cli {
namespace {

constexpr CommandEntry kCommandEntries[] = {
    {"info", setup_info},       {"ls", setup_ls},     {"cat", setup_cat},       {"verify", setup_verify},
    {"extract", setup_extract}, {"pack", setup_pack}, {"export", setup_export}, {"diff", setup_diff},
    {"stats", setup_stats},     {"hash", setup_hash}, {"report", setup_report}, {"edit", setup_edit},
    {"set", setup_set},
};

/// A page's summary as a command's one-line description: "list the tree" -> "List the tree".
std::string sentence(std::string_view summary) {
  std::string out(summary);
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

}  // namespace

std::span<const CommandEntry> command_entries() { return kCommandEntries; }

const CommandEntry* command_named(std::string_view name) {
  for (const auto& command : kCommandEntries)
    if (command.name == name) return &command;
  return nullptr;
}

Command setup_command(CLI::App& root, const CommandEntry& entry) {
  Command command = entry.setup(root);
  const std::string page = "zanj-" + std::string(entry.name);
  command.app->description(sentence(manual::page_summary(page)));
  command.app->footer([page] { return manual::help_footer(page); });
  return command;
}

void setup_program(CLI::App& app, TerminalOptions& terminal) {
  app.description("zanj: " + std::string(manual::page_summary("zanj")) + "\n");
  app.footer([] { return manual::help_footer("zanj"); });
  app.require_subcommand(1);
  app.fallthrough();  // global options (-v, -q, ...) work after the subcommand too
  app.set_help_all_flag("--help-all", "Print help for every command");
  add_terminal_options(app, terminal);
  add_open_options(app);  // limits and URL options, for every archive a command opens
  app.add_flag_callback(
      "-V,--version",
      [] {
        std::fputs(version_report().c_str(), stdout);
        throw CLI::Success();
      },
      "Print the versions of zanj and the libraries it uses, then exit");
}

}  // namespace zanj::cli
