#pragma once
#include "command.hpp"

namespace zanj::cli {
/// `zanj ls FILE [PATH]`: the object tree with kinds, dtypes, shapes and storage.
Command setup_ls(CLI::App& parent);
}  // namespace zanj::cli
