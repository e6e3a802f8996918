#pragma once
// How subcommands plug into main: each file pair defines `setup_<cmd>(CLI::App&)`, which adds
// its subcommand with its options and returns the function that runs it.
#include <CLI/CLI.hpp>
#include <functional>

namespace zanj::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;  ///< returns the exit status; throws zanj::Error on failure
};

}  // namespace zanj::cli
