#pragma once
// The whole command line behind main: kept in zanj_cli, so that main.cpp does not include CLI11
// and the command line's CLI11 code is compiled once, in zanj_cli's one batch
// (src/cli/CMakeLists.txt).

namespace zanj::cli {

/// Parses `argv` as `zanj [GLOBAL OPTIONS] COMMAND ...`, runs the command and returns the exit
/// status. Reports every error it catches on stderr as `zanj: error: ...`.
int run_command_line(int argc, char** argv);

}  // namespace zanj::cli
