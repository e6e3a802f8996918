#pragma once
#include <string>
#include <string_view>

#include "command.hpp"
#include "zanj/pack.hpp"

namespace zanj::cli {
/// `zanj pack INPUT... -o OUT.zanj`: make an archive from .npz, .npy, JSON or an extracted directory.
Command setup_pack(CLI::App& parent);
/// An INPUT argument: "NAME=PATH" when the text before '=' is a plain name (no '/') and the
/// argument itself is not an existing path; otherwise the whole argument is the path, stored
/// under its stem.
PackInput parse_pack_input(std::string_view arg);
}  // namespace zanj::cli
