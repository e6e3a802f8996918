#pragma once
// The whole program, every command set up, as main sets it up for --generate and --complete.
#include <vector>

#include "program.hpp"

namespace zanj::test {

struct Program {
  CLI::App app{"", "zanj"};
  zanj::cli::TerminalOptions terminal;
  std::vector<zanj::cli::Command> commands;
  Program() {
    zanj::cli::setup_program(app, terminal);
    for (const auto& entry : zanj::cli::command_entries()) commands.push_back(zanj::cli::setup_command(app, entry));
  }
};

}  // namespace zanj::test
