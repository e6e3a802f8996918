#pragma once
#include "command.hpp"

namespace zanj::cli {
/// `zanj extract FILE [-C DIR] [SELECTOR...]`: unpack members safely into a directory.
Command setup_extract(CLI::App& parent);
}  // namespace zanj::cli
