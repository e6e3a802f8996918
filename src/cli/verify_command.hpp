#pragma once
#include "command.hpp"

namespace zanj::cli {
/// `zanj verify FILE...`: is each archive whole, consistent and safe? Exit 0 / 1 / 2.
Command setup_verify(CLI::App& parent);
}  // namespace zanj::cli
