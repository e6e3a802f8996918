#pragma once
#include "command.hpp"

namespace zanj::cli {
/// `zanj hash FILE...`: content digests independent of storage; `--check LOCK` verifies them.
Command setup_hash(CLI::App& parent);
}  // namespace zanj::cli
