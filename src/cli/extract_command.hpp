#pragma once
#include <string>

#include "command.hpp"

namespace zanj::cli {
/// `zanj extract FILE [-C DIR] [SELECTOR...]`: unpack members safely into a directory.
Command setup_extract(CLI::App& parent);
/// The directory `zanj extract FILE` uses without -C: FILE's base name without `.zanj` (or
/// its last extension), or with `.d` appended when that would leave nothing different.
std::string default_extract_directory(const std::string& archive_path);
}  // namespace zanj::cli
