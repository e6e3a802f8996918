#pragma once
#include "command.hpp"

namespace zanj::cli {

/// `zanj export FILE [PATH] -o OUT`: the object's arrays as .npz, .safetensors or a directory.
Command setup_export(CLI::App& parent);

}  // namespace zanj::cli
