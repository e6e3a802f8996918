#pragma once
#include "command.hpp"

namespace zanj::cli {
/// `zanj pack INPUT... -o OUT.zanj`: make an archive from .npz, .npy, JSON or an extracted directory.
Command setup_pack(CLI::App& parent);
}  // namespace zanj::cli
