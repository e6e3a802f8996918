#pragma once
#include "command.hpp"

namespace zanj::cli {
/// `zanj set FILE PATH VALUE`: one value of the object replaced, for scripts; every other member
/// copied as stored.
Command setup_set(CLI::App& parent);
}  // namespace zanj::cli
