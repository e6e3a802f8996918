#pragma once
#include "command.hpp"

namespace zanj::cli {
/// `zanj stats FILE [PATH]`: min, max, mean, std and NaN/Inf counts of each array, streamed.
Command setup_stats(CLI::App& parent);
}  // namespace zanj::cli
