#pragma once
// Packing back a directory laid out as `extract` leaves one (__zanj__.json, usually
// __zanj_meta__.json, and the members as files), after the user may have edited it.
#include <string>

#include "zanj/pack.hpp"
#include "pack/pack_plan.hpp"

namespace zanj {

/// Plan the archive for directory `dir`:
/// - every regular file below it becomes a member named by its relative path (symlinks and
///   special files are refused, never followed; leftover temporary files of an interrupted
///   `extract` are skipped);
/// - each reference in __zanj__.json must name one of them; an array node's shape, dtype and
///   n_elements are updated from its .npy header when the file was edited (the object text
///   is kept byte for byte when nothing changed);
/// - the meta keeps what it had (zanj_cfg, sysinfo, other keys), with `externals_info`
///   rebuilt so every reference has its item_type and path, "zanj_cli" added to sysinfo, the
///   compress method and timestamp updated; without a meta a fresh one is made;
/// - members are written in the reference's order: the object's references, the meta's
///   references, then any other files by name.
/// Throws Error when __zanj__.json is missing or broken, a reference has no file, an .npy
/// header is broken, or a name is unsafe.
PackPlan plan_repack(const std::string& dir, const PackSettings& settings);

}  // namespace zanj
