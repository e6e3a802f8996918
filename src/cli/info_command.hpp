#pragma once
#include "command.hpp"

namespace zanj::cli {
/// `zanj info FILE...`: what each archive is, from its directory and JSON members only.
Command setup_info(CLI::App& parent);
}  // namespace zanj::cli
