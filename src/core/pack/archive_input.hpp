#pragma once
// `pack` of a tar, 7z, cpio (any archive libarchive reads), streamed, never unpacked. Every
// entry is checked as it is read, and the archive refused for a hostile one: absolute names,
// '..', names unsafe as paths, symbolic and hard links, device nodes, FIFOs and sockets, a name
// twice or both a file and a folder, more entries than max_entries, more bytes than
// max_total_bytes or max_ratio times the archive's size (a bomb).
//
// One pass (plan_archive): the plan is made once __zanj__.json and the meta are read, and each
// member written as the archive reaches it; a file the archive holds before those two, or a
// member before its turn, is spooled to an unnamed temporary file until then (none is when the
// archive lists them in the plan's order, as `zanj export` writes it). Once all are written,
// the rest is read and the plan must prove right (before the archive is finished): no file it
// lacks, and each file it took at its word (an .npy's shape and dtype, a .jsonl's length and
// first line, as the object and meta say) holding that. Else the plan the whole archive makes
// (read again) is written instead, in another pass (an .npy edited since).
//
// Two passes (scan_archive), for the plan written again: the first keeps what planning needs and nothing more
// (each file's size, the text of the two JSON members, each .npy header, each text file's line
// count and first line; the rest of an .npy is skipped, a seek for an uncompressed tar); the
// second streams the members in the plan's order, spooling one the archive holds before its
// turn to an unnamed temporary file until then.
#include <memory>
#include <string>

#include "pack/repack.hpp"
#include "zanj/limits.hpp"

namespace zanj::pack {

/// True when `path`'s name says libarchive should read it: .tar, .tar.gz, .tgz, .tar.xz, .txz,
/// .tar.zst, .tzst, .tar.bz2, .tbz2, .7z, .cpio.
bool is_libarchive_input(const std::string& path);

/// The archive as the folder it holds, for plan_repack (the first pass). Its sources read the
/// archive again (the second pass) when the plan is written. Throws Error (invalid) naming
/// the entry and what is wrong with it, (usage) when the archive cannot be read or libarchive
/// is missing.
std::unique_ptr<PackTree> scan_archive(const std::string& archive, const ResourceLimits& limits);

/// The plan for packing `archive`, in one pass (the plan's recheck reads the rest and may ask
/// for a second); in two (scan_archive) when it holds no readable __zanj__.json.
PackPlan plan_archive(const std::string& archive, const PackSettings& settings);

}  // namespace zanj::pack
