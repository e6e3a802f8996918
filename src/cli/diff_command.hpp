#pragma once
#include "command.hpp"

namespace zanj::cli {
/// `zanj diff A B`: compare the objects in two archives; exit 0 equal, 1 different, 2 error.
Command setup_diff(CLI::App& parent);
}  // namespace zanj::cli
