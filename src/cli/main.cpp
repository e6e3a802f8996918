// zanj: the command line for .zanj archives. The program is run_command_line (command_line.hpp);
// main only keeps the last boundary, so that nothing leaves it.
#include <cstdio>

#include "command_line.hpp"
#include "zanj/error.hpp"

int main(int argc, char** argv) {
  try {
    return zanj::cli::run_command_line(argc, argv);
  } catch (...) {  // boundary: nothing leaves main, not even a failure while reporting one
    std::fputs("zanj: error: internal error\n", stderr);
    return static_cast<int>(zanj::Exit::invalid);
  }
}
