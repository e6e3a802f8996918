#pragma once
#include "command.hpp"

namespace zanj::cli {
/// `zanj cat FILE [PATH]`: print a node's values (arrays, tables, lists, JSON), streamed.
Command setup_cat(CLI::App& parent);
}  // namespace zanj::cli
